import Testing
@testable import CaptureFlow

/// The active challenge's step logic (issue #25) on scripted poses, 30 fps frames on a manual
/// clock: Smile ID's targets (27° yaw, 17° pitch, held 150 ms), then back within 15°.
@Suite struct ChallengeTests {
    /// Feeds `poses` (yaw, pitch; nil: no face) one frame every 33 ms from `t0`, returning
    /// every outcome with the frame it came on.
    static func run(_ judge: inout ChallengeJudge, _ poses: [(Double, Double)?], t0: Int = 0, frame0: Int = 0)
        -> [(frame: Int, outcome: ChallengeJudge.Outcome)] {
        var out: [(Int, ChallengeJudge.Outcome)] = []
        for (i, p) in poses.enumerated() {
            for o in judge.observe(yaw: p?.0, pitch: p?.1, tMs: t0 + i * 33, frame: frame0 + i) { out.append((frame0 + i, o)) }
        }
        return out
    }

    /// A smooth turn to `peak` in `direction` and back: `n` frames out, `hold` frames at the
    /// peak, `n` frames back.
    static func turn(_ d: ChallengeDirection, peak: Double, n: Int = 10, hold: Int = 8) -> [(Double, Double)?] {
        func pose(_ v: Double) -> (Double, Double) {
            switch d {
            case .left: return (v, 2)
            case .right: return (-v, 2)
            case .up: return (1, v)
            }
        }
        let out = (0...n).map { pose(peak * Double($0) / Double(n)) }
        return out + Array(repeating: pose(peak), count: hold) + out.reversed()
    }

    static func plan(_ dirs: [ChallengeDirection], timeoutMs: Int = 8_000) -> ChallengePlan {
        ChallengePlan(nonce: "n", steps: dirs.map { ChallengeStep(direction: $0, timeoutMs: timeoutMs) }, seed: nil)
    }

    @Test func leftRightUpInOrderPassesWithTimesPeaksAndFrames() {
        var j = ChallengeJudge(plan: Self.plan([.left, .right, .up]))
        let started = j.start(tMs: 0, frame: 0)
        guard case .stepStarted(let first)? = started.first else { Issue.record("no start"); return }
        #expect(first.direction == .left && first.startMs == 0)
        var poses: [(Double, Double)?] = Self.turn(.left, peak: 32)
        poses += Self.turn(.right, peak: 30)
        poses += Self.turn(.up, peak: 20)
        let outcomes = Self.run(&j, poses)
        let passed = outcomes.compactMap { o -> ChallengeStepRecord? in if case .stepPassed(let r) = o.outcome { return r }; return nil }
        #expect(passed.map(\.direction) == [.left, .right, .up])
        #expect(j.finished && j.passed)
        if case .completed? = outcomes.last?.outcome {} else { Issue.record("not completed: \(outcomes)") }
        // Peaks: the asked component at its largest, with the frame's other angle.
        #expect(passed[0].peakYaw == 32 && passed[0].peakPitch == 2)
        #expect(passed[1].peakYaw == -30)
        #expect(passed[2].peakPitch == 20 && passed[2].peakYaw == 1)
        // Each step starts where the last ended; frame indices and times agree (33 ms a frame).
        #expect(passed[1].startFrame == passed[0].endFrame && passed[2].startMs == passed[1].endMs)
        for r in passed {
            let reached = r.reachedMs ?? -1, end = r.endMs ?? -1, endFrame = r.endFrame ?? -1
            #expect(r.startMs < reached && reached < end)
            #expect(end == endFrame * 33)
        }
    }

    /// 27° is reached but let go after 4 frames (132 ms < 150 ms) and never again: no pass,
    /// and the step times out.
    @Test func aTouchShorterThanTheHoldIsNotATurn() {
        var j = ChallengeJudge(plan: Self.plan([.left], timeoutMs: 2_000))
        _ = j.start(tMs: 0, frame: 0)
        var poses: [(Double, Double)?] = Array(repeating: (0, 0), count: 5)
        poses += Array(repeating: (28, 0), count: 5)   // at 27°+ for 4 intervals: 132 ms
        poses += Array(repeating: (0, 0), count: 60)
        let outcomes = Self.run(&j, poses)
        #expect(outcomes.count == 1)
        guard case .failed(let r)? = outcomes.first?.outcome else { Issue.record("\(outcomes)"); return }
        #expect(r.outcome == "timeout" && r.reachedMs == nil && r.peakYaw == 28)
        #expect((r.endMs ?? 0) > 2_000)
    }

    /// Held at the target but never back to neutral: not met (a head left turned is not a
    /// live answer to the next instruction).
    @Test func noReturnToNeutralTimesOut() {
        var j = ChallengeJudge(plan: Self.plan([.up], timeoutMs: 1_500))
        _ = j.start(tMs: 0, frame: 0)
        let outcomes = Self.run(&j, Array(repeating: (0, 20), count: 60))
        guard case .failed(let r)? = outcomes.first?.outcome else { Issue.record("\(outcomes)"); return }
        #expect(r.outcome == "timeout" && r.reachedMs != nil)
    }

    /// Turning right when left was asked fails at once, as `wrongDirection`.
    @Test func theOppositeTurnFailsAsWrongDirection() {
        var j = ChallengeJudge(plan: Self.plan([.left, .right]))
        _ = j.start(tMs: 0, frame: 0)
        let outcomes = Self.run(&j, Self.turn(.right, peak: 30))
        guard case .failed(let r)? = outcomes.first?.outcome else { Issue.record("\(outcomes)"); return }
        #expect(r.outcome == "wrongDirection" && r.direction == .left && j.finished && !j.passed)
    }

    /// A turn short of the target (20° for 27°) is missing, not met.
    @Test func aTurnShortOfTheTargetTimesOut() {
        var j = ChallengeJudge(plan: Self.plan([.right], timeoutMs: 2_000))
        _ = j.start(tMs: 0, frame: 0)
        let outcomes = Self.run(&j, Self.turn(.right, peak: 20, hold: 60))
        guard case .failed(let r)? = outcomes.first?.outcome else { Issue.record("\(outcomes)"); return }
        #expect(r.outcome == "timeout" && r.peakYaw == -20)
    }

    /// Frames without a face only let the clock run.
    @Test func framesWithoutAFaceCountOnlyTime() {
        var j = ChallengeJudge(plan: Self.plan([.left], timeoutMs: 1_000))
        _ = j.start(tMs: 0, frame: 0)
        let outcomes = Self.run(&j, Array(repeating: nil, count: 40))
        guard case .failed(let r)? = outcomes.first?.outcome else { Issue.record("\(outcomes)"); return }
        #expect(r.peakYaw == nil && r.outcome == "timeout")
    }

    /// The seed fixes the order and the nonce (reproducible), different seeds give every order.
    @Test func seededOrderIsReproducibleAndCoversEveryOrder() {
        let a = ChallengePlan.random(seed: 42), b = ChallengePlan.random(seed: 42)
        #expect(a == b && a.seed == 42 && a.nonce.count == 16)
        #expect(Set(a.steps.map(\.direction)) == Set(ChallengeDirection.allCases))
        var orders = Set<[ChallengeDirection]>()
        for s in 0..<200 { orders.insert(ChallengePlan.random(seed: UInt64(s)).steps.map(\.direction)) }
        #expect(orders.count == 6)   // 3! orders
    }

    /// Directions in HeadPose's signs: the person's left is positive yaw.
    @Test func directionsInHeadPoseSigns() {
        #expect(ChallengeDirection.left.progress(yaw: 30, pitch: 0) == 30)
        #expect(ChallengeDirection.right.progress(yaw: -30, pitch: 0) == 30)
        #expect(ChallengeDirection.up.progress(yaw: 0, pitch: 17) == 17)
        #expect(ChallengeTargets.smileID == ChallengeTargets(yawDeg: 27, pitchDeg: 17, holdMs: 150, neutralDeg: 15))
    }
}

/// New-user trial of issue #25: a failed attempt must not show a replayer the next order.
@Suite struct ChallengePerAttemptTests {
    /// Each attempt after the first draws its own nonce and (over many seeds, as often as a fresh
    /// shuffle of three steps would: 5 in 6) its own order; attempt 1 is the run's plan; the
    /// attempt's recorded seed reproduces its plan.
    @Test func everyAttemptHasItsOwnNonceAndOrder() {
        var sameOrder = 0
        let runs = 600
        for s in 0..<runs {
            let base = ChallengePlan.random(seed: UInt64(s) &* 0x0123_4567_89AB_CDEF &+ 99)
            #expect(base.forAttempt(1) == base)
            let second = base.forAttempt(2), third = base.forAttempt(3)
            #expect(second.nonce != base.nonce && third.nonce != second.nonce)
            #expect(second.seed != base.seed && ChallengePlan.random(seed: second.seed ?? 0) == second)
            if second.steps.map(\.direction) == base.steps.map(\.direction) { sameOrder += 1 }
        }
        // 1/6 of 600 = 100 expected by chance; far from "always the same" (600).
        #expect(sameOrder > 50 && sameOrder < 160, "same order in \(sameOrder) of \(runs) runs")
    }

    /// A verifier's file is asked as it is, every attempt.
    @Test func aVerifiersPlanIsKept() {
        let plan = ChallengePlan(nonce: "n-1", steps: [ChallengeStep(direction: .up, timeoutMs: 5000)], seed: nil)
        #expect(plan.forAttempt(3) == plan)
    }
}
