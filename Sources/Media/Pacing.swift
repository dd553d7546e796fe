#if canImport(Glibc)
import Glibc
#endif

/// A monotonic clock in milliseconds that can wait. Injected so tests never sleep.
public protocol MediaClock: AnyObject {
    /// Milliseconds on a monotonic scale (only differences matter).
    func nowMs() -> Int
    /// Waits `ms` milliseconds (no-op for ms ≤ 0).
    func sleep(ms: Int)
}

/// The real clock: `CLOCK_MONOTONIC` and `nanosleep`.
public final class SystemClock: MediaClock {
    private let originMs: Int
    /// - Parameter startingAtZero: count from now (a run's clock: its event times start at 0 in
    ///   every pace) instead of from the monotonic clock's own origin (boot).
    public init(startingAtZero: Bool) {
        originMs = startingAtZero ? Self.monotonicMs() : 0
    }
    /// The monotonic clock as it is (its origin is boot).
    public init() { originMs = 0 }
    public func nowMs() -> Int { Self.monotonicMs() - originMs }
    /// `CLOCK_MONOTONIC` in milliseconds (origin: boot), for measuring real waits.
    public static func monotonicNowMs() -> Int { monotonicMs() }
    private static func monotonicMs() -> Int {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int(ts.tv_sec) * 1000 + Int(ts.tv_nsec) / 1_000_000
    }
    public func sleep(ms: Int) {
        guard ms > 0 else { return }
        var request = timespec(tv_sec: ms / 1000, tv_nsec: (ms % 1000) * 1_000_000)
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }
}

/// A manual clock for tests: `sleep` advances time instantly and is recorded.
public final class ManualClock: MediaClock {
    public private(set) var now: Int
    /// Every `sleep` duration asked for, in order.
    public private(set) var sleeps: [Int] = []
    public init(startMs: Int = 0) { now = startMs }
    public func nowMs() -> Int { now }
    public func sleep(ms: Int) { if ms > 0 { sleeps.append(ms); now += ms } }
    /// Moves time forward without a sleep (work that took time).
    public func advance(ms: Int) { now += ms }
}

/// `--pace realtime|fast`.
public enum PaceMode: String, Sendable, Equatable, CaseIterable {
    /// Frames are released at their timestamps (relative to the first frame's release).
    case realtime
    /// Frames are released as soon as they are asked for; time comes from frame timestamps.
    case fast

    /// The default when `--pace` is not given (issue #4): realtime for cameras and the demo;
    /// for files and pipes realtime on a terminal, fast otherwise (scripted, deterministic runs).
    public static func defaultMode(for kind: SourceKind, interactive: Bool) -> PaceMode {
        switch kind {
        case .camera, .demo: return .realtime
        case .avi, .mjpegStream, .y4m: return interactive ? .realtime : .fast
        }
    }
}

/// Releases frames at their timestamps (`realtime`) or at once (`fast`).
///
/// Realtime: the first frame anchors the timeline (`anchor = now - timestamp`); frame t is
/// released at `anchor + t`. A frame already late by more than `resyncAfterMs` (the consumer
/// was slow) moves the anchor instead of trying to catch up, so a slow consumer never makes the
/// pacer burst frames.
public final class Pacer {
    public let mode: PaceMode
    public let clock: MediaClock
    /// Lateness (ms) beyond which the timeline is re-anchored; default 250 ms.
    public var resyncAfterMs: Int
    private var anchor: Int?
    /// Frames released later than their due time by more than one frame period would allow.
    public private(set) var lateFrames = 0

    public init(mode: PaceMode, clock: MediaClock = SystemClock(), resyncAfterMs: Int = 250) {
        self.mode = mode; self.clock = clock; self.resyncAfterMs = resyncAfterMs
    }

    /// Waits until the frame stamped `timestampMs` is due; returns the time (clock ms) the frame
    /// is considered released at. In `fast` mode returns at once.
    @discardableResult
    public func release(timestampMs: Int) -> Int {
        guard mode == .realtime else { return clock.nowMs() }
        let now = clock.nowMs()
        guard let a = anchor else { anchor = now - timestampMs; return now }
        let due = a + timestampMs
        if due > now { clock.sleep(ms: due - now); return clock.nowMs() }
        if now - due > resyncAfterMs { lateFrames += 1; anchor = now - timestampMs }
        return now
    }

    /// Forgets the anchor (e.g. after a loop restart).
    public func reset() { anchor = nil }
}

/// Loops a finite source (`--loop`): at its end it is reopened with `open` and timestamps
/// continue (offset by the last timestamp plus one frame period). Indices keep counting.
public final class LoopingSource: FrameSource {
    private let open: () throws -> FrameSource
    private var current: FrameSource
    private var offsetMs = 0
    private var lastMs = 0
    private var delivered = 0
    private var statsBefore = SourceStats()
    /// How many times the source was reopened at its end (`FrameSource.loops`; the frame
    /// returned with the increase is the new pass's first).
    public private(set) var loops = 0

    /// - Parameter open: opens a fresh instance of the underlying source.
    /// - Throws: what `open` throws.
    public init(open: @escaping () throws -> FrameSource) throws {
        self.open = open
        self.current = try open()
    }

    public var info: SourceInfo { current.info }
    public var stats: SourceStats {
        statsBefore + current.stats
    }

    public func nextFrame() throws -> VideoFrame? {
        if let f = try current.nextFrame() { return stamp(f) }
        // End: reopen once; an empty source ends the loop rather than spinning.
        let period = Int((1000 / max(1, current.info.fps)).rounded())
        statsBefore = stats
        current.close()
        current = try open()
        loops += 1
        offsetMs = lastMs + period
        guard let f = try current.nextFrame() else { return nil }
        return stamp(f)
    }

    private func stamp(_ f: VideoFrame) -> VideoFrame {
        var g = f
        g.timestampMs = f.timestampMs + offsetMs
        g.index = delivered
        delivered += 1
        lastMs = g.timestampMs
        return g
    }

    public func close() { current.close() }
}
