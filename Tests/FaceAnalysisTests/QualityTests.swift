import CaptureFlow
import CaptureModel
import FaceAnalysis
import Media
import Testing
import TestSupport

@Suite struct QualityTests {
    static let astronaut = TestSupport.shared("media/faces/astronaut.png")
    /// The astronaut face box measured in shared/media/faces/README.md.
    static let faceBox = Rect(x: 175.8, y: 79.8, w: 95.0, h: 94.8)

    @Test func lumaAndClipping() {
        var px = [UInt8](repeating: 40, count: 100 * 100)
        for y in 50..<100 { for x in 0..<100 { px[y * 100 + x] = 255 } }
        let img = Image(width: 100, height: 100, layout: .gray, pixels: px)
        let top = FaceQuality.luma(img, region: Rect(x: 0, y: 0, w: 100, h: 50), step: 1)
        #expect(top.mean == 40 && top.clipped == 0)
        let all = FaceQuality.luma(img, region: nil, step: 1)
        #expect(all.mean == 147.5 && all.clipped == 0.5)
        let half = FaceQuality.luma(img, region: Rect(x: -20, y: 25, w: 200, h: 50), step: 1)
        #expect(half.mean == 147.5 && half.clipped == 0.5)
    }

    @Test func flatRegionHasZeroSharpness() {
        let img = Image(width: 200, height: 200, layout: .gray, fill: 128)
        #expect(FaceQuality.sharpness(img, region: Rect(x: 10, y: 10, w: 150, h: 150)) == 0)
    }

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

    /// EAR of a synthetic open eye (height/width 0.3) and a closed one (0.05).
    @Test func eyeAspectRatio() throws {
        func eyes(open: Double) -> [Point] {
            var lm = [Point](repeating: Point(x: 0, y: 0), count: 68)
            for s in [36, 42] {
                let x0 = s == 36 ? 100.0 : 200.0
                lm[s] = Point(x: x0, y: 100); lm[s + 3] = Point(x: x0 + 40, y: 100)
                lm[s + 1] = Point(x: x0 + 13, y: 100 - open * 20); lm[s + 2] = Point(x: x0 + 27, y: 100 - open * 20)
                lm[s + 5] = Point(x: x0 + 13, y: 100 + open * 20); lm[s + 4] = Point(x: x0 + 27, y: 100 + open * 20)
            }
            return lm
        }
        let open = try #require(FaceQuality.eyeAspectRatio(eyes(open: 0.3)))
        #expect(abs(open - 0.3) < 1e-9)
        let closed = try #require(FaceQuality.eyeAspectRatio(eyes(open: 0.05)))
        #expect(abs(closed - 0.05) < 1e-9)
        #expect(FaceQuality.eyeAspectRatio([]) == nil)
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
