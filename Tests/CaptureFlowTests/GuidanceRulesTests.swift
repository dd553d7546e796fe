import CaptureFlow
import CaptureModel
import Foundation
import Testing

/// Rules on synthetic frames: a 640×480 frame, one face box placed by its centre and height as
/// fractions of the frame (raw, unmirrored coordinates), good light and focus unless changed.
/// `scene` is the whole frame's mean luma (default: the same as the face's `brightness`).
func frame(_ faces: [DetectedFace], t: Int = 0, index: Int = 0, brightness: Double = 160, clipped: Double = 0,
           sharpness: Double = 500, eyesOpen: Bool? = true, scene: Double? = nil) -> FrameAnalysis {
    FrameAnalysis(frameIndex: index, timestampMs: t, frameWidth: 640, frameHeight: 480, faces: faces,
                  brightness: brightness, clippedFraction: clipped, sharpness: sharpness, eyesOpen: eyesOpen,
                  sceneBrightness: scene ?? brightness)
}

func face(cx: Double = 0.5, cy: Double = 0.5, h: Double = 0.5, yaw: Double? = 0, pitch: Double? = 0, roll: Double? = 0) -> DetectedFace {
    let hp = h * 480
    return DetectedFace(box: Rect(x: cx * 640 - hp / 2, y: cy * 480 - hp / 2, w: hp, h: hp), score: 1,
                        yaw: yaw, pitch: pitch, roll: roll)
}

@Suite struct GuidanceRulesTests {
    let config = GuidanceConfig()

    func judge(_ f: FrameAnalysis, mirror: Bool = true) -> FrameJudgement {
        var c = config
        c.mirror = mirror
        return GuidanceRules.judge(f, config: c)
    }

    @Test func noFaceIsNotFoundEverywhere() {
        let j = judge(frame([]))
        #expect(j.status == .NotFound)
        #expect(j.distance == .NOT_FOUND && j.positions == [.NOT_FOUND] && j.poses == [.NOT_FOUND])
        #expect(j.hint == .noFace && !j.isValid)
    }

    @Test func twoFacesAreTooManyFaces() {
        let j = judge(frame([face(cx: 0.3), face(cx: 0.7)]))
        #expect(j.status == .TooManyFaces && j.hint == .multipleFaces)
        #expect(j.distance == .NOT_FOUND && j.positions == [.NOT_FOUND] && j.poses == [.NOT_FOUND])
    }

    @Test func centredFaceIsValid() {
        let j = judge(frame([face()]))
        #expect(j.status == .ValidFace && j.distance == .VALID_FACE_POSE)
        #expect(j.positions == [.VALID_FACE_POSE] && j.poses == [.VALID_FACE_POSE])
        #expect(j.hint == .holdStill && j.isValid)
    }

    /// Distance limits of the shared/media label rule: h/H < 0.35 too far, > 0.65 too close.
    @Test(arguments: [(0.20, FaceStatus.TooFarAway, FaceDistance.TOO_FAR_AWAY, Hint.getCloser),
                      (0.34, .TooFarAway, .TOO_FAR_AWAY, .getCloser),
                      (0.36, .ValidFace, .VALID_FACE_POSE, .holdStill),
                      (0.64, .ValidFace, .VALID_FACE_POSE, .holdStill),
                      (0.66, .TooClose, .TOO_CLOSE, .getFurther),
                      (0.92, .TooClose, .TOO_CLOSE, .getFurther)])
    func distance(h: Double, status: FaceStatus, distance: FaceDistance, hint: Hint) {
        let j = judge(frame([face(h: h)]))
        #expect(j.status == status && j.distance == distance && j.hint == hint)
    }

    /// Mirrored (default): a face in the raw frame's right part is shown left of the oval.
    @Test func positionsInTheMirroredView() {
        let rawRight = judge(frame([face(cx: 0.65)]))
        #expect(rawRight.status == .TooFarLeft && rawRight.positions == [.TOO_FAR_LEFT] && rawRight.hint == .moveRight)
        let rawLeft = judge(frame([face(cx: 0.35)]))
        #expect(rawLeft.status == .TooFarRight && rawLeft.positions == [.TOO_FAR_RIGHT] && rawLeft.hint == .moveLeft)
        let high = judge(frame([face(cy: 0.35)]))
        #expect(high.status == .TooFarUp && high.positions == [.TOO_FAR_UP] && high.hint == .moveDown)
        let low = judge(frame([face(cy: 0.65)]))
        #expect(low.status == .TooFarDown && low.positions == [.TOO_FAR_DOWN] && low.hint == .moveUp)
        // Within the 0.12 tolerance on both axes.
        #expect(judge(frame([face(cx: 0.61, cy: 0.39)])).status == .ValidFace)
    }

    @Test func unmirroredPositions() {
        let rawRight = judge(frame([face(cx: 0.65)]), mirror: false)
        #expect(rawRight.status == .TooFarRight && rawRight.positions == [.TOO_FAR_RIGHT] && rawRight.hint == .moveLeft)
        let rawLeft = judge(frame([face(cx: 0.35)]), mirror: false)
        #expect(rawLeft.status == .TooFarLeft && rawLeft.hint == .moveRight)
    }

    /// Several V2 entries at once; V1 follows the label rule's order (horizontal before vertical).
    @Test func severalPositionsAtOnce() {
        let j = judge(frame([face(cx: 0.70, cy: 0.30)]))
        #expect(j.positions == [.TOO_FAR_UP, .TOO_FAR_LEFT])
        #expect(j.status == .TooFarLeft && j.hint == .moveRight)
        let k = judge(frame([face(cx: 0.30, cy: 0.70)]))
        #expect(k.positions == [.TOO_FAR_DOWN, .TOO_FAR_RIGHT])
        #expect(k.status == .TooFarRight)
    }

    /// Distance comes before position (label rule).
    @Test func distanceBeforePosition() {
        let j = judge(frame([face(cx: 0.8, h: 0.2)]))
        #expect(j.status == .TooFarAway && j.distance == .TOO_FAR_AWAY && j.positions == [.TOO_FAR_LEFT])
        #expect(j.hint == .getCloser)
    }

    /// Issue #24: a pose beyond the advice limits (15°, 15°, 10°) is a shortfall (placed, not
    /// valid, the hint shown); beyond the blocking limits (45° yaw, 30° pitch, 45° roll) it blocks.
    @Test func poses() {
        let yaw = judge(frame([face(yaw: 20)]))
        #expect(yaw.poses == [.YAW_EXCESSIVE_FACE_ROTATION] && yaw.hint == .turnHeadLess && !yaw.isValid)
        #expect(yaw.status == .ValidFace && yaw.isPlaced)
        #expect(yaw.shortfalls == [QualityShortfall(hint: .turnHeadLess, measure: "HeadPoseYaw", value: 20, limit: 15)])
        let pitch = judge(frame([face(pitch: -16)]))
        #expect(pitch.poses == [.PITCH_EXCESSIVE_FACE_ROTATION] && pitch.hint == .turnHeadLess && pitch.isPlaced)
        let roll = judge(frame([face(roll: 11)]))
        #expect(roll.poses == [.ROLL_EXCESSIVE_FACE_ROTATION] && roll.hint == .levelHead && roll.isPlaced)
        let all = judge(frame([face(yaw: -30, pitch: 30, roll: -30)]))
        #expect(all.poses == [.YAW_EXCESSIVE_FACE_ROTATION, .ROLL_EXCESSIVE_FACE_ROTATION, .PITCH_EXCESSIVE_FACE_ROTATION])
        // Blocking: turned or tilted far beyond what a liveness video needs.
        for (f, h) in [(face(yaw: 46), Hint.turnHeadLess), (face(yaw: -46), .turnHeadLess), (face(pitch: 31), .turnHeadLess),
                       (face(pitch: -31), .turnHeadLess), (face(roll: 46), .levelHead), (face(roll: -50), .levelHead)] {
            let j = judge(frame([f]))
            #expect(j.hint == h && !j.isPlaced && !j.isValid && j.shortfalls.isEmpty)
        }
        // At the blocking limits themselves: still a shortfall, not a wall.
        #expect(judge(frame([face(yaw: 45, pitch: 30, roll: 45)])).isPlaced)
        // At the documented advice limits still valid; unknown pose is not excessive.
        #expect(judge(frame([face(yaw: 15, pitch: -15, roll: 10)])).poses == [.VALID_FACE_POSE])
        #expect(judge(frame([face(yaw: nil, pitch: nil, roll: nil)])).isValid)
    }

    /// Light is judged on the scene (issue #24): the whole frame too dark blocks; a dark face in a
    /// well-lit frame (dark skin in good light) is valid.
    @Test func lightBlurAndEyes() {
        let dark = judge(frame([face()], brightness: 41))   // shared/media `dark`: the whole frame at 25 %
        #expect(dark.hint == .tooDark && dark.status == .ValidFace && !dark.isValid && !dark.isPlaced)
        #expect(judge(frame([face()], brightness: 41, scene: 120)).hint == .holdStill)
        #expect(judge(frame([face()], brightness: 20, scene: 49)).isValid)
        #expect(judge(frame([face()], brightness: 240, scene: 240)).hint == .tooBright)
        #expect(!judge(frame([face()], brightness: 240, scene: 240)).isPlaced)
        let clipped = judge(frame([face()], clipped: 0.4))
        #expect(clipped.hint == .tooBright && clipped.isPlaced && clipped.shortfalls.map(\.measure) == ["FaceClippedFraction"])
        #expect(judge(frame([face()], sharpness: 10)).hint == .tooBlurry)
        let eyes = judge(frame([face()], eyesOpen: false))
        #expect(eyes.hint == .openEyes && eyes.isPlaced && !eyes.isValid)
        #expect(judge(frame([face()], eyesOpen: nil)).hint == .holdStill)
    }

    /// Priority: no face, multiple faces, distance, position, blocking pose, scene light; then the
    /// shortfalls in order (pose, face light, blur, eyes, mouth), all of them listed.
    @Test func hintPriority() {
        let bad = (brightness: 10.0, sharpness: 1.0, eyes: false)
        func hint(_ f: DetectedFace...) -> Hint {
            judge(frame(f, brightness: bad.brightness, sharpness: bad.sharpness, eyesOpen: bad.eyes)).hint
        }
        #expect(hint(face(cx: 0.9, h: 0.2, yaw: 40)) == .getCloser)
        #expect(hint(face(cx: 0.9, yaw: 40)) == .moveRight)
        #expect(hint(face(yaw: 50, roll: 50)) == .turnHeadLess)
        #expect(hint(face(roll: 50)) == .levelHead)
        #expect(hint(face()) == .tooDark)
        let many = judge(frame([face(yaw: 20)], clipped: 0.9, sharpness: 1, eyesOpen: false))
        #expect(many.hint == .turnHeadLess && many.isPlaced)
        #expect(many.shortfalls.map(\.hint) == [.turnHeadLess, .tooBright, .tooBlurry, .openEyes])
        #expect(judge(frame([face()], clipped: 0.9, sharpness: 1, eyesOpen: false)).hint == .tooBright)
        #expect(judge(frame([face()], sharpness: 1, eyesOpen: false)).hint == .tooBlurry)
    }

    @Test func ovalGeometry() {
        let o = FaceOval.standard
        #expect(o.centerX == 0.5 && o.centerY == 0.5 && o.targetFaceHeight == 0.5)
        #expect(o.minFaceHeight == 0.35 && o.maxFaceHeight == 0.65 && o.toleranceX == 0.12 && o.toleranceY == 0.12)
        let e = o.ellipse(width: 640, height: 480)
        #expect(e.cx == 320 && e.cy == 240 && e.ry == 156 && abs(e.rx - 117) < 1e-9)
    }
}

@Suite struct HintDebouncerTests {
    @Test func newHintShowsOnlyAfterPersisting200ms() {
        var d = HintDebouncer(persistMs: 200)
        do { let v = d.update(.getCloser, timestampMs: 0); #expect(v == .getCloser) }         // first hint at once
        do { let v = d.update(.holdStill, timestampMs: 67); #expect(v == .getCloser) }
        do { let v = d.update(.holdStill, timestampMs: 200); #expect(v == .getCloser) }       // 133 ms
        do { let v = d.update(.holdStill, timestampMs: 267); #expect(v == .holdStill) }       // 200 ms
    }

    @Test func flickerNeverShows() {
        var d = HintDebouncer(persistMs: 200)
        _ = d.update(.holdStill, timestampMs: 0)
        var shown: Set<Hint> = []
        for k in 1...30 { shown.insert(d.update(k % 2 == 0 ? .moveLeft : .holdStill, timestampMs: k * 67)) }
        #expect(shown == [.holdStill])
        // A different candidate restarts the wait.
        _ = d.update(.holdStill, timestampMs: 2900)
        _ = d.update(.moveLeft, timestampMs: 3000)
        _ = d.update(.moveUp, timestampMs: 3150)
        do { let v = d.update(.moveUp, timestampMs: 3300); #expect(v == .holdStill) }
        do { let v = d.update(.moveUp, timestampMs: 3350); #expect(v == .moveUp) }
    }
}

@Suite struct StillnessTests {
    /// Feeds `faces` at 15 fps (67 ms apart) from `t0`; returns the judgements.
    func feed(_ s: inout StillnessJudge, _ faces: [DetectedFace?], t0: Int = 0) -> [Stillness] {
        faces.enumerated().map { k, f in s.update(f, frameWidth: 640, timestampMs: t0 + k * 1000 / 15) }
    }

    /// A face at rest settles once the window (300 ms) is covered: the 4th frame at 15 fps
    /// (200 ms = 2/3 of the window after the first).
    @Test func settlesAfterTheWindow() {
        var s = StillnessJudge()
        let r = feed(&s, Array(repeating: face(), count: 6))
        #expect(r == [.settling, .settling, .settling, .still, .still, .still])
        #expect(s.isHolding)
    }

    /// Moving into place at 10 % of the width per second (a real move, 2× the 5 %/s limit) does
    /// not settle; sway at 1 %/s (2× the clips' natural sway) does.
    @Test func speedDecidesSettling() {
        var moving = StillnessJudge()
        let fast = feed(&moving, (0..<15).map { face(cx: 0.3 + 0.1 * Double($0) / 15) })
        #expect(!fast.contains(.still))
        var swaying = StillnessJudge()
        let slow = feed(&swaying, (0..<15).map { face(cx: 0.5 + 0.01 * Double($0) / 15) })
        #expect(slow.contains(.still))
        // Growing at 20 %/s (moving closer) does not settle either.
        var closer = StillnessJudge()
        let grow = feed(&closer, (0..<15).map { face(h: 0.4 * (1 + 0.2 * Double($0) / 15)) })
        #expect(!grow.contains(.still))
    }

    /// Once held, sway inside 3 % of the width and 5 % of size stays still; beyond, it has moved.
    @Test func holdToleranceCatchesRealMoves() {
        var s = StillnessJudge()
        _ = feed(&s, Array(repeating: face(), count: 4))
        #expect(s.update(face(cx: 0.52), frameWidth: 640, timestampMs: 300) == .still)     // 2 % of width
        #expect(s.update(face(h: 0.5 * 1.04), frameWidth: 640, timestampMs: 367) == .still)  // 4 % size
        #expect(s.update(face(cx: 0.535), frameWidth: 640, timestampMs: 433) == .moved)     // 3.5 %: moved
        #expect(!s.isHolding)
        #expect(s.update(face(cx: 0.535), frameWidth: 640, timestampMs: 500) == .settling)  // settles again
        var t = StillnessJudge()
        _ = feed(&t, Array(repeating: face(), count: 4))
        #expect(t.update(face(h: 0.5 * 1.06), frameWidth: 640, timestampMs: 300) == .moved)  // 6 % size
    }

    /// A slow drift below the settling speed is still caught against the hold position.
    @Test func slowDriftIsCaught() {
        var s = StillnessJudge()
        let r = feed(&s, (0..<40).map { face(cx: 0.5 + 0.0015 * Double($0)) })   // 2.25 % W/s
        #expect(r.contains(.still) && r.contains(.moved))
    }

    /// Invalid frames under 250 ms keep the hold; 250 ms or more start over.
    @Test func graceKeepsTheHold() {
        var s = StillnessJudge()
        _ = feed(&s, Array(repeating: face(), count: 4))                   // held at t = 200
        #expect(s.update(nil, frameWidth: 640, timestampMs: 267) == .settling)
        #expect(s.update(nil, frameWidth: 640, timestampMs: 333) == .settling)
        #expect(s.update(face(), frameWidth: 640, timestampMs: 400) == .still)    // blip of 133 ms
        #expect(s.update(nil, frameWidth: 640, timestampMs: 467) == .settling)
        #expect(s.update(nil, frameWidth: 640, timestampMs: 667) == .settling)   // 267 ms since the last valid frame
        #expect(!s.isHolding)
        #expect(s.update(face(), frameWidth: 640, timestampMs: 733) == .settling)
    }
}

@Suite struct GuidanceTests {
    @Test func judgeDebouncesAndWaitsForStillness() {
        var g = Guidance()
        let r0 = g.judge(frame([face(h: 0.2)], t: 0, index: 0))
        #expect(r0.status == .TooFarAway && r0.hint == .getCloser && !r0.isValid && !r0.isStill)
        let r1 = g.judge(frame([face()], t: 67, index: 1))
        #expect(r1.status == .ValidFace && r1.isValid && !r1.isStill && r1.hint == .getCloser && r1.frameIndex == 1)
        let r2 = g.judge(frame([face()], t: 133, index: 2))
        #expect(!r2.isStill && r2.stillness == .settling && r2.hint == .getCloser)
        let r3 = g.judge(frame([face()], t: 267, index: 3))
        #expect(r3.isStill && r3.hint == .holdStill && r3.timestampMs == 267)   // window of 200 ms at rest
        let r4 = g.judge(frame([face(cx: 0.52)], t: 333, index: 4))
        #expect(r4.isValid && r4.isStill)
        // A jump within the oval (moves_during_hold) is a real move at once.
        let r5 = g.judge(frame([face(cx: 0.58)], t: 400, index: 5))
        #expect(r5.status == .ValidFace && r5.hasMoved && !r5.isStill)
        // A jump out of the oval is an invalid frame: not still, and not judged as a move.
        let r6 = g.judge(frame([face(cx: 0.7)], t: 467, index: 6))
        #expect(r6.status == .TooFarLeft && !r6.isStill && !r6.hasMoved)
    }

    @Test func configDefaultsAreDocumentedValues() {
        let c = GuidanceConfig()
        #expect(c.maxYaw == 15 && c.maxPitch == 15 && c.maxRoll == 10 && c.minSceneBrightness == 48)
        #expect(c.blockingYaw == 45 && c.blockingPitch == 30 && c.blockingRoll == 45)
        #expect(c.hintPersistMs == 200 && c.stillness.holdCenterTolerance == 0.03 && c.stillness.holdSizeTolerance == 0.05)
        #expect(c.stillness.windowMs == 300 && c.stillness.graceMs == 250)
        #expect(c.mirror && c.constraints == .v1)
    }
}

@Suite struct AnalysisLogTests {
    @Test func jsonLineHasTheDocumentedFields() throws {
        var f = face(cx: 0.35, yaw: 3.14159, pitch: -9.5, roll: nil)
        f.score = 1.23456
        let a = frame([f], t: 1067, index: 16, brightness: 163.44, sharpness: 987.65, eyesOpen: true)
        var g = Guidance()
        let r = g.judge(a)
        let line = AnalysisLog.jsonLine(a, r)
        #expect(!line.contains("\n"))
        let obj = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(obj["frame"] as? Int == 16 && obj["t_ms"] as? Int == 1067)
        let faces = try #require(obj["faces"] as? [[String: Any]])
        #expect(faces.count == 1)
        #expect(faces[0]["x"] as? Double == 104 && faces[0]["y"] as? Double == 120)
        #expect(faces[0]["w"] as? Double == 240 && faces[0]["h"] as? Double == 240)
        #expect(faces[0]["score"] as? Double == 1.235 && faces[0]["yaw"] as? Double == 3.1)
        #expect(faces[0]["pitch"] as? Double == -9.5 && faces[0]["roll"] is NSNull)
        #expect(obj["brightness"] as? Double == 163.4 && obj["sharpness"] as? Double == 987.7)
        // The eyes verdict is the guidance's, from the vector's EyesOpen: none here (no vector).
        #expect(obj["eyesOpen"] is NSNull && obj["sceneBrightness"] as? Double == 163.4 && obj["placed"] as? Bool == false)
        #expect(obj["status"] as? String == "TooFarRight" && obj["distance"] as? String == "VALID_FACE_POSE")
        #expect(obj["positions"] as? [String] == ["TOO_FAR_RIGHT"] && obj["poses"] as? [String] == ["VALID_FACE_POSE"])
        #expect(obj["hint"] as? String == "moveLeft")
        #expect(Set(obj.keys) == ["frame", "t_ms", "faces", "brightness", "sharpness", "eyesOpen", "sceneBrightness", "placed",
                                  "shortfalls", "status", "distance", "positions", "poses", "hint"])
    }

    @Test func noFaceLine() {
        var g = Guidance()
        let a = frame([], brightness: 99.96, sharpness: 0, eyesOpen: nil)
        let r = g.judge(a)
        #expect(AnalysisLog.jsonLine(a, r) ==
            #"{"frame":0,"t_ms":0,"faces":[],"brightness":100,"sharpness":0,"eyesOpen":null,"sceneBrightness":100,"placed":false,"shortfalls":[],"status":"NotFound","distance":"NOT_FOUND","positions":["NOT_FOUND"],"poses":["NOT_FOUND"],"hint":"noFace"}"#)
    }
}
