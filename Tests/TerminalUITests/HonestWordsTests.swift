import CaptureModel
import Foundation
import Localization
import Testing
import TestSupport
@testable import TerminalUI

#if canImport(Glibc)
import Glibc
#endif

/// Issue #18 "words that say what happened": the failed, capture and loading screens name the
/// source for what it is (a camera, or a video) and give advice only where it fits. Checked in
/// English and French against the project's tables (the texts are looked up, not pinned).
@Suite struct HonestWordsTests {
    static func failedLines(_ reason: FailureReason, camera: Bool, _ locale: String) -> [String] {
        var s = FailedViewState(reason: reason)
        s.sourceIsCamera = camera
        let ctx = RenderContext(size: Size(cols: 132, rows: 43), strings: ProjectStrings.of(locale), theme: .dark)
        return Screens.render(.failed(s), context: ctx).lines
    }

    @Test(arguments: ["en", "fr"])
    func failedScreenSaysWhatHappened(locale: String) {
        let t = ProjectStrings.of(locale)
        let cameraAdvice = t.text("selfie_capture_failed_help_camera")
        let faceAdvice = t.text("selfie_capture_failed_help_face")
        // A camera that failed: "could not be used" (never "disconnected" for a missing one), the
        // reason, and the camera advice.
        let cam = Self.failedLines(.camera("selfie-capture: no camera at /dev/video0"), camera: true, locale)
        #expect(cam.contains(t.text("selfie_capture_failed_camera")))
        #expect(cam.contains { $0.contains("no camera at /dev/video0") })
        #expect(cam.contains(cameraAdvice))
        // A file that could not be read: "the video", and no camera advice.
        let file = Self.failedLines(.camera("selfie-capture: clip.avi: error: truncated"), camera: false, locale)
        #expect(file.contains(t.text("selfie_capture_failed_video")))
        #expect(!file.contains(t.text("selfie_capture_failed_camera")) && !file.contains(cameraAdvice))
        // A file that ended: says so, and no "check the camera".
        for camera in [false, true] {
            let ended = Self.failedLines(.sourceEnded, camera: camera, locale)
            #expect(ended.contains(t.text("selfie_capture_failed_source_ended")))
            #expect(!ended.contains(cameraAdvice), "\(ended)")
        }
        // A timeout or a face lost: advice about light and the oval, whatever the source.
        for reason in [FailureReason.timeout, .faceLost] {
            for camera in [false, true] {
                let lines = Self.failedLines(reason, camera: camera, locale)
                #expect(lines.contains(faceAdvice) && !lines.contains(cameraAdvice), "\(reason) \(camera): \(lines)")
            }
        }
    }

    /// No English text of the project's failed screen says "camera" for a video source (a
    /// behavioural check over every reason, in place of one pinned sentence).
    @Test func noCameraWordsForAVideoSource() {
        for reason in [FailureReason.camera("selfie-capture: x.avi: error: bad"), .sourceEnded, .timeout, .faceLost] {
            let lines = Self.failedLines(reason, camera: false, "en").filter { !$0.contains("x.avi") }
            #expect(!lines.joined(separator: "\n").lowercased().contains("camera"), "\(reason): \(lines)")
        }
    }

    @Test func captureScreenWaitsForTheVideoNotTheCamera() {
        let t = ProjectStrings.en
        let ctx = RenderContext(size: Size(cols: 80, rows: 24), strings: t, theme: .dark)
        var s = CaptureViewState()
        s.sourceWaitSeconds = 3
        s.sourceIsCamera = false
        let video = Screens.render(.capture(s), context: ctx).canvas.snapshot()
        #expect(video.contains(t.text("selfie_capture_waiting_video", [.int(3)])))
        s.sourceIsCamera = true
        let camera = Screens.render(.capture(s), context: ctx).canvas.snapshot()
        #expect(camera.contains(t.text("selfie_capture_waiting_source", [.int(3)])))
    }
}

/// Keys typed as lines (`LineKeys`, `LinePlainBackend`): the plain renderer on a terminal.
@Suite struct LineInputTests {
    @Test func oneKeyPerLine() {
        #expect(LineKeys.key(forLine: "") == .enter)
        #expect(LineKeys.key(forLine: "   \r") == .enter)
        #expect(LineKeys.key(forLine: "s") == .character("s"))
        #expect(LineKeys.key(forLine: " q ") == .character("q"))
        #expect(LineKeys.key(forLine: "\u{1b}") == .escape)
        #expect(LineKeys.key(forLine: "ESC") == .escape)
        #expect(LineKeys.key(forLine: "enter") == .enter)
        // A word is not its letters: "yes" must not start a capture with its "s".
        #expect(LineKeys.key(forLine: "yes") == nil)
        #expect(LineKeys.key(forLine: "\u{3}") == nil)
    }

    @Test func readsLinesFromADescriptorAndEndOfInputQuits() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]) }
        var out: [String] = []
        let b = LinePlainBackend(inputFD: fds[0], intro: "type keys") { out.append($0) }
        #expect(b.inputFD == fds[0])
        #expect(b.readInput(timeoutMs: 0) == nil)
        let text = "\ns\nyes\nq"   // the last line is not finished yet
        _ = text.withCString { write(fds[1], $0, strlen($0)) }
        var got: [InputEvent] = []
        while let e = b.readInput(timeoutMs: 0) { got.append(e) }
        #expect(got == [.key(.enter), .key(.character("s"))])
        _ = "\n".withCString { write(fds[1], $0, 1) }
        #expect(b.readInput(timeoutMs: 100) == .key(.character("q")))
        close(fds[1])
        #expect(b.readInput(timeoutMs: 100) == .key(.character("q")), "end of input quits")
        #expect(b.inputFD == nil)
        b.draw(RenderedScreen(canvas: Canvas(width: 10, height: 2), lines: ["screen"], status: nil))
        #expect(out == ["type keys\n", "screen\n"])
    }
}
