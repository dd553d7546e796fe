/// Small drawing helpers shared by the screens.
public enum Widgets {
    /// A progress bar filling `rect`'s first row: `██████░░░░ 42%` (`#`/`-` in ASCII).
    public static func progressBar(_ canvas: inout Canvas, rect: CellRect, fraction: Double, percentText: String,
                                   theme: Theme, glyphs: Glyphs) {
        let f = min(1, max(0, fraction))
        let label = " " + percentText
        let barW = max(0, rect.width - DisplayWidth.of(label))
        let filled = Int((Double(barW) * f).rounded())
        var x = rect.x
        let on = Style(fg: theme.primary, bg: theme.background)
        let off = Style(fg: theme.noColor ? .terminalDefault : theme.cardBackground, bg: theme.background, attrs: theme.noColor ? .dim : [])
        for i in 0..<barW {
            canvas.set(x, rect.y, i < filled ? glyphs.barFull : glyphs.barEmpty, i < filled ? on : off)
            x += 1
        }
        canvas.put(label, x: x, y: rect.y, style: theme.style(.body), maxX: rect.maxX)
    }

    /// The hint: one line centred in `rect`'s first row with a one-space margin painted in
    /// `style` (so it stays readable when drawn over the preview), truncated with `…`.
    public static func hintLine(_ canvas: inout Canvas, _ text: String, rect: CellRect, style: Style) {
        let t = DisplayWidth.truncate(" " + text + " ", to: rect.width)
        canvas.fill(CellRect(x: rect.x + (rect.width - DisplayWidth.of(t)) / 2, y: rect.y, width: DisplayWidth.of(t), height: 1), style: style)
        canvas.putCentered(t, in: rect, y: rect.y, style: style)
    }

    /// A button `[ label ]` centred in `rect`'s row `y`.
    public static func button(_ canvas: inout Canvas, label: String, rect: CellRect, y: Int, theme: Theme) {
        let inner = DisplayWidth.truncate(label, to: max(1, rect.width - 4))
        canvas.putCentered("[ " + inner + " ]", in: rect, y: y, style: theme.buttonStyle())
    }

    /// Word-wrapped text centred line by line from row `y`, at most `maxLines` lines.
    /// - Returns: the row after the last line written.
    @discardableResult
    public static func paragraph(_ canvas: inout Canvas, _ text: String, rect: CellRect, y: Int, maxLines: Int,
                                 style: Style, centered: Bool = true) -> Int {
        var lines = DisplayWidth.wrap(text, width: rect.width)
        if lines.count > maxLines {
            lines = Array(lines.prefix(maxLines))
            if let last = lines.last { lines[lines.count - 1] = DisplayWidth.truncate(last + " …", to: rect.width) }
        }
        var row = y
        for line in lines {
            if centered { canvas.putCentered(line, in: rect, y: row, style: style) } else {
                canvas.put(line, x: rect.x, y: row, style: style, maxX: rect.maxX)
            }
            row += 1
        }
        return row
    }

    /// Draws pictogram lines at (x, y).
    public static func pictogram(_ canvas: inout Canvas, _ lines: [String], x: Int, y: Int, style: Style, maxX: Int) {
        for (i, line) in lines.enumerated() { canvas.put(line, x: x, y: y + i, style: style, maxX: maxX) }
    }
}
