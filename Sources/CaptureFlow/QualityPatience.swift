import CaptureModel

/// One shortfall the flow accepted after the patience window (issue #24): what result.json's
/// `qualityShortfalls`, the `qualityAccepted` event and the `metadata` report.
public struct AcceptedShortfall: Sendable, Equatable {
    /// The hint that advised it, the measure, its value on the last frame that fell short before
    /// the flow accepted it, and the limit it crossed (`QualityShortfall`).
    public var hint: Hint
    public var measure: String
    public var value: Double
    public var limit: Double
    /// How long the capture screen showed its hint (the debounced hint) while the face was placed
    /// in this attempt, ms: until the flow accepted it, or the whole attempt when it was not.
    public var shownMs: Int
    /// On how many judged frames it fell short before it was accepted (the whole attempt when not).
    public var frames: Int
    /// How many judged frames of the recording itself fell short (what the video holds).
    public var recordedFrames: Int = 0
    /// True when the patience window ran out and the flow went on with it; false when it fell
    /// short on some frames only and the capture went on while it was met.
    public var accepted: Bool = false
}

/// The patience rule (issue #24): measures that depend on the person or on a room they cannot
/// change never block forever. While the face is placed and still and only shortfalls remain,
/// their hint is shown for `windowMs`; then the flow accepts them, counts down and records, and
/// reports each one. `nil` window (`--strict-quality`) never accepts: today's blocking.
///
/// The window counts the time the face is placed and holding still
/// (`GuidanceResult.isPlacedAndStill`) while a shortfall was seen within the last `clearMs`,
/// valid frames included, so a person walking in or moving is not rushed, a measure that flickers
/// about its limit is accepted after the same window as a steady one, and a shortfall the person
/// fixed stops counting. Each frame counts the time since the previous judged frame, at most
/// `maxFrameGapMs`, so a
/// stalled source does not spend the window at once. Per attempt: `reset()` at each Start.
public struct QualityPatience: Sendable, Equatable {
    /// The patience window, ms, or nil (strict: never accept). Default 3000 (`FlowSettings`).
    public var windowMs: Int?
    /// The longest gap between two judged frames that counts in full, ms. 250: the flow's own
    /// blip length (`FlowSettings.invalidGraceMs`), about four frames at 15 fps.
    public static let maxFrameGapMs = 250
    /// The time the shortfalls' hints were shown while the face was placed and still, ms.
    public private(set) var spentMs = 0
    /// True once the window ran out in this attempt: shortfalls no longer block.
    public private(set) var accepted = false
    private var lastMs: Int?
    /// When a placed frame last fell short in this attempt (ms), nil before any.
    public private(set) var lastShortMs: Int?
    /// A shortfall counts as gone after this long without one: `FlowSettings.shortfallClearMs`.
    public static let clearMs = FlowSettings.shortfallClearMs
    private var records: [AcceptedShortfall] = []

    public init(windowMs: Int?) { self.windowMs = windowMs }

    /// The shortfalls seen in this attempt so far, in the order they first appeared (`accepted`
    /// true on each once the window ran out): what result.json's `qualityShortfalls` reports.
    public var shortfalls: [AcceptedShortfall] { records }

    /// Feeds one judged frame of the capture (positioning, countdown or recording) at `nowMs`.
    /// - Returns: the accepted shortfalls on the frame where the window runs out (once per
    ///   attempt), else an empty list.
    public mutating func update(_ g: GuidanceResult, nowMs: Int, recording: Bool = false) -> [AcceptedShortfall] {
        let dt = lastMs.map { min(max(0, nowMs - $0), Self.maxFrameGapMs) } ?? 0
        lastMs = nowMs
        guard g.isPlaced else { return [] }
        if !g.shortfalls.isEmpty { lastShortMs = nowMs }
        for s in g.shortfalls {
            let k: Int
            if let i = records.firstIndex(where: { $0.measure == s.measure }) { k = i } else {
                records.append(AcceptedShortfall(hint: s.hint, measure: s.measure, value: s.value, limit: s.limit,
                                                 shownMs: 0, frames: 0))
                k = records.count - 1
            }
            if !accepted { records[k].value = s.value; records[k].limit = s.limit; records[k].frames += 1 }
            if recording { records[k].recordedFrames += 1 }
        }
        guard !accepted else { return [] }
        // Shown: the debounced hint on screen is a shortfall's, whatever this one frame measured.
        for k in records.indices where records[k].hint == g.hint { records[k].shownMs += dt }
        // The window runs while the face is placed and still and a shortfall was seen within the
        // last `clearMs`, valid frames included: a measure that flickers about its limit (half
        // the frames short) must not take twice the window, nor restart it; a shortfall fixed for
        // good stops it.
        guard g.isPlacedAndStill, let seen = lastShortMs, nowMs - seen < Self.clearMs, let window = windowMs else { return [] }
        spentMs += dt
        guard spentMs >= window else { return [] }
        accepted = true
        for k in records.indices { records[k].accepted = true }
        return records
    }

    /// True when a countdown may start as far as shortfalls go: the window accepted them, none
    /// was seen yet, or the last one is at least `clearMs` old at `nowMs`.
    public func clear(at nowMs: Int) -> Bool {
        accepted || lastShortMs.map { nowMs - $0 >= Self.clearMs } ?? true
    }

    /// The frame as the flow treats it: once the window has run out, a placed frame counts as
    /// valid (its shortfalls are accepted, the hint is holdStill and the oval shows valid);
    /// otherwise the frame as judged.
    public func effective(_ g: GuidanceResult) -> GuidanceResult {
        guard accepted, g.isPlaced, !g.isValid else { return g }
        var r = g
        r.isValid = true
        r.hint = .holdStill
        r.frameHint = .holdStill
        r.ovalValid = true
        return r
    }

    /// Forgets the attempt.
    public mutating func reset() { spentMs = 0; accepted = false; lastMs = nil; lastShortMs = nil; records = [] }
}
