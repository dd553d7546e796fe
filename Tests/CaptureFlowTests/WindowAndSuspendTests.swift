import CaptureModel
import JSON
import Testing
@testable import CaptureFlow

/// Issue #18: a window too small to show the flow pauses it; Ctrl-Z drops a take first.
@Suite struct WindowAndSuspendTests {
    static let options = CaptureOptions(numberOfFramesBeforeCapture: 1, numberOfFrameToCollect: 2, frameInterval: 2,
                                        timeBeforeAutomaticCapture: 1)

    /// Drives to a recording in progress (1 s countdown, then a valid frame at 2000 ms).
    static func recording() -> Driver {
        var d = Driver(FlowSettings(options: options, cameraConsent: true))
        d.toPositioning()
        d.advance(to: 1000); d.frame(1)
        d.advance(to: 2000); d.frame(2)
        return d
    }

    @Test func tooSmallIgnoresEveryKeyButQuit() {
        var d = Driver()
        d.send(.started); d.send(.modelLoaded)
        #expect(d.m.screen == .instructions)
        #expect(d.send(.windowTooSmall(true)) == [.showScreen(.instructions)])
        for k in [Key.enter, .space, .character("s"), .escape, .backspace, .character("?")] {
            #expect(d.key(k).isEmpty, "\(k) acts on a too-small window")
        }
        #expect(d.m.screen == .instructions)
        #expect(Driver.actions(d.key(.character("q"))) == [.exit(.cancelled)])
        var e = Driver()
        e.send(.started); e.send(.modelLoaded); e.send(.windowTooSmall(true))
        #expect(Driver.actions(e.key(.interrupt)) == [.exit(.cancelled)])
    }

    @Test func enlargingResumes() {
        var d = Driver()
        d.send(.started); d.send(.modelLoaded)
        d.send(.windowTooSmall(true))
        d.key(.enter)
        #expect(d.m.screen == .instructions)
        #expect(d.send(.windowTooSmall(false)) == [.showScreen(.instructions)])
        #expect(d.send(.windowTooSmall(false)).isEmpty, "no change, nothing to do")
        d.key(.enter)
        #expect(d.m.screen == .cameraPermission)
    }

    /// Enter, Enter, s on a too-small window made a full recording before (issue #18).
    @Test func enterEnterSOnATooSmallWindowRecordsNothing() {
        var d = Driver(FlowSettings(options: Self.options))
        d.send(.started); d.send(.modelLoaded); d.send(.windowTooSmall(true))
        d.key(.enter); d.key(.enter); d.key(.character("s"))
        for i in 0..<40 { d.advance(to: i * 100); d.frame(i) }
        #expect(!d.effects.contains(.startRecording))
        #expect(d.m.screen == .instructions)
    }

    @Test func shrinkingDuringARecordingDropsTheTake() {
        var d = Self.recording()
        #expect(d.m.isRecording)
        d.advance(to: 2250)
        let out = d.send(.windowTooSmall(true))
        #expect(Driver.actions(out) == [.abortRecording, .showScreen(.capture)])
        let restarted = Driver.events(out).first
        #expect(restarted?.name == .captureRestarted)
        #expect(restarted?.fields.contains(EventField("reason", .string("windowTooSmall"))) == true)
        #expect(restarted?.fields.contains(EventField("phase", .string("recording"))) == true)
        #expect(d.m.phase == .positioning && !d.m.isRecording)
        // Frames while small do not count down.
        for i in 3..<20 { d.advance(to: 2250 + i * 100); #expect(d.frame(i).isEmpty) }
        d.send(.windowTooSmall(false))
        d.advance(to: 5000)
        #expect(Driver.names(d.frame(30)).contains(.faceCaptureCountDown), "the capture starts over once the window is big enough")
    }

    @Test func shrinkingDuringACountdownGoesBackToPositioning() {
        var d = Driver(FlowSettings(options: Self.options, cameraConsent: true))
        d.toPositioning()
        d.advance(to: 1000); d.frame(1)
        #expect(d.m.phase == .countdown)
        let out = d.send(.windowTooSmall(true))
        #expect(Driver.actions(out) == [.showScreen(.capture)], "no recording to abort")
        #expect(Driver.names(out) == [.captureRestarted])
        #expect(d.m.phase == .positioning)
    }

    @Test func ctrlZDropsARecordingThenSuspends() {
        var d = Self.recording()
        let out = d.key(.suspend)
        #expect(Driver.actions(out) == [.abortRecording, .suspend])
        #expect(Driver.events(out).first?.fields.contains(EventField("reason", .string("suspended"))) == true)
        #expect(d.m.phase == .positioning)
    }

    @Test func ctrlZElsewhereOnlySuspends() {
        var d = Driver()
        d.send(.started); d.send(.modelLoaded)
        #expect(d.key(.suspend) == [.suspend])
        #expect(d.m.screen == .instructions)
    }

    /// "Esc: back" is offered only where it goes somewhere; never on the first screen shown.
    @Test func firstScreenOffersNoBack() {
        var d = Driver()
        d.send(.started); d.send(.modelLoaded)
        #expect(d.m.screen == .instructions && !d.m.backGoesSomewhere)
        var e = Driver(FlowSettings(session: SessionConfig(uiConfig: UiConfig(showInstructions: false))))
        e.send(.started); e.send(.modelLoaded)
        #expect(e.m.screen == .cameraPermission && !e.m.backGoesSomewhere)
        var f = Driver(FlowSettings(session: SessionConfig(uiConfig: UiConfig(showInstructions: false)), cameraConsent: true))
        f.toCaptureReady()
        #expect(f.m.screen == .capture && !f.m.backGoesSomewhere)
    }
}

@Suite struct KeysHelpPauseTests {
    @Test func helpOverARecordingDropsItAndPauses() {
        var d = WindowAndSuspendTests.recording()
        let out = d.send(.keysHelpShown(true))
        #expect(Driver.actions(out) == [.abortRecording, .showScreen(.capture)])
        #expect(Driver.events(out).first?.fields.contains(EventField("reason", .string("keysHelp"))) == true)
        for i in 3..<20 { d.advance(to: 2000 + i * 100); #expect(d.frame(i).isEmpty, "frames do not count down behind the help") }
        #expect(d.send(.keysHelpShown(false)) == [.showScreen(.capture)])
        d.advance(to: 5000)
        #expect(Driver.names(d.frame(30)).contains(.faceCaptureCountDown))
    }
}
