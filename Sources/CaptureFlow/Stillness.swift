import CaptureModel

/// Whether a valid face is holding still (issue #10), judged on the tracked face over a time
/// window rather than frame to frame.
public enum Stillness: String, Sendable, Equatable {
    /// Not judged yet: no face, or the window is not full, or the face is still moving into place.
    case settling
    /// Settled and within the hold tolerance of where it settled.
    case still
    /// It had settled and has now left the hold tolerance: a real move.
    case moved
}

/// Thresholds of `StillnessJudge`. The figures come from the tracked face (`FaceTracker`) on
/// shared/media and shared/media/people (DECISIONS.md 2026-12-01, "stillness tolerances").
public struct StillnessConfig: Sendable, Equatable {
    /// Length of the window the speed is judged over, in ms. 300 ms: long enough that the
    /// tracked face's noise (centre p95 0.15 % of the frame width frame to frame, size p95 0.55 %,
    /// worst clips people/cc0_interfaces_028_* and rolled) reads as under 1 % W/s and 3 %/s.
    public var windowMs: Int = 300
    /// The face has settled when its centre moves slower than this fraction of the frame width
    /// per second over the window. 0.05 (32 px/s at 640): 5× the noise speed above, and 10× the
    /// natural sway in the clips (0.5 % W/s); real moves into place run at 15–45 % W/s.
    public var maxCenterSpeed: Double = 0.05
    /// … and its size changes slower than this fraction per second. 0.10: 3× the noise above;
    /// moving closer or back runs at 20–55 %/s (shared/media approach, too_close).
    public var maxSizeRate: Double = 0.10
    /// Once settled, the hold lasts while the centre stays within this fraction of the frame
    /// width of where it settled (the mean over the settling window). 0.03 (issue #5's figure,
    /// 19 px at 640): 15× the largest deviation the tracked face showed on a still hold
    /// (0.2 %), room for a person's natural sway of about ±1 cm at selfie distance.
    public var holdCenterTolerance: Double = 0.03
    /// … and its size within this fraction of the settled size. 0.05 (issue #5's figure):
    /// 5× the largest still-hold deviation measured (1.1 %, people/cc0_interfaces_028), about a
    /// 2.5 cm lean at 50 cm.
    public var holdSizeTolerance: Double = 0.05
    /// Invalid frames (no face, or a face the rules reject) shorter than this keep the window and
    /// the settled position; longer ones start over. 250 ms: the blip issue #10 says must not
    /// restart a countdown (one missed detection at 15 fps is 67 ms).
    public var graceMs: Int = 250
    public init() {}
}

/// Judges stillness over time from the tracked face's box (centre and height). A value type;
/// feed every judged frame in timestamp order.
///
/// Settling: the face is valid for at least `windowMs` and its speed over that window (first to
/// last sample) is under `maxCenterSpeed` and `maxSizeRate`; the hold position is then the mean of
/// the window. Holding: each valid frame must stay within `holdCenterTolerance` and
/// `holdSizeTolerance` of that position, else it is `moved` and settling starts again from that
/// frame. Invalid frames shorter than `graceMs` change nothing.
public struct StillnessJudge: Sendable, Equatable {
    public var config: StillnessConfig
    private struct Sample: Sendable, Equatable { var t: Int; var x, y, size: Double }
    private var window: [Sample] = []
    private var hold: Sample?
    private var lastValidMs: Int?

    public init(config: StillnessConfig = StillnessConfig()) { self.config = config }

    /// True while settled (between a `still` and the next `moved` or reset).
    public var isHolding: Bool { hold != nil }

    /// Feeds one frame: `face` is the tracked face when the frame is valid, nil when not.
    public mutating func update(_ face: DetectedFace?, frameWidth: Int, timestampMs t: Int) -> Stillness {
        guard let face else {
            if let last = lastValidMs, t - last >= config.graceMs { reset() }
            return .settling
        }
        lastValidMs = t
        let w = Double(max(frameWidth, 1))
        let s = Sample(t: t, x: face.box.centerX, y: face.box.centerY, size: max(face.box.h, 1))
        if let h = hold {
            let dc = ((s.x - h.x) * (s.x - h.x) + (s.y - h.y) * (s.y - h.y)).squareRoot() / w
            if dc <= config.holdCenterTolerance && abs(s.size / h.size - 1) <= config.holdSizeTolerance { return .still }
            hold = nil
            window = [s]
            return .moved
        }
        window.append(s)
        window.removeAll { t - $0.t > config.windowMs }
        guard let first = window.first, t - first.t >= config.windowMs * 2 / 3 else { return .settling }
        let dt = Double(t - first.t) / 1000
        let speed = ((s.x - first.x) * (s.x - first.x) + (s.y - first.y) * (s.y - first.y)).squareRoot() / w / dt
        let rate = abs(s.size / first.size - 1) / dt
        guard speed <= config.maxCenterSpeed && rate <= config.maxSizeRate else { return .settling }
        let n = Double(window.count)
        hold = Sample(t: t, x: window.map(\.x).reduce(0, +) / n, y: window.map(\.y).reduce(0, +) / n,
                      size: window.map(\.size).reduce(0, +) / n)
        return .still
    }

    /// Forgets the window and the hold position.
    public mutating func reset() { window = []; hold = nil; lastValidMs = nil }
}
