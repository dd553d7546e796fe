import Testing
@testable import CaptureFlow

/// The active challenge inside the flow (issue #25), on a manual clock with scripted poses at
/// 30 fps: it starts when the still part of the recording is complete, the recording goes on
/// through it, turning is not a fault while a step runs, the last step met ends the recording as
/// a success, and a step that times out fails the attempt (retryable).
@Suite struct ChallengeFlowTests {
    static func settings(_ dirs: [ChallengeDirection], timeoutMs: Int = 3_000) -> FlowSettings {
        var s = FlowSettings(options: CaptureOptions(timeBeforeAutomaticCapture: 0), cameraConsent: true)
        s.challenge = ChallengePlan(nonce: "n-1", steps: dirs.map { ChallengeStep(direction: $0, timeoutMs: timeoutMs) }, seed: nil)
        return s
    }

    /// A judged frame with a pose: valid and still when frontal; beyond 15° the guidance's own
    /// verdict (`turnHeadLess`, invalid, settling), as GuidanceRules gives for an advised pose.
    static func posed(_ d: Driver, _ i: Int, yaw: Double, pitch: Double, face: Bool = true) -> GuidanceResult {
        let turned = abs(yaw) > 15 || abs(pitch) > 15
        var g = d.g(i, valid: face && !turned, stillness: face && !turned ? .still : .settling,
                    hint: !face ? .noFace : turned ? .turnHeadLess : .holdStill)
        if face { g.yaw = yaw; g.pitch = pitch }
        return g
    }

    struct Run {
        var d: Driver
        var frame = 100
        /// Everything the machine answered, ticks included.
        var all: [Output] { d.effects }
        mutating func feed(_ poses: [(Double, Double)?]) {
            for p in poses {
                d.advance(to: d.now + 33)
                let g = ChallengeFlowTests.posed(d, frame, yaw: p?.0 ?? 0, pitch: p?.1 ?? 0, face: p != nil)
                d.send(.frameGuided(g))
                frame += 1
            }
        }
    }

    static func turn(_ dir: ChallengeDirection, peak: Double) -> [(Double, Double)?] {
        ChallengeTests.turn(dir, peak: peak).map { $0 }
    }

    /// Into the recording: a still, valid face starts it at once (no countdown).
    static func recording(_ s: FlowSettings) -> Run {
        var d = Driver(s)
        d.toPositioning()
        var r = Run(d: d)
        r.feed([(0, 0)])
        return r
    }

    @Test func challengeRunsAfterTheStillRecordingAndEndsItWhenEveryStepIsMet() {
        var r = Self.recording(Self.settings([.left, .up]))
        #expect(r.d.m.isRecording)
        r.feed(Array(repeating: (0, 0), count: 31))   // 1 s still part (selfieFast)
        #expect(Driver.names(r.all).contains(.challengeStepStarted))
        #expect(!Driver.names(r.all).contains(.faceCaptureSuccess) && r.d.m.isRecording)
        #expect(r.d.m.challengeInstructionKey == "selfie_capture_challenge_left")
        r.feed(Self.turn(.left, peak: 30))
        #expect(r.d.m.challengeInstructionKey == "selfie_capture_challenge_up")
        r.feed(Self.turn(.up, peak: 20))
        let names = Driver.names(r.all)
        #expect(names.filter { $0 == .challengeStepStarted }.count == 2)
        #expect(names.filter { $0 == .challengeStepPassed }.count == 2)
        #expect(!names.contains(.captureRestarted), "turning is the instruction, not a fault")
        #expect(names.last == .faceCaptureSuccess && r.d.m.screen == .result)
        // Every frame from the recording's start to the last step's return went into the video
        // (frames after the success are not recorded).
        let passed = Driver.events(r.all).filter { $0.name == .challengeStepPassed }
        let recorded = r.d.m.recordedFrameCount
        if case .int(let end)? = passed.last?["endFrame"] { #expect(recorded == end - 100 + 1) } else { Issue.record("no endFrame") }
        #expect(passed.first?["direction"] == .string("left") && passed.first?["peakYaw"] == .double(30))
        #expect(passed.last?["direction"] == .string("up") && passed.last?["peakPitch"] == .double(20))
        #expect(r.d.m.challenge?.passed == true)
    }

    @Test func aStepNotMetInTimeFailsTheAttemptWhichMayBeRetried() {
        var s = Self.settings([.right], timeoutMs: 1_000)
        s.maxAttempts = 2
        var r = Self.recording(s)
        r.feed(Array(repeating: (0, 0), count: 31 + 40))   // still, then no turn for > 1 s
        let failed = Driver.events(r.all).first { $0.name == .challengeFailed }
        #expect(failed?["outcome"] == .string("timeout") && failed?["direction"] == .string("right"))
        let f = Driver.events(r.all).first { $0.name == .faceCaptureFailed }
        #expect(f?["reason"] == .string("challengeFailed"))
        #expect(Driver.actions(r.all).contains(.abortRecording))
        #expect(r.d.m.screen == .failed && r.d.m.canTryAgain && r.d.m.failure == .challengeFailed)
        // Try again: a new attempt, its challenge from the first step.
        r.d.key(.enter)
        #expect(r.d.m.attempt == 2 && r.d.m.challenge == nil)
    }

    @Test func theWrongTurnFailsAtOnce() {
        var r = Self.recording(Self.settings([.left]))
        r.feed(Array(repeating: (0, 0), count: 31))
        r.feed(Self.turn(.right, peak: 30))
        #expect(Driver.events(r.all).first { $0.name == .challengeFailed }?["outcome"] == .string("wrongDirection"))
        #expect(r.d.m.screen == .failed)
    }

    /// A lost face is still a fault during a step: after the 250 ms grace the recording
    /// restarts, and its challenge with it.
    @Test func aLostFaceDuringAStepRestartsTheAttempt() {
        var r = Self.recording(Self.settings([.left]))
        r.feed(Array(repeating: (0, 0), count: 31))
        r.feed(Array(repeating: nil, count: 10))
        #expect(Driver.names(r.all).contains(.captureRestarted))
        #expect(r.d.m.challenge == nil && r.d.m.phase == .positioning)
    }
}

/// `--sound` (issue #25): each challenge step that starts rings its own rhythm.
@Suite struct ChallengeSoundTests {
    @Test func eachStepStartRingsTheChallengeCue() {
        var r = ChallengeFlowTests.recording(ChallengeFlowTests.settings([.left, .up]))
        r.feed(Array(repeating: (0, 0), count: 31))
        var previous = SoundState(r.d.m)
        var cues: [SoundCue] = []
        for p in ChallengeFlowTests.turn(.left, peak: 30) + ChallengeFlowTests.turn(.up, peak: 20) {
            r.feed([p])
            let now = SoundState(r.d.m)
            if let c = SoundCue.cue(from: previous, to: now) { cues.append(c) }
            previous = now
        }
        #expect(cues == [.challengeStep, .recordingEnded])   // the up step's start, then done
        #expect(SoundCue.challengeStep.pattern == [0, 250, 950])
    }
}
