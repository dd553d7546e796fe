import CaptureFlow
import CaptureModel

/// Glue between the state machine, a `--keys` script and the event log, for the runtime loop:
/// each turn it feeds the clock, the turn's events and any script keys that are due, writes
/// every emitted event to the log (and shows it to the script), and hands back the
/// effects, in order, for the runtime to carry out (open the camera, record, exit…).
public struct FlowDriver {
    public private(set) var machine: CaptureStateMachine
    public private(set) var player: KeyScriptPlayer?
    private let log: EventLog?

    /// Called with the event's time just before an event that ends an attempt
    /// (`endsAnAttempt`) is written; the event it returns (the runtime's `frameCounts`) is
    /// written first, so the flow's own last events stay last.
    public var beforeAttemptEnds: ((Int) -> FlowEvent?)?
    /// Whether `beforeAttemptEnds` gave an event that was written (the runtime then need not
    /// report its `frameCounts` again at the end of the run).
    public private(set) var attemptSummaryWritten = false
    /// Sees every event the machine emits, after it was logged (`--keep-failed`, issue #25).
    public var observeEvent: ((FlowEvent) -> Void)?
    /// The video being recorded: frames written and their duration at the file's frame rate
    /// (ms). When set, `faceCaptureSuccess` carries these as `frames` and `durationMs`, so the
    /// event, result.json and the closing line agree (issue #29): the machine counts only the
    /// frames it judged, while every frame read goes into the video.
    /// Its argument is the stills the recording still owes (`owedStillOffsetsMs`), so `stills`
    /// counts those `collectOwed` will take: the event's `collected` then agrees with the folder.
    public var recordedVideo: ((_ owedStillOffsetsMs: [Int]) -> (frames: Int, durationMs: Int, stills: Int)?)?
    /// Whether `name` ends an attempt: success, failure, or the user cancelling (a switch, not
    /// a `Set`: a set of `EventName` costs the runtime's first look-up of its `Hashable`
    /// conformance, ~0.1 ms of the first screen; issue #28).
    static func endsAnAttempt(_ name: EventName) -> Bool {
        switch name {
        case .faceCaptureSuccess, .faceCaptureFailed, .cancelled: return true
        default: return false
        }
    }

    public init(machine: CaptureStateMachine, keys: [KeyStep]? = nil, log: EventLog? = nil) {
        self.machine = machine
        self.player = keys.map(KeyScriptPlayer.init(steps:))
        self.log = log
    }

    /// One loop turn at `nowMs`: `tick(nowMs)`, then `events` in order, then due script keys
    /// (until none is due; none while the loading screen is shown). Effects that answer with events (e.g. `requestPermission`) are the
    /// runtime's: it passes the answers in a later call.
    /// - Returns: the transitions' effects in order (their events are written first).
    public mutating func step(nowMs: Int, events: [Event] = [], playKeys: Bool = true) -> [Effect] {
        var out: [Effect] = []
        playedKeys = []
        func feed(_ e: Event) {
            let t = machine.handle(e)
            for var ev in t.events {
                if ev.name == .faceCaptureSuccess, let v = recordedVideo?(machine.owedStillOffsetsMs) {
                    for (i, f) in ev.fields.enumerated() {
                        if f.key == "frames" { ev.fields[i].value = .int(v.frames) }
                        if f.key == "collected" { ev.fields[i].value = .int(v.stills) }
                        if f.key == "durationMs" { ev.fields[i].value = .int(v.durationMs) }
                    }
                }
                if Self.endsAnAttempt(ev.name), let summary = beforeAttemptEnds?(ev.tMs) {
                    log?.write(summary)
                    player?.observe(summary.name)
                    attemptSummaryWritten = true
                }
                log?.write(ev)
                player?.observe(ev.name)
                observeEvent?(ev)
            }
            out += t.effects
        }
        feed(.tick(nowMs: nowMs))
        for e in events { feed(e) }
        var rounds = 0
        // Script keys wait while the loading screen is up: a person cannot act on it either, and
        // a key played there would be lost (`enter; enter; …` must reach the instructions).
        // One key at a time: a key may bring the loading screen up (Enter on the instructions
        // before the model is ready), and the next must wait for it to end.
        while playKeys, rounds < 1000, machine.screen != .loading, var p = player {
            let key = p.next(nowMs: nowMs)
            player = p
            guard let k = key else { break }
            feed(.keyPressed(k))
            playedKeys.append(k)
            rounds += 1
        }
        return out
    }

    /// The next script key due at `nowMs` (nil while the loading screen shows, or when the script
    /// waits or has ended), taken off the script but not fed: the runtime presses it as it does a
    /// typed key (the keys help, `i`, then the machine), so each key sees the state the previous
    /// one left.
    public mutating func nextScriptKey(nowMs: Int) -> Key? {
        guard machine.screen != .loading, var p = player else { return nil }
        let k = p.next(nowMs: nowMs)
        player = p
        return k
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
