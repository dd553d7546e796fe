/// Settings of `EyeOpennessJudge`.
public struct EyeOpennessConfig: Sendable, Equatable {
    /// The eyes count as closed when their aperture (the quality vector's `EyesOpen`: the smaller
    /// eye's eyelid distance over the eye-to-chin distance, OFIQ's measure) falls below this
    /// fraction of the person's own open-eye aperture in this capture. 0.5: closing the lids
    /// takes the aperture to a small fraction of the open one, while on every clip of
    /// shared/media, people/ and fairness/ the open eyes' lowest frame is ≥ 0.80 of the same
    /// person's p80 (the lowest, 0.80, a smiling man with glasses, cc0_interfaces_020; DECISIONS.md
    /// 2026-12-01 "eyes relative to the person"), smiles and glasses included.
    public var closedFraction: Double = 0.5
    /// The person's open-eye aperture is this percentile of their apertures over the last
    /// `baselineWindowMs`: 0.8, so that blinks and closed spells (up to 80 % of the window) do not
    /// pull it down.
    public var baselinePercentile: Double = 0.8
    /// How far back the baseline looks, ms. 10 000: longer than any hold in a capture (a 7 s
    /// settle), short enough to follow a change of glasses or lighting between attempts.
    public var baselineWindowMs: Int = 10_000
    /// No relative verdict before the baseline has this much data, ms (then only `absoluteClosed`
    /// speaks). 500: about 7 frames at 15 fps, longer than a blink (100–400 ms).
    public var minBaselineMs: Int = 500
    /// Below this aperture the eyes are closed whatever the person's baseline: half OFIQ's
    /// EyesOpen sigmoid midpoint (x0 0.02, `ofiq_config.jaxn`; its score there is 27). It
    /// catches eyes closed from the first frame, which a baseline of closed eyes alone would not.
    /// Not OFIQ's 0.02 itself: open, smiling eyes behind glasses read 0.024 on
    /// shared/media/fairness (cc0_interfaces_020, 015), too near it to be safe for narrower eyes.
    public var absoluteClosed: Double = 0.01
    public init() {}
}

/// Whether the eyes are closed, judged against this person's own open-eye aperture during this
/// capture (issue #24), so that narrow or smiling eyes are open and a blink or closed eyes are
/// closed. The one eyes verdict of the product: `FrameAnalysis.eyesOpen` is set from it, and the
/// guidance's `openEyes` rule reads it. A value type; feed frames in timestamp order.
public struct EyeOpennessJudge: Sendable, Equatable {
    public var config: EyeOpennessConfig
    private var samples: [(t: Int, v: Double)] = []

    public init(config: EyeOpennessConfig = EyeOpennessConfig()) { self.config = config }

    public static func == (a: EyeOpennessJudge, b: EyeOpennessJudge) -> Bool {
        a.config == b.config && a.samples.count == b.samples.count
            && zip(a.samples, b.samples).allSatisfy { $0.t == $1.t && $0.v == $1.v }
    }

    /// The person's open-eye aperture now (the `baselinePercentile` of the window), nil before
    /// `minBaselineMs` of samples.
    public var baseline: Double? {
        guard let first = samples.first, let last = samples.last, last.t - first.t >= config.minBaselineMs else { return nil }
        let sorted = samples.map(\.v).sorted()
        let k = min(sorted.count - 1, max(0, Int((config.baselinePercentile * Double(sorted.count - 1)).rounded())))
        return sorted[k]
    }

    /// Judges one frame's aperture (`EyesOpen` raw; nil when not measured: no face or no
    /// landmarks). - Returns: open (true) or closed (false) with the limit used, or nil (no
    /// verdict) when nothing was measured.
    public mutating func update(aperture: Double?, timestampMs t: Int) -> (open: Bool, limit: Double)? {
        guard let v = aperture, v.isFinite, v >= 0 else { return nil }
        samples.append((t, v))
        samples.removeAll { t - $0.t > config.baselineWindowMs }
        let limit = max(config.absoluteClosed, (baseline ?? 0) * config.closedFraction)
        return (v >= limit, limit)
    }

    /// Forgets the person (a new attempt may be someone else).
    public mutating func reset() { samples = [] }
}
