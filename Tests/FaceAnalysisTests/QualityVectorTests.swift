import CaptureFlow
import CaptureModel
import FaceAnalysis
import Foundation
import Media
import Testing

/// The quality vector (issue #11) on crafted faces whose answers follow from OFIQ's formulas
/// (BSI OFIQ `OFIQlib/modules/measures/src/*.cpp`, mappings in `data/ofiq_config.jaxn`).
///
/// The synthetic face: 68 iBUG points of a schematic frontal face in face units (x right, y
/// down, centre at 0,0): eye centres (−0.25, −0.2) and (0.25, −0.2) → inter-eye distance 0.5;
/// chin (0, 0.5) → eye-midpoint-to-chin (`tmetric`) 0.7; eyelid gap 0.06; inner lips at y 0.3
/// (apart by `mouth`); landmarks' box x −0.5…0.5, y −0.35…0.5. Scaled by `size` px per unit.
enum SyntheticFace {
    static func landmarks(size s: Double, cx: Double, cy: Double, mouth: Double = 0, eyeGap: Double = 0.06) -> [Point] {
        var u = [(Double, Double)](repeating: (0, 0), count: 68)
        for k in 0...16 {
            let th = Double.pi * Double(k) / 16
            u[k] = (-0.5 * cos(th), -0.15 + 0.65 * sin(th))
        }
        u[8] = (0, 0.5)
        for k in 0..<5 { u[17 + k] = (-0.4 + 0.075 * Double(k), -0.35); u[22 + k] = (0.1 + 0.075 * Double(k), -0.35) }
        for k in 0..<4 { u[27 + k] = (0, -0.25 + 0.1 * Double(k)) }
        for k in 0..<5 { u[31 + k] = (-0.1 + 0.05 * Double(k), 0.1) }
        let o = eyeGap / 2
        u[36] = (-0.35, -0.2); u[37] = (-0.3, -0.2 - o); u[38] = (-0.2, -0.2 - o)
        u[39] = (-0.15, -0.2); u[40] = (-0.2, -0.2 + o); u[41] = (-0.3, -0.2 + o)
        u[42] = (0.15, -0.2); u[43] = (0.2, -0.2 - o); u[44] = (0.3, -0.2 - o)
        u[45] = (0.35, -0.2); u[46] = (0.3, -0.2 + o); u[47] = (0.2, -0.2 + o)
        for k in 0..<12 {   // outer lips on an ellipse around (0, 0.3)
            let th = Double.pi + 2 * Double.pi * Double(k) / 12
            u[48 + k] = (0.2 * cos(th), 0.3 + 0.06 * sin(th))
        }
        let g = mouth / 2
        u[60] = (-0.15, 0.3); u[61] = (-0.08, 0.3 - g); u[62] = (0, 0.3 - g); u[63] = (0.08, 0.3 - g)
        u[64] = (0.15, 0.3); u[65] = (0.08, 0.3 + g); u[66] = (0, 0.3 + g); u[67] = (-0.08, 0.3 + g)
        return u.map { Point(x: cx + $0.0 * s, y: cy + $0.1 * s) }
    }

    /// The face with its box set to the landmarks' box (x −0.5…0.5, y −0.35…0.5).
    static func face(size s: Double, cx: Double, cy: Double, mouth: Double = 0, yaw: Double = 0) -> DetectedFace {
        DetectedFace(box: Rect(x: cx - 0.5 * s, y: cy - 0.35 * s, w: s, h: 0.85 * s), score: 1,
                     landmarks: landmarks(size: s, cx: cx, cy: cy, mouth: mouth), yaw: yaw, pitch: 0, roll: 0)
    }

    /// A gray frame: `background` everywhere, `left` / `right` over the face's landmark box on
    /// the raw frame's left and right of `cx`.
    static func image(width: Int = 640, height: Int = 480, face: DetectedFace, background: UInt8, left: UInt8, right: UInt8) -> Image {
        var px = [UInt8](repeating: background, count: width * height)
        let b = face.box
        for y in max(0, Int(b.y))..<min(height, Int(b.y + b.h)) {
            for x in max(0, Int(b.x))..<min(width, Int(b.x + b.w)) { px[y * width + x] = Double(x) < b.centerX ? left : right }
        }
        return Image(width: width, height: height, layout: .gray, pixels: px)
    }
}

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

    func frame(_ f: DetectedFace, _ v: QualityVector) -> FrameAnalysis {
        // The box as the oval wants it (centred, 0.5 of the height) so only quality decides.
        var g = f
        g.box = Rect(x: 200, y: 120, w: 240, h: 240)
        return FrameAnalysis(frameIndex: 0, timestampMs: 0, frameWidth: 640, frameHeight: 480, faces: [g], brightness: 150,
                             sharpness: 500, eyesOpen: true, quality: v)
    }
}
