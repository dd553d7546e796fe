import CaptureModel

// The guidance vocabulary of the Mobai SDK, exactly (constraints V1 and V2), and the result of
// judging one analysed frame. The rules that produce it live with the guidance code.
/// Face status, Mobai constraints V1 (landmark-based). Directions are in the **mirrored**
/// preview the user sees.
public enum FaceStatus: String, Sendable, CaseIterable, Codable {
    case TooFarAway, TooFarUp, TooFarDown, TooFarLeft, TooFarRight, TooClose, NotFound, TooManyFaces, ValidFace
}

/// Mobai constraints V2: distance (bounding-box based).
public enum FaceDistance: String, Sendable, CaseIterable, Codable {
    case TOO_FAR_AWAY, TOO_CLOSE, VALID_FACE_POSE, NOT_FOUND
}

/// Mobai constraints V2: position entries (several at once where several apply; just
/// VALID_FACE_POSE or NOT_FOUND when those apply).
public enum FacePosition: String, Sendable, CaseIterable, Codable {
    case TOO_FAR_UP, TOO_FAR_LEFT, TOO_FAR_DOWN, TOO_FAR_RIGHT, VALID_FACE_POSE, NOT_FOUND
}

/// Mobai constraints V2: pose entries.
public enum FacePose: String, Sendable, CaseIterable, Codable {
    case YAW_EXCESSIVE_FACE_ROTATION, ROLL_EXCESSIVE_FACE_ROTATION, PITCH_EXCESSIVE_FACE_ROTATION, VALID_FACE_POSE, NOT_FOUND
}

/// The judgement of one analysed frame: what the state machine consumes (`frameGuided`).
public struct GuidanceResult: Sendable, Equatable {
    public var frameIndex: Int
    public var timestampMs: Int
    /// V1 status.
    public var status: FaceStatus
    /// V2 lists.
    public var distance: FaceDistance
    public var positions: [FacePosition]
    public var poses: [FacePose]
    /// The single hint to show (already debounced: changed only after persisting ≥ 200 ms).
    public var hint: Hint
    /// This frame's own hint, not debounced (`FrameJudgement.hint`): what made it invalid.
    /// `hint` when built directly.
    public var frameHint: Hint
    /// True when exactly one face passes every constraint (geometry, pose, light, blur, eyes).
    public var isValid: Bool
    /// Stillness of the tracked face over time (`StillnessJudge`; `.settling` on invalid frames).
    public var stillness: Stillness
    /// True when exactly one face is placed and nothing the person can fix at once is wrong: only
    /// `shortfalls` (if any) keep the frame from being valid (issue #24). `isValid` when built directly.
    public var isPlaced: Bool
    /// The frame's shortfalls: what depends on the person or the room, in priority order
    /// (`GuidanceRules.judge`); the flow advises them for a patience window, then accepts them.
    public var shortfalls: [QualityShortfall] = []
    /// The eyes verdict (`EyeOpennessJudge`) and its limit, nil when unknown.
    public var eyesOpen: Bool?
    public var eyesOpenLimit: Double?
    /// True when valid and settled and holding still: what the countdown waits for.
    public var isStill: Bool { isValid && stillness == .still }
    /// True when placed and settled and holding still, shortfalls or not: what the patience
    /// window counts (`QualityPatience`).
    public var isPlacedAndStill: Bool { isPlaced && stillness == .still }
    /// True when the face, placed on this frame, left the position it was holding: a real move.
    public var hasMoved: Bool { isPlaced && stillness == .moved }
    /// The state the oval shows (valid look or not): the debounced hint's (`hint == .holdStill`),
    /// changed at most once per 334 ms (`FlashLimiter`, WCAG 2.1 SC 2.3.1) by `Guidance.judge`;
    /// `isValid` when built directly.
    public var ovalValid: Bool
    /// The single face's tracked yaw and pitch, degrees (`HeadPose` signs); nil without exactly
    /// one face. What the active challenge follows (issue #25).
    public var yaw: Double?
    public var pitch: Double?
    public init(frameIndex: Int, timestampMs: Int, status: FaceStatus, distance: FaceDistance,
                positions: [FacePosition], poses: [FacePose], hint: Hint, isValid: Bool, stillness: Stillness) {
        self.frameIndex = frameIndex; self.timestampMs = timestampMs; self.status = status
        self.distance = distance; self.positions = positions; self.poses = poses; self.hint = hint
        self.isValid = isValid; self.stillness = stillness; self.ovalValid = isValid; self.isPlaced = isValid
        self.frameHint = hint
    }
    /// A result whose stillness is given as a flag (tests and simple drivers): `isStill` true is
    /// `.still`, false `.settling`.
    public init(frameIndex: Int, timestampMs: Int, status: FaceStatus, distance: FaceDistance,
                positions: [FacePosition], poses: [FacePose], hint: Hint, isValid: Bool, isStill: Bool) {
        self.init(frameIndex: frameIndex, timestampMs: timestampMs, status: status, distance: distance,
                  positions: positions, poses: poses, hint: hint, isValid: isValid, stillness: isStill ? .still : .settling)
    }
}
