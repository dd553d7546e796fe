import Localization
import Testing
@testable import TerminalUI

/// `RenderContext.notice` (issue #14: string files the capture could not use): one line on the
/// loading, instructions and permission screens, on the lowest empty row of the lower half, with
/// nothing else moved; in the plain renderer's lines; nowhere else.
@Suite struct NoticeTests {
    static let views: [(String, ScreenView)] = [
        ("loading", .loading(LoadingViewState(stage: .model, elapsedMs: 300))),
        ("instructions", .instructions),
        ("permission", .cameraPermission(pending: false)),
        ("denied", .cameraPermissionDenied(devicePath: "/dev/video0")),
    ]

    @Test(arguments: [Size(cols: 80, rows: 24), Size(cols: 40, rows: 12), Size(cols: 132, rows: 43)])
    func drawnOnAFreeRowWithNothingElseMoved(size: Size) {
        for locale in ["en", "fr"] {
            let strings = ProjectStrings.of(locale)
            let notice = strings.text("selfie_capture_strings_rejected", [.string("de.lproj/Localizable.strings")])
            for (name, view) in Self.views {
                let plain = RenderContext(size: size, strings: strings, theme: .dark)
                var noted = plain
                noted.notice = notice
                let before = Screens.render(view, context: plain), after = Screens.render(view, context: noted)
                #expect(after.lines == before.lines + [notice], "\(name) \(locale)")
                let rowsBefore = before.canvas.textRows(), rowsAfter = after.canvas.textRows()
                let changed = rowsAfter.indices.filter { rowsAfter[$0] != rowsBefore[$0] }
                #expect(changed.count == 1, "\(name) \(locale) \(size): rows changed \(changed)")
                guard let y = changed.first else { continue }
                #expect(y >= size.rows / 2, "\(name): in the lower half")
                #expect(rowsBefore[y].allSatisfy { $0 == " " || $0 == "\"" }, "\(name): an empty row")
                let shown = DisplayWidth.truncate(notice, to: size.cols - 2)
                #expect(rowsAfter[y].contains(shown), "\(name) \(locale) \(size): \(rowsAfter[y])")
                #expect(after.canvas[(size.cols - DisplayWidth.of(shown)) / 2, y].style.fg == Theme.dark.secondary, "\(name): secondary colour")
                if name == "loading" { #expect(y == size.rows - 1, "the loading screen's bottom row") }
            }
        }
    }

    /// The capture, result and failed screens are left as they are.
    @Test func notOnOtherScreens() {
        var c = RenderContext(size: Size(cols: 80, rows: 24), strings: ProjectStrings.en, theme: .dark)
        let views: [ScreenView] = [.capture(CaptureViewState()), .result(ResultViewState(savedPaths: ["/tmp/x/video.avi"], durationSeconds: 1, frameCount: 30, collectedCount: 1)),
                                   .failed(FailedViewState(reason: .timeout))]
        for v in views {
            let before = Screens.render(v, context: c)
            c.notice = "N"
            #expect(Screens.render(v, context: c) == before)
            c.notice = nil
        }
    }
}
