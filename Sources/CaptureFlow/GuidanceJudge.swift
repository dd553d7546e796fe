import CaptureModel

/// Guidance over a stream of analysed frames: the pure rules (`GuidanceRules`), the hint debounce
/// (`HintDebouncer`) and the stillness the countdown waits for (`StillnessJudge`). A value type;
/// feed frames in order.
public struct Guidance: Sendable, Equatable {
    public var config: GuidanceConfig
    public private(set) var debouncer: HintDebouncer
    public private(set) var stillness: StillnessJudge
    /// The oval's shown state, at most three changes a second (issue #17).
    public private(set) var ovalLimiter = FlashLimiter()
    /// The eyes verdict relative to the person (issue #24).
    public private(set) var eyes: EyeOpennessJudge

    public init(config: GuidanceConfig = GuidanceConfig()) {
        self.config = config
        debouncer = HintDebouncer(persistMs: config.hintPersistMs, qualityPersistMs: config.qualityHintPersistMs,
                                  minChangeIntervalMs: config.minHintChangeIntervalMs)
        stillness = StillnessJudge(config: config.stillness)
        eyes = EyeOpennessJudge(config: config.eyes)
    }

    /// Judges one analysed frame. The eyes verdict comes first (`EyeOpennessJudge`, from the
    /// vector's `EyesOpen` aperture against this person's own; it replaces `analysis.eyesOpen`
    /// and is returned in `eyesOpen`/`eyesOpenLimit`). `status`, `distance`, `positions`, `poses`,
    /// `isValid`, `isPlaced` and `shortfalls` are this frame's (`GuidanceRules.judge`); `hint` is
    /// debounced (changes after persisting ≥ `config.hintPersistMs`, judged on frame
    /// timestamps); `stillness` is judged on the tracked face of placed frames over time
    /// (`StillnessJudge`: a shortfall such as a smile does not stop a face from settling), and
    /// `isStill` is valid and `.still`.
    public mutating func judge(_ analysis: FrameAnalysis) -> GuidanceResult {
        var a = analysis
        let eyesVerdict = a.faces.count == 1 ? eyes.update(aperture: a.quality?.raw(.eyesOpen), timestampMs: a.timestampMs) : nil
        a.eyesOpen = eyesVerdict?.open
        a.eyesOpenLimit = eyesVerdict?.limit
        let j = GuidanceRules.judge(a, config: config)
        let hint = debouncer.update(j.hint, timestampMs: a.timestampMs)
        let still = stillness.update(j.isPlaced ? a.faces.first : nil, frameWidth: a.frameWidth, timestampMs: a.timestampMs)
        var r = GuidanceResult(frameIndex: a.frameIndex, timestampMs: a.timestampMs, status: j.status,
                               distance: j.distance, positions: j.positions, poses: j.poses, hint: hint,
                               isValid: j.isValid, stillness: j.isPlaced ? still : .settling)
        r.isPlaced = j.isPlaced
        r.frameHint = j.hint
        r.shortfalls = j.shortfalls
        r.eyesOpen = a.eyesOpen
        r.eyesOpenLimit = a.eyesOpenLimit
        if a.faces.count == 1 { r.yaw = a.faces[0].yaw; r.pitch = a.faces[0].pitch }   // issue #25
        // The oval says whether the face is placed (✓) or not (✗): placed on this frame and the
        // debounced hint not a placement one; a shortfall (a smile, a tilt) is no ✗. It changes at
        // most 3 times a second.
        r.ovalValid = ovalLimiter.update(j.isPlaced && !hint.isPlacement && hint != .faceOutOfFrame, nowMs: a.timestampMs)
        return r
    }

    /// Forgets the debounce and stillness state (e.g. when the flow restarts).
    public mutating func reset() { debouncer.reset(); stillness.reset(); ovalLimiter.reset(); eyes.reset() }
}
