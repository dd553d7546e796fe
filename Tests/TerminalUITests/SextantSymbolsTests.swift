import Testing
import TestSupport
@testable import TerminalUI

/// Issue #28: the symbol preview fitted at the cell grid's own resolution (`SextantSymbols`).
@Suite struct SextantSymbolsTests {
    /// Unicode 13's order (Symbols for Legacy Computing, U+1FB00 BLOCK SEXTANT-1 …): the first
    /// and last sextant codes, and the four patterns that have older characters.
    @Test func glyphsFollowUnicode() {
        #expect(SextantSymbols.sextantGlyph(1) == "\u{1FB00}")    // SEXTANT-1
        #expect(SextantSymbols.sextantGlyph(20) == "\u{1FB13}")   // SEXTANT-35
        #expect(SextantSymbols.sextantGlyph(22) == "\u{1FB14}")   // SEXTANT-235
        #expect(SextantSymbols.sextantGlyph(62) == "\u{1FB3B}")   // SEXTANT-23456
        #expect(SextantSymbols.sextantGlyph(0) == " " && SextantSymbols.sextantGlyph(21) == "▌"
                && SextantSymbols.sextantGlyph(42) == "▐" && SextantSymbols.sextantGlyph(63) == "█")
    }

    /// A picture of exactly 2 × 3 pixels per cell (the cell grid's own size), each cell two
    /// colours in a sextant pattern, comes back exactly: the pattern (or its complement with the
    /// colours swapped) and the two colours.
    @Test func aPictureAtTheCellGridsSizeIsFittedExactly() throws {
        let cols = 16, rows = 4
        var rng = SplitMix(seed: 28)
        var patterns: [Int] = [], colors: [(RGB, RGB)] = []
        var px = [UInt8](repeating: 0, count: cols * 2 * rows * 3 * 3)
        for cy in 0..<rows {
            for cx in 0..<cols {
                let v = 1 + Int(rng.next() % 62)   // 1...62: two colours in the cell
                let a = RGB(UInt8(rng.next() % 128), UInt8(rng.next() % 256), 40)
                let b = RGB(UInt8(128 + rng.next() % 128), UInt8(rng.next() % 256), 200)
                patterns.append(v); colors.append((a, b))
                for s in 0..<6 {
                    let c = v & (1 << s) != 0 ? a : b
                    let x = cx * 2 + s % 2, y = cy * 3 + s / 2
                    let i = (y * cols * 2 + x) * 3
                    px[i] = c.r; px[i + 1] = c.g; px[i + 2] = c.b
                }
            }
        }
        let picture = PreviewImage(width: cols * 2, height: rows * 3, rgb: px)
        let cells = try #require(SextantSymbols.cells(picture, cols: cols, rows: rows))
        #expect(cells.count == cols * rows)
        for (k, cell) in cells.enumerated() {
            let v = patterns[k], (a, b) = colors[k]
            let same = cell.text == SextantSymbols.sextantGlyph(v) && cell.style.fg == .rgb(a) && cell.style.bg == .rgb(b)
            let swapped = cell.text == SextantSymbols.sextantGlyph(63 - v) && cell.style.fg == .rgb(b) && cell.style.bg == .rgb(a)
            #expect(same || swapped, "cell \(k): pattern \(v) drawn as \(String(describing: cell.text))")
        }
    }

    /// A uniform picture is spaces on its colour; any picture gives `cols × rows` cells.
    @Test func uniformCellsAreSpaces() throws {
        let cells = try #require(SextantSymbols.cells(.solid(width: 37, height: 23, RGB(10, 20, 30)), cols: 9, rows: 5))
        #expect(cells.count == 45)
        #expect(cells.allSatisfy { $0.text == " " && $0.style.bg == .rgb(RGB(10, 20, 30)) })
        #expect(SextantSymbols.cells(.solid(width: 0, height: 0, RGB(0, 0, 0)), cols: 9, rows: 5) == nil)
    }

    /// Issue #13's bar for symbols (+0.05 SSIM over half blocks at the same cell count, on the
    /// detailed test frame) holds for the sextant fit too, on the composite grid the app uses.
    @Test func symbolsShowMoreThanHalfBlocksAtTheSameCellCount() throws {
        let cols = 40, rows = 15
        let rect = CellRect(x: 0, y: 0, width: cols, height: rows)
        var r = PreviewModesTests.plain; r.showsOval = false
        var canvas = Canvas(width: cols, height: rows)
        r.render(PreviewModesTests.frame, into: rect, canvas: &canvas, mode: .direct, glyphs: .unicode)
        let half = PreviewFidelity.rasterize(canvas.cells, cols: cols, rows: rows)
        let g = CellGeometry.fallback.symbolGrid(cols: cols, rows: rows)
        let (grid, _) = try #require(r.composite(PreviewModesTests.frame, gridWidth: g.width, gridHeight: g.height))
        let render = SextantSymbols.renderer()
        let cells = try #require(render(PreviewImage(grid: grid, width: g.width, height: g.height), cols, rows, .direct))
        let sym = PreviewFidelity.rasterize(cells, cols: cols, rows: rows)
        let ref = PreviewModesTests.reference(cols: cols, rows: rows)
        let sHalf = PreviewFidelity.ssim(ref, half), sSym = PreviewFidelity.ssim(ref, sym)
        #expect(sSym >= sHalf + 0.05, "symbols \(sSym) vs half blocks \(sHalf)")
    }

    /// With 16 colours or none the fallback draws (two exact colours per cell need a colour
    /// terminal); at 256 colours the fit draws and the backend maps its colours.
    @Test func fewColoursUseTheFallback() throws {
        let fallback: PreviewSymbolRenderer = { _, cols, rows, _ in [Cell](repeating: Cell("F"), count: cols * rows) }
        let render = SextantSymbols.renderer(fallback: fallback)
        let pic = PreviewImage.solid(width: 8, height: 6, RGB(1, 2, 3))
        #expect(render(pic, 4, 2, .ansi16)?.first?.text == "F")
        #expect(render(pic, 4, 2, .none)?.first?.text == "F")
        #expect(render(pic, 4, 2, .palette256)?.first?.text == " ")
    }
}
