/// What the screens read from the capture flow: a snapshot of `CaptureFlow.CaptureStateMachine`
/// (`machine.view`), so that the screens (TerminalUI) depend on this value, not on the machine.
public struct FlowView: Sendable, Equatable {
    public var screen: Screen
    public var loadingStage: LoadingStage
    public var permissionRequestPending: Bool
    public var deniedDevicePath: String?
    public var phase: CapturePhase
    /// The debounced hint of the latest judged frame; nil before the first.
    public var hint: Hint?
    /// The oval's state (`GuidanceResult.ovalValid`); nil before the first judged frame.
    public var ovalValid: Bool?
    public var countdownRemaining: Int?
    /// 0...1 of the recording.
    public var recordingProgress: Double
    /// Why the capture just restarted, while its message is shown.
    public var restartReason: Hint?
    public var showsStartButton: Bool
    public var recordingDurationMs: Int
    public var previewScaleType: PreviewScaleType
    public var inputsToTheRight: Bool
    /// The running challenge step's instruction key (issue #25), else nil.
    public var challengeKey: String?
    public var recordedFrameCount: Int
    public var collectedFrameCount: Int
    /// Stills asked for (`--frames-to-collect`).
    public var askedFrameCount: Int
    public var failure: FailureReason?
    public var canTryAgain: Bool
    public var attempt: Int
    public var maxAttempts: Int

    public init(screen: Screen = .loading, loadingStage: LoadingStage = .model, permissionRequestPending: Bool = false,
                deniedDevicePath: String? = nil, phase: CapturePhase = .waitingForCamera, hint: Hint? = nil,
                ovalValid: Bool? = nil, countdownRemaining: Int? = nil, recordingProgress: Double = 0,
                restartReason: Hint? = nil, showsStartButton: Bool = true, recordingDurationMs: Int = 1000,
                previewScaleType: PreviewScaleType = .fill, inputsToTheRight: Bool = true, challengeKey: String? = nil,
                recordedFrameCount: Int = 0, collectedFrameCount: Int = 0, askedFrameCount: Int = 0,
                failure: FailureReason? = nil, canTryAgain: Bool = false, attempt: Int = 1, maxAttempts: Int = 1) {
        self.screen = screen; self.loadingStage = loadingStage; self.permissionRequestPending = permissionRequestPending
        self.deniedDevicePath = deniedDevicePath; self.phase = phase; self.hint = hint; self.ovalValid = ovalValid
        self.countdownRemaining = countdownRemaining; self.recordingProgress = recordingProgress
        self.restartReason = restartReason; self.showsStartButton = showsStartButton
        self.recordingDurationMs = recordingDurationMs; self.previewScaleType = previewScaleType
        self.inputsToTheRight = inputsToTheRight; self.challengeKey = challengeKey
        self.recordedFrameCount = recordedFrameCount; self.collectedFrameCount = collectedFrameCount
        self.askedFrameCount = askedFrameCount; self.failure = failure; self.canTryAgain = canTryAgain
        self.attempt = attempt; self.maxAttempts = maxAttempts
    }
}
