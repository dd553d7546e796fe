import Testing
import Media

/// `PixelConvert.rgb(luma:chroma:shrink:)` (the preview's RGB from a JPEG's planes, issue #28)
/// against its own documented rule, written here the plain way: each output pixel's Y is the
/// rounded mean of its shrink × shrink luma block (fewer at the right and bottom edges), its Cb
/// and Cr the rounded means of the chroma samples covering the block (the nearest one when the
/// block is smaller than a sample), then BT.601 full range (JFIF). The converter sums whole blocks
/// by rows; this checks it gives the same bytes for every subsampling, shrink and edge.
@Suite struct PixelConvertTests {
    /// Deterministic pseudo-random bytes (xorshift), so a failure is reproducible.
    static func bytes(_ n: Int, seed: UInt64) -> [UInt8] {
        var s = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        return (0..<n).map { _ in s ^= s << 13; s ^= s >> 7; s ^= s << 17; return UInt8(truncatingIfNeeded: s >> 24) }
    }

    /// The rule above, pixel by pixel (JFIF: R = Y + 1.402 (Cr-128), G = Y - 0.344136 (Cb-128)
    /// - 0.714136 (Cr-128), B = Y + 1.772 (Cb-128), in 16.16 fixed point as libjpeg's tables).
    static func reference(luma: Image, chroma: ChromaPlanes, shrink f: Int) -> [UInt8] {
        let lw = luma.width, lh = luma.height, cw = chroma.width, ch = chroma.height
        let ow = (lw + f - 1) / f, oh = (lh + f - 1) / f
        let sx = max(1, (lw + cw - 1) / cw), sy = max(1, (lh + ch - 1) / ch)
        func clamp(_ v: Int) -> UInt8 { UInt8(max(0, min(255, v))) }
        var out = [UInt8]()
        for oy in 0..<oh {
            for ox in 0..<ow {
                let x0 = ox * f, x1 = min(lw, x0 + f), y0 = oy * f, y1 = min(lh, y0 + f)
                var ys = 0
                for r in y0..<y1 { for c in x0..<x1 { ys += Int(luma.pixels[r * lw + c]) } }
                let n = (y1 - y0) * (x1 - x0)
                let cx0 = min(cw - 1, x0 / sx), cx1 = max(cx0 + 1, min(cw, (x1 + sx - 1) / sx))
                let cy0 = min(ch - 1, y0 / sy), cy1 = max(cy0 + 1, min(ch, (y1 + sy - 1) / sy))
                var bs = 0, rs = 0
                for r in cy0..<cy1 { for c in cx0..<cx1 { bs += Int(chroma.cb[r * cw + c]); rs += Int(chroma.cr[r * cw + c]) } }
                let m = (cy1 - cy0) * (cx1 - cx0)
                let y = (ys + n / 2) / n, d = (bs + m / 2) / m - 128, e = (rs + m / 2) / m - 128
                let c = y << 16
                out += [clamp((c + 91881 * e + 32768) >> 16), clamp((c - 22554 * d - 46802 * e + 32768) >> 16),
                        clamp((c + 116130 * d + 32768) >> 16)]
            }
        }
        return out
    }

    /// 4:2:0, 4:2:2, 4:4:4 and 4:1:1 planes, even and odd sizes (partial blocks and chroma
    /// samples at the edges), at every shrink the converter takes.
    @Test(arguments: [(640, 360, 2, 2), (641, 361, 2, 2), (37, 23, 2, 2), (64, 48, 2, 1), (65, 47, 1, 1),
                      (64, 16, 4, 1), (7, 5, 2, 2), (1, 1, 1, 1), (2, 9, 2, 2)], [1, 2, 4, 8])
    func sameBytesAsThePlainRule(_ size: (Int, Int, Int, Int), _ shrink: Int) throws {
        let (w, h, sx, sy) = size
        let cw = (w + sx - 1) / sx, ch = (h + sy - 1) / sy
        let luma = Image(width: w, height: h, layout: .gray, pixels: Self.bytes(w * h, seed: UInt64(w * 31 + h)))
        let chroma = ChromaPlanes(width: cw, height: ch, cb: Self.bytes(cw * ch, seed: 7), cr: Self.bytes(cw * ch, seed: 11))
        let rgb = try #require(PixelConvert.rgb(luma: luma, chroma: chroma, shrink: shrink))
        #expect(rgb.width == (w + shrink - 1) / shrink && rgb.height == (h + shrink - 1) / shrink && rgb.layout == .rgb)
        #expect(rgb.pixels == Self.reference(luma: luma, chroma: chroma, shrink: shrink))
    }

    /// Flat planes give exactly the JFIF colour of their one value at every shrink (a known value:
    /// Y 128, Cb 90, Cr 200 → R 229, G 90, B 61 by the JFIF formulas rounded).
    @Test(arguments: [1, 2, 4, 8])
    func flatPlanesGiveTheirJFIFColour(_ shrink: Int) throws {
        let luma = Image(width: 33, height: 17, layout: .gray, pixels: [UInt8](repeating: 128, count: 33 * 17))
        let chroma = ChromaPlanes(width: 17, height: 9, cb: [UInt8](repeating: 90, count: 17 * 9), cr: [UInt8](repeating: 200, count: 17 * 9))
        let rgb = try #require(PixelConvert.rgb(luma: luma, chroma: chroma, shrink: shrink))
        for i in stride(from: 0, to: rgb.pixels.count, by: 3) {
            #expect(Array(rgb.pixels[i..<i + 3]) == [229, 90, 61])
        }
    }
}
