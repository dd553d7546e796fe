// Preview modes (issue #13): which renderer draws the camera preview, the `--preview-mode`
// decision and the geometry. Pure Swift; libchafa is called only from ChafaPreview.swift.

/// `--preview-mode` values.
public enum PreviewModeChoice: String, Sendable, CaseIterable {
    case auto, kitty, sixel, iterm, symbols, halfblocks

    /// The mode to draw with.
    ///
    /// - `auto`: the terminal probe, then environment hints (`TerminalProbe.graphics`), else
    ///   `symbols`; `halfblocks` without colour (NO_COLOR: no picture either), and instead of
    ///   symbols without UTF-8 (chafa's symbols need both), which keeps today's ASCII ramp.
    /// - An explicit pixel mode is used as asked (inside tmux its escape stream is wrapped in
    ///   tmux's DCS passthrough, which needs `set -g allow-passthrough on`).
    /// - `symbols` without colour or UTF-8 becomes `halfblocks` (its ASCII ramp); at 8/16
    ///   colours too, as `auto` (the grey ramp: chafa's 16-colour canvas drew the face as hue
    ///   blotches, issue #27 follow-up).
    public func resolve(probe: TerminalProbeResult, environment: [String: String], colorMode: ColorMode,
                        glyphs: Glyphs) -> PreviewMode {
        let canSymbols = colorMode != .none && !glyphs.ascii
        switch self {
        case .halfblocks: return .halfBlocks
        case .symbols: return canSymbols && colorMode != .ansi16 ? .symbols : .halfBlocks
        case .kitty: return .kitty
        case .sixel: return .sixel
        case .iterm: return .iterm
        case .auto:
            // No colour (NO_COLOR, a monochrome terminal): today's gray ASCII ramp, no pictures.
            if colorMode == .none { return .halfBlocks }
            switch TerminalProbe.graphics(probe, environment: environment) {
            case .kitty: return .kitty
            case .sixel: return .sixel
            case .iterm: return .iterm
            // 8/16 colours: the grey ramp of half-block mode (issue #27; xterm's default font
            // lacks the sextants chafa's symbols would use).
            case .none: return canSymbols && colorMode != .ansi16 && !Self.consoleFont(environment) ? .symbols : .halfBlocks
            }
        }
    }
}

extension PreviewModeChoice {
    /// The Linux console (`TERM=linux*`) and hardware-style VTs (`vt*`): their fonts hold at most
    /// 512 glyphs (console-setup's Lat2-Terminus has `▀ ▄ █` but no quadrants and no Unicode 13
    /// sextants), so `auto` keeps half blocks there.
    static func consoleFont(_ environment: [String: String]) -> Bool {
        let term = environment["TERM"] ?? ""
        return term.hasPrefix("linux") || term.hasPrefix("vt")
    }
}

extension PreviewMode {
    /// True for modes that send a picture (sixel, kitty, iTerm2) rather than cells.
    public var isPixels: Bool { self == .sixel || self == .kitty || self == .iterm }

    /// The mode a preview asked in `self` is drawn in, the one the status line names: symbols
    /// become half blocks where chafa's symbols would not look like the frame: under line
    /// spacing (full blocks, IMG-02), at 8/16 colours (the grey ramp, as `auto` chooses) and
    /// without colour (the ASCII ramp). Every other mode is drawn as asked.
    public func drawn(colorMode: ColorMode, cellGeometry: CellGeometry) -> PreviewMode {
        self == .symbols && (cellGeometry.lineSpacing || colorMode == .ansi16 || colorMode == .none) ? .halfBlocks : self
    }

    /// The most source pixels the preview of a `size` screen can use in this mode (decode the
    /// camera frame no larger): `cols × 2·rows` for half blocks, the symbol grid, or the
    /// picture size of a pixel mode.
    public func sourcePixels(screen size: Size, cell: CellGeometry) -> (width: Int, height: Int) {
        switch self {
        case .halfBlocks: return (size.cols, 2 * size.rows)
        case .symbols: return cell.symbolGrid(cols: size.cols, rows: size.rows)
        case .sixel, .kitty, .iterm:
            let p = cell.pictureSize(cols: size.cols, rows: size.rows)
            return (p.width, p.height)
        }
    }
}

/// The terminal's cell size in pixels and what it implies for pictures.
public struct CellGeometry: Sendable, Equatable {
    /// One cell in pixels (as measured, or the 2:1 default).
    public var width: Int
    public var height: Int
    /// True when measured (TIOCGWINSZ or CSI 14/16 t), false for the default.
    public var measured: Bool

    public init(width: Int, height: Int, measured: Bool) {
        self.width = max(1, width); self.height = max(1, height); self.measured = measured
    }

    /// 10 × 20 pixels: the 2:1 default when the terminal reports no pixel size (bug report
    /// IMG-03 "fall back to 2:1").
    public static let fallback = CellGeometry(width: 10, height: 20, measured: false)

    /// From TIOCGWINSZ pixels or the probe (`TerminalProbe.cellSize`), else `fallback`.
    public static func from(winsizePixels: (width: Int, height: Int)?, cols: Int, rows: Int,
                            probe: TerminalProbeResult) -> CellGeometry {
        guard let c = TerminalProbe.cellSize(winsizePixels: winsizePixels, cols: cols, rows: rows, probe: probe) else { return .fallback }
        return CellGeometry(width: c.width, height: c.height, measured: true)
    }

    /// Cell height over width (2 for the default).
    public var aspect: Double { Double(height) / Double(width) }

    /// Cells at least this much taller than wide come from extra line spacing, not the font:
    /// monospace fonts measure about 2:1 to 2.3:1 (DejaVu Sans Mono 10 pt 8×17, 2.1; xterm's
    /// fixed 6×13, 2.17; Terminus 8×16, 2.0), while xterm's `scaleHeight: 1.5` makes 6×20,
    /// 3.3. Block glyphs then stop short of the cell's bottom and pictures of symbols or half
    /// blocks show stripes (bug report IMG-02).
    public static let lineSpacingAspect = 2.6

    /// True when the measured cells leave a gap under block glyphs (`lineSpacingAspect`): the
    /// preview is drawn with full blocks (a space on its colour), one pixel per cell.
    public var lineSpacing: Bool { measured && aspect >= Self.lineSpacingAspect }

    /// The square-pixel grid a symbol renderer composes for `cols × rows` cells: 2 pixels per
    /// cell across (what a sextant's two columns show) and `2 · aspect` down, so a font that is
    /// not 2:1 keeps the face's proportions (IMG-03). chafa works on 8 × 8 pixels per cell; at
    /// 2:1 cells this grid divides that exactly, so `ChafaPreview.symbols` hands chafa each grid
    /// pixel as a 4 × 2 block and chafa scales nothing. 4 pixels across measured the same SSIM
    /// for 1.4–1.7× the time (make bench BENCH=kiosk, issue #28, 2026-12-02).
    public func symbolGrid(cols: Int, rows: Int) -> (width: Int, height: Int) {
        (cols * 2, max(1, Int((Double(rows) * 2 * aspect).rounded())))
    }

    /// The picture size for a `cols × rows` preview in a pixel mode, and the cell size the
    /// picture is encoded with: the rectangle's own pixels, scaled down (never up) so the
    /// picture has at most `maxPixels` pixels (default 640 × 480: a webcam frame; more only
    /// costs bytes). Sixel is shown at that size; kitty and iTerm2 are stretched by the
    /// terminal to the rectangle.
    public func pictureSize(cols: Int, rows: Int, maxPixels: Int = 640 * 480)
        -> (width: Int, height: Int, cellWidth: Int, cellHeight: Int) {
        let w = cols * width, h = rows * height
        guard w > 0, h > 0 else { return (0, 0, width, height) }
        let f = min(1, (Double(maxPixels) / Double(w * h)).squareRoot())
        let cw = max(1, Int(Double(width) * f))
        let ch = f >= 1 ? height : max(1, Int((Double(cw) * aspect).rounded()))
        return (cols * cw, rows * ch, cw, ch)
    }
}

/// The picture a pixel-mode screen asks the backend to place over its preview rectangle.
public struct PreviewPicture: Sendable, Equatable {
    /// The preview rectangle in cells (the canvas holds placeholder cells there).
    public var rect: CellRect
    /// The composed picture (image, dimmed outside, oval, ring, digits), `width × height` RGB.
    public var image: PreviewImage
    /// The cell size the picture was composed for (may be smaller than the terminal's, see
    /// `CellGeometry.pictureSize`).
    public var cellWidth: Int, cellHeight: Int
    public init(rect: CellRect, image: PreviewImage, cellWidth: Int, cellHeight: Int) {
        self.rect = rect; self.image = image; self.cellWidth = cellWidth; self.cellHeight = cellHeight
    }

    /// The style of the cells under a picture: a space on a near-black background that no other
    /// widget uses, so curses never counts them as blank (it would erase them with EL/ED and
    /// the picture with them) and never resends them while they do not change.
    public static let placeholderStyle = Style(fg: .rgb(RGB(0, 0, 1)), bg: .rgb(RGB(0, 0, 1)))
}
