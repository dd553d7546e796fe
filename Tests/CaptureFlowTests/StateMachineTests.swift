import CaptureModel
import JSON
import Testing
@testable import CaptureFlow

/// Drives a machine with a manual clock and collects what it says.
struct Driver {
    var m: CaptureStateMachine
    var now = 0
    /// Everything the machine answered, events and effects in the order it decided them
    /// (`outputs(for:)`, which `handle` splits into a `Transition`).
    var effects: [Output] = []
    init(_ settings: FlowSettings = FlowSettings()) { m = CaptureStateMachine(settings: settings) }

    @discardableResult
    mutating func send(_ e: Event) -> [Output] {
        var copy = m
        let out = m.outputs(for: e)
        #expect(copy.handle(e) == Transition(out), "handle splits the same outputs")
        effects += out
        return out
    }
    @discardableResult
    mutating func advance(to ms: Int) -> [Output] { now = ms; return send(.tick(nowMs: ms)) }
    @discardableResult
    mutating func key(_ k: Key) -> [Output] { send(.keyPressed(k)) }
    @discardableResult
    mutating func frame(_ i: Int, valid: Bool = true, still: Bool = true, moved: Bool = false, hint: Hint = .holdStill) -> [Output] {
        send(.frameGuided(g(i, valid: valid, stillness: moved ? .moved : still ? .still : .settling, hint: hint)))
    }
    func g(_ i: Int, valid: Bool, stillness: Stillness, hint: Hint) -> GuidanceResult {
        GuidanceResult(frameIndex: i, timestampMs: now, status: valid ? .ValidFace : .TooFarLeft,
                       distance: valid ? .VALID_FACE_POSE : .TOO_FAR_AWAY,
                       positions: valid ? [.VALID_FACE_POSE] : [.TOO_FAR_LEFT, .TOO_FAR_UP], poses: [.VALID_FACE_POSE],
                       hint: hint, isValid: valid, stillness: stillness)
    }
    /// Names of emitted events in `list`.
    static func names(_ list: [Output]) -> [EventName] {
        list.compactMap { if case .emit(let e) = $0 { return e.name } else { return nil } }
    }
    static func events(_ list: [Output]) -> [FlowEvent] {
        list.compactMap { if case .emit(let e) = $0 { return e } else { return nil } }
    }
    static func actions(_ list: [Output]) -> [Output] {
        list.filter { if case .emit = $0 { return false } else { return true } }
    }

    /// From start to the capture screen with the camera ready (Start not pressed).
    mutating func toCaptureReady() {
        send(.started); send(.modelLoaded)
        if m.screen == .instructions { key(.enter) }
        if m.screen == .cameraPermission { key(.enter); send(.permissionGranted) }
        if m.screen == .loading { send(.cameraOpened) }
        send(.cameraFirstFrame)
    }
    /// Through Start into positioning.
    mutating func toPositioning() { toCaptureReady(); if m.phase == .ready { key(.character("s")) } }
}

@Suite struct ConfigTests {
    @Test func presetsAndOverrides() {
        #expect(AcquisitionPreset.selfieFast.recordingDurationMs == 1000)
        #expect(AcquisitionPreset.selfieSubstantial.recordingDurationMs == 3000)
        #expect(AcquisitionPreset.selfieFast.qualities == [.hd, .fhd])
        var s = SessionConfig(preset: .selfieSubstantial)
        #expect(s.effectiveRecordingDurationMs == 3000)
        #expect(s.effectiveQualities == [.hd, .fhd])
        s.recordingConfig = RecordingConfig(recordingDurationMs: 1500, qualities: [.sd, .lowest])
        #expect(s.effectiveRecordingDurationMs == 1500)
        #expect(s.effectiveQualities == [.sd, .lowest])
        s.recordingConfig.qualities = []
        #expect(s.effectiveQualities == [.hd, .fhd])
        #expect(UiConfig() == UiConfig(showInstructions: true, showVideoCaptureButton: true, showWideWindowPreviewInputsToTheRight: true))
    }

    @Test func mobaiDefaults() {
        let o = CaptureOptions()
        #expect(o.numberOfFramesBeforeCapture == 10)
        #expect(o.numberOfFrameToCollect == 3)
        #expect(o.frameInterval == 10)
        #expect(o.timeBeforeAutomaticCapture == 1)   // Mobai's default, issue #10
        #expect(o.countdownMs == 1000)
        #expect(CaptureOptions(timeBeforeAutomaticCapture: -1).countdownMs == 0)
        #expect(CaptureOptions(timeBeforeAutomaticCapture: .nan).countdownMs == 0)
        #expect(CaptureOptions(timeBeforeAutomaticCapture: .infinity).countdownMs == 86_400_000)
        #expect(CaptureOptions(timeBeforeAutomaticCapture: 2.5).countdownMs == 2500)
        #expect(o.targetResolution == .qhd && o.targetResolution.size == (960, 540))
        #expect(o.captureConstraints == .v1)
        #expect(o.previewScaleType == .fill)
        #expect(o.payloadOptimization == false)
    }

    @Test func collectionGrid() {
        let o = CaptureOptions(numberOfFramesBeforeCapture: 2, numberOfFrameToCollect: 3, frameInterval: 4)
        var collected = 0
        var picked: [Int] = []
        for k in 0..<30 where o.collects(recordedFrame: k, alreadyCollected: collected) { picked.append(k); collected += 1 }
        #expect(picked == [2, 6, 10])
    }

    /// Mobai's rule where its frames fit the recording, else spread evenly (issue #12): the
    /// default 1 s at 30 fps has 30 frames and the rule needs frame 30; 3 s holds it.
    @Test func collectionPlanSpreadsWhenMobaiDoesNotFit() throws {
        let o = CaptureOptions()
        let short = try #require(o.collectionPlan(durationMs: 1000, fps: 30))
        #expect(short.rule == .even && short.offsetsMs == [167, 500, 833])
        let long = try #require(o.collectionPlan(durationMs: 3000, fps: 30))
        #expect(long.rule == .mobai && long.offsetsMs == [333, 667, 1000])
        #expect(o.collectionPlan(durationMs: 1000, fps: 0) == nil)
        // 2 fps for 1 s: two frames, at most one still each → 2 of the 3 asked.
        let sparse = try #require(o.collectionPlan(durationMs: 1000, fps: 2))
        var taken = 0
        for t in [0, 500] where sparse.collects(elapsedMs: t, alreadyCollected: taken) { taken += 1 }
        #expect(taken == 2)
        // As many stills as frames: every frame, though half-period offsets fall between frames
        // whose ms timestamps are rounded (15 fps: 0, 66, 133, …; a new-user trial got 14 of 15).
        let every = try #require(o.collectionPlan(durationMs: 1000, fps: 15).map { p -> CollectionPlan in
            var q = p; q.offsetsMs = (0..<15).map { Int(((Double($0) + 0.5) * 1000 / 15).rounded()) }; return q
        })
        var got = 0
        for k in 0..<15 where every.collects(elapsedMs: k * 1000 / 15, alreadyCollected: got) { got += 1 }
        #expect(got == 15)
        let fifteen = try #require(CaptureOptions(numberOfFrameToCollect: 15).collectionPlan(durationMs: 1000, fps: 15))
        got = 0
        for k in 0..<15 where fifteen.collects(elapsedMs: k * 1000 / 15, alreadyCollected: got) { got += 1 }
        #expect(fifteen.rule == .even && got == 15)
    }
}

@Suite struct StateMachineTests {
    @Test func startShowsLoadingAndLoadsModel() {
        var d = Driver(FlowSettings(session: SessionConfig(uiConfig: UiConfig(showInstructions: false))))
        #expect(d.send(.started) == [.showScreen(.loading), .loadModel])
        #expect(d.m.screen == .loading && d.m.loadingStage == .model)
    }

    /// Issue #29: the instructions need no model, so they show at once while it loads; Enter
    /// before the model arrived shows the loading screen until it does, then the flow goes on.
    @Test func instructionsShowWhileTheModelLoads() {
        var d = Driver()
        #expect(d.send(.started) == [.loadModel, .showScreen(.instructions), .emit(FlowEvent(.instructionsShown, tMs: 0))])
        d.advance(to: 120)
        #expect(Driver.actions(d.key(.enter)) == [.showScreen(.loading)])
        #expect(d.m.screen == .loading && d.m.loadingStage == .model)
        d.advance(to: 900)
        #expect(Driver.names(d.send(.modelLoaded)) == [.cameraPermissionShown])
        // A model that arrives while the instructions are read changes nothing there.
        var e = Driver()
        e.send(.started)
        #expect(e.send(.modelLoaded).isEmpty && e.m.screen == .instructions)
        #expect(Driver.names(e.key(.enter)) == [.cameraPermissionShown])
    }

    @Test func hiddenInstructionsGoStraightToPermission() {
        var d = Driver(FlowSettings(session: SessionConfig(uiConfig: UiConfig(showInstructions: false))))
        d.send(.started)
        let out = d.send(.modelLoaded)
        #expect(Driver.names(out) == [.cameraPermissionShown])
        #expect(d.m.screen == .cameraPermission)
    }

    @Test func consentSkipsPermissionAndOpensCamera() {
        var d = Driver(FlowSettings(cameraConsent: true))
        d.send(.started); d.send(.modelLoaded)
        let out = d.key(.enter)
        #expect(out == [.showScreen(.loading), .openCamera])
        #expect(d.m.loadingStage == .camera)
        let opened = d.send(.cameraOpened)
        #expect(Driver.names(opened) == [.cameraPreviewShown])
        #expect(d.m.screen == .capture && d.m.phase == .waitingForCamera)
    }

    @Test func permissionRequestedThenAccepted() {
        var d = Driver()
        d.send(.started); d.send(.modelLoaded)
        #expect(Driver.names(d.key(.space)) == [.cameraPermissionShown])
        let req = d.key(.enter)
        #expect(Driver.names(req) == [.cameraPermissionRequested])
        #expect(Driver.actions(req) == [.requestPermission])
        #expect(d.key(.enter).isEmpty, "a second press while pending asks nothing")
        let ok = d.send(.permissionGranted)
        #expect(Driver.names(ok) == [.cameraPermissionAccepted, .cameraPreviewShown])
        #expect(d.m.screen == .capture)
    }

    @Test func permissionDeniedThenRetry() {
        var d = Driver()
        d.send(.started); d.send(.modelLoaded); d.key(.enter); d.key(.enter)
        let denied = d.send(.permissionDenied(devicePath: "/dev/video0"))
        #expect(Driver.events(denied) == [FlowEvent(.cameraPermissionDenied, tMs: 0, fields: [EventField("device", .string("/dev/video0"))])])
        #expect(d.m.screen == .cameraPermissionDenied && d.m.deniedDevicePath == "/dev/video0")
        let retry = d.key(.enter)
        #expect(Driver.names(retry) == [.cameraPermissionRequested])
        #expect(Driver.actions(retry) == [.requestPermission])
        #expect(Driver.names(d.send(.permissionGranted)) == [.cameraPermissionAccepted, .cameraPreviewShown])
    }

    @Test func consentButCameraDeniedShowsDeniedScreenThenRetryWorks() {
        var d = Driver(FlowSettings(cameraConsent: true))
        d.send(.started); d.send(.modelLoaded); d.key(.enter)
        #expect(Driver.names(d.send(.permissionDenied(devicePath: "/dev/video2"))) == [.cameraPermissionDenied])
        #expect(d.m.screen == .cameraPermissionDenied)
        #expect(Driver.actions(d.key(.space)) == [.requestPermission])
        #expect(Driver.names(d.send(.permissionGranted)) == [.cameraPermissionAccepted, .cameraPreviewShown])
    }

    @Test func firstFrameMakesCameraReadyAndStartKeyStarts() {
        var d = Driver(FlowSettings(cameraConsent: true))
        d.send(.started); d.send(.modelLoaded); d.key(.enter); d.send(.cameraOpened)
        #expect(d.key(.character("s")).isEmpty, "Start before cameraReady does nothing")
        d.advance(to: 300)
        #expect(d.send(.cameraFirstFrame) == [.emit(FlowEvent(.cameraReady, tMs: 300))])
        #expect(d.m.phase == .ready)
        #expect(d.send(.cameraFirstFrame).isEmpty)
        #expect(Driver.names(d.key(.character("s"))) == [.videoCaptureStarted])
        #expect(d.m.phase == .positioning)
    }

    @Test func enterAlsoStarts() {
        var d = Driver(FlowSettings(cameraConsent: true))
        d.toCaptureReady()
        #expect(Driver.names(d.key(.enter)) == [.videoCaptureStarted])
    }

    @Test func hiddenStartButtonStartsOnCameraReady() {
        var d = Driver(FlowSettings(session: SessionConfig(uiConfig: UiConfig(showVideoCaptureButton: false)), cameraConsent: true))
        d.send(.started); d.send(.modelLoaded); d.key(.enter); d.send(.cameraOpened)
        #expect(Driver.names(d.send(.cameraFirstFrame)) == [.cameraReady, .videoCaptureStarted])
        #expect(d.m.phase == .positioning)
        #expect(d.key(.character("s")).isEmpty)
    }

    /// Before Start a frame emits nothing and starts no countdown (a still, valid face stays
    /// ready), but its judgement is kept for the screen: the oval's look follows the face from
    /// the first frame (issue #19). Start forgets it; the next frame judges afresh.
    @Test func framesBeforeStartEmitNothingButKeepTheirJudgement() {
        var d = Driver(FlowSettings(cameraConsent: true))
        d.toCaptureReady()
        #expect(d.frame(1).isEmpty)
        #expect(d.m.phase == .ready && d.m.guidance?.isValid == true && d.m.guidance?.hint == .holdStill)
        #expect(d.frame(2, valid: false, still: false, hint: .moveLeft).isEmpty)
        #expect(d.m.phase == .ready && d.m.guidance?.isValid == false && d.m.guidance?.hint == .moveLeft)
        #expect(Driver.names(d.key(.character("s"))) == [.videoCaptureStarted])
        #expect(d.m.guidance == nil)
    }

    /// Issue #29: with `--guide-before-start` the guidance shown before Start is reported too
    /// (`faceValidating` with the frame's hint), still with no countdown, so a key script sees it.
    @Test func guideBeforeStartEmitsFaceValidatingBeforeStart() {
        var settings = FlowSettings(cameraConsent: true)
        settings.guideBeforeStart = true
        var d = Driver(settings)
        d.toCaptureReady()
        let events = Driver.events(d.frame(1, valid: false, still: false, hint: .moveLeft))
        #expect(events.map(\.name) == [.faceValidating])
        #expect(events.first?["hint"] == .string("moveLeft"))
        #expect(Driver.names(d.frame(2)) == [.faceValidating])
        #expect(d.m.phase == .ready, "no countdown before Start")
    }

    /// "Esc: back" is shown only where Esc does something (issue #19), as `navigateUp` decides.
    @Test func backGoesSomewhereMatchesNavigateUp() {
        // Consent given, no instructions: Esc does nothing while ready, stops a started attempt.
        var d = Driver(FlowSettings(session: SessionConfig(uiConfig: UiConfig(showInstructions: false)), cameraConsent: true))
        d.toCaptureReady()
        #expect(!d.m.backGoesSomewhere)
        #expect(d.key(.escape).isEmpty && d.m.phase == .ready)
        d.key(.character("s"))
        #expect(d.m.backGoesSomewhere)
        d.key(.escape)
        #expect(d.m.phase == .ready)
        // With instructions, Esc on the capture screen goes back to them.
        var e = Driver(FlowSettings(cameraConsent: true))
        e.toCaptureReady()
        #expect(e.m.backGoesSomewhere)
        e.key(.escape)
        #expect(e.m.screen == .instructions && !e.m.backGoesSomewhere)
    }

    @Test func positioningReportsStatusV1Only() {
        var d = Driver(FlowSettings(cameraConsent: true))
        d.toPositioning()
        d.advance(to: 1000)
        let out = d.frame(5, valid: false, still: false, hint: .moveLeft)
        #expect(Driver.events(out) == [FlowEvent(.faceValidating, tMs: 1000, fields: [EventField("status", .string("TooFarLeft")), EventField("hint", .string("moveLeft"))])])
        #expect(d.m.guidance?.hint == .moveLeft)
    }

    @Test func positioningReportsBoundingBoxListsWithV2() {
        var d = Driver(FlowSettings(options: CaptureOptions(captureConstraints: .v2), cameraConsent: true))
        d.toPositioning()
        let out = Driver.events(d.frame(5, valid: false, still: false))
        #expect(out.map(\.name) == [.faceValidating, .faceBoundingBoxValidating])
        #expect(out[1]["poses"] == .array([.string("VALID_FACE_POSE")]))
        #expect(out[1]["distance"] == .string("TOO_FAR_AWAY"))
        #expect(out[1]["positions"] == .array([.string("TOO_FAR_LEFT"), .string("TOO_FAR_UP")]))
    }

    @Test func validButMovingFaceDoesNotCountDown() {
        var d = Driver(FlowSettings(cameraConsent: true))
        d.toPositioning()
        d.frame(1, valid: true, still: false)
        #expect(d.m.phase == .positioning)
    }

    @Test func countdownRecordingAndSuccess() {
        let options = CaptureOptions(numberOfFramesBeforeCapture: 1, numberOfFrameToCollect: 2, frameInterval: 2,
                                     timeBeforeAutomaticCapture: 2)
        var d = Driver(FlowSettings(options: options, cameraConsent: true))
        d.toPositioning()
        d.advance(to: 1000)
        let c = d.frame(1)
        #expect(Driver.events(c).last == FlowEvent(.faceCaptureCountDown, tMs: 1000, fields: [EventField("remaining", .int(2))]))
        #expect(d.m.phase == .countdown && d.m.countdownRemaining == 2)
        #expect(d.advance(to: 1500).isEmpty)
        #expect(Driver.events(d.advance(to: 2001)) == [FlowEvent(.faceCaptureCountDown, tMs: 2001, fields: [EventField("remaining", .int(1))])])
        let rec = d.advance(to: 3000)
        #expect(rec == [.startRecording, .emit(FlowEvent(.videoRecordStarted, tMs: 3000)), .emit(FlowEvent(.faceCaptureStarted, tMs: 3000))])
        #expect(d.m.isRecording)
        // 1 s recording (selfieFast); frames every 250 ms.
        d.advance(to: 3250)
        let f0 = d.frame(10)
        #expect(Driver.actions(f0) == [])
        let progress = Driver.events(f0).filter { $0.name == .videoRecordProgress }
        #expect(progress == [FlowEvent(.videoRecordProgress, tMs: 3250, fields: [EventField("progress", .double(0.25))])])
        #expect(Driver.names(f0).contains(.faceCaptureProgress))
        d.advance(to: 3500)
        #expect(Driver.actions(d.frame(11)) == [.collectFrame(frameIndex: 11)])
        d.advance(to: 3750)
        #expect(Driver.actions(d.frame(12)) == [])
        d.advance(to: 3900)
        #expect(Driver.actions(d.frame(13)) == [.collectFrame(frameIndex: 13)])
        let end = d.advance(to: 4000)
        #expect(Driver.names(end) == [.videoRecordProgress, .faceCaptureProgress, .videoRecordEnded, .faceCaptureSuccess])
        #expect(Driver.actions(end) == [.stopRecording, .writeResult, .showScreen(.result)])
        let success = Driver.events(end).first { $0.name == .faceCaptureSuccess }
        #expect(success?["frames"] == .int(4) && success?["collected"] == .int(2) && success?["durationMs"] == .int(1000))
        #expect(d.m.screen == .result && d.m.recordingProgress == 1)
        #expect(d.key(.enter) == [.exit(.recorded)])
    }

    /// With the source's frame rate known, a 1 s recording at 15 fps collects the 3 stills asked
    /// for, spread over it (Mobai's rule would have fitted one).
    @Test func collectsTheAskedStillsSpreadOverTheRecording() {
        var d = Driver(FlowSettings(options: CaptureOptions(timeBeforeAutomaticCapture: 0), cameraConsent: true))
        d.send(.sourceFrameRate(15))
        d.toPositioning()
        var collected: [Int] = []
        for k in 0..<16 {
            d.advance(to: k * 1000 / 15)
            for case .effect(.collectFrame(let i)) in d.frame(k) { collected.append(i) }
        }
        #expect(collected == [2, 7, 12])   // the first frames within half a frame (+1 ms) of 167, 500 and 833 ms
        #expect(d.m.collectionPlan?.rule == .even && d.m.screen == .result)
    }

    /// A recording whose last judged frame came before its last still's offset (realtime on a
    /// busy machine: the analyser keeps only the newest frame) ends asking for the owed stills,
    /// just before the video is finished; one that collected all asks for nothing more.
    @Test func recordingEndOwesTheStillsNoJudgedFrameReached() {
        var d = Driver(FlowSettings(options: CaptureOptions(timeBeforeAutomaticCapture: 0), cameraConsent: true))
        d.send(.sourceFrameRate(15))
        d.toPositioning()
        var collected: [Int] = []
        for k in 0..<8 {   // judged frames up to 467 ms: the stills at 167 and 500 ms (frame 7)
            d.advance(to: k * 1000 / 15)
            for case .effect(.collectFrame(let i)) in d.frame(k) { collected.append(i) }
        }
        #expect(collected == [2, 7])
        #expect(d.m.owedStillOffsetsMs == [833])
        let end = d.advance(to: 1000)
        #expect(Array(Driver.actions(end).prefix(2)) == [.collectOwed(offsetsMs: [833]), .stopRecording])
        #expect(d.m.screen == .result)

        var full = Driver(FlowSettings(options: CaptureOptions(timeBeforeAutomaticCapture: 0), cameraConsent: true))
        full.send(.sourceFrameRate(15))
        full.toPositioning()
        var ends: [Output] = []
        for k in 0..<16 { ends += full.advance(to: k * 1000 / 15); ends += full.frame(k) }
        #expect(full.m.owedStillOffsetsMs.isEmpty)
        #expect(!ends.contains { if case .effect(.collectOwed) = $0 { return true } else { return false } })
    }

    @Test func zeroCountdownRecordsAtOnce() {
        var d = Driver(FlowSettings(options: CaptureOptions(timeBeforeAutomaticCapture: 0), cameraConsent: true))
        d.toPositioning()
        let out = d.frame(1)
        // The frame that starts the recording is its first (the video holds it).
        #expect(Driver.actions(out) == [.startRecording])
        #expect(d.m.phase == .recording && d.m.recordedFrameCount == 1)
    }

    @Test func recordingDurationOverride() {
        let s = SessionConfig(preset: .selfieSubstantial, recordingConfig: RecordingConfig(recordingDurationMs: 2000))
        var d = Driver(FlowSettings(session: s, options: CaptureOptions(timeBeforeAutomaticCapture: 0), cameraConsent: true))
        d.toPositioning()
        d.frame(1)
        #expect(d.advance(to: 1999).isEmpty)
        #expect(d.m.isRecording)
        #expect(Driver.names(d.advance(to: 2000)).contains(.videoRecordEnded))
    }

    @Test func faceMovingDuringCountdownRestartsWithReason() {
        var d = Driver(FlowSettings(cameraConsent: true))
        d.toPositioning()
        d.frame(1)
        #expect(d.m.phase == .countdown)
        d.advance(to: 400)
        d.frame(2, valid: true, still: false)           // settling (not yet judged) does not restart
        #expect(d.m.phase == .countdown)
        d.advance(to: 500)
        d.frame(3, valid: true, moved: true, hint: .holdStill)
        #expect(d.m.phase == .positioning && d.m.restartReason == .holdStill && d.m.countdownRemaining == nil)
        let restarted = Driver.events(d.effects).last { $0.name == .captureRestarted }
        #expect(restarted?["reason"] == .string("moved") && restarted?["attempt"] == .int(1))
        #expect(d.m.shownRestartReason == .holdStill)
        d.advance(to: 600)
        d.frame(4)
        // The message stays through the next countdown (2 s from the restart), not the recording.
        #expect(d.m.phase == .countdown && d.m.shownRestartReason == .holdStill)
        d.advance(to: 1500)
        #expect(d.m.phase == .countdown && d.m.shownRestartReason == .holdStill)
        d.advance(to: 1600)
        #expect(d.m.phase == .recording && d.m.shownRestartReason == nil)
    }

    /// Invalid frames shorter than 250 ms (one missed detection) keep the countdown; the
    /// recording starts on a valid frame after the blip.
    @Test func blipUnder250msDoesNotRestartTheCountdown() {
        var d = Driver(FlowSettings(cameraConsent: true))
        d.toPositioning()
        d.frame(1)
        #expect(d.m.phase == .countdown)
        d.advance(to: 900)
        d.frame(2, valid: false, still: false, hint: .noFace)
        d.advance(to: 1000)
        #expect(d.m.phase == .countdown)            // countdown over, but mid-blip: wait
        d.advance(to: 1100)
        d.frame(3, valid: false, still: false, hint: .noFace)
        #expect(d.m.phase == .countdown)            // 200 ms of blip
        d.advance(to: 1133)
        let out = d.frame(4)
        #expect(Driver.actions(out).first == .startRecording)
        #expect(d.m.phase == .recording)
    }

    /// A face lost for the whole grace at the countdown's end restarts; it does not record, and
    /// no countdown event follows the restart (a new-user trial found both).
    @Test func graceEndingWithTheCountdownRestarts() {
        var d = Driver(FlowSettings(cameraConsent: true))
        d.toPositioning()
        d.frame(1)                                   // countdown from 0 to 1000
        d.advance(to: 800)
        d.frame(2, valid: false, still: false, hint: .noFace)
        d.advance(to: 900)
        d.frame(3, valid: false, still: false, hint: .noFace)
        let out = d.advance(to: 1050)               // countdown over and grace over together
        #expect(d.m.phase == .positioning && d.m.restartReason == .noFace)
        #expect(!Driver.actions(out).contains(.startRecording))
        #expect(!Driver.names(out).contains(.faceCaptureCountDown) && !Driver.names(out).contains(.videoRecordStarted))
        // Mid-countdown, the clock alone restarting emits no countdown event either.
        d.advance(to: 1100)
        d.frame(4)
        #expect(d.m.phase == .countdown)
        d.advance(to: 1300)
        d.frame(5, valid: false, still: false, hint: .moveLeft)
        let mid = d.advance(to: 1600)
        #expect(d.m.phase == .positioning && Driver.names(mid) == [.captureRestarted])
        #expect(Driver.events(mid).first?["reason"] == .string("moveLeft") && Driver.events(mid).first?["phase"] == .string("countdown"))
    }

    /// Invalid for 250 ms restarts with that reason, by frame or by the clock alone.
    @Test func invalidFor250msRestarts() {
        var d = Driver(FlowSettings(cameraConsent: true))
        d.toPositioning()
        d.frame(1)
        d.advance(to: 300)
        d.frame(2, valid: false, still: false, hint: .multipleFaces)
        d.advance(to: 549)
        d.frame(3, valid: false, still: false, hint: .multipleFaces)
        #expect(d.m.phase == .countdown)
        d.advance(to: 550)
        #expect(d.m.phase == .positioning && d.m.restartReason == .multipleFaces)
        // The message shows for 2 s, then the hints come back.
        #expect(d.m.shownRestartReason == .multipleFaces)
        d.advance(to: 2549)
        #expect(d.m.shownRestartReason == .multipleFaces)
        d.advance(to: 2550)
        #expect(d.m.shownRestartReason == nil && d.m.restartReason == .multipleFaces)
    }

    @Test func faceInvalidDuringRecordingAbortsAndRestarts() {
        var d = Driver(FlowSettings(options: CaptureOptions(timeBeforeAutomaticCapture: 0), cameraConsent: true))
        d.toPositioning()
        d.frame(1)
        d.advance(to: 200)
        d.frame(2)
        // A blip keeps recording (its frame goes into the video, but is not collected).
        let blip = d.frame(3, valid: false, still: false, hint: .moveRight)
        #expect(Driver.actions(blip) == [])
        #expect(d.m.isRecording)
        // 250 ms after the first invalid frame the clock alone aborts.
        let out = d.advance(to: 450)
        #expect(Driver.actions(out) == [.abortRecording])
        #expect(d.m.phase == .positioning && d.m.restartReason == .moveRight && d.m.recordedFrameCount == 0)
        #expect(!d.m.isRecording)
    }

    @Test func navigateUpFromPermissionToInstructions() {
        var d = Driver()
        d.send(.started); d.send(.modelLoaded); d.key(.enter)
        let out = d.key(.escape)
        #expect(Driver.names(out) == [.instructionsShown])
        #expect(d.m.screen == .instructions)
        #expect(d.key(.backspace).isEmpty, "instructions is the first screen")
    }

    @Test func navigateUpFromCaptureClosesCameraAndShowsPermission() {
        var d = Driver()
        d.toPositioning()
        d.send(.frameGuided(d.g(1, valid: true, stillness: .still, hint: .holdStill)))
        let out = d.key(.escape)
        #expect(Driver.actions(out) == [.closeCamera, .showScreen(.cameraPermission)])
        // The countdown that Esc dropped is said first (reason "back").
        #expect(Driver.names(out) == [.captureRestarted, .cameraPermissionShown])
        #expect(out.contains(.emit(FlowEvent(.captureRestarted, tMs: 0, fields: [EventField("reason", .string("back")),
                                                                              EventField("phase", .string("countdown")),
                                                                              EventField("attempt", .int(1))]))))
    }

    @Test func navigateUpWhileRecordingAborts() {
        var d = Driver(FlowSettings(options: CaptureOptions(timeBeforeAutomaticCapture: 0), cameraConsent: true))
        d.toPositioning(); d.frame(1)
        let out = d.key(.backspace)
        #expect(Driver.actions(out) == [.abortRecording, .closeCamera, .showScreen(.instructions)])
        #expect(Driver.names(out).first == .captureRestarted, "a dropped recording is in the event log")
    }

    @Test func navigateUpWithNowhereToGoStopsTheAttempt() {
        let ui = UiConfig(showInstructions: false)
        var d = Driver(FlowSettings(session: SessionConfig(uiConfig: ui), cameraConsent: true))
        d.toPositioning()
        #expect(d.key(.escape).isEmpty)
        #expect(d.m.phase == .ready)
    }

    @Test(arguments: [Key.character("q"), Key.character("Q"), Key.interrupt])
    func quitCancels(_ key: Key) {
        var d = Driver()
        d.send(.started); d.send(.modelLoaded)
        #expect(d.key(key) == [.emit(FlowEvent(.cancelled, tMs: 0, fields: [EventField("screen", .string("instructions"))])),
                               .exit(.cancelled)])
    }

    @Test func quitWhileRecordingAbortsFirst() {
        var d = Driver(FlowSettings(options: CaptureOptions(timeBeforeAutomaticCapture: 0), cameraConsent: true))
        d.toPositioning(); d.frame(1)
        #expect(d.key(.character("q")) == [.abortRecording,
                                           .emit(FlowEvent(.cancelled, tMs: 0, fields: [EventField("screen", .string("capture"))])),
                                           .exit(.cancelled)])
    }

    @Test func timeoutFailsAndExits75() {
        var d = Driver()
        d.send(.started); d.advance(to: 9000)
        let out = d.send(.timeout)
        #expect(out == [.emit(FlowEvent(.faceCaptureFailed, tMs: 9000, fields: [EventField("reason", .string("timeout")),
                                                                                EventField("attempt", .int(1))])),
                        .showScreen(.failed)])
        #expect(d.m.failure == .timeout)
        #expect(!d.m.canTryAgain, "before the capture screen there is no attempt to retry")
        #expect(d.send(.timeout) == [.exit(.timedOut)], "the failed screen waits one more timeout at most")
    }

    @Test func cameraFailureShowsFailedScreenThenKeyExits69() {
        var d = Driver(FlowSettings(options: CaptureOptions(timeBeforeAutomaticCapture: 0), cameraConsent: true))
        d.toPositioning(); d.frame(1)
        let out = d.send(.cameraFailed(reason: "No such device"))
        #expect(out == [.abortRecording, .emit(FlowEvent(.faceCaptureFailed, tMs: 0, fields: [EventField("reason", .string("camera: No such device")),
                                                                                              EventField("attempt", .int(1))])), .showScreen(.failed)])
        #expect(d.m.screen == .failed && !d.m.canTryAgain)
        #expect(d.send(.cameraFailed(reason: "again")).isEmpty)
        #expect(d.key(.enter) == [.exit(.cameraUnavailable)])
    }

    @Test func sourceEndedNonInteractiveExits75AtOnce() {
        var d = Driver(FlowSettings(cameraConsent: true, interactive: false))
        d.toPositioning()
        let out = d.send(.sourceEnded)
        #expect(Driver.actions(out) == [.showScreen(.failed), .exit(.timedOut)])
    }

    @Test func nonInteractiveResultExitsAfterWritingResult() {
        var d = Driver(FlowSettings(options: CaptureOptions(timeBeforeAutomaticCapture: 0), cameraConsent: true, interactive: false))
        d.toPositioning(); d.frame(1)
        let out = d.advance(to: 1000)
        #expect(Driver.actions(out) == [.stopRecording, .writeResult, .showScreen(.result), .exit(.recorded)])
        #expect(d.send(.sourceEnded).isEmpty, "the result stands")
        #expect(d.send(.timeout).isEmpty)
    }

    @Test func consentAndHiddenInstructionsOpenTheCameraAfterLoading() {
        var d = Driver(FlowSettings(session: SessionConfig(uiConfig: UiConfig(showInstructions: false)), cameraConsent: true))
        d.send(.started)
        #expect(d.send(.modelLoaded) == [.showScreen(.loading), .openCamera])
        #expect(d.m.loadingStage == .camera)
    }

    @Test func resultIgnoresBackAndLeavesWithQ() {
        var d = Driver(FlowSettings(options: CaptureOptions(timeBeforeAutomaticCapture: 0), cameraConsent: true))
        d.toPositioning(); d.frame(1); d.advance(to: 1000)
        #expect(d.m.screen == .result)
        #expect(d.key(.escape).isEmpty)
        #expect(d.key(.character("s")).isEmpty)
        #expect(d.key(.character("q")) == [.exit(.recorded)])
    }

    @Test func sourceEndedInteractiveWaitsForAKeyThenExits75() {
        var d = Driver(FlowSettings(cameraConsent: true))
        d.toPositioning()
        #expect(Driver.actions(d.send(.sourceEnded)) == [.showScreen(.failed)])
        #expect(d.m.failure == .sourceEnded)
        #expect(d.key(.escape) == [.exit(.timedOut)])
    }

    @Test func aJudgedFrameBeforeFirstFrameEventAlsoMakesTheCameraReady() {
        var d = Driver(FlowSettings(session: SessionConfig(uiConfig: UiConfig(showVideoCaptureButton: false)), cameraConsent: true))
        d.send(.started); d.send(.modelLoaded); d.key(.enter); d.send(.cameraOpened)
        let out = d.frame(0, valid: false, still: false, hint: .noFace)
        #expect(Driver.names(out) == [.cameraReady, .videoCaptureStarted, .faceValidating])
    }

    @Test func strayEventsAreIgnored() {
        var d = Driver()
        d.send(.started); d.send(.modelLoaded)
        #expect(d.send(.permissionGranted).isEmpty, "not on a permission screen")
        #expect(d.send(.cameraOpened).isEmpty, "no camera was being opened")
        #expect(d.send(.modelLoaded).isEmpty, "already loaded")
        #expect(d.send(.cameraFirstFrame).isEmpty)
        #expect(d.frame(3).isEmpty)
        #expect(d.key(.character("x")).isEmpty)
        #expect(d.m.screen == .instructions)
    }

    @Test func resizeRedraws() {
        var d = Driver()
        #expect(d.send(.terminalResized) == [.showScreen(.loading)])
    }

    @Test func clockNeverGoesBack() {
        var d = Driver()
        d.advance(to: 500); d.advance(to: 100)
        #expect(d.m.nowMs == 500)
    }
}

/// Attempts, Try again and `--timeout` per attempt (issue #10, "Retry, not only exit").
@Suite struct RetryTests {
    static let noCountdown = CaptureOptions(timeBeforeAutomaticCapture: 0)

    /// The `attempt` field of each event named `name` in `effects`.
    static func attempts(_ name: EventName, _ effects: [Output]) -> [Int] {
        Driver.events(effects).filter { $0.name == name }.compactMap { if case .int(let n)? = $0["attempt"] { return n } else { return nil } }
    }

    /// The third lost face during a countdown fails the attempt (faceLost, retryable, exit 75
    /// on the last attempt); other invalid reasons restart without counting.
    @Test func faceLostTooOftenFailsTheAttempt() {
        var d = Driver(FlowSettings(cameraConsent: true, maxAttempts: 2))
        #expect(FlowSettings().maxFaceLosses == 3)
        d.toPositioning()
        var t = 0
        func loseOnce(_ d: inout Driver, hint: Hint = .noFace) {
            d.frame(t); #expect(d.m.phase == .countdown)
            t += 100; d.advance(to: t); d.frame(t, valid: false, still: false, hint: hint)
            t += 250; d.advance(to: t)
            t += 100; d.advance(to: t)
        }
        loseOnce(&d, hint: .multipleFaces)
        #expect(d.m.faceLosses == 0 && d.m.phase == .positioning)
        loseOnce(&d); loseOnce(&d)
        #expect(d.m.faceLosses == 2 && d.m.screen == .capture && d.m.shownRestartReason == .noFace)
        d.frame(t)
        t += 100; d.advance(to: t); d.frame(t, valid: false, still: false, hint: .noFace)
        t += 250
        let out = d.advance(to: t)
        #expect(d.m.screen == .failed && d.m.failure == .faceLost && d.m.canTryAgain)
        #expect(Driver.events(out).first { $0.name == .faceCaptureFailed }?["reason"] == .string("faceLost"))
        d.key(.enter)
        #expect(d.m.attempt == 2 && d.m.faceLosses == 0 && d.m.screen == .capture)
    }

    /// `--timeout` does not run while the instructions and permission screens wait for a person;
    /// the first attempt's timer starts when the capture screen opens (a new-user trial was
    /// timed out while reading the instructions).
    @Test func noTimeoutWhileAPersonReads() {
        var d = Driver()
        d.send(.started)
        d.send(.modelLoaded)
        #expect(d.m.screen == .instructions && d.m.timeoutStartMs == nil)
        d.advance(to: 4000)
        d.key(.enter)
        #expect(d.m.screen == .cameraPermission && d.m.timeoutStartMs == nil)
        d.advance(to: 6000)
        d.key(.enter); d.send(.permissionGranted)
        #expect(d.m.screen == .capture && d.m.timeoutStartMs == 6000)
    }

    @Test func maxAttemptsDefaults() {
        #expect(FlowSettings().effectiveMaxAttempts == 3)
        #expect(FlowSettings(interactive: false).effectiveMaxAttempts == 3, "a --keys script can press Try again")
        #expect(FlowSettings(interactive: false, unattended: true).effectiveMaxAttempts == 1)
        #expect(FlowSettings(interactive: false, unattended: true, maxAttempts: 4).effectiveMaxAttempts == 4)
        #expect(FlowSettings(maxAttempts: 1).effectiveMaxAttempts == 1)
        #expect(FlowSettings(maxAttempts: 0).effectiveMaxAttempts == 1)
    }

    @Test func timeoutOnTheCaptureScreenOffersTryAgain() {
        var d = Driver(FlowSettings(cameraConsent: true))
        d.toPositioning()
        d.advance(to: 8000)
        let out = d.send(.timeout)
        #expect(out == [.emit(FlowEvent(.faceCaptureFailed, tMs: 8000, fields: [EventField("reason", .string("timeout")),
                                                                                EventField("attempt", .int(1))])),
                        .showScreen(.failed)], "no exit while attempts remain")
        #expect(d.m.screen == .failed && d.m.canTryAgain && d.m.failure == .timeout)
        #expect(d.m.timeoutStartMs == 8000, "the failed screen waits at most --timeout for a choice")
    }

    @Test func tryAgainReturnsToTheCaptureScreenWithTheCameraOpen() {
        var d = Driver(FlowSettings(cameraConsent: true))
        d.toPositioning()
        d.advance(to: 8000); d.send(.timeout)
        d.advance(to: 9500)
        let out = d.key(.enter)
        #expect(out == [.discardAttempt, .showScreen(.capture),
                        .emit(FlowEvent(.videoCaptureStarted, tMs: 9500, fields: [EventField("attempt", .int(2)),
                                                                                  EventField("maxAttempts", .int(3))]))])
        #expect(!out.contains(.openCamera) && !out.contains(.closeCamera))
        #expect(d.m.screen == .capture && d.m.phase == .positioning && d.m.attempt == 2)
        #expect(d.m.failure == nil && !d.m.canTryAgain && d.m.guidance == nil)
        #expect(d.m.timeoutStartMs == 9500, "a retry restarts the --timeout timer")
        #expect(Driver.names(d.frame(40, valid: false, still: false, hint: .moveLeft)) == [.faceValidating],
                "frames are judged in the new attempt")
    }

    @Test func spaceAlsoTriesAgainAndStartKeyDoesNothing() {
        var d = Driver(FlowSettings(cameraConsent: true))
        d.toPositioning(); d.send(.timeout)
        #expect(d.key(.character("s")).isEmpty)
        #expect(d.key(.character("x")).isEmpty)
        #expect(Driver.actions(d.key(.space)) == [.discardAttempt, .showScreen(.capture)])
    }

    @Test(arguments: [Key.character("q"), Key.escape, Key.backspace, Key.interrupt])
    func exitChoiceOnTheTryAgainScreenExits75(_ key: Key) {
        var d = Driver(FlowSettings(cameraConsent: true))
        d.toPositioning(); d.send(.timeout)
        #expect(d.key(key) == [.exit(.timedOut)])
    }

    @Test func attemptsAreNumberedInStartedFailedAndSuccess() {
        var d = Driver(FlowSettings(options: Self.noCountdown, cameraConsent: true))
        d.toCaptureReady()
        var all = d.key(.character("s"))
        d.advance(to: 100)
        all += d.send(.timeout)
        all += d.key(.enter)
        d.advance(to: 200)
        all += d.send(.sourceLooped)
        all += d.key(.enter)
        d.advance(to: 300)
        all += d.frame(50)
        all += d.advance(to: 1300)
        #expect(Self.attempts(.videoCaptureStarted, all) == [1, 2, 3])
        #expect(Self.attempts(.faceCaptureFailed, all) == [1, 2])
        #expect(Self.attempts(.faceCaptureSuccess, all) == [3])
        let success = Driver.events(all).first { $0.name == .faceCaptureSuccess }
        #expect(success?.fields.map(\.key) == ["frames", "collected", "durationMs", "attempt"], "other fields unchanged, attempt last")
        #expect(d.m.screen == .result && d.m.attempt == 3)
        #expect(d.m.timeoutStartMs == nil, "no timeout on the result screen")
        #expect(d.send(.timeout).isEmpty)
    }

    @Test func lastAttemptFailureExits75() {
        var d = Driver(FlowSettings(cameraConsent: true, maxAttempts: 2))
        d.toPositioning()
        d.send(.timeout); d.key(.enter)
        #expect(d.m.attempt == 2)
        let out = d.send(.timeout)
        #expect(Self.attempts(.faceCaptureFailed, out) == [2])
        #expect(Driver.actions(out) == [.showScreen(.failed)], "the last failure is shown (issue #29)")
        #expect(!d.m.canTryAgain)
        #expect(d.key(.enter) == [.exit(.timedOut)], "any key exits with 75")
    }

    /// Issue #29: with someone at the screen, the last attempt's timeout shows the failed screen
    /// (only exit left) instead of clearing to the shell; its timer starts again, so the screen
    /// waits one more `--timeout` at most, then exits 75.
    @Test func lastTimedOutAttemptShowsFailedScreenBeforeExit() {
        var d = Driver(FlowSettings(cameraConsent: true, maxAttempts: 1))
        d.toPositioning()
        d.advance(to: 3000)
        #expect(Driver.actions(d.send(.timeout)) == [.showScreen(.failed)])
        #expect(d.m.screen == .failed && !d.m.canTryAgain && d.m.timeoutStartMs == 3000)
        #expect(d.send(.timeout) == [.exit(.timedOut)])
    }

    @Test func lastAttemptEndedByTheLoopWaitsForAKeyThenExits75() {
        var d = Driver(FlowSettings(cameraConsent: true, maxAttempts: 2))
        d.toPositioning()
        d.send(.sourceLooped); d.key(.enter)
        #expect(Driver.actions(d.send(.sourceLooped)) == [.showScreen(.failed)])
        #expect(!d.m.canTryAgain)
        #expect(d.key(.enter) == [.exit(.timedOut)], "Enter exits when no attempt is left")
    }

    @Test func singleAttemptIsFinal() {
        var d = Driver(FlowSettings(cameraConsent: true, maxAttempts: 1))
        d.toPositioning()
        #expect(Driver.actions(d.send(.timeout)) == [.showScreen(.failed)])
        #expect(!d.m.canTryAgain)
    }

    @Test func cameraFailureIsNotRetryable() {
        var d = Driver(FlowSettings(cameraConsent: true, maxAttempts: 5))
        d.toPositioning()
        #expect(Driver.actions(d.send(.cameraFailed(reason: "EIO"))) == [.showScreen(.failed)])
        #expect(!d.m.canTryAgain)
        #expect(d.key(.enter) == [.exit(.cameraUnavailable)])
    }

    @Test func sourceEndedWithoutLoopIsNotRetryable() {
        var d = Driver(FlowSettings(cameraConsent: true, maxAttempts: 5))
        d.toPositioning()
        d.send(.sourceEnded)
        #expect(d.m.failure == .sourceEnded && !d.m.canTryAgain)
        #expect(d.key(.enter) == [.exit(.timedOut)])
    }

    @Test func timeoutBeforeTheCaptureScreenIsFinal() {
        var d = Driver(FlowSettings(maxAttempts: 3))
        d.send(.started); d.send(.modelLoaded)
        #expect(d.m.screen == .instructions)
        #expect(Driver.actions(d.send(.timeout)) == [.showScreen(.failed)])
        #expect(!d.m.canTryAgain)
    }

    @Test func loopFailsOnlyAnAttemptThatIsPositioningOrCountingDown() {
        // Waiting for Start: no attempt under way.
        var d = Driver(FlowSettings(cameraConsent: true))
        d.toCaptureReady()
        #expect(d.send(.sourceLooped).isEmpty)
        // Positioning.
        d.key(.character("s"))
        let failed = d.send(.sourceLooped)
        #expect(Driver.events(failed).first?["reason"] == .string("sourceEnded"))
        #expect(d.m.canTryAgain)
        // Countdown.
        var c = Driver(FlowSettings(cameraConsent: true))
        c.toPositioning(); c.frame(1)
        #expect(c.m.phase == .countdown)
        #expect(Driver.names(c.send(.sourceLooped)) == [.faceCaptureFailed])
        // Recording goes on across the wrap.
        var r = Driver(FlowSettings(options: Self.noCountdown, cameraConsent: true))
        r.toPositioning(); r.frame(1)
        #expect(r.m.isRecording)
        #expect(r.send(.sourceLooped).isEmpty)
        #expect(r.m.isRecording)
    }

    @Test func timeoutWhileRecordingAbortsThenTryAgainDiscards() {
        var d = Driver(FlowSettings(options: Self.noCountdown, cameraConsent: true))
        d.toPositioning(); d.frame(1)
        d.advance(to: 300); d.frame(2)
        let out = d.send(.timeout)
        #expect(Driver.actions(out) == [.abortRecording, .showScreen(.failed)])
        #expect(Driver.actions(d.key(.enter)) == [.discardAttempt, .showScreen(.capture)])
        #expect(d.m.recordedFrameCount == 0 && d.m.collectedFrameCount == 0 && !d.m.isRecording)
    }

    @Test func timeoutOnTheTryAgainScreenEndsTheRun() {
        var d = Driver(FlowSettings(cameraConsent: true))
        d.toPositioning()
        d.advance(to: 5000); d.send(.timeout)
        #expect(d.send(.timeout) == [.exit(.timedOut)])
    }

    @Test func retryBeforeTheFirstFrameStartsWhenTheCameraIsReady() {
        var d = Driver(FlowSettings(cameraConsent: true))
        d.send(.started); d.send(.modelLoaded); d.key(.enter); d.send(.cameraOpened)
        #expect(d.m.phase == .waitingForCamera)
        d.send(.timeout)
        #expect(d.m.canTryAgain)
        #expect(Driver.actions(d.key(.enter)) == [.discardAttempt, .showScreen(.capture)])
        #expect(d.m.phase == .waitingForCamera)
        let ready = d.send(.cameraFirstFrame)
        #expect(Driver.names(ready) == [.cameraReady, .videoCaptureStarted], "no second Start press after Try again")
        #expect(Self.attempts(.videoCaptureStarted, ready) == [2])
    }

    @Test func retryWhileWaitingForStartStartsAtOnce() {
        var d = Driver(FlowSettings(cameraConsent: true))
        d.toCaptureReady()
        d.send(.timeout)
        #expect(Self.attempts(.videoCaptureStarted, d.key(.enter)) == [2])
        #expect(d.m.phase == .positioning)
    }

    @Test func unattendedWithoutMaxAttemptsDoesNotRetry() {
        var d = Driver(FlowSettings(cameraConsent: true, interactive: false, unattended: true))
        d.toPositioning()
        #expect(Driver.actions(d.send(.sourceLooped)) == [.showScreen(.failed), .exit(.timedOut)])
        var t = Driver(FlowSettings(cameraConsent: true, interactive: false, unattended: true))
        t.toPositioning()
        #expect(Driver.actions(t.send(.timeout)) == [.showScreen(.failed), .exit(.timedOut)])
    }

    @Test func unattendedWithMaxAttemptsRetriesByItselfUntilTheLast() {
        var d = Driver(FlowSettings(cameraConsent: true, interactive: false, unattended: true, maxAttempts: 3))
        d.toPositioning()
        d.advance(to: 4000)
        let first = d.send(.sourceLooped)
        #expect(Driver.actions(first) == [.showScreen(.failed), .discardAttempt, .showScreen(.capture)])
        #expect(Driver.names(first) == [.faceCaptureFailed, .videoCaptureStarted])
        #expect(d.m.screen == .capture && d.m.attempt == 2 && d.m.timeoutStartMs == 4000)
        d.advance(to: 8000)
        #expect(Self.attempts(.videoCaptureStarted, d.send(.timeout)) == [3])
        let last = d.send(.sourceLooped)
        #expect(Self.attempts(.faceCaptureFailed, last) == [3])
        #expect(Driver.actions(last) == [.showScreen(.failed), .exit(.timedOut)])
    }

    @Test func unattendedCameraFailureIsFinalEvenWithMaxAttempts() {
        var d = Driver(FlowSettings(cameraConsent: true, interactive: false, unattended: true, maxAttempts: 3))
        d.toPositioning()
        #expect(Driver.actions(d.send(.cameraFailed(reason: "EIO"))) == [.showScreen(.failed), .exit(.cameraUnavailable)])
    }

    /// Plain renderer with `--keys`: not unattended, so the failed screen waits for the script's key.
    @Test func scriptedRunWaitsOnTheTryAgainScreen() {
        var d = Driver(FlowSettings(cameraConsent: true, interactive: false))
        d.toPositioning()
        #expect(Driver.actions(d.send(.timeout)) == [.showScreen(.failed)])
        #expect(Self.attempts(.videoCaptureStarted, d.key(.enter)) == [2])
        // A final failure still ends such a run at once.
        #expect(Driver.actions(d.send(.cameraFailed(reason: "EIO"))) == [.showScreen(.failed), .exit(.cameraUnavailable)])
    }

    @Test func navigatingBackAfterARetryKeepsTheAttemptNumber() {
        var d = Driver(FlowSettings())
        d.toPositioning()
        d.send(.timeout); d.key(.enter)
        d.key(.escape)
        #expect(d.m.screen == .cameraPermission)
        d.key(.enter); d.send(.permissionGranted); d.send(.cameraFirstFrame)
        #expect(d.m.phase == .ready, "a fresh capture screen waits for Start again")
        #expect(Self.attempts(.videoCaptureStarted, d.key(.character("s"))) == [2])
    }
}

/// Issue #26: a transition returns its events apart from its effects, and no effect the runtime
/// would ignore.
@Suite struct TransitionShapeTests {
    @Test func eventsComeApartFromEffects() {
        var m = CaptureStateMachine()
        #expect(m.handle(.started) == Transition(events: [FlowEvent(.instructionsShown, tMs: 0)],
                                                 effects: [.loadModel, .showScreen(.instructions)]))
        #expect(m.handle(.terminalResized) == Transition(effects: [.showScreen(.instructions)]), "a resize redraws the screen shown")
    }

    @Test func nothingRecordsFromTheFailedScreen() {
        var d = Driver(FlowSettings(cameraConsent: true, maxAttempts: 2))
        d.toPositioning()
        d.advance(to: 100)
        d.send(.timeout)
        #expect(d.m.screen == .failed && d.m.canTryAgain && !d.m.isRecording)
        var after: [Output] = []
        for i in 1...40 { after += d.advance(to: 100 + i * 100); after += d.frame(i) }
        after += d.key(.character("s"))
        let recordingEffects = Driver.actions(after).filter {
            switch $0 {
            case .effect(.startRecording), .effect(.collectFrame), .effect(.stopRecording), .effect(.writeResult): return true
            default: return false
            }
        }
        #expect(recordingEffects.isEmpty, "the failed screen neither records nor collects")
        #expect(d.m.screen == .failed && d.m.recordedFrameCount == 0)
    }
}

/// Issue #26: the machine's state is one `FlowState`; what only one screen has lives in its case.
@Suite struct FlowStateTests {
    @Test func aFailureDuringTheRecordingLeavesNoRecordingBehind() {
        var d = Driver(FlowSettings(options: CaptureOptions(timeBeforeAutomaticCapture: 0), cameraConsent: true, maxAttempts: 2))
        d.toPositioning()
        d.advance(to: 100); d.frame(1)
        guard case .capture(.recording(let start), _) = d.m.state else { Issue.record("not recording: \(d.m.state)"); return }
        #expect(start == 100)
        let out = d.send(.timeout)
        #expect(Driver.actions(out).first == .abortRecording)
        guard case .failed(.timeout, true, true, _) = d.m.state else { Issue.record("not failed: \(d.m.state)"); return }
        #expect(!d.m.isRecording && d.m.phase != .recording && d.m.failure == .timeout)
        // Try again with the camera already delivering: the next attempt starts at once.
        d.key(.enter)
        #expect(d.m.state == .capture(.positioning, Attempt(patienceWindowMs: FlowSettings.defaultQualityPatienceMs))
                && d.m.attempt == 2 && d.m.failure == nil && !d.m.canTryAgain)
    }

    /// The countdown's seconds are data of the countdown stage: the failed screen of an attempt
    /// that timed out while counting down holds none, and the next attempt starts from a fresh
    /// `Attempt` (no face losses, guidance, restart reason or patience of the failed one).
    @Test func aFailedCountdownLeavesNoCountdownAndTheNextAttemptStartsFresh() {
        var d = Driver(FlowSettings(options: CaptureOptions(timeBeforeAutomaticCapture: 3), cameraConsent: true, maxAttempts: 2))
        d.toPositioning()
        d.advance(to: 100); d.frame(1)
        // One lost-face restart, then a countdown again.
        d.advance(to: 200); d.frame(2, valid: false, hint: .noFace)
        d.advance(to: 500); d.frame(3, valid: false, hint: .noFace)
        #expect(d.m.phase == .positioning && d.m.faceLosses == 1 && d.m.restartReason == .noFace)
        d.advance(to: 600); d.frame(4)
        guard case .capture(.countdown(600, 3), let during) = d.m.state else { Issue.record("not counting down: \(d.m.state)"); return }
        #expect(during.faceLosses == 1 && d.m.countdownRemaining == 3)
        d.send(.timeout)
        guard case .failed(.timeout, true, true, let ended) = d.m.state else { Issue.record("not failed: \(d.m.state)"); return }
        #expect(d.m.countdownRemaining == nil && ended.faceLosses == 1 && d.m.faceLosses == 1)
        d.key(.enter)
        guard case .capture(.positioning, let next) = d.m.state else { Issue.record("not positioning: \(d.m.state)"); return }
        #expect(next == Attempt(patienceWindowMs: FlowSettings.defaultQualityPatienceMs) && d.m.attempt == 2)
    }

    /// The result screen carries the attempt that recorded: its counts and collection plan are
    /// what result.json reads after the machine left the capture screen.
    @Test func theResultCarriesTheRecordedAttempt() {
        var d = Driver(FlowSettings(options: CaptureOptions(timeBeforeAutomaticCapture: 0), cameraConsent: true))
        d.send(.sourceFrameRate(15))
        d.toPositioning()
        for i in 0...16 { d.advance(to: 100 + i * 67); d.frame(i) }
        guard case .result(let recorded) = d.m.state else { Issue.record("no result: \(d.m.state)"); return }
        #expect(recorded.recordingProgress == 1 && recorded.recordedFrameCount == d.m.recordedFrameCount && recorded.recordedFrameCount > 0)
        #expect(recorded.collectionPlan != nil && recorded.collectionPlan == d.m.collectionPlan && d.m.countdownRemaining == nil)
    }

    @Test func permissionDataLivesOnItsScreens() {
        var d = Driver()
        d.send(.started); d.send(.modelLoaded); d.key(.enter)
        #expect(d.m.state == .cameraPermission(pending: false))
        d.key(.enter)
        #expect(d.m.state == .cameraPermission(pending: true) && d.m.permissionRequestPending)
        d.send(.permissionDenied(devicePath: "/dev/video3"))
        #expect(d.m.state == .cameraPermissionDenied(devicePath: "/dev/video3", pending: false))
        d.send(.permissionGranted)
        #expect(d.m.screen == .capture && d.m.deniedDevicePath == nil && !d.m.permissionRequestPending)
        #expect(d.m.state == .capture(.waitingForCamera(startWhenReady: false), Attempt(patienceWindowMs: FlowSettings.defaultQualityPatienceMs)))
    }
}
