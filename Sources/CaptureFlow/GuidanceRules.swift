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
    /// Largest |yaw| in degrees (issue #5 default 15°; ISO/IEC 19794-5 frontal images allow ±5°
    /// for passports, liveness capture tolerates more).
    public var maxYaw: Double = 15
    /// Largest |pitch| in degrees (issue #5 default 15°).
    public var maxPitch: Double = 15
    /// Largest |roll| in degrees (issue #5 default 10°).
    public var maxRoll: Double = 10
    /// Face-region mean luma (0...255) below which the light is too dark. Issue #5: "too dark below
    /// about 60/255" (the `dark` scenario's face is ≈ 41, normal light ≈ 160).
    public var minBrightness: Double = 60
    /// Fraction of the face region at luma ≥ 250 above which it is too bright (largely clipped).
    public var maxClippedFraction: Double = 0.25
    /// Sharpness (`FrameAnalysis.sharpness`, variance of the Laplacian on the face resampled to
    /// 64×64) below which the face is too blurry. Measured: shared/media faces (MJPEG q6) 850–1300,
    /// the astronaut photo's 95-px face 1170, the same blurred with a 5×5 box 105 (FaceAnalysisTests
    /// `QualityTests`). 150 sits above the blurred face and far below sharp ones. The figure scales
    /// with contrast² (a 25 % dimmed face gives ~1/16), which is why light is judged first.
    public var minSharpness: Double = 150
    /// Require open eyes (`FrameAnalysis.eyesOpen == false` blocks; nil = unknown does not).
    public var requireEyesOpen: Bool = true
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

/// The undebounced judgement of one frame.
public struct FrameJudgement: Sendable, Equatable {
    public var status: FaceStatus
    public var distance: FaceDistance
    public var positions: [FacePosition]
    public var poses: [FacePose]
    /// The highest-priority hint for this frame alone.
    public var hint: Hint
    /// Exactly one face passing geometry, pose, light, blur and eyes.
    public var isValid: Bool
}

/// The pure rules.
public enum GuidanceRules {
    /// Judges one frame. The one priority list of the hint (issues #5 and #11), first wins:
    /// 1. noFace, 2. multipleFaces, 3. distance (getCloser, getFurther), 4. position (horizontal
    /// before vertical, as the label rule), 5. faceOutOfFrame, 6. faceTooSmall /
    /// faceTooSmallRaiseQuality, 7. pose (yaw/pitch → turnHeadLess, then roll → levelHead),
    /// 8. tooDark, 9. tooBright, 10. faceTheLight, 11. tooBlurry, 12. openEyes, 13. closeMouth,
    /// then holdStill. Light comes before blur since sharpness scales with contrast; the
    /// frame-filling problems (cut, too few pixels) before pose, since the pose is measured on
    /// the landmarks they spoil. Every hint but holdStill makes the frame invalid.
    ///
    /// Geometry uses the first face's detector box in raw source pixels; x is mirrored when
    /// `config.mirror` (a face in the raw frame's left part is shown on the right: TooFarRight,
    /// hint moveLeft). With no face or more than one, the V2 lists are `[.NOT_FOUND]`. A pose
    /// angle that was not measured (no landmarks) does not count as excessive.
    public static func judge(_ a: FrameAnalysis, config: GuidanceConfig) -> FrameJudgement {
        if a.faces.isEmpty {
            return FrameJudgement(status: .NotFound, distance: .NOT_FOUND, positions: [.NOT_FOUND], poses: [.NOT_FOUND],
                                  hint: .noFace, isValid: false)
        }
        if a.faces.count > 1 {
            return FrameJudgement(status: .TooManyFaces, distance: .NOT_FOUND, positions: [.NOT_FOUND], poses: [.NOT_FOUND],
                                  hint: .multipleFaces, isValid: false)
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

        if status == .ValidFace {
            let q = a.quality
            func below(_ m: QualityMeasure, _ limit: Double) -> Bool { q?.raw(m).map { $0 < limit } ?? false }
            if below(.faceInFrame, config.minFaceInFrame) { hint = .faceOutOfFrame }
            else if below(.interEyeDistance, config.minInterEyeDistance) {
                hint = config.higherQualityAvailable ? .faceTooSmallRaiseQuality : .faceTooSmall
            }
            else if poses.contains(.YAW_EXCESSIVE_FACE_ROTATION) || poses.contains(.PITCH_EXCESSIVE_FACE_ROTATION) { hint = .turnHeadLess }
            else if poses.contains(.ROLL_EXCESSIVE_FACE_ROTATION) { hint = .levelHead }
            else if a.brightness < config.minBrightness { hint = .tooDark }
            else if a.clippedFraction > config.maxClippedFraction { hint = .tooBright }
            else if below(.illuminationBalance, config.minIlluminationBalance)
                        || (below(.backlight, config.minBacklightRatio) && !below(.backgroundLuminance, config.minBacklightBackground)) {
                hint = .faceTheLight
            }
            else if a.sharpness < config.minSharpness { hint = .tooBlurry }
            else if config.requireEyesOpen && a.eyesOpen == false { hint = .openEyes }
            else if let m = q?.raw(.mouthClosed), m > config.maxMouthOpening { hint = .closeMouth }
        }
        return FrameJudgement(status: status, distance: distance,
                              positions: positions.isEmpty ? [.VALID_FACE_POSE] : positions,
                              poses: poses.isEmpty ? [.VALID_FACE_POSE] : poses,
                              hint: hint, isValid: hint == .holdStill)
    }
}
