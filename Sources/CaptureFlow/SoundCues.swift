// Sound cues (`--sound`, issue #17): which moments of the flow ring, and the terminal-bell
// rhythm of each. Pure: states and the injected clock in, "ring now" out.

/// A moment worth a sound.
public enum SoundCue: String, Sendable, CaseIterable, Equatable {
    /// A face appeared where there was none.
    case faceFound
    /// The face reached a valid position (the oval's valid state, debounced).
    case validPosition
    /// The countdown's number changed.
    case countdownTick
    /// The recording started.
    case recordingStarted
    /// The recording ended and the capture is saved.
    case recordingEnded
    /// The attempt failed.
    case failed
    /// A step of the active challenge started (issue #25): turn now.
    case challengeStep

    /// Bell times in ms from the cue's start. Told apart by the count and the rhythm: one bell
    /// (tick), two slow (face found), two quick (valid), three quick (recording), four quick
    /// (done), three slow (failure), two quick and a late third (a challenge step: turn now). Bells are at least 250 ms apart: xterm ignores a bell within
    /// `bellSuppressTime` (200 ms by default, xterm(1)) of the last one, and so would merge
    /// quicker ones.
    public var pattern: [Int] {
        switch self {
        case .countdownTick: return [0]
        case .faceFound: return [0, 700]
        case .validPosition: return [0, 250]
        case .recordingStarted: return [0, 250, 500]
        case .recordingEnded: return [0, 250, 500, 750]
        case .failed: return [0, 700, 1400]
        case .challengeStep: return [0, 250, 950]
        }
    }

    /// Cues that only guide (a newer state makes them moot): dropped from the queue when a
    /// newer cue arrives before they started.
    public var isGuidance: Bool { self == .faceFound || self == .validPosition || self == .countdownTick }

    /// The cue for the step from state `old` to `new` (nil: nothing to ring).
    public static func cue(from old: SoundState?, to new: SoundState) -> SoundCue? {
        guard let old else { return nil }
        if new.failed && !old.failed { return .failed }
        if new.done && !old.done { return .recordingEnded }
        if new.recording && !old.recording { return .recordingStarted }
        if let s = new.challengeStep, s != old.challengeStep { return .challengeStep }
        if let c = new.countdown, c != old.countdown { return .countdownTick }
        if new.valid && !old.valid && new.countdown == nil && !new.recording { return .validPosition }
        if new.faceSeen && !old.faceSeen { return .faceFound }
        return nil
    }
}

/// What the cues are judged on, taken from the state machine after each loop turn.
public struct SoundState: Sendable, Equatable {
    /// A face is in view (the shown hint is not `noFace`), on the capture screen.
    public var faceSeen: Bool
    /// The oval shows the valid state (`GuidanceResult.ovalValid`).
    public var valid: Bool
    public var countdown: Int?
    public var recording: Bool
    public var done: Bool
    public var failed: Bool
    /// The running challenge step's index (issue #25), nil when none runs.
    public var challengeStep: Int? = nil

    public init(faceSeen: Bool = false, valid: Bool = false, countdown: Int? = nil, recording: Bool = false,
                done: Bool = false, failed: Bool = false) {
        self.faceSeen = faceSeen; self.valid = valid; self.countdown = countdown; self.recording = recording
        self.done = done; self.failed = failed
    }

    /// The state of `m`.
    public init(_ m: CaptureStateMachine) {
        let capturing = m.screen == .capture && m.phase != .waitingForCamera
        let g = capturing ? m.guidance : nil
        self.init(faceSeen: g.map { $0.hint != .noFace } ?? false, valid: g?.ovalValid ?? false,
                  countdown: m.screen == .capture && m.phase == .countdown ? m.countdownRemaining : nil,
                  recording: m.screen == .capture && m.phase == .recording,
                  done: m.screen == .result, failed: m.screen == .failed)
        challengeStep = m.challengeRunning ? m.challenge?.current?.index : nil
    }
}

/// Plays cues as bells, one pattern after another (a 300 ms gap between two), never
/// overlapping; a guidance cue still waiting is replaced by a newer cue.
public struct BellSchedule: Sendable, Equatable {
    /// Gap between the last bell of one pattern and the first of the next, in ms.
    public var gapMs = 300
    private var queue: [SoundCue] = []
    private struct Playing: Sendable, Equatable { var cue: SoundCue; var startMs: Int; var rung: Int }
    private var playing: Playing?
    private var lastPatternEndMs = Int.min / 2
    private var lastState: SoundState?

    public init() {}

    /// Adds `cue` at `nowMs`.
    public mutating func add(_ cue: SoundCue) {
        queue.removeAll { $0.isGuidance }
        queue.append(cue)
    }

    /// Feeds the state after a loop turn: queues the cue its change calls for.
    public mutating func observe(_ s: SoundState) {
        if let c = SoundCue.cue(from: lastState, to: s) { add(c) }
        lastState = s
    }

    /// How many bells to ring at `nowMs` (0 or 1 normally; more only when the loop was late).
    public mutating func due(nowMs: Int) -> Int {
        var n = 0
        while true {
            if playing == nil, !queue.isEmpty, nowMs >= lastPatternEndMs + gapMs {
                playing = Playing(cue: queue.removeFirst(), startMs: nowMs, rung: 0)
            }
            guard var p = playing else { return n }
            let pattern = p.cue.pattern
            while p.rung < pattern.count, nowMs >= p.startMs + pattern[p.rung] {
                p.rung += 1; n += 1
            }
            if p.rung == pattern.count {
                lastPatternEndMs = p.startMs + pattern[pattern.count - 1]
                playing = nil
                if queue.isEmpty { return n }
            } else {
                playing = p
                return n
            }
        }
    }

    /// True while bells are still to ring.
    public var isBusy: Bool { playing != nil || !queue.isEmpty }
}
