/// Events (or bytes) per second over a sliding window of the run's clock: the status line's
/// measured source fps, preview fps and bytes per second to the terminal. Pure: times come in.
public struct RateMeter: Sendable, Equatable {
    /// The window, in ms (default 2000: long enough to average out a 15 fps camera's jitter,
    /// short enough to follow a change of `--preview-fps` or a stalled source).
    public let windowMs: Int
    private var samples: [(t: Int, total: Double)] = []
    private var total = 0.0

    public init(windowMs: Int = 2000) { self.windowMs = max(1, windowMs) }

    public static func == (a: RateMeter, b: RateMeter) -> Bool {
        a.windowMs == b.windowMs && a.total == b.total && a.samples.map(\.t) == b.samples.map(\.t)
    }

    /// Records `amount` (1 for an event, a byte count for bytes) at `atMs`. Times must not go
    /// back; samples older than the window are dropped (one before the window is kept as its start).
    public mutating func add(_ amount: Double = 1, atMs t: Int) {
        total += amount
        samples.append((t, total))
        while samples.count > 2, samples[1].t <= t - windowMs { samples.removeFirst() }
    }

    /// Per second over the window: (amount since the first sample kept) / (time since it), or
    /// nil until the samples span a quarter of the window (two samples 10 ms apart say little).
    public var perSecond: Double? {
        guard let first = samples.first, let last = samples.last, last.t - first.t >= windowMs / 4 else { return nil }
        return (last.total - first.total) * 1000 / Double(last.t - first.t)
    }
}
