import CaptureModel
import JSON

// The capture flow as a value type: events in, effects out (DESIGN.md "Conventions"; the shape of
// swift-nio's protocol-negotiation state machine). No clock, no I/O: time arrives as
// `Event.tick(nowMs:)`, and every side effect is an `Effect` the runtime carries out.

/// Everything that can happen to the flow.
public enum Event: Sendable, Equatable {
    /// The clock moved to `nowMs` (milliseconds on the runtime's injected clock). The runtime
    /// sends a tick before each batch of other events; emitted events carry this time.
    case tick(nowMs: Int)
    /// The app started: asks for the model and shows the instructions (they need no model), or
    /// the loading screen without them.
    case started
    /// The face model finished loading.
    case modelLoaded
    case keyPressed(Key)
    /// The camera could be opened after `requestPermission` (the runtime keeps it open).
    case permissionGranted
    /// Opening the camera failed with EACCES/EPERM.
    case permissionDenied(devicePath: String)
    /// The camera opened after `openCamera`.
    case cameraOpened
    /// The first frame arrived from the camera.
    case cameraFirstFrame
    /// The source's frame rate (frames per second), once known: it places the collected
    /// stills (`CaptureOptions.collectionPlan`).
    case sourceFrameRate(Double)
    /// One analysed and judged frame.
    case frameGuided(GuidanceResult)
    /// The camera failed (open error other than permission, unplugged, I/O error).
    case cameraFailed(reason: String)
    /// A file source ended (without `--loop`): the attempt fails for good.
    case sourceEnded
    /// A looping file source (`--loop`) reached its end and started over. An attempt that is
    /// positioning or counting down fails with `sourceEnded` and may be retried; otherwise
    /// (waiting for Start, recording) nothing happens.
    case sourceLooped
    /// `--timeout` elapsed for the current attempt (see `timeoutStartMs`).
    case timeout
    /// The terminal changed size.
    case terminalResized
    /// Whether the screen is now below the smallest size that can show the flow (the runtime
    /// compares the terminal's size with the screens' minimum). While it is, the flow pauses:
    /// only q and Ctrl-C act, frames do not move the capture on, and a countdown or recording
    /// in progress is dropped (DECISIONS 2026-12-01 "a window too small pauses the flow").
    case windowTooSmall(Bool)
    /// Whether the `?` keys help covers the screen. While it does, frames do not move the
    /// capture on and a countdown or recording in progress is dropped (reason `keysHelp`), as
    /// for a window too small: nobody can follow the oval and the hints behind it.
    case keysHelpShown(Bool)
}

/// What the runtime must do, in order. Every case is carried out by the runtime
/// (`CaptureRuntime.perform`); the events the flow emits come apart, in `Transition.events`.
public enum Effect: Sendable, Equatable {
    /// Draw the screen again: the flow moved to this screen, or the terminal changed (resize, a
    /// window too small, the keys help). The plain renderer prints the screen's text.
    case showScreen(Screen)
    /// Start loading the face model; answer with `modelLoaded`.
    case loadModel
    /// Try to open the camera for the permission screen; answer `permissionGranted` (and keep it
    /// open) or `permissionDenied`/`cameraFailed`.
    case requestPermission
    /// Open the camera (consent already given); answer `cameraOpened` or `cameraFailed`.
    case openCamera
    /// Close the camera (the user went back from the capture screen).
    case closeCamera
    /// Open the video file and start writing frames: from now on every frame read goes into the
    /// video (the runtime's; the machine counts only the frames it judged).
    case startRecording
    /// Also keep this frame as a still (`frames/frame-NNN.jpg`).
    case collectFrame(frameIndex: Int)
    /// The recording ended owing stills at these offsets from its start (ms, ascending): no
    /// judged frame reached them. In realtime the analyser keeps only the newest frame, so on a
    /// busy machine the last frames of a recording may be written before any of them is judged;
    /// they are in the video and nothing the machine saw invalidated them, so the runtime takes
    /// the written frames nearest those offsets (after the last still) rather than leaving the
    /// folder short. Comes just before `stopRecording`.
    case collectOwed(offsetsMs: [Int])
    /// Finish the video file (it is complete).
    case stopRecording
    /// Discard the video being recorded (the capture restarts or stops).
    case abortRecording
    /// Try again: discard everything the failed attempt left (partial video, collected frames,
    /// per-frame data, its failure) and keep the camera open; the next attempt starts.
    case discardAttempt
    /// Write `result.json` (the recording is complete).
    case writeResult
    /// Ctrl-Z: leave the screen and stop the process until it is continued (`fg`), then redraw.
    case suspend
    /// End the process with this exit code.
    case exit(FlowExit)
}

/// What one event did: the events the flow emits (for the event log, in order) and the effects
/// the runtime carries out (in order). All the events of a transition are written before any of
/// its effects is carried out (`FlowDriver.step`).
public struct Transition: Sendable, Equatable {
    public var events: [FlowEvent]
    public var effects: [Effect]
    public init(events: [FlowEvent] = [], effects: [Effect] = []) { self.events = events; self.effects = effects }
    init(_ outputs: [Output]) {
        events = []; effects = []
        for o in outputs {
            switch o {
            case .emit(let e): events.append(e)
            case .effect(let e): effects.append(e)
            }
        }
    }
}

/// The machine's own account of a transition: events and effects in the order it decided them
/// (`CaptureStateMachine.outputs(for:)`; tests read the order). `handle` splits it.
enum Output: Sendable, Equatable {
    case emit(FlowEvent)
    case effect(Effect)

    static func showScreen(_ s: Screen) -> Output { .effect(.showScreen(s)) }
    static let loadModel = Output.effect(.loadModel)
    static let requestPermission = Output.effect(.requestPermission)
    static let openCamera = Output.effect(.openCamera)
    static let closeCamera = Output.effect(.closeCamera)
    static let startRecording = Output.effect(.startRecording)
    static func collectFrame(frameIndex: Int) -> Output { .effect(.collectFrame(frameIndex: frameIndex)) }
    static func collectOwed(offsetsMs: [Int]) -> Output { .effect(.collectOwed(offsetsMs: offsetsMs)) }
    static let stopRecording = Output.effect(.stopRecording)
    static let abortRecording = Output.effect(.abortRecording)
    static let discardAttempt = Output.effect(.discardAttempt)
    static let writeResult = Output.effect(.writeResult)
    static let suspend = Output.effect(.suspend)
    static func exit(_ code: FlowExit) -> Output { .effect(.exit(code)) }
}

/// Fixed settings of one run.
public struct FlowSettings: Sendable, Equatable {
    public var session: SessionConfig
    public var options: CaptureOptions
    /// `--challenge` (issue #25): the head turns asked after the still part of the recording.
    public var challenge: ChallengePlan?
    /// `--camera-consent`: skip the permission screen.
    public var cameraConsent: Bool
    /// False with the null and plain renderers: the result screen, and a failed screen that
    /// offers no Try again, end the process at once.
    public var interactive: Bool
    /// Invalid frames (no face, a second face, bad light, out of the oval…) lasting less than this
    /// neither restart a countdown nor abort a recording; longer ones do. 250 ms (issue #10: "one
    /// missed detection, or an invalid frame lasting under about 250 ms" is a blip).
    public var invalidGraceMs: Int
    /// True when nobody can press a key (null or plain renderer without `--keys`; DECISIONS
    /// "unattended runs skip the screens that need a person"). A failed attempt is then retried
    /// at once, as if Try again was pressed, but only when `maxAttempts` was given.
    public var unattended: Bool
    /// `--max-attempts` (≥ 1; values below 1 count as 1), or nil when it was not given: then
    /// `defaultMaxAttempts` when someone can press Try again, 1 (no retry) when `unattended`.
    public var maxAttempts: Int?
    /// An attempt fails (`FailureReason.faceLost`, retryable) when its countdown or recording was
    /// interrupted this many times by the face being lost (no face for `invalidGraceMs` or
    /// more). 3: after the third "Face lost" the person is better served by the failed screen's
    /// advice and a fresh attempt than by a fourth restart (issue #10 "face lost too often").
    public var maxFaceLosses: Int
    /// The patience window of issue #24 (`QualityPatience`), ms: how long the hint of a shortfall
    /// that depends on the person or the room (eyes, mouth, uneven light, blur, a moderate head
    /// pose, a face too few pixels) is shown while the face is placed and still, before the flow
    /// accepts it and counts down anyway. nil with `--strict-quality`: such hints block. Default
    /// `defaultQualityPatienceMs`.
    public var qualityPatienceMs: Int?
    /// 3000 ms: long enough to show the hint (after its 200–500 ms debounce), read a 2–4 word
    /// sentence (about 1 s at 200–250 words a minute) and try once to fix it, and for the
    /// announcer to say it (one sentence every 1.5 s, `AnnouncementPacer`); short enough that a
    /// person who cannot change it waits no more than a countdown's length three times over. The
    /// shared fairness clips hold still for 7 s, which fits 3 s + 1 s countdown + 1 s recording.
    public static let defaultQualityPatienceMs = 3000
    /// After a frame with a shortfall, the countdown waits this long for clean frames (unless the
    /// patience has accepted the shortfalls): 500 ms, the quality hints' own debounce
    /// (`GuidanceConfig.qualityHintPersistMs`). A measure that hovers about its limit (a mouth at
    /// 0.198–0.207 against 0.2) would otherwise start a countdown on every clean frame and
    /// restart it on the next short one (the new-user trial of issue #24 saw three restarts).
    public static let shortfallClearMs = 500
    /// The recorded video's container and codec as `videoRecordEnded` names them (`avi`/`mjpeg`,
    /// `mp4`/`h264`; `--video-format`). Words only: the machine writes no file.
    public var videoContainer: String
    public var videoCodec: String
    /// `--guide-before-start` (or `"guideBeforeStart"` in `--layout`): the guidance shown before
    /// Start is also reported (`faceValidating`, and `faceBoundingBoxValidating` with v2), so a
    /// key script sees what the person sees (issue #29). Default false: no face event before Start.
    public var guideBeforeStart = false

    /// Attempts when `--max-attempts` is not given and someone can press Try again: 3, as AWS
    /// Face Liveness advises and Jumio does (issue #10).
    public static let defaultMaxAttempts = 3

    public init(session: SessionConfig = SessionConfig(), options: CaptureOptions = CaptureOptions(),
                cameraConsent: Bool = false, interactive: Bool = true, unattended: Bool = false, maxAttempts: Int? = nil,
                invalidGraceMs: Int = 250, maxFaceLosses: Int = 3, videoContainer: String = "avi", videoCodec: String = "mjpeg",
                qualityPatienceMs: Int? = FlowSettings.defaultQualityPatienceMs) {
        self.qualityPatienceMs = qualityPatienceMs
        self.session = session; self.options = options; self.cameraConsent = cameraConsent; self.interactive = interactive
        self.unattended = unattended; self.maxAttempts = maxAttempts; self.invalidGraceMs = invalidGraceMs
        self.maxFaceLosses = maxFaceLosses
        self.videoContainer = videoContainer; self.videoCodec = videoCodec
    }

    /// How many attempts the run may make (≥ 1): `maxAttempts`, else 1 when unattended, else
    /// `defaultMaxAttempts`.
    public var effectiveMaxAttempts: Int {
        if let n = maxAttempts { return max(1, n) }
        return unattended ? 1 : Self.defaultMaxAttempts
    }
}

/// Where the flow is: ONE value whose cases carry only the data they have (swift-nio's style),
/// so that combinations that cannot happen (recording on the failed screen, a countdown on the
/// instructions, a permission request pending on the capture screen) cannot be represented.
public enum FlowState: Sendable, Equatable {
    case loading(LoadingStage)
    case instructions
    /// `pending`: between `requestPermission` and its answer.
    case cameraPermission(pending: Bool)
    /// The device path from `permissionDenied`.
    case cameraPermissionDenied(devicePath: String, pending: Bool)
    /// The capture screen's stage, and the attempt under way (a fresh one when the screen opens
    /// and at each Try again).
    case capture(CaptureStage, Attempt)
    /// The recording finished (`videoRecordEnded`): the attempt that recorded (its counts,
    /// collection plan, accepted shortfalls and challenge, for result.json and the screen).
    case result(Attempt)
    /// `cameraReady`: the camera had sent a frame when the attempt failed (Try again then starts
    /// at once, else on the first frame). `ended`: the failed attempt as it ended (its face
    /// losses and challenge name the failure); a fresh one when the failure came before the
    /// capture screen.
    case failed(reason: FailureReason, canTryAgain: Bool, cameraReady: Bool, ended: Attempt)
}

/// The capture screen's own sequence, each step with its data (`CapturePhase` is its name).
public enum CaptureStage: Sendable, Equatable {
    /// No frame yet; `startWhenReady`: Try again was pressed, start on the first frame.
    case waitingForCamera(startWhenReady: Bool)
    case ready
    case positioning
    /// Counting down since `startMs` (ms on the run's clock); `remaining`: the seconds
    /// `faceCaptureCountDown` last reported.
    case countdown(startMs: Int, remaining: Int)
    /// Recording since `startMs`.
    case recording(startMs: Int)

    /// The phase's name.
    public var phase: CapturePhase {
        switch self {
        case .waitingForCamera: return .waitingForCamera
        case .ready: return .ready
        case .positioning: return .positioning
        case .countdown: return .countdown
        case .recording: return .recording
        }
    }
}

/// The capture flow. Drive it with `handle(_:)`; read its public properties to draw.
///
/// Flow: instructions (unless `showInstructions` is false; shown while the model loads, issue
/// #29) → loading while the model is not ready → camera permission (unless
/// `cameraConsent`) → capture (`cameraPreviewShown`; `cameraReady` on the first frame) → Start
/// (s/Enter, or automatic when `showVideoCaptureButton` is false) → positioning → countdown of
/// `timeBeforeAutomaticCapture` while the face is valid and still → recording for the
/// effective duration → result. A face that stays invalid for `invalidGraceMs` or more (or, in
/// the countdown, leaves the position it was holding: `GuidanceResult.hasMoved`) sends the capture
/// back to positioning with `restartReason` set (as the Mobai SDK restarts); shorter blips are
/// ignored.
///
/// Attempts (issue #10): an attempt is numbered from 1 and reported in `videoCaptureStarted`,
/// `faceCaptureFailed` and `faceCaptureSuccess`. A timeout on the capture screen, or a looping
/// source that starts over while positioning or counting down (`sourceLooped`), fails the
/// attempt in a way that can be retried: while attempts remain, the failed screen offers Try
/// again (Enter/Space; q/Esc exit with the failure's code), which discards the attempt
/// (`discardAttempt`), keeps the camera open and starts the next attempt without waiting for
/// Start. Unattended runs press it themselves. Camera failures, a source that ended without
/// `--loop`, a timeout before the capture screen, and the last attempt's failure are final.
public struct CaptureStateMachine: Sendable, Equatable {
    public let settings: FlowSettings

    /// Where the flow is (the screen, and the data only that screen has).
    public private(set) var state: FlowState = .loading(.model)
    /// The screen the flow is on.
    public var screen: Screen {
        switch state {
        case .loading: return .loading
        case .instructions: return .instructions
        case .cameraPermission: return .cameraPermission
        case .cameraPermissionDenied: return .cameraPermissionDenied
        case .capture: return .capture
        case .result: return .result
        case .failed: return .failed
        }
    }
    /// What the loading screen waits for (`.model` on other screens).
    public var loadingStage: LoadingStage {
        if case .loading(let stage) = state { return stage }
        return .model
    }
    /// True once `modelLoaded` came (the instructions may show before it; the camera waits).
    public private(set) var modelReady = false
    /// The capture screen's phase; `.finished` on the result screen; on the other screens
    /// `.waitingForCamera` (or `.ready` on a failed screen whose camera had sent a frame).
    public var phase: CapturePhase {
        switch state {
        case .capture(let stage, _): return stage.phase
        case .result: return .finished
        case .failed(_, _, let ready, _): return ready ? .ready : .waitingForCamera
        default: return .waitingForCamera
        }
    }
    /// Moves the capture screen to `stage`, keeping its attempt; nothing on other screens.
    private mutating func setStage(_ stage: CaptureStage) {
        guard case .capture(_, let a) = state else { return }
        state = .capture(stage, a)
    }
    /// The attempt the state carries: under way on the capture screen, the one that ended on
    /// the result and failed screens; nil on the screens before the capture.
    public var currentAttempt: Attempt? {
        switch state {
        case .capture(_, let a), .result(let a), .failed(_, _, _, let a): return a
        default: return nil
        }
    }
    /// The attempt's data, read and written in the state's case (a fresh value, and writes
    /// ignored, on the screens that have none).
    var current: Attempt {
        get { currentAttempt ?? Attempt(patienceWindowMs: settings.qualityPatienceMs) }
        set {
            switch state {
            case .capture(let stage, _): state = .capture(stage, newValue)
            case .result: state = .result(newValue)
            case .failed(let r, let again, let ready, _): state = .failed(reason: r, canTryAgain: again, cameraReady: ready, ended: newValue)
            default: break
            }
        }
    }
    /// The last clock value seen (ms).
    public private(set) var nowMs: Int = 0
    /// The last judged frame of the attempt (`Attempt.guidance`).
    public var guidance: GuidanceResult? { current.guidance }
    /// The patience rule's state in this attempt (`Attempt.patience`).
    public var patience: QualityPatience { current.patience }
    /// Seconds left in the countdown (what `faceCaptureCountDown` last reported); nil but while
    /// counting down.
    public var countdownRemaining: Int? {
        if case .capture(.countdown(_, let remaining), _) = state { return remaining }
        return nil
    }
    /// Recording progress 0...1 (`Attempt.recordingProgress`).
    public var recordingProgress: Double { current.recordingProgress }
    /// Why the capture last went back to positioning (`Attempt.restartReason`).
    public var restartReason: Hint? { current.restartReason }
    /// Clock time (ms) of that restart.
    public var restartedAtMs: Int? { current.restartedAtMs }
    /// How long the restart message replaces the hint on the capture screen, in ms (2 s: long
    /// enough to read a short sentence; the hints come back after it).
    public static let restartMessageMs = 2000
    /// The restart reason while its message is due on screen: positioning or the next countdown,
    /// less than `restartMessageMs` after the restart; nil otherwise (a new countdown often
    /// starts within 0.2 s, too soon to have read why the last one stopped).
    public var shownRestartReason: Hint? {
        guard phase == .positioning || phase == .countdown, let at = restartedAtMs,
              nowMs - at < Self.restartMessageMs else { return nil }
        return restartReason
    }
    /// Set on the failed screen.
    public var failure: FailureReason? {
        if case .failed(let reason, _, _, _) = state { return reason }
        return nil
    }
    /// The device path of `permissionDenied`, on its screen.
    public var deniedDevicePath: String? {
        if case .cameraPermissionDenied(let path, _) = state { return path }
        return nil
    }
    /// True between `requestPermission` and its answer.
    public var permissionRequestPending: Bool {
        switch state {
        case .cameraPermission(let pending), .cameraPermissionDenied(_, let pending): return pending
        default: return false
        }
    }
    /// Frames written to the video in the current (or finished) recording.
    public var recordedFrameCount: Int { current.recordedFrameCount }
    /// Frames collected as stills in the current (or finished) recording.
    public var collectedFrameCount: Int { current.collectedFrameCount }
    /// The collection plan's offsets (ms from the recording start) not collected yet: what
    /// `collectOwed` asks for when the recording ends. Empty without a plan.
    public var owedStillOffsetsMs: [Int] { current.owedStillOffsetsMs }
    /// The current attempt, from 1; Try again moves to the next. On the result screen, the
    /// attempt that recorded (and the number of attempts made).
    public private(set) var attempt = 1
    /// True on the failed screen when it offers Try again (a retryable failure, attempts left).
    public var canTryAgain: Bool {
        if case .failed(_, let again, _, _) = state { return again }
        return false
    }

    /// True while the window is too small to show the flow (`windowTooSmall`): the flow pauses.
    public private(set) var windowTooSmall = false
    /// True while the `?` keys help covers the screen (`keysHelpShown`).
    public private(set) var keysHelpShown = false

    /// The source's frame rate (`sourceFrameRate`), nil until known.
    public private(set) var sourceFps: Double?

    /// True where nothing happens until a key is pressed: the instructions and permission
    /// screens (not while the permission asked for is being answered: the camera opens), the capture screen waiting for Start, and the failed screen when it offers Try
    /// again (the runtime ends a headless run whose key script cannot press it, issue #14).
    public var awaitsKey: Bool {
        switch screen {
        case .instructions, .cameraPermissionDenied: return true
        case .cameraPermission: return !permissionRequestPending   // the camera is opening
        case .capture: return phase == .ready
        case .failed: return canTryAgain
        case .loading, .result: return false
        }
    }
    /// How the current (or finished) recording collects its stills (`Attempt.collectionPlan`).
    public var collectionPlan: CollectionPlan? { current.collectionPlan }
    private var recordingStartMs: Int {
        if case .capture(.recording(let start), _) = state { return start }
        return nowMs
    }
    /// Countdowns and recordings of this attempt interrupted by a lost face.
    public var faceLosses: Int { current.faceLosses }
    private var timerStartMs = 0
    /// The active challenge of this attempt (`Attempt.challenge`, issue #25).
    public internal(set) var challenge: ChallengeJudge? {
        get { current.challenge }
        set { current.challenge = newValue }
    }

    public init(settings: FlowSettings = FlowSettings()) {
        self.settings = settings
    }

    /// The recording duration in ms (the override, else the preset).
    public var recordingDurationMs: Int { settings.session.effectiveRecordingDurationMs }
    /// Whether the Start button is shown (and needed).
    public var showsStartButton: Bool { settings.session.uiConfig.showVideoCaptureButton }
    /// Whether Esc/Backspace (`back`) does anything on the current screen (the footer shows
    /// "Esc: back" only then). Mirrors `navigateUp`: the permission screens go back to the
    /// instructions when shown; the capture screen goes back to the permission screen or the
    /// instructions, else stops a started attempt; loading, instructions, result and failed
    /// screens ignore it as "back" (on the failed screen Esc exits).
    public var backGoesSomewhere: Bool {
        switch screen {
        case .cameraPermission, .cameraPermissionDenied:
            return settings.session.uiConfig.showInstructions
        case .capture:
            if !settings.cameraConsent || settings.session.uiConfig.showInstructions { return true }
            return phase == .positioning || phase == .countdown || phase == .recording
        default:
            return false
        }
    }
    /// True while frames go to the video file.
    public var isRecording: Bool {
        if case .capture(.recording, _) = state { return true }
        return false
    }
    /// How many attempts the run may make (`FlowSettings.effectiveMaxAttempts`).
    public var maxAttempts: Int { settings.effectiveMaxAttempts }
    /// When the `--timeout` timer started (ms on the run's clock), or nil when none runs (the
    /// result screen). It starts at `started` (the loading screen counts) and again when the
    /// capture screen opens for the first attempt, restarts at Try again for
    /// each retry, and restarts when a failed screen opens after a timeout or offering Try
    /// again (so that screen waits at most that long for a choice). The runtime sends `timeout` once it has run out.
    /// No timer runs on the instructions and camera-permission screens: they wait for a person
    /// (unattended runs skip them), and the first attempt's timer restarts when the capture
    /// screen opens.
    public var timeoutStartMs: Int? {
        switch screen {
        case .result, .instructions, .cameraPermission, .cameraPermissionDenied: return nil
        default: return timerStartMs
        }
    }

    /// Feeds one event; returns the events it emits and the effects to carry out.
    public mutating func handle(_ event: Event) -> Transition { Transition(outputs(for: event)) }

    /// Feeds one event; returns its events and effects in the order decided.
    mutating func outputs(for event: Event) -> [Output] {
        switch event {
        case .tick(let now):
            nowMs = max(nowMs, now)
            return advanceClock()
        case .started:
            timerStartMs = nowMs
            // The instructions need no model: they show at once while it loads (issue #29).
            if settings.session.uiConfig.showInstructions { return [.loadModel] + showInstructions() }
            state = .loading(.model)
            return [.showScreen(.loading), .loadModel]
        case .modelLoaded:
            modelReady = true
            guard state == .loading(.model) else { return [] }
            return afterInstructions()
        case .keyPressed(.suspend):
            return dropTake(reason: "suspended") + [.suspend]
        case .keyPressed(let key):
            guard let action = key.action else { return [] }
            // A window too small to show the flow: only q and Ctrl-C act (issue #18).
            if windowTooSmall && action != .quit { return [] }
            return handleKey(action)
        case .permissionGranted:
            guard screen == .cameraPermission || screen == .cameraPermissionDenied else { return [] }
            return [emit(.cameraPermissionAccepted)] + enterCapture()
        case .permissionDenied(let path):
            guard screen == .cameraPermission || screen == .cameraPermissionDenied || screen == .loading else { return [] }
            state = .cameraPermissionDenied(devicePath: path, pending: false)
            return [emit(.cameraPermissionDenied, [EventField("device", .string(path))]), .showScreen(.cameraPermissionDenied)]
        case .cameraOpened:
            guard state == .loading(.camera) else { return [] }
            return enterCapture()
        case .cameraFirstFrame:
            return cameraReadyIfWaiting()
        case .sourceFrameRate(let fps):
            sourceFps = fps > 0 && fps.isFinite ? fps : nil
            return []
        case .frameGuided(let g):
            if windowTooSmall || keysHelpShown { return [] }
            return frameGuided(g)
        case .cameraFailed(let reason):
            return fail(.camera(reason))
        case .sourceEnded:
            return fail(.sourceEnded)
        case .sourceLooped:
            guard phase == .positioning || phase == .countdown else { return [] }
            return fail(.sourceEnded, retryable: true)
        case .timeout:
            switch screen {
            case .result: return []
            // Nobody chose on the failed screen within the timeout.
            case .failed: return [.exit(.timedOut)]
            // Before the capture screen there is no attempt to retry.
            default: return fail(.timeout, retryable: screen == .capture)
            }
        case .terminalResized:
            return [.showScreen(screen)]
        case .windowTooSmall(let small):
            guard small != windowTooSmall else { return [] }
            windowTooSmall = small
            return (small ? dropTake(reason: "windowTooSmall") : []) + [.showScreen(screen)]
        case .keysHelpShown(let shown):
            guard shown != keysHelpShown else { return [] }
            keysHelpShown = shown
            return (shown ? dropTake(reason: "keysHelp") : []) + [.showScreen(screen)]
        }
    }

    /// Drops a countdown or recording in progress (the recording's files go: `abortRecording`)
    /// and goes back to positioning, reporting `captureRestarted` with `reason`; the capture
    /// starts again from positioning when the flow moves on. Nothing happens in other phases.
    private mutating func dropTake(reason: String) -> [Output] {
        guard phase == .countdown || phase == .recording else { return [] }
        var effects: [Output] = isRecording ? [.abortRecording] : []
        effects.append(emit(.captureRestarted, [EventField("reason", .string(reason)), EventField("phase", .string(phase.rawValue)),
                                                EventField("attempt", .int(attempt))]))
        setStage(.positioning)
        current = current.restarted(keepingFaceLosses: true)
        return effects
    }

    // MARK: screens

    func emit(_ name: EventName, _ fields: [EventField] = []) -> Output {
        .emit(FlowEvent(name, tMs: nowMs, fields: fields))
    }

    private mutating func showInstructions() -> [Output] {
        state = .instructions
        return [.showScreen(.instructions), emit(.instructionsShown)]
    }

    private mutating func afterInstructions() -> [Output] {
        // Past the instructions before the model arrived: the loading screen until it does.
        if !modelReady {
            state = .loading(.model)
            return [.showScreen(.loading)]
        }
        if settings.cameraConsent {
            state = .loading(.camera)
            return [.showScreen(.loading), .openCamera]
        }
        state = .cameraPermission(pending: false)
        return [.showScreen(.cameraPermission), emit(.cameraPermissionShown)]
    }

    private mutating func enterCapture() -> [Output] {
        state = .capture(.waitingForCamera(startWhenReady: false), Attempt(patienceWindowMs: settings.qualityPatienceMs))
        timerStartMs = nowMs
        return [.showScreen(.capture), emit(.cameraPreviewShown)]
    }

    private mutating func cameraReadyIfWaiting() -> [Output] {
        guard case .capture(.waitingForCamera(let startNow), _) = state else { return [] }
        setStage(.ready)
        var effects = [emit(.cameraReady)]
        if !showsStartButton || startNow { effects += startCapture() }
        return effects
    }

    /// Start (or its automatic press): positioning, with a fresh attempt.
    private mutating func startCapture() -> [Output] {
        guard case .capture = state else { return [] }
        state = .capture(.positioning, Attempt(patienceWindowMs: settings.qualityPatienceMs))
        return [emit(.videoCaptureStarted, [EventField("attempt", .int(attempt)), EventField("maxAttempts", .int(maxAttempts))])]
    }

    // MARK: keys

    private mutating func handleKey(_ action: KeyAction) -> [Output] {
        switch screen {
        case .failed:
            // Try again on Enter/Space when offered; q, Esc (or any key on a final failure) exit.
            if canTryAgain {
                if action == .activate { return tryAgain() }
                if action == .start { return [] }
            }
            return [.exit(exitCode(for: failure ?? .timeout))]
        case .result:
            return action == .activate || action == .quit ? [.exit(.recorded)] : []
        default:
            break
        }
        if action == .quit {
            return (isRecording ? [.abortRecording] : []) + [emit(.cancelled, [EventField("screen", .string(screen.rawValue))]),
                                                            .exit(.cancelled)]
        }
        if action == .back { return navigateUp() }
        switch screen {
        case .instructions:
            return action == .activate ? afterInstructions() : []
        case .cameraPermission, .cameraPermissionDenied:
            guard action == .activate, !permissionRequestPending else { return [] }
            switch state {
            case .cameraPermissionDenied(let path, _): state = .cameraPermissionDenied(devicePath: path, pending: true)
            default: state = .cameraPermission(pending: true)
            }
            return [emit(.cameraPermissionRequested), .requestPermission]
        case .capture:
            guard phase == .ready, showsStartButton, action == .activate || action == .start else { return [] }
            return startCapture()
        default:
            return []
        }
    }

    /// One screen back (Unissey `navigateUp`). Loading and the first screen ignore it.
    private mutating func navigateUp() -> [Output] {
        switch screen {
        case .cameraPermission, .cameraPermissionDenied:
            guard settings.session.uiConfig.showInstructions else { return [] }
            return showInstructions()
        case .capture:
            // Esc during a countdown or recording drops the take: say so (reason "back"), so
            // the event log shows why the recording never ended.
            var abort: [Output] = isRecording ? [.abortRecording] : []
            if phase == .countdown || phase == .recording {
                abort.append(emit(.captureRestarted, [EventField("reason", .string("back")), EventField("phase", .string(phase.rawValue)),
                                                      EventField("attempt", .int(attempt))]))
            }
            // Leaving the capture screen leaves its attempt behind.
            if !settings.cameraConsent {
                state = .cameraPermission(pending: false)
                return abort + [.closeCamera, .showScreen(.cameraPermission), emit(.cameraPermissionShown)]
            }
            if settings.session.uiConfig.showInstructions {
                return abort + [.closeCamera] + showInstructions()
            }
            // Nowhere to go back to: stop the attempt and wait for Start again.
            guard phase == .positioning || phase == .countdown || phase == .recording else { return [] }
            setStage(.ready)
            current = current.restarted(keepingFaceLosses: false)
            if !showsStartButton { return abort + startCapture() }
            return abort
        default:
            return []
        }
    }

    // MARK: frames and time

    private mutating func frameGuided(_ g: GuidanceResult) -> [Output] {
        guard screen == .capture else { return [] }
        var effects: [Output] = []
        if phase == .waitingForCamera { effects += cameraReadyIfWaiting() }
        switch phase {
        case .positioning, .countdown, .recording: break
        case .ready:
            // Before Start the judgement is kept for the screen (the oval's look follows the face
            // from the first frame; hints too with --guide-before-start), reported only with
            // --guide-before-start (what the screen shows), and no countdown.
            current.guidance = g
            if settings.guideBeforeStart { effects += validatingEvents(g) }
            return effects
        default: return effects
        }
        // Issue #25: while a challenge step runs, turning is the instruction (see the extension).
        let tolerated = challengeTolerant(g)
        let accepted = challengeRunning ? [] : current.patience.update(tolerated, nowMs: nowMs, recording: phase == .recording)
        if !accepted.isEmpty {
            // The restart the shortfall caused is over: its message must not stand above the countdown.
            current.restartReason = nil; current.restartedAtMs = nil
            effects.append(emit(.qualityAccepted, [
                EventField("shortfalls", .array(accepted.map { s in .object([
                    EventField("hint", .string(s.hint.rawValue)), EventField("measure", .string(s.measure)),
                    EventField("value", .double(s.value)),
                    EventField("limit", .double(s.limit)), EventField("shownMs", .int(s.shownMs)),
                    EventField("frames", .int(s.frames)),
                ]) })),
                EventField("patienceMs", .int(settings.qualityPatienceMs ?? 0)), EventField("attempt", .int(attempt)),
            ]))
        }
        var g = patience.effective(tolerated)
        // Counting down or recording on a valid frame: the hint line says "Hold still", not a
        // shortfall's hint that the debounce still holds.
        if (phase == .countdown || phase == .recording), g.isValid { g.hint = .holdStill }
        current.guidance = g
        effects += validatingEvents(g)
        if g.isValid { current.invalidSinceMs = nil; current.invalidHint = nil }
        switch phase {
        case .positioning:
            // After a shortfall the countdown waits for `FlowSettings.shortfallClearMs` of clean
            // frames, or for the patience to accept it.
            if g.isStill && patience.clear(at: nowMs) {
                effects += beginCountdown()
                // With no countdown the recording starts on this frame, which the video holds.
                if phase == .recording { effects += recordedFrame(g) }
            }
        case .countdown:
            if g.hasMoved {
                effects += restart(because: .holdStill)
            } else if !g.isValid {
                effects += invalidFrame(g)
            } else {
                effects += advanceClock()
            }
        case .recording:
            if !g.isValid { effects += invalidFrame(g) }
            if phase == .recording { effects += recordedFrame(g) }
            if phase == .recording { effects += challengeObserve(g) }   // issue #25
        default: break
        }
        return effects
    }

    /// `faceValidating` for a judged frame, and `faceBoundingBoxValidating` with v2 constraints.
    private func validatingEvents(_ g: GuidanceResult) -> [Output] {
        var effects = [emit(.faceValidating, [EventField("status", .string(g.status.rawValue)),
                                              EventField("hint", .string(g.hint.rawValue))])]
        if settings.options.captureConstraints == .v2 {
            effects.append(emit(.faceBoundingBoxValidating, [
                EventField("poses", .array(g.poses.map { .string($0.rawValue) })),
                EventField("distance", .string(g.distance.rawValue)),
                EventField("positions", .array(g.positions.map { .string($0.rawValue) })),
            ]))
        }
        return effects
    }

    /// A judged frame of the recording (the runtime writes every frame read into the video): it
    /// counts; a valid one may be collected (a blip's
    /// frames stay in the video, which is continuous, but are not collected as stills).
    private mutating func recordedFrame(_ g: GuidanceResult) -> [Output] {
        var effects: [Output] = []
        let collects = collectionPlan.map { $0.collects(elapsedMs: nowMs - recordingStartMs, alreadyCollected: collectedFrameCount) }
            ?? settings.options.collects(recordedFrame: recordedFrameCount, alreadyCollected: collectedFrameCount)
        if g.isValid, collects {
            effects.append(.collectFrame(frameIndex: g.frameIndex))
            current.collectedFrameCount += 1
        }
        current.recordedFrameCount += 1
        return effects + advanceRecording(reportProgress: true)
    }

    /// An invalid frame during the countdown or recording: a blip until `invalidGraceMs` has
    /// passed since the first invalid frame, then a restart.
    private mutating func invalidFrame(_ g: GuidanceResult) -> [Output] {
        if current.invalidSinceMs == nil { current.invalidSinceMs = nowMs }
        // The frame's own hint: the shown one may still be holdStill while a quality hint waits
        // out its debounce, and "moved" would then be named for an invalid frame.
        current.invalidHint = g.frameHint == .holdStill ? g.hint : g.frameHint
        return graceExpired() ?? []
    }

    /// Restarts (aborting a recording) when frames have been invalid for `invalidGraceMs`.
    /// - Returns: nil while the grace runs (or no frame is invalid); else the restart's (or the
    ///   failure's) effects, which may be empty: the caller must then stop, the phase changed.
    private mutating func graceExpired() -> [Output]? {
        guard let since = current.invalidSinceMs, nowMs - since >= settings.invalidGraceMs else { return nil }
        let reason = current.invalidHint ?? .noFace
        if reason == .noFace {
            current.faceLosses += 1
            if faceLosses >= max(1, settings.maxFaceLosses) { return fail(.faceLost, retryable: true) }
        }
        return (phase == .recording ? [.abortRecording] : []) + restart(because: reason)
    }

    private mutating func restart(because reason: Hint) -> [Output] {
        let from = phase
        setStage(.positioning)
        // The take starts again (a restarted recording starts its challenge again, issue #25).
        let plan = collectionPlan
        current.newTake(plan: plan)
        current.restartReason = reason
        current.restartedAtMs = nowMs
        current.invalidSinceMs = nil
        current.invalidHint = nil
        // `moved` when the face left its hold, else the hint of the invalid frames.
        return [emit(.captureRestarted, [EventField("reason", .string(reason == .holdStill ? "moved" : reason.rawValue)),
                                         EventField("phase", .string(from.rawValue)),
                                         EventField("attempt", .int(attempt))])]
    }

    private mutating func beginCountdown() -> [Output] {
        current.invalidSinceMs = nil
        let total = settings.options.countdownMs
        if total == 0 { return startRecordingPhase() }
        let remaining = (total + 999) / 1000
        setStage(.countdown(startMs: nowMs, remaining: remaining))
        return [emit(.faceCaptureCountDown, [EventField("remaining", .int(remaining))])]
    }

    private mutating func startRecordingPhase() -> [Output] {
        let plan = sourceFps.flatMap { settings.options.collectionPlan(durationMs: recordingDurationMs, fps: $0) }
        setStage(.recording(startMs: nowMs))
        current.newTake(plan: plan)
        return [.startRecording, emit(.videoRecordStarted), emit(.faceCaptureStarted)]
    }

    private mutating func advanceClock() -> [Output] {
        switch phase {
        case .countdown:
            if let expired = graceExpired() { return expired }
            guard case .capture(.countdown(let start, let shown), _) = state else { return [] }
            let total = settings.options.countdownMs
            let elapsed = nowMs - start
            // The recording starts on a valid frame, not in the middle of a blip.
            if elapsed >= total { return current.invalidSinceMs == nil ? startRecordingPhase() : [] }
            let remaining = (total - elapsed + 999) / 1000
            guard remaining != shown else { return [] }
            setStage(.countdown(startMs: start, remaining: remaining))
            return [emit(.faceCaptureCountDown, [EventField("remaining", .int(remaining))])]
        case .recording:
            if let expired = graceExpired() { return expired }
            return advanceRecording(reportProgress: false)
        default:
            return []
        }
    }

    private mutating func advanceRecording(reportProgress: Bool) -> [Output] {
        let elapsed = nowMs - recordingStartMs
        let p = min(1, Double(max(0, elapsed)) / Double(recordingDurationMs))
        if p >= 1 { return challengeOrFinish() }   // issue #25: the challenge, if any, first
        let rounded = (p * 1000).rounded() / 1000
        guard reportProgress, rounded > recordingProgress else { return [] }
        current.recordingProgress = rounded
        return progressEvents(rounded)
    }

    private func progressEvents(_ p: Double) -> [Output] {
        [emit(.videoRecordProgress, [EventField("progress", .double(p))]),
         emit(.faceCaptureProgress, [EventField("progress", .double(p))])]
    }

    mutating func finishRecording() -> [Output] {
        var effects: [Output] = recordingProgress < 1 ? progressEvents(1) : []
        var recorded = current
        recorded.recordingProgress = 1
        state = .result(recorded)
        let owed = owedStillOffsetsMs
        if !owed.isEmpty { effects.append(.collectOwed(offsetsMs: owed)) }
        effects += [.stopRecording, emit(.videoRecordEnded, [
            EventField("container", .string(settings.videoContainer)),
            EventField("codec", .string(settings.videoCodec)),
        ]), emit(.faceCaptureSuccess, [
            EventField("frames", .int(recordedFrameCount)),
            EventField("collected", .int(collectedFrameCount)),
            EventField("durationMs", .int(recordingDurationMs)),
            EventField("attempt", .int(attempt)),
        ]), .writeResult, .showScreen(.result)]
        if !settings.interactive { effects.append(.exit(.recorded)) }
        return effects
    }

    // MARK: failure

    private func exitCode(for reason: FailureReason) -> FlowExit {
        switch reason {
        case .camera: return .cameraUnavailable
        case .sourceEnded, .timeout, .faceLost, .challengeFailed: return .timedOut
        }
    }

    /// Ends the current attempt with `reason`.
    /// - Parameter retryable: the failure itself allows a retry (a timeout on the capture screen,
    ///   a looping source that started over); Try again is offered only if attempts remain too.
    ///   A final failure ends the run at once when nobody answers the failed screen
    ///   (`interactive` false), and a final timeout always does (as before attempts existed).
    mutating func fail(_ reason: FailureReason, retryable: Bool = false) -> [Output] {
        guard screen != .result, screen != .failed else { return [] }
        let abort: [Output] = isRecording ? [.abortRecording] : []
        let cameraReady = screen == .capture && phase != .waitingForCamera
        state = .failed(reason: reason, canTryAgain: retryable && attempt < maxAttempts, cameraReady: cameraReady, ended: current)
        var effects = abort + [emit(.faceCaptureFailed, [EventField("reason", .string(reason.eventText)),
                                                         EventField("attempt", .int(attempt))]),
                               .showScreen(.failed)]
        if canTryAgain {
            timerStartMs = nowMs
            if settings.unattended { effects += tryAgain() }
        } else if !settings.interactive {
            effects.append(.exit(exitCode(for: reason)))
        } else if reason == .timeout {
            // The last attempt timed out: the person sees why (the failed screen, only exit
            // left, issue #29); any key exits, else the timer runs once more and `timeout` exits
            // with 75 from the failed screen.
            timerStartMs = nowMs
        }
        return effects
    }

    /// Try again: back to the capture screen with the camera still open, as the next attempt.
    /// The capture starts at once (Try again was the person's start), or when the first frame
    /// arrives if the camera has sent none yet; the `--timeout` timer restarts.
    private mutating func tryAgain() -> [Output] {
        guard case .failed(_, _, let cameraReady, _) = state else { return [] }
        attempt += 1
        // The next attempt starts from a fresh value: nothing of the failed one carries over.
        state = .capture(cameraReady ? .ready : .waitingForCamera(startWhenReady: true), Attempt(patienceWindowMs: settings.qualityPatienceMs))
        timerStartMs = nowMs
        var effects: [Output] = [.discardAttempt, .showScreen(.capture)]
        if cameraReady { effects += startCapture() }
        return effects
    }
}
