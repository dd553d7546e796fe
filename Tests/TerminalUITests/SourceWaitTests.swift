import CaptureModel
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

/// The status line at 80 columns keeps the figures a slow link needs (preview fps, bytes/s)
/// (new-user trial of #19), and the source stays first at every width (issue #27: at 100
/// columns it began " 640×480 · 30.0 fps…"): the figures after it give way instead.
@Suite struct StatusLineWidthTests {
    @Test(arguments: [80, 100, 132])
    func keepsTheFigures(cols: Int) {
        var ctx = RenderContext(size: Size(cols: cols, rows: 24), strings: ProjectStrings.en, theme: .dark)
        var info = StatusLineInfo(source: "approach.avi", kind: "file", width: 640, height: 480, fps: 15.0,
                                  colorMode: .palette256, previewFps: 15.0, bytesPerSecond: 27_000)
        info.latencyMs = 40...85
        ctx.statusLine = info
        let top = Screens.render(.capture(CaptureViewState(phase: .positioning)), context: ctx).canvas.textRows()[0]
        #expect(top.hasPrefix(" approach.avi (file) · "), "'\(top)'")
        #expect(top.contains("kB/s") && top.contains("preview half-blocks 15.0 fps"), "'\(top)'")
        #expect(DisplayWidth.of(top) <= cols)
        // What gives way first is the frame size, then the colour mode.
        if cols >= 132 { #expect(top.contains("640×480") && top.contains("colours 256") && top.contains("latency 40/85 ms"), "'\(top)'") }
        if cols <= 100 { #expect(!top.contains("640×480"), "'\(top)'") }
    }

    /// A long source name is cut in the middle to a third of the line, still first.
    @Test func longSourceIsShortenedInTheMiddle() {
        let long = "/media/recordings/2026/december/operator-session-0042/approach-take-7.avi"
        let text = "\(long) (file) · 640×480 · 30.0 fps · colours 16 · preview sixel 15.0 fps · 1.25 MB/s"
        let s = Screens.shortenedStatus(text, cols: 100)
        #expect(s.hasPrefix(" /media/"), "'\(s)'")
        #expect(s.contains("…"), "'\(s)'")
        #expect(s.contains("1.25 MB/s"), "'\(s)'")
        #expect(DisplayWidth.of(s) <= 100)
    }
}
