// The preview's renderer backends (issue #13): half blocks (our own, the dependable fallback),
// symbols (libchafa symbol art read back into cells) and pixel modes (a composed picture the
// backend places over placeholder cells). Pure: libchafa is behind `PreviewSymbolRenderer`.

/// Turns a composed `width × height` square-pixel picture into `cols × rows` cells (character,
/// foreground, background), row-major; nil when it cannot (the caller draws half blocks).
public typealias PreviewSymbolRenderer = @Sendable (_ picture: PreviewImage, _ cols: Int, _ rows: Int, _ mode: ColorMode) -> [Cell]?

extension PreviewImage {
    /// A picture from a composite grid (`PreviewRenderer.composite`).
    init(grid: [RGB], width: Int, height: Int) {
        var px = [UInt8](repeating: 0, count: width * height * 3)
        for i in 0..<min(grid.count, width * height) {
            px[3 * i] = grid[i].r; px[3 * i + 1] = grid[i].g; px[3 * i + 2] = grid[i].b
        }
        self.init(width: width, height: height, rgb: px)
    }
}

extension Screens {
    /// The cells a pixel-mode picture may cover inside the preview rectangle `rect`. Sixel and
    /// iTerm2 move the cursor below the picture once drawn: one that reaches the screen's last
    /// row scrolls the whole screen up a line (xterm's sixel scrolling), every frame, and
    /// curses, which does not know, leaves the texts beside it scrolled away. So those pictures
    /// keep off the last row (kitty's `C=1` does not move the cursor).
    static func pictureRect(_ rect: CellRect, screenRows: Int, mode: PreviewMode) -> CellRect {
        guard mode == .sixel || mode == .iterm, rect.maxY >= screenRows else { return rect }
        var r = rect
        r.height = max(0, screenRows - 1 - rect.y)
        return r
    }

    /// Draws the capture preview in `c.previewMode` into `rect`; returns the picture to place
    /// in a pixel mode (its cells hold placeholders), nil otherwise. Every mode composes the
    /// same overlay (dimmed outside, outline, ring, digits) with `PreviewRenderer.composite`.
    static func preview(_ renderer: PreviewRenderer, _ image: PreviewImage?, into rect: CellRect,
                        canvas: inout Canvas, mode: ColorMode, _ c: RenderContext) -> PreviewPicture? {
        guard !rect.isEmpty else { return nil }
        let halfScale = renderer.digits.map { renderer.digitScale($0, imageSize: image.map { ($0.width, $0.height) }, rect: rect) } ?? 0
        // Half blocks (the mode, or the fallback of the others) for the measured cells; full
        // blocks where line spacing would stripe the glyphs (IMG-02), symbols included.
        var cellRenderer = renderer
        cellRenderer.cellAspect = c.cellGeometry.aspect
        cellRenderer.fullBlocks = c.cellGeometry.lineSpacing
        // Symbols under line spacing or at few colours are drawn as half blocks (`drawn`).
        switch c.previewMode.drawn(colorMode: mode, cellGeometry: c.cellGeometry) {
        case .halfBlocks:
            cellRenderer.render(image, into: rect, canvas: &canvas, mode: mode, glyphs: c.glyphs)
            return nil
        case .symbols:
            let g = c.cellGeometry.symbolGrid(cols: rect.width, rows: rect.height)
            // Digits at the half-block rule's size, in this grid's pixels.
            let scale = halfScale >= PreviewRenderer.minimumDigitScale ? halfScale * g.height / (2 * rect.height) : 0
            guard mode != .none, let draw = c.symbolRenderer,
                  let (grid, _) = renderer.composite(image, gridWidth: g.width, gridHeight: g.height,
                                                     lineWidth: max(1, g.height / (4 * rect.height)), digitScale: scale),
                  let cells = draw(PreviewImage(grid: grid, width: g.width, height: g.height), rect.width, rect.height, mode),
                  cells.count == rect.width * rect.height else {
                cellRenderer.render(image, into: rect, canvas: &canvas, mode: mode, glyphs: c.glyphs)
                return nil
            }
            for y in 0..<rect.height {
                for x in 0..<rect.width {
                    let cell = cells[y * rect.width + x]
                    canvas.set(rect.x + x, rect.y + y, cell.text ?? " ", cell.style)
                }
            }
            return nil
        case .sixel, .kitty, .iterm:
            var rect = Self.pictureRect(rect, screenRows: c.size.rows, mode: c.previewMode)
            // A picture covers cells: it keeps below the status line (row 0) while that is shown (issue #27).
            if c.statusLine != nil, rect.y == 0 { rect.y = 1; rect.height -= 1 }
            guard !rect.isEmpty else { return nil }
            let p = c.cellGeometry.pictureSize(cols: rect.width, rows: rect.height)
            let scale = halfScale >= PreviewRenderer.minimumDigitScale ? halfScale * p.height / (2 * rect.height) : 0
            // The outline a quarter of a cell thick, as the half-block outline (half a cell) is
            // at most.
            guard let (grid, _) = renderer.composite(image, gridWidth: p.width, gridHeight: p.height,
                                                     lineWidth: max(1, p.cellHeight / 4), digitScale: scale) else { return nil }
            for y in rect.y..<rect.maxY {
                for x in rect.x..<rect.maxX { canvas.set(x, y, " ", PreviewPicture.placeholderStyle) }
            }
            // Sixel is shown at the size it is encoded: libchafa scales the composed picture up
            // to the terminal's own cells, so it fills the rectangle (issue #27: at the picture's
            // ≤ 640×480 px, 60 % of a 160×50 xterm's preview stayed black). kitty and iTerm2
            // are stretched over the cells by the terminal.
            let sixel = c.previewMode == .sixel
            return PreviewPicture(rect: rect, image: PreviewImage(grid: grid, width: p.width, height: p.height),
                                  cellWidth: sixel ? c.cellGeometry.width : p.cellWidth,
                                  cellHeight: sixel ? c.cellGeometry.height : p.cellHeight)
        }
    }
}
