import Testing
import Foundation
import CaptureModel
@testable import TerminalUI

/// Issue #27: every mode draws for the terminal's measured cells; pictures keep to their
/// rectangle below the status line; the oval's ✓/✗ mark sits on the oval's top in the
/// picture's own geometry. Bug reports IMG-02 (line spacing: stripes) and IMG-03 (cells not 2:1).
@Suite struct PictureGeometryTests {
    static let dark = RGB(0x12, 0x12, 0x12)

    /// A uniform mid-grey frame `w × h`.
    static func grey(_ w: Int, _ h: Int) -> PreviewImage { PreviewImage(width: w, height: h, rgb: [UInt8](repeating: 128, count: w * h * 3)) }

    static func context(_ size: Size, mode: PreviewMode, cell: CellGeometry, status: Bool = false) -> RenderContext {
        var c = RenderContext(size: size, strings: ProjectStrings.en, theme: .dark)
        c.previewMode = mode
        c.cellGeometry = cell
        if status {
            c.statusLine = StatusLineInfo(source: "demo", kind: "demo", width: 640, height: 480, fps: 30, colorMode: .direct,
                                          previewMode: mode, previewFps: 15, bytesPerSecond: 1000)
        }
        return c
    }

    /// The picture keeps below the status line (row 0) in every pixel mode; without the status
    /// line it may start on row 0.
    @Test(arguments: [PreviewMode.kitty, .sixel, .iterm])
    func pictureKeepsBelowTheStatusLine(mode: PreviewMode) throws {
        let cell = CellGeometry(width: 8, height: 16, measured: true)
        let view = ScreenView.capture(CaptureViewState(image: Self.grey(640, 480), phase: .positioning, isValid: true))
        for size in [Size(cols: 100, rows: 30), Size(cols: 80, rows: 24), Size(cols: 160, rows: 50)] {
            let shown = Screens.render(view, context: Self.context(size, mode: mode, cell: cell, status: true))
            let pic = try #require(shown.picture)
            #expect(pic.rect.y >= 1, "\(mode) \(size): \(pic.rect)")
            // The status line's text is on row 0 and no placeholder covers it.
            #expect(shown.canvas.textRows()[0].contains("demo (demo)"))
            #expect(!(0..<size.cols).contains { shown.canvas[$0, 0].style == PreviewPicture.placeholderStyle })
        }
    }

    /// The pixel modes' mark: the ✓'s ink (the dark theme's background colour, drawn nowhere
    /// else in the picture) is centred on the oval's top, within one cell, at cells that are
    /// not 2:1 (before: half that height, "about 4 rows above the oval").
    @Test(arguments: [PreviewMode.kitty, .sixel])
    func pictureMarkSitsOnTheOvalsTop(mode: PreviewMode) throws {
        for cell in [CellGeometry(width: 8, height: 26, measured: true), CellGeometry(width: 10, height: 20, measured: true)] {
            let size = Size(cols: 100, rows: 30)
            // First pass for the picture's size, then a frame of exactly that aspect, so the
            // oval's top is at (centerY − semiAxisY) of the picture's height.
            let probe = try #require(Screens.render(.capture(CaptureViewState(image: Self.grey(64, 48), phase: .positioning, isValid: true)),
                                                    context: Self.context(size, mode: mode, cell: cell)).picture)
            let w = probe.image.width, h = probe.image.height
            let pic = try #require(Screens.render(.capture(CaptureViewState(image: Self.grey(w, h), phase: .positioning, isValid: true)),
                                                  context: Self.context(size, mode: mode, cell: cell)).picture)
            let img = pic.image
            var inkRows: [Int] = []
            for y in 0..<img.height {
                for x in 0..<img.width {
                    let i = (y * img.width + x) * 3
                    if RGB(img.rgb[i], img.rgb[i + 1], img.rgb[i + 2]) == Self.dark { inkRows.append(y); break }
                }
            }
            let first = try #require(inkRows.first), last = try #require(inkRows.last)
            let markCentre = Double(first + last) / 2
            let o = OvalGeometry.standard
            let ovalTop = (o.centerY - o.semiAxisY) * Double(img.height)
            let cellH = Double(img.height) / Double(pic.rect.height)
            #expect(abs(markCentre - ovalTop) <= cellH, "\(mode) cell \(cell.width)×\(cell.height): mark at \(markCentre), oval top \(ovalTop) px")
        }
    }

    /// The cell mark (half blocks, symbols) is on the row of the outline's top at cells that are
    /// not 2:1: the outline's topmost `▀` row and the ✓ row differ by at most one.
    @Test(arguments: [PreviewMode.halfBlocks, .symbols])
    func cellMarkSitsOnTheOutlinesTop(mode: PreviewMode) throws {
        for g in [CellGeometry(width: 8, height: 20, measured: true), CellGeometry(width: 10, height: 16, measured: true)] {
            #expect(!g.lineSpacing)
            var c = Self.context(Size(cols: 100, rows: 30), mode: mode, cell: g)
            // A symbol renderer that draws each cell as a half block of the grid's colours.
            c.symbolRenderer = { pic, cols, rows, _ in
                (0..<(cols * rows)).map { i in
                    let x = i % cols * pic.width / cols, y = i / cols * pic.height / rows
                    let p = (y * pic.width + x) * 3
                    return Cell("▀", style: Style(fg: .rgb(RGB(pic.rgb[p], pic.rgb[p + 1], pic.rgb[p + 2])), bg: .rgb(RGB(pic.rgb[p], pic.rgb[p + 1], pic.rgb[p + 2]))))
                }
            }
            let outline = RGB(0x4F, 0xC3, 0xF7)   // the dark theme's primary
            let screen = Screens.render(.capture(CaptureViewState(image: Self.grey(640, 480), phase: .positioning, isValid: true)), context: c)
            var markRow: Int?, topOutline: Int?
            for y in 0..<30 {
                for x in 0..<100 {
                    let cellAt = screen.canvas[x, y]
                    if cellAt.text == "✓" { markRow = y }
                    if cellAt.text == "▀", cellAt.style.fg == .rgb(outline) || cellAt.style.bg == .rgb(outline) {
                        topOutline = min(topOutline ?? y, y)
                    }
                }
            }
            let m = try #require(markRow), t = try #require(topOutline)
            #expect(abs(m - t) <= 1, "\(mode) cell \(g.width)×\(g.height): mark row \(m), outline top \(t)")
        }
    }

    /// IMG-03: the cell aspect comes from TIOCGWINSZ's pixels over rows/cols (or CSI 16/14 t),
    /// 2:1 when they are 0; half blocks draw for it, so the oval keeps its shape: at 8×26 px
    /// cells its drawn width/height matches the oval's own (was 1.6× too tall).
    @Test func img03_halfBlocksUseTheMeasuredCellAspect() throws {
        let none = CellGeometry.from(winsizePixels: (0, 0), cols: 160, rows: 50, probe: TerminalProbeResult())
        #expect(none == .fallback && none.aspect == 2 && !none.measured)
        let tall = CellGeometry.from(winsizePixels: (1280, 1300), cols: 160, rows: 50, probe: TerminalProbeResult())
        #expect(tall.width == 8 && tall.height == 26 && tall.measured)
        // TIOCGWINSZ without pixels: the terminal's CSI 16 t answer (cell size) is used.
        let probed = CellGeometry.from(winsizePixels: (0, 0), cols: 160, rows: 50, probe: TerminalProbeResult(cellPixels: (10, 20)))
        #expect(probed.width == 10 && probed.height == 20 && probed.measured)
        for g in [CellGeometry(width: 8, height: 19, measured: true), CellGeometry.fallback, CellGeometry(width: 10, height: 16, measured: true)] {
            let c = Self.context(Size(cols: 120, rows: 40), mode: .halfBlocks, cell: g)
            let screen = Screens.render(.capture(CaptureViewState(image: Self.grey(640, 480), phase: .positioning, isValid: true)), context: c)
            let outline = RGB(0x4F, 0xC3, 0xF7)
            var minX = Int.max, maxX = 0, minY = Int.max, maxY = 0
            for y in 0..<40 { for x in 0..<120 {
                let cl = screen.canvas[x, y]
                if cl.text == "▀", cl.style.fg == .rgb(outline) || cl.style.bg == .rgb(outline) {
                    minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
                }
            } }
            let widthPx = Double(maxX - minX + 1) * Double(g.width), heightPx = Double(maxY - minY + 1) * Double(g.height)
            // The standard oval on a 4:3 frame: (0.27 · 4) / (0.36 · 3) = 1.0 (a circle).
            let o = OvalGeometry.standard
            let expected = (o.semiAxisX * 4) / (o.semiAxisY * 3)
            let drawn = widthPx / heightPx
            #expect(abs(drawn / expected - 1) < 0.12, "cells \(g.width)×\(g.height): oval \(widthPx)×\(heightPx) px, \(drawn) vs \(expected)")
        }
    }

    /// IMG-02: with extra line spacing (xterm `scaleHeight: 1.5`: 6×20 px cells) block glyphs
    /// stop short of the cell and a picture of `▀` or symbols shows stripes: the preview is
    /// drawn with full blocks (spaces on their colour), in half-block and symbols mode alike,
    /// and the oval keeps its shape.
    @Test(arguments: [PreviewMode.halfBlocks, .symbols])
    func img02_lineSpacingFallsBackToFullBlocks(mode: PreviewMode) throws {
        let spaced = CellGeometry(width: 6, height: 20, measured: true)
        #expect(spaced.lineSpacing && !CellGeometry(width: 6, height: 13, measured: true).lineSpacing && !CellGeometry.fallback.lineSpacing)
        var c = Self.context(Size(cols: 120, rows: 40), mode: mode, cell: spaced)
        c.symbolRenderer = { _, cols, rows, _ in [Cell](repeating: Cell("\u{1FB00}"), count: cols * rows) }
        let screen = Screens.render(.capture(CaptureViewState(image: Self.grey(640, 480), phase: .positioning, isValid: true)), context: c)
        let glyphs = Set(screen.canvas.cells.compactMap(\.text))
        #expect(!glyphs.contains("▀") && !glyphs.contains("\u{1FB00}"), "no half blocks or sextants: \(glyphs.sorted().prefix(20))")
        // The preview's cells are spaces painted in their colour (foreground = background).
        let painted = screen.canvas.cells.filter { $0.text == " " && $0.style.bg == .rgb(RGB(128, 128, 128)) }
        #expect(painted.count > 100)
        // Without line spacing, half blocks paint one half with the glyph (foreground) and the
        // other with the background colour (the row's first half: neither left to the terminal).
        if mode == .halfBlocks {
            let normal = Screens.render(.capture(CaptureViewState(image: Self.grey(640, 480), phase: .positioning, isValid: true)),
                                        context: Self.context(Size(cols: 120, rows: 40), mode: mode, cell: CellGeometry(width: 8, height: 16, measured: true)))
            let halves = normal.canvas.cells.filter { $0.text == "▀" && $0.style.fg == .rgb(RGB(128, 128, 128)) && $0.style.bg == .rgb(RGB(128, 128, 128)) }
            #expect(halves.count > 100, "▀ with both colours set")
        }
    }
}

/// Issue #27 follow-up: the status line names the preview mode actually drawn, and
/// `--preview-mode symbols` at 16 colours draws the grey ramp `auto` chooses there.
@Suite struct ShownPreviewModeTests {
    /// The status line's text (row 0), as the screen draws it.
    static func statusRow(_ screen: RenderedScreen) -> String { screen.canvas.textRows()[0] }

    /// When line spacing turns symbols into full blocks, the status line (drawn on the same
    /// screen, from the runtime's asked mode) says `half-blocks`, not `symbols`; without line
    /// spacing it says `symbols` and sextants are drawn.
    @Test func lineSpacingStatusLineNamesTheModeShown() throws {
        for (cell, spaced) in [(CellGeometry(width: 6, height: 20, measured: true), true), (CellGeometry(width: 8, height: 16, measured: true), false)] {
            var c = PictureGeometryTests.context(Size(cols: 120, rows: 40), mode: .symbols, cell: cell, status: true)
            c.symbolRenderer = { _, cols, rows, _ in [Cell](repeating: Cell("\u{1FB00}"), count: cols * rows) }
            let screen = Screens.render(.capture(CaptureViewState(image: PictureGeometryTests.grey(640, 480), phase: .positioning, isValid: true)), context: c)
            let status = Self.statusRow(screen)
            let sextants = screen.canvas.cells.contains { $0.text == "\u{1FB00}" }
            if spaced {
                #expect(status.contains("preview half-blocks") && !status.contains("symbols"), "\(status)")
                #expect(!sextants, "line spacing: full blocks, no symbols")
            } else {
                #expect(status.contains("preview symbols"), "\(status)")
                #expect(sextants)
            }
        }
        #expect(PreviewMode.symbols.drawn(colorMode: .direct, cellGeometry: CellGeometry(width: 6, height: 20, measured: true)) == .halfBlocks)
        #expect(PreviewMode.kitty.drawn(colorMode: .direct, cellGeometry: CellGeometry(width: 6, height: 20, measured: true)) == .kitty)
    }

    /// `--preview-mode symbols` at 16 colours resolves to half blocks (as `auto` does there), and
    /// a screen asked to draw symbols at 16 colours draws exactly the grey ramp `auto`'s half
    /// blocks draw (chafa's 16-colour canvas is never called), named `half-blocks`.
    @Test func symbolsAt16ColoursIsTheGreyRampAsAuto() throws {
        let probe = TerminalProbeResult()
        let env = ["TERM": "xterm"]
        #expect(PreviewModeChoice.symbols.resolve(probe: probe, environment: env, colorMode: .ansi16, glyphs: .unicode) == .halfBlocks)
        #expect(PreviewModeChoice.auto.resolve(probe: probe, environment: env, colorMode: .ansi16, glyphs: .unicode) == .halfBlocks)
        #expect(PreviewModeChoice.symbols.resolve(probe: probe, environment: env, colorMode: .palette256, glyphs: .unicode) == .symbols)
        let cell = CellGeometry(width: 8, height: 16, measured: true)
        func render(_ mode: PreviewMode) -> RenderedScreen {
            var c = PictureGeometryTests.context(Size(cols: 100, rows: 30), mode: mode, cell: cell, status: true)
            c.colorMode = .ansi16
            c.statusLine?.colorMode = .ansi16
            c.symbolRenderer = { _, cols, rows, _ in
                Issue.record("chafa's 16-colour canvas was used")
                return [Cell](repeating: Cell("\u{1FB00}"), count: cols * rows)
            }
            var rgb = [UInt8](repeating: 0, count: 640 * 480 * 3)
            for i in 0..<(640 * 480) { let v = UInt8((i % 640) * 255 / 639); rgb[3 * i] = v; rgb[3 * i + 1] = v / 2; rgb[3 * i + 2] = 255 - v }
            return Screens.render(.capture(CaptureViewState(image: PreviewImage(width: 640, height: 480, rgb: rgb), phase: .positioning, isValid: true)), context: c)
        }
        let symbols = render(.symbols), halves = render(.halfBlocks)
        #expect(symbols.canvas.cells.dropFirst(100) == halves.canvas.cells.dropFirst(100), "the preview differs from auto's grey ramp")
        #expect(Self.statusRow(symbols).contains("preview half-blocks"), "\(Self.statusRow(symbols))")
        let ramp = symbols.canvas.cells.filter { $0.text.map { "░▒▓".contains($0) } ?? false }
        #expect(ramp.count > 100, "grey ramp shades drawn: \(ramp.count)")
        let inks = Set(ramp.flatMap { [$0.style.fg, $0.style.bg] })
        #expect(inks == [.rgb(ANSIPalette.xterm[7]), .rgb(ANSIPalette.xterm[0])], "only ANSI white on black, no hues: \(inks)")
    }
}

/// Issue #27: the result screen's thumbnail is drawn like the preview (README: "drawn like the
/// preview"; it was always half blocks), and a long folder path uses the free rows.
@Suite struct ResultScreenTests {
    static let folder = "/home/operator/captures/2026/december/site-B/selfie-capture-20261201-143000"
    static func view(thumbnail: PreviewImage?) -> ScreenView {
        .result(ResultViewState(savedPaths: [folder + "/video.avi", folder + "/result.json"], durationSeconds: 1, frameCount: 15,
                                collectedCount: 2, askedCount: 2, folder: folder, thumbnail: thumbnail))
    }

    @Test(arguments: [PreviewMode.kitty, .sixel, .iterm, .symbols, .halfBlocks])
    func resultThumbnailIsDrawnInThePreviewsMode(mode: PreviewMode) throws {
        var c = PictureGeometryTests.context(Size(cols: 100, rows: 30), mode: mode, cell: CellGeometry(width: 8, height: 16, measured: true))
        c.symbolRenderer = { _, cols, rows, _ in [Cell](repeating: Cell("\u{1FB00}"), count: cols * rows) }
        let screen = Screens.render(Self.view(thumbnail: PictureGeometryTests.grey(320, 240)), context: c)
        let glyphs = Set(screen.canvas.cells.compactMap(\.text))
        switch mode {
        case .kitty, .sixel, .iterm:
            let pic = try #require(screen.picture, "\(mode): a picture for the thumbnail")
            #expect(pic.rect.x <= 2 && pic.rect.width <= 100 / 3 && pic.rect.maxY <= 30, "\(mode): \(pic.rect)")
            #expect(!glyphs.contains("▀"))
            // The thumbnail's own pixels (no oval, no dimming): mid grey, or the letterbox's black.
            let grey = pic.image.rgb.filter { $0 == 128 }.count, black = pic.image.rgb.filter { $0 == 0 }.count
            #expect(grey + black == pic.image.rgb.count && grey > pic.image.rgb.count / 2)
        case .symbols:
            #expect(screen.picture == nil && glyphs.contains("\u{1FB00}") && !glyphs.contains("▀"))
        case .halfBlocks:
            #expect(screen.picture == nil && glyphs.contains("▀"))
        }
    }

    /// "Press Enter to finish" only where a key answers (trial s5: `--unattended` printed it
    /// with nothing waiting), on the screen and in the plain renderer's lines.
    @Test func resultAsksForEnterOnlyWhenKeysAnswer() {
        var c = RenderContext(size: Size(cols: 80, rows: 24), strings: ProjectStrings.en, theme: .dark)
        let asked = Screens.render(Self.view(thumbnail: nil), context: c)
        #expect(asked.lines.contains("Press Enter to finish") && asked.canvas.textRows().contains { $0.contains("Press Enter to finish") })
        c.keysAnswer = false
        let unattended = Screens.render(Self.view(thumbnail: nil), context: c)
        #expect(!unattended.lines.contains { $0.contains("Press Enter") })
        #expect(!unattended.canvas.textRows().contains { $0.contains("Press Enter") })
        #expect(unattended.lines.contains { $0.hasPrefix("Duration:") })
    }

    /// At 80×24 the folder's whole path is shown, wrapped into the free rows (it was cut in the
    /// middle with about 10 rows empty below); at 40×12 it is still shortened.
    @Test func resultUsesFreeRowsForALongFolderPath() {
        let c = RenderContext(size: Size(cols: 80, rows: 24), strings: ProjectStrings.en, theme: .dark)
        let rows = Screens.render(Self.view(thumbnail: PictureGeometryTests.grey(320, 240)), context: c).canvas.textRows()
        // The text beside the thumbnail, row by row, joined: the whole path, broken after a `/`.
        let text = rows.compactMap { row -> String? in
            guard let r = row.range(of: "▀  ") else { return nil }
            return row[r.upperBound...].trimmingCharacters(in: .whitespaces)
        }
        // "Folder:" on its row, then the path (rows trimmed, so joined without the space).
        #expect(text.joined().contains("Folder:" + Self.folder), "\(rows.joined(separator: "\n"))")
        // The folder's own name is on one row, whole (copied from the screen, it is the right name).
        let name = String(Self.folder.split(separator: "/").last!)
        #expect(text.contains { $0.hasSuffix(name) || $0.contains(name + "/") || $0 == name }, "\(text)")
        #expect(!rows.contains { $0.contains("…") })
        #expect(Screens.wrapPath("Folder: /a/bb/ccc-ddd/eeee", width: 12) == ["Folder:", "/a/bb/", "ccc-ddd/eeee"])
        #expect(Screens.wrapPath("/a/bb/ccc-ddd-eeee-ffff", width: 10) == ["/a/bb/", "ccc-ddd-", "eeee-ffff"])
        let small = RenderContext(size: Size(cols: 40, rows: 12), strings: ProjectStrings.en, theme: .dark)
        let smallRows = Screens.render(Self.view(thumbnail: nil), context: small).canvas.textRows()
        #expect(smallRows.contains { $0.contains("…") })
    }
}
