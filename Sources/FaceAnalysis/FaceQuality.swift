import CaptureModel
import Media

/// Light, focus and eye measures on a face region of an 8-bit gray frame.
public enum FaceQuality {
    /// Luma at or above which a pixel counts as clipped (blown highlight).
    public static let clipLevel: UInt8 = 250

    /// Mean luma (0...255) and clipped fraction (0...1) of `region` (clamped to the image),
    /// sampled every `step` pixels in x and y (2 by default: plenty for a mean). The whole image
    /// when `region` is nil or empty after clamping.
    public static func luma(_ gray: Image, region: Rect?, step: Int = 2) -> (mean: Double, clipped: Double) {
        let (x0, y0, x1, y1) = clamp(region, gray)
        var sum = 0, clipped = 0, count = 0
        let s = max(1, step)
        gray.pixels.withUnsafeBufferPointer { px in
            var y = y0
            while y < y1 {
                var i = y * gray.width + x0
                let end = y * gray.width + x1
                while i < end {
                    let v = px[i]
                    sum += Int(v); count += 1
                    if v >= clipLevel { clipped += 1 }
                    i += s
                }
                y += s
            }
        }
        guard count > 0 else { return (0, 0) }
        return (Double(sum) / Double(count), Double(clipped) / Double(count))
    }

    /// Side of the square the face region is resampled to before measuring sharpness.
    public static let sharpnessSize = 64

    /// Size-normalised sharpness: the variance of the 4-neighbour Laplacian over the face region
    /// resampled (box filter) to 64×64 px, so that the figure does not depend on the face's size
    /// in pixels (Pech-Pacheco et al., "Diatom autofocusing in brightfield microscopy: a
    /// comparative study", ICPR 2000, for the variance of the Laplacian as a focus measure).
    /// Units: luma² (0 for a flat region). 0 when the region is empty.
    public static func sharpness(_ gray: Image, region: Rect?) -> Double {
        let (x0, y0, x1, y1) = clamp(region, gray)
        let w = x1 - x0, h = y1 - y0
        guard w >= 3, h >= 3 else { return 0 }
        let n = sharpnessSize
        let scale = min(1, Double(n) / Double(max(w, h)))
        let (img, _, _) = GrayResample.cropAndShrink(gray, roi: Rect(x: Double(x0), y: Double(y0), w: Double(w), h: Double(h)), scale: scale)
        guard img.width >= 3, img.height >= 3 else { return 0 }
        var sum = 0.0, sum2 = 0.0, count = 0.0
        img.pixels.withUnsafeBufferPointer { p in
            let iw = img.width
            for y in 1..<(img.height - 1) {
                for x in 1..<(iw - 1) {
                    let i = y * iw + x
                    let l = Int(p[i - 1]) + Int(p[i + 1]) + Int(p[i - iw]) + Int(p[i + iw]) - 4 * Int(p[i])
                    let d = Double(l)
                    sum += d; sum2 += d * d; count += 1
                }
            }
        }
        let mean = sum / count
        return sum2 / count - mean * mean
    }

    /// Mean luma (0…255) of the whole image, sampled on every `step`-th pixel of every `step`-th
    /// row (step ≥ 1); 0 for an empty image.
    public static func sceneLuma(_ gray: Image, step: Int) -> Double {
        let st = max(1, step)
        guard gray.width > 0, gray.height > 0, gray.pixels.count >= gray.width * gray.height else { return 0 }
        var sum = 0, n = 0
        gray.pixels.withUnsafeBufferPointer { px in
            var y = st / 2
            while y < gray.height {
                let row = y * gray.width
                var x = st / 2
                while x < gray.width { sum += Int(px[row + x]); n += 1; x += st }
                y += st
            }
        }
        return n > 0 ? Double(sum) / Double(n) : 0
    }

    /// Eye aspect ratio (Soukupová & Čech, "Real-Time Eye Blink Detection using Facial Landmarks",
    /// CVWW 2016): (|p2−p6| + |p3−p5|) / (2 |p1−p4|) per eye, averaged over both eyes (iBUG points
    /// 36–41 and 42–47). About 0.25–0.35 for open eyes, below 0.2 when closed. nil without 68 points.
    public static func eyeAspectRatio(_ lm: [Point]) -> Double? {
        guard lm.count >= 68 else { return nil }
        func dist(_ a: Int, _ b: Int) -> Double {
            let dx = lm[a].x - lm[b].x, dy = lm[a].y - lm[b].y
            return (dx * dx + dy * dy).squareRoot()
        }
        func ear(_ s: Int) -> Double? {
            let width = dist(s, s + 3)
            guard width > 0 else { return nil }
            return (dist(s + 1, s + 5) + dist(s + 2, s + 4)) / (2 * width)
        }
        guard let l = ear(36), let r = ear(42) else { return nil }
        return (l + r) / 2
    }

    static func clamp(_ region: Rect?, _ gray: Image) -> (Int, Int, Int, Int) {
        guard let r = region else { return (0, 0, gray.width, gray.height) }
        let x0 = max(0, min(gray.width, Int(r.x.rounded())))
        let y0 = max(0, min(gray.height, Int(r.y.rounded())))
        let x1 = max(x0, min(gray.width, Int((r.x + r.w).rounded())))
        let y1 = max(y0, min(gray.height, Int((r.y + r.h).rounded())))
        if x1 == x0 || y1 == y0 { return (0, 0, gray.width, gray.height) }
        return (x0, y0, x1, y1)
    }
}
