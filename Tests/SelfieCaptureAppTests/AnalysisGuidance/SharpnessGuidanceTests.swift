import CaptureFlow
import CaptureModel
import FaceAnalysis
import Media
import Testing
import TestSupport

/// FaceAnalysis' sharpness measure against the guidance's threshold (`GuidanceConfig.minSharpness`)
/// it calibrates.
@Suite struct SharpnessGuidanceTests {
    static let astronaut = TestSupport.shared("media/faces/astronaut.png")
    /// The astronaut face box measured in shared/media/faces/README.md.
    static let faceBox = Rect(x: 175.8, y: 79.8, w: 95.0, h: 94.8)

    /// Sharpness separates the sharp face from the same face blurred (5×5 box), and it is
    /// normalised for size: the face at 2× gives about the same figure. Calibrates
    /// `GuidanceConfig.minSharpness` (150).
    @Test(.enabled(if: astronaut != nil, "../shared/media/faces/astronaut.png is absent"))
    func sharpnessSeparatesBlur() throws {
        let gray = PixelConvert.gray(try ImageFile.loadRGB(path: try #require(Self.astronaut)))
        let sharp = FaceQuality.sharpness(gray, region: Self.faceBox)
        let blurred = FaceQuality.sharpness(boxBlur(gray, radius: 2), region: Self.faceBox)
        let big = upscale2(gray)
        let b2 = Self.faceBox
        let sharpBig = FaceQuality.sharpness(big, region: Rect(x: b2.x * 2, y: b2.y * 2, w: b2.w * 2, h: b2.h * 2))
        print("sharpness: sharp \(sharp), 5x5 blur \(blurred), sharp at 2x \(sharpBig)")
        #expect(sharp > 2 * GuidanceConfig().minSharpness)
        #expect(blurred < GuidanceConfig().minSharpness)
        #expect(abs(sharpBig / sharp - 1) < 0.5)
    }

    func boxBlur(_ g: Image, radius r: Int) -> Image {
        var out = g.pixels
        for y in 0..<g.height { for x in 0..<g.width {
            var sum = 0, n = 0
            for dy in -r...r { for dx in -r...r {
                let yy = y + dy, xx = x + dx
                if yy >= 0 && yy < g.height && xx >= 0 && xx < g.width { sum += Int(g.pixels[yy * g.width + xx]); n += 1 }
            } }
            out[y * g.width + x] = UInt8(sum / n)
        } }
        return Image(width: g.width, height: g.height, layout: .gray, pixels: out)
    }

    func upscale2(_ g: Image) -> Image {
        var out = [UInt8](repeating: 0, count: g.width * g.height * 4)
        for y in 0..<(g.height * 2) { for x in 0..<(g.width * 2) { out[y * g.width * 2 + x] = g.pixels[(y / 2) * g.width + x / 2] } }
        return Image(width: g.width * 2, height: g.height * 2, layout: .gray, pixels: out)
    }
}
