import CaptureModel

// Guidance without sight (issue #17): what to say about the flow's state, and when. Pure: the
// state machine's state and the injected clock in, announcements out. The app turns each
// announcement into text (string tables), writes it to `--announce`, and speaks it (`--speak`).
/// One thing to say: a string-table key with its arguments. Two announcements are equal when
/// they would say the same thing (the countdown's number is part of it).
public struct Announcement: Sendable, Equatable, CustomStringConvertible {
    /// What the announcement is about (the `announced` event's `kind` field).
    public enum Kind: String, Sendable, Equatable {
        case loading, instructions, permission, permissionDenied, ready, hint, restarted, countdown, recording, done, failed
    }
    /// An argument of the sentence.
    public enum Argument: Sendable, Equatable {
        case int(Int)
        /// Another key whose text goes in (a restart's or a failure's reason).
        case key(String)
        /// Text as it is (a camera's error message).
        case text(String)
    }
    public var kind: Kind
    public var key: String
    public var arguments: [Argument]
    /// The hint it speaks for (`kind` hint or restarted), as `Hint` names it.
    public var hint: Hint?
    /// Keys of further sentences said after the first (e.g. "Press Enter to try again").
    public var followUps: [String]

    public init(_ kind: Kind, key: String, arguments: [Argument] = [], hint: Hint? = nil, followUps: [String] = []) {
        self.kind = kind; self.key = key; self.arguments = arguments; self.hint = hint; self.followUps = followUps
    }

    public var description: String { "\(kind.rawValue):\(key)\(arguments.isEmpty ? "" : " \(arguments)")" }
}

/// Which sentence describes the flow's current state (nil: nothing to say, e.g. the camera
/// is still opening). Directions are the **person's**: the guidance rules name left and right as
/// seen in the preview (`GuidanceRules.judge`), which by default is mirrored, so a face shown
/// right of the oval is the person's own right side and "move left" is the person's left. With
/// `--no-mirror` the preview is the camera's view, left and right are swapped for the person,
/// and so are the spoken directions. Up and down are the same in both.
public enum AnnouncementRules {
    /// The announcement for `m`'s state; `mirrored` as `GuidanceConfig.mirror`; `sourceIsCamera`
    /// words a source failure as the camera's or as the video's (issue #18: words that say what
    /// happened).
    public static func current(_ m: CaptureStateMachine, mirrored: Bool = true, sourceIsCamera: Bool = true) -> Announcement? {
        switch m.screen {
        case .loading: return Announcement(.loading, key: "selfie_capture_loading_title")
        case .instructions: return Announcement(.instructions, key: "selfie_capture_announce_instructions")
        case .cameraPermission:
            return m.permissionRequestPending ? nil : Announcement(.permission, key: "selfie_capture_announce_permission")
        case .cameraPermissionDenied: return Announcement(.permissionDenied, key: "selfie_capture_permission_denied_title",
                                                          followUps: ["selfie_capture_announce_try_again"])
        case .result:
            // A person at the keyboard must know how to leave the result screen.
            return Announcement(.done, key: "selfie_capture_announce_done",
                                followUps: m.settings.interactive ? ["selfie_capture_result_exit"] : [])
        case .failed:
            let reason: Announcement.Argument
            switch m.failure {
            case .camera?: reason = .key(sourceIsCamera ? "selfie_capture_failed_camera" : "selfie_capture_failed_video")
            case .sourceEnded?: reason = .key("selfie_capture_failed_source_ended")
            case .faceLost?: reason = .key("selfie_capture_failed_face_lost")
            case .challengeFailed?: reason = .key("selfie_capture_failed_challenge")
            case .timeout?, nil: reason = .key("selfie_capture_failed_timeout")
            }
            return Announcement(.failed, key: "selfie_capture_announce_failed", arguments: [reason],
                                followUps: m.canTryAgain ? ["selfie_capture_announce_try_again"] : [])
        case .capture:
            switch m.phase {
            case .waitingForCamera: return nil
            case .ready:
                return m.showsStartButton ? Announcement(.ready, key: "selfie_capture_announce_ready") : nil
            case .positioning, .countdown:
                if let r = m.shownRestartReason { return restarted(r) }
                if m.phase == .countdown {
                    return Announcement(.countdown, key: "selfie_capture_announce_countdown",
                                        arguments: [.int(m.countdownRemaining ?? 0)])
                }
                guard let h = m.guidance?.hint else { return nil }
                return hint(h, mirrored: mirrored)
            case .recording:
                // Issue #25: a challenge step's instruction (the person's own left/right).
                if let k = m.challengeInstructionKey { return Announcement(.hint, key: k) }
                return Announcement(.recording, key: "selfie_capture_announce_recording")
            case .finished: return nil
            }
        }
    }

    /// A hint as a sentence from the person's point of view.
    public static func hint(_ h: Hint, mirrored: Bool = true) -> Announcement {
        let key: String
        switch h {
        case .moveLeft: key = mirrored ? "selfie_capture_announce_move_left" : "selfie_capture_announce_move_right"
        case .moveRight: key = mirrored ? "selfie_capture_announce_move_right" : "selfie_capture_announce_move_left"
        case .moveUp: key = "selfie_capture_announce_move_up"
        case .moveDown: key = "selfie_capture_announce_move_down"
        default: key = h.stringKey
        }
        return Announcement(.hint, key: key, hint: h)
    }

    static func restarted(_ r: Hint) -> Announcement {
        let s = r.restartSentence   // the one table, shared with the screen
        return Announcement(.restarted, key: s.key, arguments: s.hintKey.map { [.key($0)] } ?? [], hint: r)
    }
}

/// Paces announcements: at most one every `minIntervalMs` (1.5 s, issue #17; about the time a
/// screen reader or espeak-ng at 175 words a minute takes for a short sentence: "Move your face
/// to your left" lasts 1.62 s in espeak-ng 1.51, measured with `-w` and soxi),
/// and only the newest state is ever said: a changed instruction replaces the queued one, so no
/// stale hint piles up; a state that comes back to what was last said before the queued one
/// went out cancels it. Equal announcements are said once (a countdown's number is said only
/// when it changes). Times are milliseconds of the runtime's injected clock.
public struct AnnouncementPacer: Sendable, Equatable {
    /// Shortest time between two announcements, in ms (1500, issue #17).
    public var minIntervalMs: Int
    /// The state's announcement as last observed (what would be said now).
    public private(set) var current: Announcement?
    /// The last announcement said, and when.
    public private(set) var lastSaid: Announcement?
    public private(set) var lastSaidMs: Int?

    public init(minIntervalMs: Int = 1500) { self.minIntervalMs = minIntervalMs }

    /// Records the state's current announcement (nil: nothing to say).
    public mutating func observe(_ a: Announcement?) { current = a }

    /// True when an announcement waits for the pacing window.
    public var hasPending: Bool { current != nil && current != lastSaid }

    /// When the pending announcement may be said (ms), nil when none waits.
    public var pendingDueMs: Int? {
        guard hasPending else { return nil }
        return lastSaidMs.map { $0 + minIntervalMs } ?? Int.min
    }

    /// The announcement to say at `nowMs`, if one is pending and the window allows it.
    public mutating func poll(nowMs: Int) -> Announcement? {
        guard hasPending, let a = current else { return nil }
        if let t = lastSaidMs, nowMs - t < minIntervalMs { return nil }
        lastSaid = a
        lastSaidMs = nowMs
        return a
    }
}

/// Observes the state machine and says what changed, paced: `AnnouncementRules` then
/// `AnnouncementPacer`.
public struct Announcer: Sendable, Equatable {
    public var mirrored: Bool
    /// Whether the source is a camera (a failure is the camera's) or a file, pipe or the demo.
    public var sourceIsCamera: Bool
    public private(set) var pacer: AnnouncementPacer

    public init(mirrored: Bool = true, sourceIsCamera: Bool = true, minIntervalMs: Int = 1500) {
        self.mirrored = mirrored
        self.sourceIsCamera = sourceIsCamera
        pacer = AnnouncementPacer(minIntervalMs: minIntervalMs)
    }

    /// Feeds the machine's state after a loop turn; returns what to say now, if anything.
    public mutating func update(_ m: CaptureStateMachine, nowMs: Int) -> Announcement? {
        pacer.observe(AnnouncementRules.current(m, mirrored: mirrored, sourceIsCamera: sourceIsCamera))
        return pacer.poll(nowMs: nowMs)
    }
}
