import Foundation
import Testing
@testable import TerminalUI

/// Rows of ../shared/corpus/bug-reports.md that had no test carrying their id (issue #29): each
/// test is named by its row and asserts the row's "expected right behaviour" column.
@Suite struct BugReportRowsTerminalTests {
    /// TUI-10: layout by display cells, not code points or bytes: a line mixing ASCII with
    /// double-width CJK puts every character at its cell column (UAX #11 widths, Unicode 15.0).
    @Test("TUI-10: mixed ASCII and CJK text is laid out by display cells")
    func tui10() {
        var c = Canvas(width: 12, height: 1)
        let end = c.put("a日本b語c", x: 0, y: 0, style: .plain)
        #expect(end == 9, "1 + 2 + 2 + 1 + 2 + 1 cells")
        #expect(DisplayWidth.of("a日本b語c") == 9)
        #expect(c[0, 0].text == "a" && c[1, 0].text == "日" && c[2, 0].isContinuation && c[3, 0].text == "本")
        #expect(c[5, 0].text == "b" && c[6, 0].text == "語" && c[8, 0].text == "c")
        // A wide character that would straddle the right edge becomes a space, not half a glyph.
        var narrow = Canvas(width: 4, height: 1)
        #expect(narrow.put("ab日", x: 1, y: 0, style: .plain) == 3)
        #expect(narrow[3, 0].text == " ")
    }

    /// IMG-01: half blocks map two pixel rows to one cell row, so a square image keeps its
    /// aspect: in a 2:1 cell a 32×32 picture fits 32 columns × 16 rows, and `previewRect` cuts
    /// a wide area (120×30 cells: 120×60 square pixels) to 4:3 counting two pixel rows a cell.
    @Test("IMG-01: two pixel rows per cell row keep the aspect")
    func img01() {
        let r = PreviewRenderer(scaleType: .fit, mirrored: false, oval: .standard, outline: RGB(255, 0, 0), overlay: RGB(0, 0, 0))
        let grid = r.composite(.solid(width: 32, height: 32, RGB(10, 20, 30)), gridWidth: 32, gridHeight: 32)
        #expect(grid != nil)
        let rect = PreviewRenderer.previewRect(in: CellRect(x: 0, y: 0, width: 120, height: 30))
        // 4:3 in square pixels: cols / (2 · rows) = 4/3 (±1 cell of rounding).
        #expect(abs(Double(rect.width) / Double(2 * rect.height) - 4.0 / 3.0) < 0.05, "\(rect)")
        var canvas = Canvas(width: 32, height: 16)
        r.render(.solid(width: 32, height: 32, RGB(10, 20, 30)), into: CellRect(x: 0, y: 0, width: 32, height: 16), canvas: &canvas,
                 mode: .direct, glyphs: .unicode)
        #expect(canvas[16, 8].text == "▀", "a half block per cell: \(String(describing: canvas[16, 8].text))")
    }

    /// IMG-04: an odd number of pixel rows rendered two rows per cell reads no row past the end;
    /// the last cell row is whole.
    @Test("IMG-04: an odd-height image renders without reading past its last row")
    func img04() {
        let r = PreviewRenderer(scaleType: .fit, mirrored: false, oval: .standard, outline: RGB(255, 0, 0), overlay: RGB(0, 0, 0))
        for h in [1, 3, 5, 47] {
            let img = PreviewImage(width: 8, height: h, rgb: [UInt8](repeating: 200, count: 8 * h * 3))
            var canvas = Canvas(width: 8, height: 3)
            r.render(img, into: CellRect(x: 0, y: 0, width: 8, height: 3), canvas: &canvas, mode: .direct, glyphs: .unicode)
            #expect((0..<8).allSatisfy { canvas[$0, 2].text != nil }, "height \(h)")
        }
    }

    /// IMG-06: colours by capability, truecolor → 256 → 16 → none; RGB quantised to the xterm
    /// 6×6×6 cube and gray ramp for 256 colours.
    @Test("IMG-06: truecolor, 256, 16 or no colour by capability; 256 colours from the xterm cube")
    func img06() {
        #expect(ColorQuantizer.mode(terminfoColors: 1 << 24, environment: [:]) == .direct)
        #expect(ColorQuantizer.mode(terminfoColors: 256, environment: [:]) == .palette256)
        #expect(ColorQuantizer.mode(terminfoColors: 16, environment: [:]) == .ansi16)
        #expect(ColorQuantizer.mode(terminfoColors: 8, environment: [:]) == .ansi16)
        #expect(ColorQuantizer.mode(terminfoColors: 2, environment: [:]) == ColorMode.none)
        // The cube: levels 0, 95, 135, 175, 215, 255; index 16 + 36 r + 6 g + b.
        #expect(ColorQuantizer.palette256(RGB(95, 135, 175)) == 16 + 36 + 12 + 3)
        #expect(ColorQuantizer.palette256(RGB(255, 0, 0)) == 196)
        // The gray ramp 232–255: 8 + 10 k.
        #expect(ColorQuantizer.palette256(RGB(128, 128, 128)) == 244)
        // A 256-colour terminal gets palette numbers, never 24-bit values.
        #expect(ColorQuantizer.number(.rgb(RGB(95, 135, 175)), mode: .palette256, colors: 256) == 67)
    }
}
