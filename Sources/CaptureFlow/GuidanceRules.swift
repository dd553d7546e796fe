import CaptureModel

// The guidance rules: pure functions from one frame's analysis to the Mobai vocabulary and a raw
// (not yet debounced) hint. `Guidance` (Guidance+Judge.swift) adds the debounce and the stillness judged over time.
/// Which Mobai constraint set the capture reports and validates with.
public enum ConstraintsVersion: String, Sendable, CaseIterable, Codable {
    /// FaceStatus (one value).
    case v1
    /// FaceDistance + FacePosition list + FacePose list.
    case v2
}

/// Thresholds and switches of the guidance rules. Every default names its source.
public struct GuidanceConfig: Sendable, Equatable {
    /// Reported constraint set (`--constraints`). Both are always computed from the same geometry;
    /// this only says which one events report (see DECISIONS.md 2026-11-30 "one geometry").
    public var constraints: ConstraintsVersion = .v1
    /// Judge positions in the mirrored view the user sees (default; `--no-mirror` → false).
    public var mirror: Bool = true
    /// Target region and distance limits (shared/media label rule).
    public var oval: FaceOval = .standard
    /// Advice limits of the head pose, degrees (issue #5's 15° yaw and pitch, 10° roll). Beyond
    /// them the frame shows `turnHeadLess` / `levelHead`, but by default only for the patience
    /// window (`FlowSettings.qualityPatienceMs`): the pose estimate's own error on faces that look
    /// at the camera is of the same size (issue #24: 8–12° on shared/media/fairness frontal
    /// faces), and a natural head tilt is who a person is, not a mistake. `--strict-quality`
    /// makes them block, as ISO/IEC 19794-5's enrolment rules would (its frontal pose is ±5°).
    public var maxYaw: Double = 15
    public var maxPitch: Double = 15
    public var maxRoll: Double = 10
    /// Blocking limits of the head pose, degrees: a head turned or tilted beyond these is not
    /// facing the camera, and the person can fix it at once, so the hint blocks whatever the
    /// patience. Amazon Rekognition's camera guidance, the service behind AWS Amplify Face
    /// Liveness ("Recommendations for camera setup"): yaw under 45° either way; pitch under 30°
    /// with the camera facing down and 45° facing up (the stricter 30° both ways here, since a
    /// camera below or above the screen is the room's); roll: it sets no limit, and VisionLabs
    /// LUNA ID's head-pose estimation accepts at most 45°. Not tighter: the estimate reads faces
    /// that look at the camera as turned by up to 15–17° (shared/media/fairness, frontal faces:
    /// pitch 15.1° on cc0_interfaces_079, yaw −17.3° on the slightly turned 046; DECISIONS.md
    /// 2026-12-01 "pose limits"), and Smile ID's deliberate-turn targets (27° yaw, 17° pitch)
    /// are within that error of a frontal face.
    public var blockingYaw: Double = 45
    public var blockingPitch: Double = 30
    public var blockingRoll: Double = 45
    /// The whole frame's mean luma (`FrameAnalysis.sceneBrightness`, 0…255) below which the
    /// camera's picture is too dark (`tooDark`, blocking: more light, or facing it, fixes it in
    /// seconds). Judged on the scene, never on the face: dark skin in good light is not "too
    /// dark" (issue #24). 48: measured over shared/media, people/ and fairness/ (DECISIONS.md
    /// 2026-12-01 "light judged on the scene"): the `dark` clip (a quarter of normal light) reads
    /// 28, every other clip ≥ 85 (the lowest: cc0_interfaces_080, a dark-skinned woman before a
    /// brick wall); 48 is their geometric mean (√(28·85) ≈ 49), so either side has a margin of
    /// a factor 1.7.
    public var minSceneBrightness: Double = 48
    /// The whole frame's mean luma above which the picture is overexposed (`tooBright`,
    /// blocking). 235: a frame that bright has most of its pixels clipped whatever the person;
    /// the brightest clip of shared/media reads 175 (fairness cc0_interfaces_089; DECISIONS.md
    /// 2026-12-01 "light judged on the scene").
    public var maxSceneBrightness: Double = 235
    /// Fraction of the face region at luma ≥ 250 above which it is too bright (largely clipped):
    /// a shortfall (advised, then accepted), since a lamp or the sun on the face is the room's.
    public var maxClippedFraction: Double = 0.25
    /// Sharpness (`FrameAnalysis.sharpness`, variance of the Laplacian on the face resampled to
    /// 64×64) below which the face is too blurry. Measured: shared/media faces (MJPEG q6) 850–1300,
    /// the astronaut photo's 95-px face 1170, the same blurred with a 5×5 box 105 (FaceAnalysisTests
    /// `QualityTests`). 150 sits above the blurred face and far below sharp ones. The figure scales
    /// with contrast² (a 25 % dimmed face gives ~1/16), which is why light is judged first.
    public var minSharpness: Double = 150
    /// Require open eyes (`FrameAnalysis.eyesOpen == false` is an `openEyes` shortfall; nil =
    /// unknown is not). The verdict is `EyeOpennessJudge`'s, relative to the person's own eyes.
    public var requireEyesOpen: Bool = true
    /// How eyes are judged closed relative to the person (`EyeOpennessJudge`).
    public var eyes = EyeOpennessConfig()
    /// A new hint replaces the shown one only after persisting this long (issue #5: 200 ms).
    public var hintPersistMs: Int = 200
    /// … a quality hint (`Hint.isQuality`) after this long: 500 ms (issue #11; one frame's light
    /// or mouth measure is noisier than a position, and half a second is still quick to read).
    public var qualityHintPersistMs: Int = 500
    /// While the face is still (no placement hint involved), the shown hint changes at most once
    /// per this many ms (issue #11: "at most one change per second").
    public var minHintChangeIntervalMs: Int = 1000

    // Quality hints (issue #11), judged on `FrameAnalysis.quality`; a measure that was not
    // assessed (no landmarks, no vector) never triggers one.

    /// Inter-eye distance in pixels below which the face is too small for the recording
    /// (`faceTooSmall`). 60 px: ISO/IEC 19794-5:2005's token face image, the smallest face image
    /// the standard defines (eye centres 60 px apart in a 240 px wide image); below it no
    /// profile of the standard accepts the face. The reference frame asks 90 px
    /// (`ReferenceThresholds`). Inside the oval at 640×480 the face is ≥ 168 px tall, eyes
    /// ≈ 70 px apart, so the hint speaks only for cameras below about 550 px in height.
    public var minInterEyeDistance: Double = 60
    /// Set when the camera offers a larger size than the one in use (`--quality` could ask for
    /// it): a face too small in pixels then gets `faceTooSmallRaiseQuality` instead of
    /// `faceTooSmall`.
    public var higherQualityAvailable = false
    /// The face counts as partly out of the frame (`faceOutOfFrame`) when less than this fraction
    /// of its landmarks' box (`QualityMeasure.faceInFrame`) is inside: 0.95, so that a
    /// landmark a few pixels past the edge (dlib extrapolates them) is not a cut face, while a
    /// forehead or chin cut by the edge is.
    public var minFaceInFrame: Double = 0.95
    /// Largest inner-lip opening over the eye-to-chin distance (`QualityMeasure.mouthClosed`)
    /// before `closeMouth`: 0.2, where OFIQ's MouthClosed mapping (x0 0.2, w 0.06,
    /// ofiq_config.jaxn) crosses a score of 50.
    public var maxMouthOpening: Double = 0.2
    /// `faceTheLight` when the darker half of the face's mean luma is below this fraction of the
    /// brighter half's (`QualityMeasure.illuminationBalance`): 0.4, about three stops in linear
    /// light ((1/8)^(1/2.2) ≈ 0.39, sRGB-like gamma): half the face in deep shadow. Measured on
    /// shared/media (DECISIONS.md 2026-12-01): evenly lit faces 0.81–0.95; the people photo
    /// cc0_interfaces_028, lit from one side (about 2.5 stops), 0.55 and still a face to accept.
    public var minIlluminationBalance: Double = 0.4
    /// … or backlight: the face's mean luma below this fraction of the bright part of the scene
    /// (`QualityMeasure.backlight`) **and** that part brighter than `minBacklightBackground`.
    /// 0.5: the face over four times darker than the background in linear light (0.5^2.2 ≈
    /// 1/4.6, two stops).
    public var minBacklightRatio: Double = 0.5
    /// … 0.8 of full scale (luma 204): a window or a lamp, not a wall. The ratio alone would
    /// also flag a darker skin before a light wall (shared/media/people cc0_interfaces_006: ratio
    /// 0.59 before a background of 0.64), which more light on the face does not change.
    public var minBacklightBackground: Double = 0.8
    /// When the tracked face counts as holding still (`StillnessJudge`).
    public var stillness = StillnessConfig()
    public init() {}
}

/// One measure a frame falls short on that depends on the person or on a room they cannot change
/// (issue #24): it is advised for the patience window, then accepted and reported.
public struct QualityShortfall: Sendable, Equatable {
    /// The hint that advises it.
    public var hint: Hint
    /// The measure's name: a `QualityMeasure` raw value where it is one (`HeadPoseYaw`,
    /// `EyesOpen`, `IlluminationBalance`, …), else ours (`FaceClippedFraction`, `Sharpness`).
    public var measure: String
    /// This frame's value, in the measure's unit (degrees, ratio, luma 0…255, px).
    public var value: Double
    /// The limit it crossed, same unit.
    public var limit: Double
    public init(hint: Hint, measure: String, value: Double, limit: Double) {
        self.hint = hint; self.measure = measure; self.value = value; self.limit = limit
    }
}

/// The undebounced judgement of one frame.
public struct FrameJudgement: Sendable, Equatable {
    public var status: FaceStatus
    public var distance: FaceDistance
    public var positions: [FacePosition]
    public var poses: [FacePose]
    /// The highest-priority hint for this frame alone: the first blocking one, else the first
    /// shortfall's, else holdStill.
    public var hint: Hint
    /// Exactly one face passing every rule (geometry, pose, light, blur, eyes, mouth).
    public var isValid: Bool
    /// Exactly one face, placed, and nothing the person can fix at once is wrong (issue #24): only
    /// `shortfalls` (if any) stand between this frame and a valid one.
    public var isPlaced: Bool
    /// What depends on the person or the room (eyes, mouth, uneven light, blur, pose within the
    /// blocking limits, a face too few pixels), in priority order; empty on a valid frame.
    public var shortfalls: [QualityShortfall]
}

/// The pure rules.
public enum GuidanceRules {
    /// Judges one frame. Two kinds of rule (issue #24, "judge what a person can fix, never who
    /// they are"), the first that applies gives the hint:
    ///
    /// **Blocking**, each fixable within seconds: 1. noFace, 2. multipleFaces, 3. distance
    /// (getCloser, getFurther), 4. position (horizontal before vertical, as the label rule),
    /// 5. faceOutOfFrame, 6. pose beyond the blocking limits (turnHeadLess, levelHead),
    /// 7. tooDark / tooBright judged on the whole frame (the scene's exposure, not the skin).
    ///
    /// **Shortfalls**, which depend on the person or a room they cannot change, and which the
    /// flow advises for a patience window before it accepts them (`QualityPatience`):
    /// 8. faceTooSmall / faceTooSmallRaiseQuality (the camera's pixels), 9. pose beyond the
    /// advice limits (yaw/pitch → turnHeadLess, then roll → levelHead), 10. tooBright (the face
    /// clipped), 11. faceTheLight (uneven light, backlight), 12. tooBlurry, 13. openEyes,
    /// 14. closeMouth. A face darker than others is no rule at all: the face's own luma depends
    /// on the skin, so darkness is judged on the whole frame (7).
    ///
    /// Light comes before blur since sharpness scales with contrast; the frame-filling problems
    /// before pose, since the pose is measured on the landmarks they spoil. holdStill when none
    /// applies. `isValid` has no blocking hint and no shortfall; `isPlaced` no blocking hint.
    ///
    /// Geometry uses the first face's detector box in raw source pixels; x is mirrored when
    /// `config.mirror` (a face in the raw frame's left part is shown on the right: TooFarRight,
    /// hint moveLeft). With no face or more than one, the V2 lists are `[.NOT_FOUND]`. A pose
    /// angle or measure that was not measured does not count as a problem. The V2 `poses` list
    /// names the angles beyond the advice limits.
    public static func judge(_ a: FrameAnalysis, config: GuidanceConfig) -> FrameJudgement {
        if a.faces.isEmpty {
            return FrameJudgement(status: .NotFound, distance: .NOT_FOUND, positions: [.NOT_FOUND], poses: [.NOT_FOUND],
                                  hint: .noFace, isValid: false, isPlaced: false, shortfalls: [])
        }
        if a.faces.count > 1 {
            return FrameJudgement(status: .TooManyFaces, distance: .NOT_FOUND, positions: [.NOT_FOUND], poses: [.NOT_FOUND],
                                  hint: .multipleFaces, isValid: false, isPlaced: false, shortfalls: [])
        }
        let face = a.faces[0]
        let oval = config.oval
        let fw = Double(max(a.frameWidth, 1)), fh = Double(max(a.frameHeight, 1))
        let h = face.box.h / fh
        var cx = face.box.centerX / fw
        if config.mirror { cx = 1 - cx }
        let cy = face.box.centerY / fh
        let dx = cx - oval.centerX, dy = cy - oval.centerY

        let distance: FaceDistance = h < oval.minFaceHeight ? .TOO_FAR_AWAY : h > oval.maxFaceHeight ? .TOO_CLOSE : .VALID_FACE_POSE
        var positions: [FacePosition] = []
        if dy < -oval.toleranceY { positions.append(.TOO_FAR_UP) }
        if dx < -oval.toleranceX { positions.append(.TOO_FAR_LEFT) }
        if dy > oval.toleranceY { positions.append(.TOO_FAR_DOWN) }
        if dx > oval.toleranceX { positions.append(.TOO_FAR_RIGHT) }
        var poses: [FacePose] = []
        if let y = face.yaw, abs(y) > config.maxYaw { poses.append(.YAW_EXCESSIVE_FACE_ROTATION) }
        if let r = face.roll, abs(r) > config.maxRoll { poses.append(.ROLL_EXCESSIVE_FACE_ROTATION) }
        if let p = face.pitch, abs(p) > config.maxPitch { poses.append(.PITCH_EXCESSIVE_FACE_ROTATION) }

        let status: FaceStatus
        var hint: Hint
        if distance == .TOO_FAR_AWAY { status = .TooFarAway; hint = .getCloser }
        else if distance == .TOO_CLOSE { status = .TooClose; hint = .getFurther }
        else if positions.contains(.TOO_FAR_LEFT) { status = .TooFarLeft; hint = .moveRight }
        else if positions.contains(.TOO_FAR_RIGHT) { status = .TooFarRight; hint = .moveLeft }
        else if positions.contains(.TOO_FAR_UP) { status = .TooFarUp; hint = .moveDown }
        else if positions.contains(.TOO_FAR_DOWN) { status = .TooFarDown; hint = .moveUp }
        else { status = .ValidFace; hint = .holdStill }

        var shortfalls: [QualityShortfall] = []
        if status == .ValidFace {
            let q = a.quality
            func raw(_ m: QualityMeasure) -> Double? { q?.raw(m) }
            func beyond(_ angle: Double?, _ limit: Double) -> Bool { angle.map { abs($0) > limit } ?? false }
            // Blocking: what the person fixes at once.
            if let v = raw(.faceInFrame), v < config.minFaceInFrame { hint = .faceOutOfFrame }
            else if beyond(face.yaw, config.blockingYaw) || beyond(face.pitch, config.blockingPitch) { hint = .turnHeadLess }
            else if beyond(face.roll, config.blockingRoll) { hint = .levelHead }
            else if let b = a.sceneBrightness, b < config.minSceneBrightness { hint = .tooDark }
            else if let b = a.sceneBrightness, b > config.maxSceneBrightness { hint = .tooBright }
            else {
                // Shortfalls: the person or the room; advised, then accepted (QualityPatience).
                func add(_ h: Hint, _ m: String, _ v: Double, _ limit: Double) {
                    shortfalls.append(QualityShortfall(hint: h, measure: m, value: v, limit: limit))
                }
                if let v = raw(.interEyeDistance), v < config.minInterEyeDistance {
                    add(config.higherQualityAvailable ? .faceTooSmallRaiseQuality : .faceTooSmall,
                        QualityMeasure.interEyeDistance.rawValue, v, config.minInterEyeDistance)
                }
                if let y = face.yaw, abs(y) > config.maxYaw { add(.turnHeadLess, QualityMeasure.headPoseYaw.rawValue, y, config.maxYaw) }
                if let p = face.pitch, abs(p) > config.maxPitch { add(.turnHeadLess, QualityMeasure.headPosePitch.rawValue, p, config.maxPitch) }
                if let r = face.roll, abs(r) > config.maxRoll { add(.levelHead, QualityMeasure.headPoseRoll.rawValue, r, config.maxRoll) }
                if a.clippedFraction > config.maxClippedFraction {
                    add(.tooBright, "FaceClippedFraction", a.clippedFraction, config.maxClippedFraction)
                }
                if let v = raw(.illuminationBalance), v < config.minIlluminationBalance {
                    add(.faceTheLight, QualityMeasure.illuminationBalance.rawValue, v, config.minIlluminationBalance)
                } else if let v = raw(.backlight), v < config.minBacklightRatio,
                          let bg = raw(.backgroundLuminance), bg >= config.minBacklightBackground {
                    add(.faceTheLight, QualityMeasure.backlight.rawValue, v, config.minBacklightRatio)
                }
                if a.sharpness < config.minSharpness { add(.tooBlurry, "Sharpness", a.sharpness, config.minSharpness) }
                if config.requireEyesOpen, a.eyesOpen == false {
                    add(.openEyes, QualityMeasure.eyesOpen.rawValue, raw(.eyesOpen) ?? 0, a.eyesOpenLimit ?? 0)
                }
                if let m = raw(.mouthClosed), m > config.maxMouthOpening {
                    add(.closeMouth, QualityMeasure.mouthClosed.rawValue, m, config.maxMouthOpening)
                }
                if let first = shortfalls.first { hint = first.hint }
            }
        }
        let placed = status == .ValidFace && (hint == .holdStill || !shortfalls.isEmpty)
        return FrameJudgement(status: status, distance: distance,
                              positions: positions.isEmpty ? [.VALID_FACE_POSE] : positions,
                              poses: poses.isEmpty ? [.VALID_FACE_POSE] : poses,
                              hint: hint, isValid: hint == .holdStill, isPlaced: placed, shortfalls: shortfalls)
    }
}
