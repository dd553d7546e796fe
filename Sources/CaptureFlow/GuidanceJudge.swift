/// Guidance over a stream of analysed frames: the pure rules (`GuidanceRules`), the hint debounce
/// (`HintDebouncer`) and the stillness the countdown waits for (`StillnessJudge`). A value type;
/// feed frames in order.
public struct Guidance: Sendable, Equatable {
    public var config: GuidanceConfig
    public private(set) var debouncer: HintDebouncer
    public private(set) var stillness: StillnessJudge
    /// The oval's shown state, at most three changes a second (issue #17).
    public private(set) var ovalLimiter = FlashLimiter()

    public init(config: GuidanceConfig = GuidanceConfig()) {
        self.config = config
        debouncer = HintDebouncer(persistMs: config.hintPersistMs, qualityPersistMs: config.qualityHintPersistMs,
                                  minChangeIntervalMs: config.minHintChangeIntervalMs)
        stillness = StillnessJudge(config: config.stillness)
    }

    /// Judges one analysed frame. `status`, `distance`, `positions`, `poses` and `isValid` are this
    /// frame's; `hint` is debounced (changes after persisting ≥ `config.hintPersistMs`, judged on
    /// frame timestamps); `stillness` is judged on the tracked face of valid frames over time
    /// (`StillnessJudge`), and `isStill` is valid and `.still`.
    public mutating func judge(_ analysis: FrameAnalysis) -> GuidanceResult {
        let j = GuidanceRules.judge(analysis, config: config)
        let hint = debouncer.update(j.hint, timestampMs: analysis.timestampMs)
        let still = stillness.update(j.isValid ? analysis.faces.first : nil, frameWidth: analysis.frameWidth,
                                     timestampMs: analysis.timestampMs)
        var r = GuidanceResult(frameIndex: analysis.frameIndex, timestampMs: analysis.timestampMs, status: j.status,
                               distance: j.distance, positions: j.positions, poses: j.poses, hint: hint,
                               isValid: j.isValid, stillness: j.isValid ? still : .settling)
        // The oval follows the debounced hint, not the frame, and changes at most 3 times a second.
        r.ovalValid = ovalLimiter.update(hint == .holdStill, nowMs: analysis.timestampMs)
        return r
    }

    /// Forgets the debounce and stillness state (e.g. when the flow restarts).
    public mutating func reset() { debouncer.reset(); stillness.reset(); ovalLimiter.reset() }
}
