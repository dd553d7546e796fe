// Big countdown digits drawn with block glyphs (issue #19): a 3×5 pixel font, scaled and either
// painted into the preview's pixel grid (inside the oval) or packed into half-block cells beside
// a preview too small to hold them.

/// A 3×5 pixel font for 0–9, one string of 15 `#`/`.` per digit, rows top to bottom. The shapes
/// are the common 3×5 "tiny" font of LED clocks and terminal clocks (tty-clock uses a 3×5 grid
/// of blocks for the same reason: legible at a distance with the fewest cells).
public enum BigDigits {
    static let font: [Character: String] = [
        "0": "###" + "#.#" + "#.#" + "#.#" + "###",
        "1": ".#." + "##." + ".#." + ".#." + "###",
        "2": "###" + "..#" + "###" + "#.." + "###",
        "3": "###" + "..#" + ".##" + "..#" + "###",
        "4": "#.#" + "#.#" + "###" + "..#" + "..#",
        "5": "###" + "#.." + "###" + "..#" + "###",
        "6": "###" + "#.." + "###" + "#.#" + "###",
        "7": "###" + "..#" + ".#." + ".#." + ".#.",
        "8": "###" + "#.#" + "###" + "#.#" + "###",
        "9": "###" + "#.#" + "###" + "..#" + "###",
        // The oval's state mark in pixel preview modes (issue #17: valid and invalid differ by
        // more than colour): a check mark and a cross in the same 3×5 grid.
        "\u{2713}": "..#" + "..#" + "#.#" + "##." + ".#.",
        "\u{2717}": "#.#" + "#.#" + ".#." + "#.#" + "#.#",
        // The active challenge's direction inside the oval (issue #25), as the preview shows it.
        "\u{2190}": ".#." + "#.." + "###" + "#.." + ".#.",
        "\u{2192}": ".#." + "..#" + "###" + "..#" + ".#.",
        "\u{2191}": ".#." + "###" + ".#." + ".#." + ".#.",
    ]
    /// Font pixels per digit: 3 wide, 5 high, 1 pixel between digits.
    public static let glyphWidth = 3, glyphHeight = 5, spacing = 1

    /// A bitmap: `width × height` pixels, row-major, true = ink.
    public struct Bitmap: Equatable, Sendable {
        public var width: Int, height: Int
        public var ink: [Bool]
        public subscript(x: Int, y: Int) -> Bool { x >= 0 && y >= 0 && x < width && y < height && ink[y * width + x] }
    }

    /// The digits of `text` (other characters are skipped) at `scale` pixels per font pixel.
    public static func bitmap(_ text: String, scale: Int) -> Bitmap {
        let glyphs = text.compactMap { font[$0] }.map(Array.init)
        let s = max(1, scale)
        guard !glyphs.isEmpty else { return Bitmap(width: 0, height: 0, ink: []) }
        let w = (glyphs.count * glyphWidth + (glyphs.count - 1) * spacing) * s, h = glyphHeight * s
        var ink = [Bool](repeating: false, count: w * h)
        for (i, g) in glyphs.enumerated() {
            let x0 = i * (glyphWidth + spacing) * s
            for fy in 0..<glyphHeight {
                for fx in 0..<glyphWidth where g[fy * glyphWidth + fx] == "#" {
                    for dy in 0..<s { for dx in 0..<s { ink[(fy * s + dy) * w + x0 + fx * s + dx] = true } }
                }
            }
        }
        return Bitmap(width: w, height: h, ink: ink)
    }

    /// The bitmap packed two pixel rows per cell row with `▀ ▄ █` (ASCII: `#` for any ink), as
    /// text lines `ceil(height / 2)` high and `width` wide (spaces where there is no ink).
    public static func cells(_ b: Bitmap, ascii: Bool) -> [String] {
        var lines: [String] = []
        var y = 0
        while y < b.height {
            var line = ""
            for x in 0..<b.width {
                let up = b[x, y], low = b[x, y + 1]
                line.append(up && low ? (ascii ? "#" : "█") : up ? (ascii ? "#" : "▀") : low ? (ascii ? "#" : "▄") : " ")
            }
            lines.append(line)
            y += 2
        }
        return lines
    }
}
