/// Guidance over a stream of analysed frames: the pure rules (`GuidanceRules`), the hint debounce
/// (`HintDebouncer`) and the stillness the countdown waits for (`StabilityTracker`). A value type;
/// feed frames in order.
public struct Guidance: Sendable, Equatable {
    public var config: GuidanceConfig
    public private(set) var debouncer: HintDebouncer
    public private(set) var stability: StabilityTracker

    public init(config: GuidanceConfig = GuidanceConfig()) {
        self.config = config
        debouncer = HintDebouncer(persistMs: config.hintPersistMs)
        stability = StabilityTracker(centerFraction: config.stillCenterFraction, sizeFraction: config.stillSizeFraction)
    }

    /// Judges one analysed frame. `status`, `distance`, `positions`, `poses` and `isValid` are this
    /// frame's; `hint` is debounced (changes after persisting ≥ `config.hintPersistMs`, judged on
    /// frame timestamps); `isStill` is valid and within the stillness limits of the anchor.
    public mutating func judge(_ analysis: FrameAnalysis) -> GuidanceResult {
        let j = GuidanceRules.judge(analysis, config: config)
        let hint = debouncer.update(j.hint, timestampMs: analysis.timestampMs)
        let still = stability.update(j.isValid ? analysis.faces.first : nil, frameWidth: analysis.frameWidth)
        return GuidanceResult(frameIndex: analysis.frameIndex, timestampMs: analysis.timestampMs, status: j.status,
                              distance: j.distance, positions: j.positions, poses: j.poses, hint: hint,
                              isValid: j.isValid, isStill: j.isValid && still)
    }

    /// Forgets the debounce and stability state (e.g. when the flow restarts).
    public mutating func reset() { debouncer.reset(); stability.reset() }
}
