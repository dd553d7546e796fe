import CaptureModel

// Configuration types, named as in the seed SDKs: Unissey (`AcquisitionPreset`, `SessionConfig`,
// `RecordingConfig`, `UiConfig`, `VideoQuality`) and Mobai (`CaptureOptions`). Pure values.
/// How the video is recorded (Unissey `AcquisitionPreset`): a duration and preferred qualities.
public enum AcquisitionPreset: String, Sendable, CaseIterable, Codable {
    /// 1 s, 720p if possible else 1080p: "the preset most use cases rely on" (Unissey reference 3.1).
    case selfieFast
    /// 3 s, 720p if possible else 1080p: for PVID "substantial" compliance (Unissey reference 3.1).
    case selfieSubstantial

    /// Recording duration in milliseconds: 1000 (`selfieFast`) or 3000 (`selfieSubstantial`).
    public var recordingDurationMs: Int {
        switch self {
        case .selfieFast: return 1000
        case .selfieSubstantial: return 3000
        }
    }

    /// Preferred qualities, best first: `[.hd, .fhd]` for both presets (Unissey reference 3.1).
    public var qualities: [VideoQuality] { [.hd, .fhd] }
}

/// Recording overrides (Unissey `RecordingConfig`). Every field nil = take the preset's value.
public struct RecordingConfig: Sendable, Equatable, Codable {
    /// Recording duration in milliseconds; overrides the preset when set (Unissey default nil).
    public var recordingDurationMs: Int?
    /// Qualities in order of preference; overrides the preset when set (Unissey default nil).
    public var qualities: [VideoQuality]?
    public init(recordingDurationMs: Int? = nil, qualities: [VideoQuality]? = nil) {
        self.recordingDurationMs = recordingDurationMs; self.qualities = qualities
    }
}

/// Screen options (Unissey `UiConfig`). Defaults are Unissey's: all true.
public struct UiConfig: Sendable, Equatable, Codable {
    /// Show the first instructions screen (default true).
    public var showInstructions: Bool
    /// Show the Start button on the capture screen; when false the capture starts by itself as
    /// soon as the camera is ready (`cameraReady`) (default true).
    public var showVideoCaptureButton: Bool
    /// In a wide window, put the inputs (texts, button) right of the preview; false = left
    /// (default true).
    public var showWideWindowPreviewInputsToTheRight: Bool
    public init(showInstructions: Bool = true, showVideoCaptureButton: Bool = true,
                showWideWindowPreviewInputsToTheRight: Bool = true) {
        self.showInstructions = showInstructions
        self.showVideoCaptureButton = showVideoCaptureButton
        self.showWideWindowPreviewInputsToTheRight = showWideWindowPreviewInputsToTheRight
    }
}

/// A session's configuration (Unissey `SessionConfig`): the preset plus overrides.
public struct SessionConfig: Sendable, Equatable, Codable {
    public var preset: AcquisitionPreset
    public var recordingConfig: RecordingConfig
    public var uiConfig: UiConfig
    public init(preset: AcquisitionPreset = .selfieFast, recordingConfig: RecordingConfig = RecordingConfig(),
                uiConfig: UiConfig = UiConfig()) {
        self.preset = preset; self.recordingConfig = recordingConfig; self.uiConfig = uiConfig
    }

    /// The duration actually recorded, in ms: the override if set (clamped to ≥ 1), else the preset's.
    public var effectiveRecordingDurationMs: Int {
        max(1, recordingConfig.recordingDurationMs ?? preset.recordingDurationMs)
    }

    /// The qualities actually requested, best first: the override if set and non-empty, else the preset's.
    public var effectiveQualities: [VideoQuality] {
        if let q = recordingConfig.qualities, !q.isEmpty { return q }
        return preset.qualities
    }
}

/// Mobai capture constraints: V1 (landmark-based `FaceStatus`) or V2 (bounding-box based lists).
public enum CaptureConstraints: String, Sendable, CaseIterable, Codable {
    case v1, v2
}

/// The Mobai capture-session options. Defaults are the Mobai SDK's documented ones (mobai
/// biometric README "Options" table and `MBCaptureSessionOptions`): 10 frames before capture,
/// 3 frames to collect, an interval of 10 frames, 4 s before the automatic capture, qHD, V1
/// constraints, `fill`, no payload optimisation.
public struct CaptureOptions: Sendable, Equatable, Codable {
    /// Frames to skip after the recording starts before collecting the first frame (Mobai default 10).
    public var numberOfFramesBeforeCapture: Int
    /// How many frames to collect as stills (Mobai default 3).
    public var numberOfFrameToCollect: Int
    /// After the first collected frame, collect one every `frameInterval` frames (Mobai default 10; ≥ 1).
    public var frameInterval: Int
    /// Countdown in seconds while the face is valid and still before recording starts
    /// (`defaultTimeBeforeAutomaticCapture` unless asked otherwise).
    public var timeBeforeAutomaticCapture: Double
    /// The countdown's default, in seconds, the one home of it (the CLI, `--help` and the man
    /// page read it here): 1 s for every preset: Mobai's `timeBeforeAutomaticCapture` defaults
    /// to 1, and Unissey records "once the user stayed still for at least one second" (issue #10).
    public static let defaultTimeBeforeAutomaticCapture: Double = 1
    /// Camera resolution asked for (Mobai default qHD 960×540).
    public var targetResolution: TargetResolution
    /// Face constraints V1 or V2 (Mobai default V1).
    public var captureConstraints: CaptureConstraints
    /// Preview scaling (Mobai default `fill`).
    public var previewScaleType: PreviewScaleType
    /// Crop collected frames to the face and re-encode them smaller (Mobai default false).
    public var payloadOptimization: Bool

    public init(numberOfFramesBeforeCapture: Int = 10, numberOfFrameToCollect: Int = 3, frameInterval: Int = 10,
                timeBeforeAutomaticCapture: Double = defaultTimeBeforeAutomaticCapture, targetResolution: TargetResolution = .qhd,
                captureConstraints: CaptureConstraints = .v1, previewScaleType: PreviewScaleType = .fill,
                payloadOptimization: Bool = false) {
        self.numberOfFramesBeforeCapture = numberOfFramesBeforeCapture
        self.numberOfFrameToCollect = numberOfFrameToCollect
        self.frameInterval = frameInterval
        self.timeBeforeAutomaticCapture = timeBeforeAutomaticCapture
        self.targetResolution = targetResolution
        self.captureConstraints = captureConstraints
        self.previewScaleType = previewScaleType
        self.payloadOptimization = payloadOptimization
    }

    /// Countdown in whole milliseconds, clamped to 0...86 400 000 (a day; NaN counts as 0).
    public var countdownMs: Int {
        let s = timeBeforeAutomaticCapture
        guard !s.isNaN, s > 0 else { return 0 }
        return Int((min(s, 86_400) * 1000).rounded())
    }

    /// When to collect the stills of a recording of `durationMs` from a source at `fps`.
    ///
    /// Mobai's rule (skip `numberOfFramesBeforeCapture` frames, then one every `frameInterval`)
    /// when its `numberOfFrameToCollect` frames fit in the recording's `durationMs · fps / 1000`
    /// frames; otherwise (e.g. the default 1 s at 30 fps holds 30 frames, the rule needs frame
    /// 30) the stills are spread evenly: one at the middle of each of `numberOfFrameToCollect`
    /// equal slices of the recording (issue #12: "the frames asked for are the frames collected").
    /// - Returns: offsets in ms from the recording start, ascending; nil when `fps` is unknown
    ///   (≤ 0), where `collects(recordedFrame:alreadyCollected:)` counts frames instead.
    public func collectionPlan(durationMs: Int, fps: Double) -> CollectionPlan? {
        guard fps > 0, durationMs > 0, numberOfFrameToCollect > 0 else { return nil }
        let count = numberOfFrameToCollect
        let frames = Double(durationMs) * fps / 1000
        let lastMobai = Double(numberOfFramesBeforeCapture + (count - 1) * max(1, frameInterval))
        if lastMobai < frames.rounded(.down) {
            let offsets = (0..<count).map { j in
                Int((Double(numberOfFramesBeforeCapture + j * max(1, frameInterval)) * 1000 / fps).rounded())
            }
            return CollectionPlan(rule: .mobai, offsetsMs: offsets, frameMs: 1000 / fps)
        }
        let offsets = (0..<count).map { j in Int(((Double(j) + 0.5) * Double(durationMs) / Double(count)).rounded()) }
        return CollectionPlan(rule: .even, offsetsMs: offsets, frameMs: 1000 / fps)
    }

    /// Whether the `k`-th recorded frame (0-based, counted from the recording start) is collected:
    /// `k ≥ numberOfFramesBeforeCapture`, on the `frameInterval` grid after it, and fewer than
    /// `numberOfFrameToCollect` frames collected so far (Mobai option descriptions).
    public func collects(recordedFrame k: Int, alreadyCollected: Int) -> Bool {
        guard alreadyCollected < numberOfFrameToCollect, k >= numberOfFramesBeforeCapture else { return false }
        return (k - numberOfFramesBeforeCapture) % max(1, frameInterval) == 0
    }
}

/// When the stills of one recording are collected (`CaptureOptions.collectionPlan`).
public struct CollectionPlan: Sendable, Equatable {
    /// Which rule placed them.
    public enum Rule: String, Sendable, Equatable {
        /// Mobai's: frames before capture, then one every interval.
        case mobai
        /// Spread evenly over the recording (Mobai's rule would not fit the asked count).
        case even
    }
    public var rule: Rule
    /// Offsets from the recording start, in ms, ascending.
    public var offsetsMs: [Int]
    /// The source's frame period in ms: a frame within half of it (plus 1 ms, for timestamps
    /// rounded to the ms) before an offset is taken.
    public var frameMs: Double

    /// Whether a frame `elapsedMs` after the recording start is the next still, `collected`
    /// having been taken already (at most one still per frame, so a recording with fewer
    /// frames than asked gives fewer stills).
    public func collects(elapsedMs: Int, alreadyCollected collected: Int) -> Bool {
        guard collected < offsetsMs.count else { return false }
        return Double(elapsedMs) + frameMs / 2 + 1 >= Double(offsetsMs[collected])
    }
}
