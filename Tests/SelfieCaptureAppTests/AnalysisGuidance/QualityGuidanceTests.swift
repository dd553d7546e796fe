import CaptureFlow
import CaptureModel
import FaceAnalysis
import FaceFixtures
import Media
import Testing

/// The guidance rules (CaptureFlow) on the quality vector FaceAnalysis measures of a crafted face
/// (`FaceFixtures.SyntheticFace`; the measures alone are tested in FaceAnalysisTests'
/// `QualityVectorTests`): which hint each measured shortfall gives.
@Suite struct QualityGuidanceTests {
    func vector(_ f: DetectedFace, _ img: Image, others: [DetectedFace] = [], sharpness: Double = 500) -> QualityVector {
        QualityMeasures.vector(gray: img, faces: [f] + others, sharpness: sharpness)
    }

    /// Closed lips (inner lips touching) against lips apart by 0.21 face units (0.3 of the
    /// eye-to-chin distance): OFIQ MouthClosed, inverse sigmoid x0 0.2, w 0.06.
    @Test func closedAndOpenMouth() throws {
        let closedFace = SyntheticFace.face(size: 200, cx: 320, cy: 240, mouth: 0)
        let openFace = SyntheticFace.face(size: 200, cx: 320, cy: 240, mouth: 0.21)
        let closed = vector(closedFace, SyntheticFace.image(face: closedFace, background: 120, left: 150, right: 150))
        let open = vector(openFace, SyntheticFace.image(face: openFace, background: 120, left: 150, right: 150))
        #expect(try #require(closed.raw(.mouthClosed)) == 0)
        #expect(closed[.mouthClosed]?.score == 97)          // 100·(1 − σ(0; 0.2, 0.06)) = 96.6
        #expect(abs(try #require(open.raw(.mouthClosed)) - 0.3) < 1e-9)
        #expect(open[.mouthClosed]?.score == 16)            // 100·(1 − σ(0.3; 0.2, 0.06)) = 15.9
        // The guidance asks to close the mouth on the open one only.
        var c = GuidanceConfig()
        c.mirror = false
        #expect(GuidanceRules.judge(frame(openFace, open), config: c).hint == .closeMouth)
        #expect(GuidanceRules.judge(frame(closedFace, closed), config: c).hint == .holdStill)
    }

    /// One side of the face lit, the other at 30 % of its luma (over three stops darker): the
    /// cheek zones' histograms are disjoint (OFIQ IlluminationUniformity 0 → score 0) and the
    /// halves' balance is 0.3. Half as bright (one stop, 0.5) is not yet worth a hint. Evenly
    /// lit: identical histograms (1 → 100), balance 1.
    @Test func oneSideBrighter() throws {
        let f = SyntheticFace.face(size: 200, cx: 320, cy: 240)
        let uneven = vector(f, SyntheticFace.image(face: f, background: 120, left: 160, right: 48))
        #expect(try #require(uneven.raw(.illuminationUniformity)) == 0)
        #expect(uneven[.illuminationUniformity]?.score == 0)
        #expect(abs(try #require(uneven.raw(.illuminationBalance)) - 0.3) < 1e-9)
        let half = vector(f, SyntheticFace.image(face: f, background: 120, left: 160, right: 80))
        #expect(abs(try #require(half.raw(.illuminationBalance)) - 0.5) < 1e-9)
        let even = vector(f, SyntheticFace.image(face: f, background: 120, left: 150, right: 150))
        #expect(abs(try #require(even.raw(.illuminationUniformity)) - 1) < 1e-6)
        #expect(even[.illuminationUniformity]?.score == 100)
        #expect(even.raw(.illuminationBalance) == 1)
        var c = GuidanceConfig()
        c.mirror = false
        #expect(GuidanceRules.judge(frame(f, uneven), config: c).hint == .faceTheLight)
        #expect(GuidanceRules.judge(frame(f, even), config: c).hint == .holdStill)
        #expect(GuidanceRules.judge(frame(f, half), config: c).hint == .holdStill)
    }

    /// A dim face (luma 80) before a bright background (240): the backlight ratio is 1/3, and
    /// the guidance says "face the light".
    @Test func backlight() throws {
        let f = SyntheticFace.face(size: 200, cx: 320, cy: 240)
        let v = vector(f, SyntheticFace.image(face: f, background: 240, left: 80, right: 80))
        #expect(abs(try #require(v.raw(.backlight)) - 1.0 / 3) < 1e-9)
        #expect(abs(try #require(v.raw(.luminanceMean)) - 80.0 / 255) < 1e-9)
        var c = GuidanceConfig()
        c.mirror = false
        #expect(GuidanceRules.judge(frame(f, v), config: c).hint == .faceTheLight)
    }

    /// Too few pixels between the eyes (ISO/IEC 19794-5 token image: 60 px): the face at 100 px
    /// per face unit has 50 px and gets `faceTooSmall`, or `faceTooSmallRaiseQuality` when the
    /// camera can do more. The box is made valid for the oval on a 320×240 frame.
    @Test func faceTooSmall() {
        let f = SyntheticFace.face(size: 100, cx: 160, cy: 120)
        let img = SyntheticFace.image(width: 320, height: 240, face: f, background: 120, left: 150, right: 150)
        let v = vector(f, img)
        var a = FrameAnalysis(frameIndex: 0, timestampMs: 0, frameWidth: 320, frameHeight: 240, faces: [f], brightness: 150,
                              sharpness: 500, eyesOpen: true, quality: v)
        a.faces[0].box = Rect(x: 100, y: 60, w: 120, h: 120)
        var c = GuidanceConfig()
        #expect(GuidanceRules.judge(a, config: c).hint == .faceTooSmall)
        c.higherQualityAvailable = true
        #expect(GuidanceRules.judge(a, config: c).hint == .faceTooSmallRaiseQuality)
    }

    func frame(_ f: DetectedFace, _ v: QualityVector) -> FrameAnalysis {
        // The box as the oval wants it (centred, 0.5 of the height) so only quality decides.
        var g = f
        g.box = Rect(x: 200, y: 120, w: 240, h: 240)
        return FrameAnalysis(frameIndex: 0, timestampMs: 0, frameWidth: 640, frameHeight: 480, faces: [g], brightness: 150,
                             sharpness: 500, eyesOpen: true, quality: v)
    }
}
