import CaptureFlow
import Testing
import TestSupport
@testable import TerminalUI

/// Issue #14 on screen: a silent source is visible (V4L-13), and the loading screen keeps
/// counting while the camera opens.
@Suite struct SourceWaitTests {
    @Test("V4L-13: 'Waiting for the camera… (N s)' replaces the hint line while the source is silent", arguments: ["en", "fr"])
    func waitingNotice(locale: String) {
        let strings = ProjectStrings.of(locale)
        let ctx = RenderContext(size: Size(cols: 80, rows: 24), strings: strings, theme: .dark)
        var state = CaptureViewState(phase: .positioning, hint: .moveLeft, isValid: false)
        let before = Screens.render(.capture(state), context: ctx).canvas.textRows().joined(separator: "\n")
        state.sourceWaitSeconds = 3
        let during = Screens.render(.capture(state), context: ctx).canvas.textRows().joined(separator: "\n")
        let notice = strings.text("selfie_capture_waiting_source", [.int(3)])
        #expect(notice.contains("3"))
        #expect(during.contains(notice) && !before.contains(notice))
        #expect(!during.contains(strings.text(Hint.moveLeft.stringKey)), "the notice replaces the hint")
    }

    @Test("the loading screen counts the camera's opening under the model's load time")
    func cameraStageCounts() {
        let ctx = RenderContext(size: Size(cols: 80, rows: 24), strings: ProjectStrings.en, theme: .dark)
        let rows = Screens.render(.loading(LoadingViewState(stage: .camera, elapsedMs: 2_300, modelLoadMs: 450)), context: ctx)
            .canvas.textRows()
        #expect(rows.contains { $0.contains("2.3 s") })
        #expect(rows.contains { $0.contains(ProjectStrings.en.text("selfie_capture_loading_model_ready", [.double(0.45)])) })
    }
}
