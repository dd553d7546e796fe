import CaptureFlow
import Testing
import TerminalUI

/// The screens follow the machine through its view-state value (`CaptureStateMachine.view`):
/// the app joins the flow and the screens (moved from TerminalUITests, which has no flow).
@Suite struct ScreenViewFlowTests {
    @Test func screenViewFollowsTheMachine() {
        var m = CaptureStateMachine(settings: FlowSettings(cameraConsent: true))
        #expect(ScreenView.from(m.view, image: nil) == .loading(LoadingViewState(stage: .model)))
        _ = m.handle(.started); _ = m.handle(.modelLoaded)
        #expect(ScreenView.from(m.view, image: nil) == .instructions)
        _ = m.handle(.keyPressed(.enter))
        #expect(ScreenView.from(m.view, image: nil) == .loading(LoadingViewState(stage: .camera)))
        _ = m.handle(.cameraOpened); _ = m.handle(.cameraFirstFrame)
        guard case .capture(let c) = ScreenView.from(m.view, image: nil, mirrored: false) else { Issue.record("not capture"); return }
        #expect(c.phase == .ready && !c.mirrored && c.showStartButton && c.recordingDurationMs == 1000 && c.scaleType == .fill)
        var retry = m
        _ = m.handle(.cameraFailed(reason: "EIO"))
        #expect(ScreenView.from(m.view, image: nil) == .failed(FailedViewState(reason: .camera("EIO"), canTryAgain: false,
                                                                          attempt: 1, maxAttempts: 3)))
        _ = retry.handle(.timeout)
        #expect(ScreenView.from(retry.view, image: nil) == .failed(FailedViewState(reason: .timeout, canTryAgain: true,
                                                                              attempt: 1, maxAttempts: 3)))
    }
}
