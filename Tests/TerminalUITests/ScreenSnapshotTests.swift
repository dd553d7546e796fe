import Testing
import Foundation
import CaptureModel
import TestSupport
@testable import TerminalUI

/// A 64×48 test frame: four flat quadrants (few distinct styles keep the style layer readable).
func quadrantImage() -> PreviewImage {
    let w = 64, h = 48
    var px = [UInt8](repeating: 0, count: w * h * 3)
    for y in 0..<h {
        for x in 0..<w {
            let c: RGB = y < h / 2 ? (x < w / 2 ? RGB(200, 150, 120) : RGB(90, 90, 200)) : (x < w / 2 ? RGB(40, 120, 40) : RGB(230, 230, 230))
            let p = (y * w + x) * 3
            px[p] = c.r; px[p + 1] = c.g; px[p + 2] = c.b
        }
    }
    return PreviewImage(width: w, height: h, rgb: px)
}

enum Fixture {
    static let sizes = [Size(cols: 80, rows: 24), Size(cols: 40, rows: 12), Size(cols: 132, rows: 43)]

    static func screens() -> [(String, ScreenView)] {
        let img = quadrantImage()
        let oval = OvalGeometry(FaceOval.standard, frameWidth: img.width, frameHeight: img.height)
        return [
            ("loading", .loading(LoadingViewState(stage: .model, progress: 0.4))),
            ("loading-elapsed", .loading(LoadingViewState(stage: .model, elapsedMs: 1250))),
            ("loading-camera-model-ready", .loading(LoadingViewState(stage: .camera, modelLoadMs: 32))),
            ("instructions", .instructions),
            ("permission", .cameraPermission(pending: false)),
            ("permission-denied", .cameraPermissionDenied(devicePath: "/dev/video0")),
            ("capture-ready", .capture(CaptureViewState(image: img, oval: oval, phase: .ready))),
            ("capture-positioning", .capture(CaptureViewState(image: img, oval: oval, phase: .positioning, hint: .moveLeft, isValid: false,
                                                             restartReason: .holdStill))),
            ("capture-countdown", .capture(CaptureViewState(image: img, scaleType: .fit, oval: oval, phase: .countdown, hint: .holdStill,
                                                           isValid: true, countdownRemaining: 3, recordingDurationMs: 3000))),
            ("capture-recording", .capture(CaptureViewState(image: img, oval: oval, phase: .recording, hint: .holdStill, isValid: true, progress: 0.42))),
            ("result", .result(ResultViewState(savedPaths: ["/home/user/selfie-20261130-143000/video.avi"], durationSeconds: 1.0,
                                               frameCount: 15, collectedCount: 1))),
            ("failed", .failed(FailedViewState(reason: .camera("No such device")))),
        ]
    }

    /// The failed screen when attempts are involved (issue #10): Try again after a timeout and
    /// after a looping source's end, and the last attempt's failure (exit only).
    static func failedScreens() -> [(String, ScreenView)] {
        [
            ("failed-try-again-timeout", .failed(FailedViewState(reason: .timeout, canTryAgain: true, attempt: 1, maxAttempts: 3))),
            ("failed-try-again-source-ended", .failed(FailedViewState(reason: .sourceEnded, canTryAgain: true, attempt: 2, maxAttempts: 3))),
            ("failed-last-attempt", .failed(FailedViewState(reason: .timeout, canTryAgain: false, attempt: 3, maxAttempts: 3))),
        ]
    }

    static func document(size: Size, locale: String, theme: Theme, layout: Layout = Layout(),
                         screens: [(String, ScreenView)] = screens()) -> String {
        let ctx = RenderContext(size: size, strings: ProjectStrings.of(locale), theme: theme, layout: layout,
                                colorMode: .direct, glyphs: .unicode)
        var doc = ""
        for (name, view) in screens {
            let r = Screens.render(view, context: ctx)
            doc += "== \(name) \(size.cols)x\(size.rows)\n" + r.canvas.snapshot()
            doc += "-- plain\n" + r.lines.joined(separator: "\n") + "\n" + (r.status.map { "status: " + $0 + "\n" } ?? "")
        }
        return doc
    }
}

@Suite struct ScreenSnapshotTests {
    static let cases: [(String, String)] = [("en", "light"), ("en", "dark"), ("fr", "light"), ("fr", "dark")]

    @Test(arguments: Fixture.sizes)
    func everyScreenEnglishFrenchLightDark(size: Size) {
        for (locale, themeName) in Self.cases {
            let theme: Theme = themeName == "light" ? .light : .dark
            let doc = Fixture.document(size: size, locale: locale, theme: theme)
            let name = "screens-\(locale)-\(themeName)-\(size.cols)x\(size.rows).txt"
            if let problem = TestSupport.checkSnapshot(doc, named: name) { Issue.record(Comment(rawValue: problem)) }
        }
    }

    /// The failed screen with `[ Try again ]` and its keys, and the last attempt's exit-only
    /// screen: English and French (the longer texts), light and dark, one file per size.
    @Test(arguments: Fixture.sizes)
    func failedScreenWithAttempts(size: Size) {
        var doc = ""
        for (locale, themeName) in Self.cases {
            doc += "#### \(locale) \(themeName)\n"
            doc += Fixture.document(size: size, locale: locale, theme: themeName == "light" ? .light : .dark,
                                    screens: Fixture.failedScreens())
        }
        if let problem = TestSupport.checkSnapshot(doc, named: "screens-failed-attempts-\(size.cols)x\(size.rows).txt") {
            Issue.record(Comment(rawValue: problem))
        }
    }

    /// Plain text of the failed screen: the button and the keys only when Try again is offered.
    @Test func failedScreenPlainLines() {
        let ctx = RenderContext(size: Size(cols: 80, rows: 24), strings: ProjectStrings.en, theme: .dark)
        let retry = Screens.render(.failed(FailedViewState(reason: .timeout, canTryAgain: true, attempt: 2, maxAttempts: 3)), context: ctx)
        #expect(retry.lines.suffix(3) == ["Attempt 2 of 3", "[Try again]", "Enter: try again · q, Esc: exit"])
        #expect(retry.canvas.textRows()[21].contains("[ Try again ]"))
        let last = Screens.render(.failed(FailedViewState(reason: .timeout, canTryAgain: false, attempt: 3, maxAttempts: 3)), context: ctx)
        #expect(last.lines.suffix(2) == ["Attempt 3 of 3", "Press Enter to finish"])
        #expect(!last.canvas.textRows().contains { $0.contains("Try again") })
        let first = Screens.render(.failed(FailedViewState(reason: .camera("EIO"), canTryAgain: false, attempt: 1, maxAttempts: 3)), context: ctx)
        #expect(!first.lines.contains { $0.hasPrefix("Attempt") }, "a first, final failure does not count attempts")
    }

    @Test func layoutOverrideToolbarOnTop() {
        var registry = ViewRegistry()
        registry.registerClass(ToolbarOnTopCaptureContentView.self, forBaseClass: CaptureContentView.self)
        for size in Fixture.sizes {
            let doc = Fixture.document(size: size, locale: "en", theme: .dark, layout: Layout(registry: registry))
            if let problem = TestSupport.checkSnapshot(doc, named: "screens-toolbar-top-\(size.cols)x\(size.rows).txt") {
                Issue.record(Comment(rawValue: problem))
            }
        }
    }

    /// The same moves from a `--layout` file: toolbar on top, hint at 68 %, preview on the right.
    @Test func layoutFileOverride() throws {
        let o = try LayoutOverrides.parse(Data(#"{"toolbar": "top", "hintPosition": 0.68, "previewSide": "right"}"#.utf8), file: "layout.json")
        for size in Fixture.sizes {
            let doc = Fixture.document(size: size, locale: "fr", theme: .light, layout: Layout(overrides: o))
            if let problem = TestSupport.checkSnapshot(doc, named: "screens-layout-file-\(size.cols)x\(size.rows).txt") {
                Issue.record(Comment(rawValue: problem))
            }
        }
    }

    @Test func tooSmallMessage() {
        let ctx = RenderContext(size: Size(cols: 30, rows: 8), strings: StubStrings(locale: "en"), theme: .dark)
        let r = Screens.render(.instructions, context: ctx)
        #expect(r.lines == ["Enlarge the window to at least 40×12"])
        #expect(r.canvas.textRows()[3] == "Enlarge the window to at least".padded(30))
        #expect(r.canvas.textRows()[4] == "            40×12             ")
    }
}

extension String {
    /// Centred in `width` cells (test helper for ASCII text).
    func padded(_ width: Int) -> String {
        let pad = width - count
        return String(repeating: " ", count: pad / 2) + self + String(repeating: " ", count: pad - pad / 2)
    }
}

@Suite struct ProjectStringsTests {
    /// Every key the screens use exists in both tables (a missing key comes back as the key).
    @Test(arguments: ["en", "fr"])
    func everyScreenKeyIsTranslated(locale: String) {
        let s = ProjectStrings.of(locale)
        for key in StubStrings.en.keys.map({ $0.replacingOccurrences(of: ".one", with: "").replacingOccurrences(of: ".other", with: "") }) {
            let t = s.text(key, key.contains("too_small") ? [.int(40), .int(12)] : [.int(2)])
            #expect(t != key, "\(locale): \(key) missing")
        }
        #expect(s.text("selfie_capture_recording_duration", [.int(1)]).contains("1"))
    }
}

@Suite struct ScreenSizeSweepTests {
    /// Every screen at many sizes (including degenerate ones) renders a canvas of exactly that
    /// size without trapping (a bounded fuzz over sizes).
    @Test func everySizeRenders() {
        let sizes = [(1, 1), (0, 0), (39, 12), (40, 11), (40, 12), (41, 13), (55, 17), (99, 40), (100, 40), (120, 30), (250, 80), (300, 20)]
        for (cols, rows) in sizes {
            for locale in ["en", "fr"] {
                let ctx = RenderContext(size: Size(cols: cols, rows: rows), strings: ProjectStrings.of(locale), theme: .light,
                                        colorMode: .palette256, glyphs: .asciiOnly)
                for (_, view) in Fixture.screens() + Fixture.failedScreens() {
                    let r = Screens.render(view, context: ctx)
                    #expect(r.canvas.width == max(0, cols) && r.canvas.height == max(0, rows))
                    #expect(r.canvas.textRows().allSatisfy { DisplayWidth.of($0) == cols })
                }
            }
        }
    }
}
