import CaptureModel
#if canImport(Glibc)
import Glibc
#endif
import Media

/// Crops and shrinks 8-bit gray images for detection. Kept deliberately simple (one pass over the
/// source region with precomputed column tables) because it runs on every frame.
public enum GrayResample {
    /// The region `roi` (integer-aligned, clamped to the image) of `image` shrunk by `scale`
    /// (0 < scale ≤ 1) with a box filter: each output pixel is the mean of the source pixels whose
    /// area it covers. With `scale` 1 it is a plain crop.
    /// - Returns: the image, and the exact scale factors (output/source) per axis.
    public static func cropAndShrink(_ image: Image, roi: Rect, scale: Double) -> (image: Image, sx: Double, sy: Double) {
        precondition(image.layout == .gray, "cropAndShrink needs a gray image")
        let x0 = max(0, min(image.width, Int(roi.x.rounded(.down))))
        let y0 = max(0, min(image.height, Int(roi.y.rounded(.down))))
        let x1 = max(x0, min(image.width, Int((roi.x + roi.w).rounded(.up))))
        let y1 = max(y0, min(image.height, Int((roi.y + roi.h).rounded(.up))))
        let sw = x1 - x0, sh = y1 - y0
        let s = min(1, max(scale, 1e-3))
        let ow = max(1, Int((Double(sw) * s).rounded())), oh = max(1, Int((Double(sh) * s).rounded()))
        guard sw > 0, sh > 0 else { return (Image(width: 0, height: 0, layout: .gray), 1, 1) }
        if ow == sw && oh == sh {
            var out = [UInt8](repeating: 0, count: sw * sh)
            image.pixels.withUnsafeBufferPointer { src in
                out.withUnsafeMutableBufferPointer { dst in
                    for r in 0..<sh {
                        let so = (y0 + r) * image.width + x0
                        for c in 0..<sw { dst[r * sw + c] = src[so + c] }
                    }
                }
            }
            return (Image(width: sw, height: sh, layout: .gray, pixels: out), 1, 1)
        }
        // Column and row spans [start, end) in source pixels for each output pixel.
        let colStart = (0...ow).map { x0 + $0 * sw / ow }
        let rowStart = (0...oh).map { y0 + $0 * sh / oh }
        var out = [UInt8](repeating: 0, count: ow * oh)
        var colSums = [UInt32](repeating: 0, count: ow)
        image.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                colSums.withUnsafeMutableBufferPointer { acc in
                    for orow in 0..<oh {
                        let ra = rowStart[orow], rb = rowStart[orow + 1]
                        for i in 0..<ow { acc[i] = 0 }
                        for r in ra..<rb {
                            let base = r * image.width
                            for i in 0..<ow {
                                var sum: UInt32 = 0
                                for c in colStart[i]..<colStart[i + 1] { sum &+= UInt32(src[base + c]) }
                                acc[i] &+= sum
                            }
                        }
                        let rows = UInt32(rb - ra)
                        for i in 0..<ow {
                            let n = rows * UInt32(colStart[i + 1] - colStart[i])
                            dst[orow * ow + i] = UInt8((acc[i] + n / 2) / max(n, 1))
                        }
                    }
                }
            }
        }
        return (Image(width: ow, height: oh, layout: .gray, pixels: out), Double(ow) / Double(sw), Double(oh) / Double(sh))
    }
}

extension GrayResample {
    /// A `size`×`size` crop of `image` centred on `center`, turned so that content rolled by
    /// `rollDeg` (counter-clockwise as seen) comes out upright; bilinear, 0 outside the image.
    /// `map` takes a point of the crop back to source pixels.
    public static func uprightCrop(_ image: Image, center: Point, rollDeg: Double, size: Int)
        -> (image: Image, map: @Sendable (Point) -> Point) {
        precondition(image.layout == .gray, "uprightCrop needs a gray image")
        let t = rollDeg * Double.pi / 180
        let c = cos(t), s = sin(t)
        let half = Double(size) / 2
        let cx = center.x, cy = center.y
        var out = [UInt8](repeating: 0, count: size * size)
        let w = image.width, h = image.height
        image.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for v in 0..<size {
                    let dv = Double(v) + 0.5 - half
                    for u in 0..<size {
                        let du = Double(u) + 0.5 - half
                        // Counter-clockwise (as seen, y down) rotation of (du, dv) by the roll.
                        let x = cx + du * c + dv * s - 0.5
                        let y = cy - du * s + dv * c - 0.5
                        let x0 = Int(x.rounded(.down)), y0 = Int(y.rounded(.down))
                        guard x0 >= 0, y0 >= 0, x0 + 1 < w, y0 + 1 < h else { continue }
                        let fx = x - Double(x0), fy = y - Double(y0)
                        let i = y0 * w + x0
                        let top = Double(src[i]) * (1 - fx) + Double(src[i + 1]) * fx
                        let bot = Double(src[i + w]) * (1 - fx) + Double(src[i + w + 1]) * fx
                        dst[v * size + u] = UInt8(max(0, min(255, (top * (1 - fy) + bot * fy).rounded())))
                    }
                }
            }
        }
        let map: @Sendable (Point) -> Point = { p in
            let du = p.x - half, dv = p.y - half
            return Point(x: cx + du * c + dv * s, y: cy - du * s + dv * c)
        }
        return (Image(width: size, height: size, layout: .gray, pixels: out), map)
    }
}
