import CaptureModel

/// What one attempt has gathered, from the capture screen's opening (or Try again) to its end
/// (issue #26). It is data of the `FlowState` cases that have an attempt: under way in
/// `.capture`, the attempt that recorded in `.result`, the one that failed in `.failed` (for the
/// run's last message). A new attempt starts from a fresh value (`init(patienceWindowMs:)`), so
/// nothing of a failed attempt reaches the next. The countdown's seconds are not here: they are
/// data of `CaptureStage.countdown`, so no other screen can hold a countdown.
public struct Attempt: Sendable, Equatable {
    /// The last judged frame (positioning, countdown, recording; before Start too, for the
    /// oval's look).
    public internal(set) var guidance: GuidanceResult?
    /// The patience rule's state (issue #24); its `shortfalls` once `accepted` are what
    /// result.json's `qualityShortfalls` reports.
    public internal(set) var patience: QualityPatience
    /// Why the capture last went back to positioning: the hint of the invalid frames that caused
    /// it, or `.holdStill` when the face moved during the countdown.
    public internal(set) var restartReason: Hint?
    /// Clock time (ms) of that restart.
    public internal(set) var restartedAtMs: Int?
    /// Since when (ms) frames have been invalid during a countdown or recording, and their hint.
    var invalidSinceMs: Int?
    var invalidHint: Hint?
    /// Countdowns and recordings of this attempt interrupted by a lost face.
    public internal(set) var faceLosses = 0

    // The current recording (the last one on the result and failed screens); a restart or a
    // new recording starts them again.
    /// Recording progress 0...1.
    public internal(set) var recordingProgress: Double = 0
    /// Frames written to the video, as the machine judged them.
    public internal(set) var recordedFrameCount = 0
    /// Frames collected as stills.
    public internal(set) var collectedFrameCount = 0
    /// How the recording collects its stills; nil without a known frame rate (Mobai's
    /// frame-count rule then applies).
    public internal(set) var collectionPlan: CollectionPlan?
    /// The active challenge (issue #25, `CaptureStateMachine+Challenge.swift`): started when the
    /// still part of the recording is complete; nil without one.
    public internal(set) var challenge: ChallengeJudge?

    /// A fresh attempt. `patienceWindowMs`: `FlowSettings.qualityPatienceMs`.
    public init(patienceWindowMs: Int?) {
        patience = QualityPatience(windowMs: patienceWindowMs)
    }

    /// The same attempt with its take dropped (a countdown or recording stopped: Esc, a window
    /// too small, the keys help, Ctrl-Z): everything starts again but the restart reason, and
    /// the face losses when `keepingFaceLosses`.
    func restarted(keepingFaceLosses: Bool) -> Attempt {
        var a = Attempt(patienceWindowMs: patience.windowMs)
        a.restartReason = restartReason
        if keepingFaceLosses { a.faceLosses = faceLosses }
        return a
    }

    /// The recording's counters start again (a recording starts, or restarts) with `plan`.
    mutating func newTake(plan: CollectionPlan?) {
        recordingProgress = 0
        recordedFrameCount = 0
        collectedFrameCount = 0
        collectionPlan = plan
        challenge = nil
    }

    /// The collection plan's offsets (ms from the recording start) not collected yet.
    var owedStillOffsetsMs: [Int] {
        guard let plan = collectionPlan, collectedFrameCount < plan.offsetsMs.count else { return [] }
        return Array(plan.offsetsMs[collectedFrameCount...])
    }
}
