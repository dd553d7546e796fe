import CaptureModel
import FaceAnalysis
import FaceFixtures
import Foundation
import Media
import Testing

// The synthetic face is `FaceFixtures.SyntheticFace`; the tests that judge it with the guidance
// rules are in SelfieCaptureAppTests (`QualityGuidanceTests`).
@Suite struct QualityVectorTests {
    func vector(_ f: DetectedFace, _ img: Image, others: [DetectedFace] = [], sharpness: Double = 500) -> QualityVector {
        QualityMeasures.vector(gray: img, faces: [f] + others, sharpness: sharpness)
    }

    @Test func oneComponentPerMeasureInOrder() {
        let f = SyntheticFace.face(size: 200, cx: 320, cy: 240)
        let v = vector(f, SyntheticFace.image(face: f, background: 120, left: 150, right: 150))
        #expect(v.components.map(\.measure) == QualityMeasure.allCases)
        #expect(v.components.allSatisfy { $0.raw != nil && ($0.score.map { (0...100).contains($0) } ?? false) })
    }

    /// The same face at several sizes: the inter-eye distance is 0.5 × size (linear), mapped by
    /// OFIQ's sigmoid (x0 70, w 20); ratios (eyes, mouth) do not change with size.
    @Test(arguments: [80.0, 120, 140, 200, 300])
    func interEyeDistanceScalesLinearly(size: Double) throws {
        let f = SyntheticFace.face(size: size, cx: 320, cy: 240)
        let v = vector(f, SyntheticFace.image(face: f, background: 120, left: 150, right: 150))
        let ied = try #require(v.raw(.interEyeDistance))
        #expect(abs(ied - 0.5 * size) < 1e-9)
        let expected = Int((100 / (1 + exp((70 - 0.5 * size) / 20))).rounded())
        #expect(v[.interEyeDistance]?.score == expected)
        #expect(abs(try #require(v.raw(.eyesOpen)) - 0.06 / 0.7) < 1e-9)
        #expect(abs(try #require(v.raw(.headSize)) - 0.7 * size / 480) < 1e-9)
    }

    /// Yaw foreshortens the eye distance; OFIQ divides by cos(yaw): 100 px seen at 60° is 200 px.
    @Test func interEyeDistanceCorrectsYaw() throws {
        let f = SyntheticFace.face(size: 200, cx: 320, cy: 240, yaw: 60)
        let v = vector(f, SyntheticFace.image(face: f, background: 120, left: 150, right: 150))
        #expect(abs(try #require(v.raw(.interEyeDistance)) - 200) < 1e-9)
        #expect(v[.headPoseYaw]?.score == 25)      // round(100·cos²60°)
    }

    /// A face pasted 30 % past the frame's left edge: 70 % of its landmarks' box is inside.
    @Test func facePartlyOutsideTheFrame() throws {
        let f = SyntheticFace.face(size: 200, cx: 40, cy: 240)        // box x −60…140
        let v = vector(f, SyntheticFace.image(face: f, background: 120, left: 150, right: 150))
        #expect(abs(try #require(v.raw(.faceInFrame)) - 0.7) < 1e-9)
        #expect(v[.faceInFrame]?.score == 70)
        let inside = SyntheticFace.face(size: 200, cx: 320, cy: 240)
        #expect(vector(inside, SyntheticFace.image(face: inside, background: 120, left: 150, right: 150)).raw(.faceInFrame) == 1)
        // OFIQ's leftward crop: the raw-left eye centre x over the IED, (40 − 50) / 100.
        #expect(abs(try #require(v.raw(.leftwardCrop)) - (-0.1)) < 1e-9)
        #expect(v[.leftwardCrop]?.score == 0)
    }

    /// Exposure: a face all at luma 10 is fully under-exposed (OFIQ UnderExposurePrevention:
    /// 120·(0.832 − σ(1; 0.92, 0.05)) = 0), one all at 255 fully over-exposed (round(1/1.01) = 1);
    /// mid-grey 128 has neither (scores 100) and a luminance mean of 128/255.
    @Test func exposure() throws {
        let f = SyntheticFace.face(size: 200, cx: 320, cy: 240)
        let dark = vector(f, SyntheticFace.image(face: f, background: 120, left: 10, right: 10))
        #expect(dark.raw(.underExposurePrevention) == 1 && dark[.underExposurePrevention]?.score == 0)
        let bright = vector(f, SyntheticFace.image(face: f, background: 120, left: 255, right: 255))
        #expect(bright.raw(.overExposurePrevention) == 1 && bright[.overExposurePrevention]?.score == 1)
        let mid = vector(f, SyntheticFace.image(face: f, background: 120, left: 128, right: 128))
        #expect(mid.raw(.underExposurePrevention) == 0 && mid[.underExposurePrevention]?.score == 100)
        #expect(mid.raw(.overExposurePrevention) == 0 && mid[.overExposurePrevention]?.score == 100)
        #expect(abs(try #require(mid.raw(.luminanceMean)) - 128.0 / 255) < 1e-12)
        #expect(mid.raw(.luminanceVariance) == 0 && mid[.luminanceVariance]?.score == 0)
        #expect(mid[.luminanceMean]?.score == 100)          // 100·σ(0.502; 0.2, 0.05)·(1 − σ(0.502; 0.8, 0.05)) = 99.5
    }

    /// SingleFacePresent: a second face a quarter of the first's area → f = 0.25, score 75.
    @Test func singleFacePresent() throws {
        let f = SyntheticFace.face(size: 200, cx: 320, cy: 240)
        let small = SyntheticFace.face(size: 100, cx: 550, cy: 100)
        let img = SyntheticFace.image(face: f, background: 120, left: 150, right: 150)
        let v = vector(f, img, others: [small])
        #expect(abs(try #require(v.raw(.singleFacePresent)) - 0.25) < 1e-9 && v[.singleFacePresent]?.score == 75)
        #expect(vector(f, img)[.singleFacePresent]?.score == 100)
    }

    /// No face: nothing is assessed and there is no reference score.
    @Test func noFace() {
        let v = QualityMeasures.vector(gray: Image(width: 64, height: 48, layout: .gray, fill: 100), faces: [], sharpness: 0)
        #expect(v.components.count == QualityMeasure.allCases.count && v.components.allSatisfy { $0.raw == nil && $0.score == nil })
        #expect(v.referenceScore == nil)
    }

    /// Bad input is not assessed, never a crash: landmarks or a box that are not finite, an
    /// empty frame.
    @Test func badInputIsNotAssessed() {
        var f = SyntheticFace.face(size: 200, cx: 320, cy: 240)
        let img = SyntheticFace.image(face: f, background: 120, left: 150, right: 150)
        f.landmarks[40] = Point(x: .nan, y: 3)
        let v = vector(f, img)
        #expect(v.raw(.interEyeDistance) == nil && v.raw(.mouthClosed) == nil && v.raw(.luminanceMean) != nil)
        f.box = Rect(x: .infinity, y: 0, w: 10, h: 10)
        #expect(vector(f, img).components.allSatisfy { $0.raw == nil })
        let g = SyntheticFace.face(size: 200, cx: 320, cy: 240)
        #expect(QualityMeasures.vector(gray: Image(width: 0, height: 0, layout: .gray, pixels: []), faces: [g], sharpness: 0)
            .components.allSatisfy { $0.raw == nil })
    }

    /// Reference thresholds (ISO/IEC 19794-5: IED ≥ 90 px, |yaw|, |pitch| ≤ 5°, |roll| ≤ 8°):
    /// each shortfall says by how much.
    @Test func referenceShortfalls() throws {
        var f = SyntheticFace.face(size: 160, cx: 320, cy: 240)       // IED 80 px
        f.yaw = 0; f.pitch = -7; f.roll = 3
        let v = vector(f, SyntheticFace.image(face: f, background: 120, left: 150, right: 150))
        let s = ReferenceThresholds().shortfalls(v)
        #expect(s.map(\.measure) == [.interEyeDistance, .headPosePitch])
        #expect(abs(try #require(s[0].by) - 10) < 1e-9 && s[0].limit == 90)
        #expect(abs(try #require(s[1].by) - 2) < 1e-9 && s[1].limit == 5)
        let big = SyntheticFace.face(size: 200, cx: 320, cy: 240)
        #expect(ReferenceThresholds().shortfalls(vector(big, SyntheticFace.image(face: big, background: 120, left: 150, right: 150))).isEmpty)
    }
}
