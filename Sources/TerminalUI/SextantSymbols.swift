// Symbols at the cell grid's own resolution (issue #28): each cell is fitted with the best
// two-colour sextant (2×3) or quadrant (2×2) pattern from the mean colours of its parts, so the
// cost is a fixed amount of arithmetic per cell, not a search over chafa's 8×8 cell bitmaps.

/// A `PreviewSymbolRenderer` that picks, per cell, the two-colour pattern among the sextants
/// (U+1FB00–1FB3B, ▌ ▐; Unicode 13 "Symbols for Legacy Computing") and the quadrants and half
/// blocks (U+2580–259F) that leaves the least squared RGB error over the cell's pixels: the
/// foreground is the mean colour of the pattern's parts, the background the mean of the rest
/// (the least-squares colours of a two-colour cell). A uniform cell is a space on its mean.
///
/// Pure and deterministic. Works at any picture size ≥ 1 pixel per cell; a pixel belongs to the
/// sextant and the quadrant its position in the cell falls in. With 16 colours or none the
/// `fallback` renderer draws (libchafa's dithered 16-colour symbols), since two exact colours
/// per cell need a colour terminal; at 256 colours the backend maps the RGB colours as for half
/// blocks.
public enum SextantSymbols {
    /// The renderer, with `fallback` for `.ansi16` and `.none`.
    public static func renderer(fallback: PreviewSymbolRenderer? = nil) -> PreviewSymbolRenderer {
        { picture, cols, rows, mode in
            if mode == .ansi16 || mode == .none { return fallback?(picture, cols, rows, mode) }
            return cells(picture, cols: cols, rows: rows)
        }
    }

    /// The glyph of sextant pattern `v` (bit 0 the top-left sixth, bit 1 top-right, 2 and 3 the
    /// middle row, 4 and 5 the bottom row): Unicode's order skips the patterns that already have
    /// characters (0 space, 21 ▌, 42 ▐, 63 █).
    public static func sextantGlyph(_ v: Int) -> Character {
        switch v {
        case 0: return " "
        case 21: return "\u{258C}"
        case 42: return "\u{2590}"
        case 63: return "\u{2588}"
        default:
            let offset = v < 21 ? v - 1 : (v < 42 ? v - 2 : v - 3)
            return Character(Unicode.Scalar(0x1FB00 + UInt32(offset))!)
        }
    }

    /// The glyph of quadrant pattern `q` (bit 0 upper left, 1 upper right, 2 lower left, 3 lower
    /// right).
    public static let quadrantGlyphs: [Character] = [" ", "\u{2598}", "\u{259D}", "\u{2580}", "\u{2596}", "\u{258C}", "\u{259E}",
                                                      "\u{259B}", "\u{2597}", "\u{259A}", "\u{2590}", "\u{259C}", "\u{2584}",
                                                      "\u{2599}", "\u{259F}", "\u{2588}"]

    /// The cells of `picture` drawn in `cols × rows` cells, row by row; nil for an empty picture
    /// or grid.
    public static func cells(_ picture: PreviewImage, cols: Int, rows: Int) -> [Cell]? {
        let w = picture.width, h = picture.height
        guard cols > 0, rows > 0, w > 0, h > 0, picture.rgb.count >= w * h * 3 else { return nil }
        var out = [Cell]()
        out.reserveCapacity(cols * rows)
        // Per cell: sums and pixel counts of the 6 sextants and the 4 quadrants.
        var sx = [Float](repeating: 0, count: 18), sn = [Float](repeating: 0, count: 6)
        var qx = [Float](repeating: 0, count: 12), qn = [Float](repeating: 0, count: 4)
        picture.rgb.withUnsafeBufferPointer { px in
            for cy in 0..<rows {
                let y0 = cy * h / rows, y1 = max(y0 + 1, (cy + 1) * h / rows)
                for cx in 0..<cols {
                    let x0 = cx * w / cols, x1 = max(x0 + 1, (cx + 1) * w / cols)
                    for i in 0..<18 { sx[i] = 0 }
                    for i in 0..<6 { sn[i] = 0 }
                    let cw = x1 - x0, ch = y1 - y0
                    for y in y0..<min(y1, h) {
                        let third = (y - y0) * 3 / ch
                        var p = (y * w + x0) * 3
                        for x in x0..<min(x1, w) {
                            let s = third * 2 + ((x - x0) * 2 / cw)
                            sx[3 * s] += Float(px[p]); sx[3 * s + 1] += Float(px[p + 1]); sx[3 * s + 2] += Float(px[p + 2])
                            sn[s] += 1
                            p += 3
                        }
                    }
                    // Quadrants from the rows again (a pixel row of the middle third can split).
                    for i in 0..<12 { qx[i] = 0 }
                    for i in 0..<4 { qn[i] = 0 }
                    for y in y0..<min(y1, h) {
                        let half = (y - y0) * 2 / ch
                        var p = (y * w + x0) * 3
                        for x in x0..<min(x1, w) {
                            let q = half * 2 + ((x - x0) * 2 / cw)
                            qx[3 * q] += Float(px[p]); qx[3 * q + 1] += Float(px[p + 1]); qx[3 * q + 2] += Float(px[p + 2])
                            qn[q] += 1
                            p += 3
                        }
                    }
                    out.append(bestCell(sx, sn, qx, qn))
                }
            }
        }
        return out
    }

    /// The best pattern for one cell's part sums. Minimising the squared error of a two-colour
    /// split is maximising |S₁|²/n₁ + |S₀|²/n₀ (S the parts' colour sums, n their pixel counts);
    /// a pattern and its complement are the same split, so patterns with the last part clear
    /// are enough.
    static func bestCell(_ sx: [Float], _ sn: [Float], _ qx: [Float], _ qn: [Float]) -> Cell {
        let tr = sx[0] + sx[3] + sx[6] + sx[9] + sx[12] + sx[15]
        let tg = sx[1] + sx[4] + sx[7] + sx[10] + sx[13] + sx[16]
        let tb = sx[2] + sx[5] + sx[8] + sx[11] + sx[14] + sx[17]
        let tn = sn[0] + sn[1] + sn[2] + sn[3] + sn[4] + sn[5]
        guard tn > 0 else { return Cell(" ") }
        var best: Float = (tr * tr + tg * tg + tb * tb) / tn   // uniform
        var bestGlyph: Character = " "
        var fg = (tr / tn, tg / tn, tb / tn), bg = fg
        func consider(_ r: Float, _ g: Float, _ b: Float, _ n: Float, _ glyph: Character) {
            let n0 = tn - n
            guard n > 0, n0 > 0 else { return }
            let r0 = tr - r, g0 = tg - g, b0 = tb - b
            let score = (r * r + g * g + b * b) / n + (r0 * r0 + g0 * g0 + b0 * b0) / n0
            if score > best + 1e-3 {
                best = score; bestGlyph = glyph
                fg = (r / n, g / n, b / n); bg = (r0 / n0, g0 / n0, b0 / n0)
            }
        }
        for v in 1..<32 {
            var r: Float = 0, g: Float = 0, b: Float = 0, n: Float = 0
            var bits = v, s = 0
            while bits != 0 {
                if bits & 1 != 0 { r += sx[3 * s]; g += sx[3 * s + 1]; b += sx[3 * s + 2]; n += sn[s] }
                bits >>= 1; s += 1
            }
            consider(r, g, b, n, sextantGlyph(v))
        }
        // Quadrants that are not also sextants (the others are the same split, or nearly).
        for q in [1, 2, 4, 6, 7] {
            var r: Float = 0, g: Float = 0, b: Float = 0, n: Float = 0
            for k in 0..<4 where q & (1 << k) != 0 { r += qx[3 * k]; g += qx[3 * k + 1]; b += qx[3 * k + 2]; n += qn[k] }
            consider(r, g, b, n, quadrantGlyphs[q])
        }
        // Upper half (▀): the quadrant split across the middle.
        consider(qx[0] + qx[3], qx[1] + qx[4], qx[2] + qx[5], qn[0] + qn[1], quadrantGlyphs[3])
        func rgb(_ c: (Float, Float, Float)) -> Color {
            .rgb(RGB(UInt8(min(255, max(0, c.0.rounded()))), UInt8(min(255, max(0, c.1.rounded()))), UInt8(min(255, max(0, c.2.rounded())))))
        }
        return Cell(bestGlyph, style: Style(fg: rgb(fg), bg: rgb(bg)))
    }
}
