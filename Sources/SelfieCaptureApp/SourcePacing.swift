import FaceAnalysis
import Foundation
import Media

#if canImport(Glibc)
import Glibc
#endif

/// How the run's time passes: the one place that knows whether the clock is real or virtual, so
/// no other code asks. `--pace realtime` is `RealtimePacing` (the system clock, from the run's
/// start); `--pace fast` is `VirtualPacing` (a `ManualClock` driven by frame timestamps, script
/// waits and, for a source silent for real, real time), so headless runs are repeatable.
protocol Pacing: AnyObject {
    /// The run's clock (ms from the run's start), read by everything that times.
    var clock: MediaClock { get }
    /// How the reader thread paces a file source (`SourceReader`).
    var readerPace: PaceMode { get }
    /// Frames the loop takes from the reader in one turn on the capture screen: realtime all
    /// (the newest is previewed and analysed), virtual one (every frame analysed, repeatable).
    var framesPerTurn: Int { get }
    /// Whether analysis runs on its own thread, newest frame winning (realtime), or in the loop
    /// on every frame (virtual: repeatable).
    var analysesInBackground: Bool { get }

    /// Nothing was queued this turn while the loop waits for frames: realtime returns nil (the
    /// loop idles); virtual waits for the reader (`wait(ms)`, then `take()`) and, when the
    /// source stays silent for real, lets virtual time follow real time.
    func awaitFrames(take: () -> [SourceReader.Item], wait: (Int) -> Bool) -> PacingStall?
    /// The reader delivered: a silence is over.
    func framesArrived()
    /// The clock reaches `ms` (virtual: moves forward to it; realtime: time passes by itself).
    func reach(ms: Int)
    /// Moves the clock `ms` forward when it is virtual, so what is timed on it (a bell's rhythm)
    /// need not be waited for. - Returns: whether it moved.
    func skipAhead(ms: Int) -> Bool
    /// Called while the face models load: virtual runs wait for them here (repeatable),
    /// realtime ones go on (the loading screen counts).
    func waitForModels(loading: () -> Bool)
    /// A loop turn with nothing to do: wait a little for keys without spinning, and let virtual
    /// time follow a script's `wait` or the frames' pace.
    func idle(_ turn: IdleTurn)
    /// A frame's capture time (CLOCK_MONOTONIC µs) for the camera-to-screen latency, nil on a
    /// virtual clock (where a latency means nothing).
    func realCaptureMicros(of frame: VideoFrame) -> Int?
    /// Real ms spent since `startMs` (monotonic), for pacing the preview by its cost; 0 on a
    /// virtual clock (a draw costs no virtual time).
    func realCostMs(sinceMonotonicMs startMs: Int) -> Int
}

/// What `Pacing.awaitFrames` came to.
enum PacingStall {
    /// Frames came while waiting.
    case frames([SourceReader.Item])
    /// None came; `silent`: the stall is long enough for "waiting for the camera" to count.
    case waiting(silent: Bool)
}

/// A loop turn with nothing to do, as `Pacing.idle` needs to know it.
struct IdleTurn {
    /// The key script's next `wait` deadline (run clock ms).
    var nextDeadlineMs: Int?
    /// The loading screen shows (it counts tenths of a second).
    var loading: Bool
    /// The capture screen shows.
    var capture: Bool
    /// The face models are ready.
    var modelReady: Bool
    /// The reader's queue wakes the loop (capture screen, or the source opening).
    var readerWakes: Bool
    /// A screen changed this turn and waits to be drawn.
    var redrawPending: Bool
    /// Waits up to ms for the reader's queue or a key.
    var waitReader: (Int) -> Void
    /// Waits up to ms for a key (or sleeps when there is no terminal to read).
    var pollInput: (Int) -> Void
    /// Whether keys come from a terminal.
    var hasInput: Bool
}

/// `--pace realtime`: the system clock from the run's start.
final class RealtimePacing: Pacing {
    let clock: MediaClock = SystemClock(startingAtZero: true)   // event t_ms from the run's start, as with --pace fast
    var readerPace: PaceMode { .realtime }
    var framesPerTurn: Int { .max }
    var analysesInBackground: Bool { true }

    /// Longest sleep of a waiting screen between two loop turns (ms): two turns a second cost
    /// nothing measurable (`make bench`: CPU share on the waiting screens), and anything that
    /// changes such a screen wakes the poll first (a key, a signal) or bounds it (a script wait).
    static let waitingScreenPollMs = 500

    func awaitFrames(take: () -> [SourceReader.Item], wait: (Int) -> Bool) -> PacingStall? { nil }
    func framesArrived() {}
    func reach(ms: Int) {}
    func skipAhead(ms: Int) -> Bool { false }
    func waitForModels(loading: () -> Bool) {}

    func idle(_ turn: IdleTurn) {
        // The reader's queue wakes the loop only where its frames are taken (the capture
        // screen) or while it opens the source; elsewhere queued frames would keep its pipe
        // readable and the loop would spin.
        if turn.readerWakes { turn.waitReader(10); return }
        // Waiting screens (instructions, permission, result, failed) change only on a key, a
        // script step or a signal (which interrupts poll): sleep until one comes, at most
        // `waitingScreenPollMs`, and no longer than the script's next `wait` ends. The loading
        // screen counts tenths of a second and keeps its 10 ms turn.
        var ms = turn.loading ? 10 : Self.waitingScreenPollMs
        if let d = turn.nextDeadlineMs { ms = min(ms, max(0, d - clock.nowMs())) }
        // A screen changed this turn (e.g. the models arrived): draw it first.
        if turn.redrawPending { ms = 0 }
        turn.pollInput(ms)
    }

    func realCaptureMicros(of frame: VideoFrame) -> Int? { frame.captureMicros }
    func realCostMs(sinceMonotonicMs startMs: Int) -> Int { SystemClock.monotonicNowMs() - startMs }
}

/// `--pace fast`: a virtual clock that moves to each frame's timestamp, to a script's `wait`,
/// 5 ms a turn otherwise, and with real time only while the source is silent for real.
final class VirtualPacing: Pacing {
    let manual: ManualClock
    var clock: MediaClock { manual }
    var readerPace: PaceMode { .fast }
    var framesPerTurn: Int { 1 }
    var analysesInBackground: Bool { false }
    /// The real (monotonic) clock, in ms; injected by tests.
    private let realNowMs: () -> Int
    /// Real time (monotonic ms) since the reader last had nothing.
    private var idleSinceMs: Int?
    /// Up to when (monotonic ms) a real stall has been added to the virtual clock.
    private var idleAdvancedMs: Int?

    /// Real time (ms) a run waits for a silent source before its virtual clock follows real
    /// time (from the stall's start, so `--timeout` fires on time on a stalled pipe); far above
    /// what reading and decoding one file frame takes (a few ms), so file runs stay repeatable.
    static let stallMs = 1000

    init(realNowMs: @escaping () -> Int = SystemClock.monotonicNowMs) {
        manual = ManualClock(startMs: 0)
        self.realNowMs = realNowMs
    }

    func awaitFrames(take: () -> [SourceReader.Item], wait: (Int) -> Bool) -> PacingStall? {
        // Deterministic runs wait for the reader; a source stalled for real keeps the loop
        // turning (keys, signals) and, past `stallMs`, lets virtual time move.
        let now = realNowMs()
        if wait(20) {
            let items = take()
            if !items.isEmpty { return .frames(items) }
        }
        let since = idleSinceMs ?? now
        idleSinceMs = since
        guard now - since >= Self.stallMs else { return .waiting(silent: false) }
        // Stalled for real: virtual time follows real time from the stall's start, so
        // `--timeout` fires on time on a pipe that sends nothing.
        let last = idleAdvancedMs ?? since
        if now > last { manual.advance(ms: now - last) }
        idleAdvancedMs = now
        return .waiting(silent: true)
    }

    func framesArrived() {
        idleSinceMs = nil
        idleAdvancedMs = nil
    }

    func reach(ms: Int) {
        if ms > manual.nowMs() { manual.advance(ms: ms - manual.nowMs()) }
    }

    func skipAhead(ms: Int) -> Bool {
        manual.advance(ms: ms)
        return true
    }

    func waitForModels(loading: () -> Bool) {
        // Deterministic runs wait for the models here (after the first screen) rather than
        // racing them.
        while loading() { usleep(2000) }
    }

    func idle(_ turn: IdleTurn) {
        if let deadline = turn.nextDeadlineMs, deadline > manual.nowMs(), turn.modelReady || !turn.loading {
            reach(ms: deadline)
            return
        }
        if turn.hasInput { turn.pollInput(5) } else { usleep(2000) }
        if turn.capture || turn.modelReady { manual.advance(ms: 5) }
    }

    func realCaptureMicros(of frame: VideoFrame) -> Int? { nil }
    func realCostMs(sinceMonotonicMs startMs: Int) -> Int { 0 }
}
