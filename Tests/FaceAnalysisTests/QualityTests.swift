import CaptureModel
import FaceAnalysis
import Media
import Testing
import TestSupport

@Suite struct QualityTests {
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
}
