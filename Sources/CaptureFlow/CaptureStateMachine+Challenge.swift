import JSON
import CaptureModel

/// The active challenge inside the capture flow (issue #25; the step logic is `ChallengeJudge`).
///
/// **Order**: the recording starts as without a challenge (a still, placed face: the countdown,
/// the stills, the reference frame); when its still part (`recordingDurationMs`) is complete the
/// first step starts and the recording goes on, so the video covers the whole challenge. The
/// last step met ends the recording as a success; a step that times out or is answered the
/// other way fails the attempt (`FailureReason.challengeFailed`, retryable as any failure).
///
/// **Guidance while a step runs**: turning is the instruction, not a fault. A frame with one face
/// counts as valid for the recording whatever its pose, position or quality hint (the turn moves
/// the face box and changes the light on it); only `noFace` and `multipleFaces` stay faults (and
/// restart the attempt after the usual 250 ms grace, the challenge with it). The patience
/// window (`QualityPatience`) does not run during a step: shortfalls accepted before stay
/// accepted, and none is newly accepted from frames of a turning head.
extension CaptureStateMachine {
    /// True while a challenge step is being judged (only while recording: the failed screen
    /// keeps the ended attempt's challenge, but no step runs there).
    public var challengeRunning: Bool {
        guard isRecording, let c = challenge else { return false }
        return !c.finished && !c.records.isEmpty
    }

    /// The still part of the recording is complete: start the challenge (the recording goes
    /// on), or finish when there is none or it passed.
    mutating func challengeOrFinish() -> [Output] {
        guard let base = settings.challenge else { return finishRecording() }
        // Each attempt its own order and nonce: a failed attempt must not show a replayer the
        // order to fake in the next (new-user trial of issue #25).
        let plan = base.forAttempt(attempt)
        guard let judge = challenge else {
            var j = ChallengeJudge(plan: plan)
            let outcomes = j.start(tMs: nowMs, frame: guidance?.frameIndex ?? 0)
            challenge = j
            return challengeEffects(outcomes)
        }
        if judge.passed { return finishRecording() }
        // running: the recording continues
        return []
    }

    /// `g` as the recording judges it: while a step runs, a frame with exactly one face is valid.
    func challengeTolerant(_ g: GuidanceResult) -> GuidanceResult {
        guard challengeRunning, !g.isValid, g.frameHint != .noFace, g.frameHint != .multipleFaces else { return g }
        var t = g
        t.isValid = true
        return t
    }

    /// A recorded frame's pose goes to the running step.
    mutating func challengeObserve(_ g: GuidanceResult) -> [Output] {
        guard challengeRunning, var j = challenge else { return [] }
        let outcomes = j.observe(yaw: g.yaw, pitch: g.pitch, tMs: nowMs, frame: g.frameIndex)
        challenge = j
        return challengeEffects(outcomes)
    }

    /// Events for the judge's outcomes: `challengeStepStarted`, `challengeStepPassed`
    /// (`step`, `direction`, `startMs`, `endMs`, `startFrame`, `endFrame`, `reachedMs`,
    /// `peakYaw`, `peakPitch`), `challengeFailed` (the same and `outcome`), then the failure
    /// or the end of the recording.
    mutating func challengeEffects(_ outcomes: [ChallengeJudge.Outcome]) -> [Output] {
        var effects: [Output] = []
        for o in outcomes {
            switch o {
            case .stepStarted(let r):
                effects.append(emit(.challengeStepStarted, [EventField("step", .int(r.index)),
                                                            EventField("direction", .string(r.direction.rawValue)),
                                                            EventField("startFrame", .int(r.startFrame)),
                                                            EventField("timeoutMs", .int(challenge?.plan.steps[r.index].timeoutMs ?? 0)),
                                                            EventField("attempt", .int(attempt))]))
            case .stepPassed(let r):
                effects.append(emit(.challengeStepPassed, Self.stepFields(r) + [EventField("attempt", .int(attempt))]))
            case .failed(let r):
                effects.append(emit(.challengeFailed, Self.stepFields(r) + [EventField("attempt", .int(attempt))]))
                effects += fail(.challengeFailed, retryable: true)
            case .completed:
                effects += finishRecording()
            }
        }
        return effects
    }

    static func stepFields(_ r: ChallengeStepRecord) -> [EventField] {
        func num(_ v: Double?) -> JSONValue { v.map { .double(($0 * 10).rounded() / 10) } ?? .null }
        func int(_ v: Int?) -> JSONValue { v.map { .int($0) } ?? .null }
        return [EventField("step", .int(r.index)), EventField("direction", .string(r.direction.rawValue)),
                EventField("startMs", .int(r.startMs)), EventField("endMs", int(r.endMs)),
                EventField("startFrame", .int(r.startFrame)), EventField("endFrame", int(r.endFrame)),
                EventField("reachedMs", int(r.reachedMs)), EventField("peakYaw", num(r.peakYaw)),
                EventField("peakPitch", num(r.peakPitch)), EventField("outcome", .string(r.outcome ?? "running"))]
    }

    /// The instruction's string key for the running step (`selfie_capture_challenge_left|right|up`),
    /// nil when no step runs: the capture screen's hint line and the announcer say it.
    public var challengeInstructionKey: String? {
        guard challengeRunning, let r = challenge?.current else { return nil }
        return "selfie_capture_challenge_" + r.direction.rawValue
    }
}

extension CaptureStateMachine {
    /// What the screens show of the flow now (TerminalUI's `ScreenView.from` reads this value).
    public var view: FlowView {
        FlowView(screen: screen, loadingStage: loadingStage, permissionRequestPending: permissionRequestPending,
                 deniedDevicePath: deniedDevicePath, phase: phase, hint: guidance?.hint, ovalValid: guidance?.ovalValid,
                 countdownRemaining: countdownRemaining, recordingProgress: recordingProgress,
                 restartReason: shownRestartReason, showsStartButton: showsStartButton,
                 recordingDurationMs: recordingDurationMs, previewScaleType: settings.options.previewScaleType,
                 inputsToTheRight: settings.session.uiConfig.showWideWindowPreviewInputsToTheRight,
                 challengeKey: challengeInstructionKey, recordedFrameCount: recordedFrameCount,
                 collectedFrameCount: collectedFrameCount, askedFrameCount: settings.options.numberOfFrameToCollect,
                 failure: failure, canTryAgain: canTryAgain, attempt: attempt, maxAttempts: maxAttempts)
    }
}
