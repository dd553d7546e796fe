// The flow's vocabulary that the screens, the key readers and the runtime share with the state
// machine (`CaptureFlow.CaptureStateMachine`): screens, phases, keys, failure reasons. Pure values.

/// The screen the flow is on.
public enum Screen: String, Sendable, CaseIterable, Equatable {
    case loading, instructions, cameraPermission, cameraPermissionDenied, capture, result, failed
}

/// What the loading screen is waiting for.
public enum LoadingStage: String, Sendable, Equatable {
    /// The face model is loading (`selfie_capture_loading_model`).
    case model
    /// The camera is opening (`selfie_capture_loading_camera`).
    case camera
}

/// Where the capture screen is in its own sequence.
public enum CapturePhase: String, Sendable, Equatable {
    /// Preview shown, no frame yet.
    case waitingForCamera
    /// The camera delivers frames (`cameraReady`); waiting for Start.
    case ready
    /// Started (`videoCaptureStarted`): hints guide the face into the oval.
    case positioning
    /// The face is valid and still: counting down `timeBeforeAutomaticCapture`.
    case countdown
    /// Recording the video.
    case recording
    /// The recording ended (`videoRecordEnded`).
    case finished
}

/// A key as the terminal (or a `--keys` script) reports it.
public enum Key: Sendable, Equatable {
    case enter, space, escape, backspace
    /// Ctrl-C read as a key (raw mode) or SIGINT forwarded by the runtime.
    case interrupt
    /// Ctrl-Z read as a key (raw mode): suspend (the machine drops a take in progress first and
    /// answers `Effect.suspend`).
    case suspend
    case character(Character)

    /// What the key does in the flow: Enter/Space activate, Esc/Backspace go back, q/Ctrl-C
    /// quit, s starts; anything else does nothing.
    public var action: KeyAction? {
        switch self {
        case .enter, .space: return .activate
        case .escape, .backspace: return .back
        case .interrupt: return .quit
        case .suspend: return nil
        case .character(let c):
            switch c {
            case "q", "Q": return .quit
            case "s", "S": return .start
            default: return nil
            }
        }
    }
}

/// The meaning of a key press.
public enum KeyAction: Sendable, Equatable {
    case activate, back, quit, start
}

/// Why a capture attempt failed (`faceCaptureFailed` `reason`, failed screen, exit code).
public enum FailureReason: Sendable, Equatable {
    /// The camera stopped or could not be opened; the text is the system's message. Final.
    case camera(String)
    /// The file source ended before the capture completed: final without `--loop`; with
    /// `--loop` (the source started over) the attempt may be retried.
    case sourceEnded
    /// `--timeout` ran out for the attempt; retryable on the capture screen.
    case timeout
    /// The face was lost (no face for `invalidGraceMs` or more) during the countdown or the
    /// recording `FlowSettings.maxFaceLosses` times in one attempt; retryable.
    case faceLost
    /// A step of the active challenge timed out or was answered the wrong way (issue #25);
    /// retryable.
    case challengeFailed

    /// The `reason` field of `faceCaptureFailed`: `camera: <message>`, `sourceEnded`, `timeout`,
    /// `faceLost`.
    public var eventText: String {
        switch self {
        case .camera(let m): return "camera: " + m
        case .sourceEnded: return "sourceEnded"
        case .timeout: return "timeout"
        case .faceLost: return "faceLost"
        case .challengeFailed: return "challengeFailed"
        }
    }
}
