import CaptureFlow

/// Glue between the state machine, a `--keys` script and the event log, for the runtime loop:
/// each turn it feeds the clock, the turn's events and any script keys that are due, writes
/// every emitted event to the log (and shows it to the script), and hands back the other
/// effects, in order, for the runtime to carry out (open the camera, record, exit…).
public struct FlowDriver {
    public private(set) var machine: CaptureStateMachine
    public private(set) var player: KeyScriptPlayer?
    private let log: EventLog?

    /// Called with the event's time just before an event that ends an attempt
    /// (`endsAttempt`) is written; the event it returns (the runtime's `frameCounts`) is
    /// written first, so the flow's own last events stay last.
    public var beforeAttemptEnds: ((Int) -> FlowEvent?)?
    /// Sees every event the machine emits, after it was logged (`--keep-failed`, issue #25).
    public var observeEvent: ((FlowEvent) -> Void)?
    /// The events that end an attempt: success, failure, or the user cancelling.
    public static let endsAttempt: Set<EventName> = [.faceCaptureSuccess, .faceCaptureFailed, .cancelled]

    public init(machine: CaptureStateMachine, keys: [KeyStep]? = nil, log: EventLog? = nil) {
        self.machine = machine
        self.player = keys.map(KeyScriptPlayer.init(steps:))
        self.log = log
    }

    /// One loop turn at `nowMs`: `tick(nowMs)`, then `events` in order, then due script keys
    /// (until none is due; none while the loading screen is shown). Effects that answer with events (e.g. `requestPermission`) are the
    /// runtime's: it passes the answers in a later call.
    /// - Returns: the non-`emit` effects in order.
    public mutating func step(nowMs: Int, events: [Event] = []) -> [Effect] {
        var out: [Effect] = []
        playedKeys = []
        func feed(_ e: Event) {
            for effect in machine.handle(e) {
                if case .emit(let ev) = effect {
                    if Self.endsAttempt.contains(ev.name), let summary = beforeAttemptEnds?(ev.tMs) {
                        log?.write(summary)
                        player?.observe(summary.name)
                    }
                    log?.write(ev)
                    player?.observe(ev.name)
                    observeEvent?(ev)
                } else {
                    out.append(effect)
                }
            }
        }
        feed(.tick(nowMs: nowMs))
        for e in events { feed(e) }
        var rounds = 0
        // Script keys wait while the loading screen is up: a person cannot act on it either, and
        // a key played there would be lost (`enter; enter; …` must reach the instructions).
        while rounds < 1000, machine.screen != .loading, var p = player {
            let keys = p.poll(nowMs: nowMs)
            player = p
            if keys.isEmpty { break }
            for k in keys { feed(.keyPressed(k)) }
            playedKeys += keys
            rounds += 1
        }
        return out
    }

    /// The script keys played by the last `step`, in order (the runtime acts on the keys the
    /// machine does not know, such as `i` for the status line, as it does for typed keys).
    public private(set) var playedKeys: [Key] = []

    /// Reports an event that comes from the runtime rather than the machine (`outputSaved`):
    /// written to the event log and shown to the key script like the machine's events.
    public mutating func report(_ event: FlowEvent) {
        log?.write(event)
        player?.observe(event.name)
    }

    /// When the script next needs a turn even without input (the end of a `wait`), in ms.
    public var nextDeadlineMs: Int? { player?.deadlineMs }
}
