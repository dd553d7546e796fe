// What a terminal would show for preview cells, and how close it is to the source frame
// (SSIM), for the preview tests and `make bench` (issue #13). Pure Swift.

public enum PreviewFidelity {
    /// Coverage of a block-element or sextant glyph on a `w × h` cell as a function of the
    /// pixel (x, y): true where the glyph's ink (foreground) is. Known glyphs: space, U+2580–U+259F
    /// (half, eighth, quadrant and shade blocks; shades are dithered at 25/50/75 %) and the
    /// sextants U+1FB00–U+1FB3B (Unicode 13.0 "Symbols for Legacy Computing": 2 × 3 cells, bit
    /// 0 top-left … bit 5 bottom-right, codes skipping the left/right half patterns 21 and 42).
    /// Any other character counts as half covered (checkerboard).
    public static func ink(_ c: Character?, x: Int, y: Int, w: Int, h: Int) -> Bool {
        guard let s = c?.unicodeScalars.first?.value else { return false }
        let fx = (Double(x) + 0.5) / Double(w), fy = (Double(y) + 0.5) / Double(h)
        switch s {
        case 0x20: return false
        case 0x2580: return fy < 0.5
        case 0x2581...0x2588: return fy >= 1 - Double(s - 0x2580) / 8
        case 0x2589...0x258F: return fx < Double(0x2590 - s) / 8
        case 0x2590: return fx >= 0.5
        case 0x2591: return (x + y * 2) % 4 == 0
        case 0x2592: return (x + y) % 2 == 0
        case 0x2593: return (x + y * 2) % 4 != 0
        case 0x2594: return fy < 1.0 / 8
        case 0x2595: return fx >= 7.0 / 8
        case 0x2596...0x259F:
            // ▖▗▘▙▚▛▜▝▞▟ as quadrant bits: 1 upper-left, 2 upper-right, 4 lower-left, 8 lower-right.
            let bits: [Int] = [4, 8, 1, 1 | 4 | 8, 1 | 8, 1 | 2 | 4, 1 | 2 | 8, 2, 2 | 4, 2 | 4 | 8]
            let q = (fy < 0.5 ? 0 : 2) + (fx < 0.5 ? 0 : 1)
            return bits[Int(s - 0x2596)] & (1 << q) != 0
        case 0x1FB00...0x1FB3B:
            var v = Int(s - 0x1FB00) + 1
            if v >= 21 { v += 1 }
            if v >= 42 { v += 1 }
            let bit = min(2, Int(fy * 3)) * 2 + (fx < 0.5 ? 0 : 1)
            return v & (1 << bit) != 0
        default: return (x + y) % 2 == 0
        }
    }

    /// The picture a terminal would show for `cells` (`cols × rows`, row-major) with cells of
    /// `cellWidth × cellHeight` pixels: ink in the foreground colour, the rest in the background
    /// (`.terminalDefault` as `defaultBackground`/`defaultForeground`).
    public static func rasterize(_ cells: [Cell], cols: Int, rows: Int, cellWidth: Int = 8, cellHeight: Int = 16,
                                 defaultForeground: RGB = RGB(229, 229, 229), defaultBackground: RGB = RGB(0, 0, 0)) -> PreviewImage {
        let w = cols * cellWidth, h = rows * cellHeight
        var px = [UInt8](repeating: 0, count: w * h * 3)
        for cy in 0..<rows {
            for cx in 0..<cols {
                let cell = cells[cy * cols + cx]
                var fg = defaultForeground, bg = defaultBackground
                if case .rgb(let v) = cell.style.fg { fg = v }
                if case .rgb(let v) = cell.style.bg { bg = v }
                for y in 0..<cellHeight {
                    for x in 0..<cellWidth {
                        let c = ink(cell.text, x: x, y: y, w: cellWidth, h: cellHeight) ? fg : bg
                        let i = ((cy * cellHeight + y) * w + cx * cellWidth + x) * 3
                        px[i] = c.r; px[i + 1] = c.g; px[i + 2] = c.b
                    }
                }
            }
        }
        return PreviewImage(width: w, height: h, rgb: px)
    }

    /// `image` resampled to `width × height` (box filter), as luma 0...255 (BT.601).
    public static func luma(_ image: PreviewImage, width: Int, height: Int) -> [Double] {
        var out = [Double](repeating: 0, count: width * height)
        let iw = image.width, ih = image.height
        guard iw > 0, ih > 0, image.rgb.count >= iw * ih * 3 else { return out }
        for y in 0..<height {
            let y0 = y * ih / height, y1 = max(y0 + 1, (y + 1) * ih / height)
            for x in 0..<width {
                let x0 = x * iw / width, x1 = max(x0 + 1, (x + 1) * iw / width)
                var s = 0.0, n = 0.0
                for yy in y0..<min(ih, y1) {
                    for xx in x0..<min(iw, x1) {
                        let p = (yy * iw + xx) * 3
                        s += 0.299 * Double(image.rgb[p]) + 0.587 * Double(image.rgb[p + 1]) + 0.114 * Double(image.rgb[p + 2])
                        n += 1
                    }
                }
                out[y * width + x] = n > 0 ? s / n : 0
            }
        }
        return out
    }

    /// Mean SSIM (Wang et al. 2004, "Image quality assessment: from error visibility to
    /// structural similarity": C1 = (0.01·255)², C2 = (0.03·255)², here 8 × 8 windows every 4
    /// pixels, unweighted) of the luma of `a` and `b`, both resampled to `width × height`
    /// (default: `a`'s size, at most 320 wide). 1 for identical pictures; −1...1.
    public static func ssim(_ a: PreviewImage, _ b: PreviewImage, width: Int? = nil, height: Int? = nil) -> Double {
        let scale = min(1, 320.0 / Double(max(1, a.width)))
        let w = width ?? max(8, Int(Double(a.width) * scale)), h = height ?? max(8, Int(Double(a.height) * scale))
        let la = luma(a, width: w, height: h), lb = luma(b, width: w, height: h)
        let c1 = (0.01 * 255) * (0.01 * 255), c2 = (0.03 * 255) * (0.03 * 255)
        var total = 0.0, count = 0.0
        var y = 0
        while y + 8 <= h {
            var x = 0
            while x + 8 <= w {
                var ma = 0.0, mb = 0.0
                for j in 0..<8 { for i in 0..<8 { ma += la[(y + j) * w + x + i]; mb += lb[(y + j) * w + x + i] } }
                ma /= 64; mb /= 64
                var va = 0.0, vb = 0.0, cov = 0.0
                for j in 0..<8 {
                    for i in 0..<8 {
                        let da = la[(y + j) * w + x + i] - ma, db = lb[(y + j) * w + x + i] - mb
                        va += da * da; vb += db * db; cov += da * db
                    }
                }
                va /= 63; vb /= 63; cov /= 63
                total += ((2 * ma * mb + c1) * (2 * cov + c2)) / ((ma * ma + mb * mb + c1) * (va + vb + c2))
                count += 1
                x += 4
            }
            y += 4
        }
        return count > 0 ? total / count : 0
    }
}
