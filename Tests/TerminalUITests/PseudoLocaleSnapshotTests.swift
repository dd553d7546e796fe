import Testing
import Foundation
import Localization
import TestSupport
@testable import TerminalUI

/// Every screen in the pseudo-locale `en-XA` (accented, bracketed, ~40 % longer English; issue
/// #15) at the three reference sizes: cut, hard-coded or overflowing text shows here.
@Suite struct PseudoLocaleSnapshotTests {
    static let strings: any Localizing = Localizer(locale: "en-XA", folders: [ProjectStrings.folder], inputs: .current())

    @Test(arguments: Fixture.sizes)
    func everyScreenInEnXA(size: Size) {
        let ctx = RenderContext(size: size, strings: Self.strings, theme: .dark, layout: Layout(), colorMode: .direct, glyphs: .unicode)
        var doc = ""
        for (name, view) in Fixture.screens() + Fixture.failedScreens() {
            let r = Screens.render(view, context: ctx)
            doc += "== \(name) \(size.cols)x\(size.rows)\n" + r.canvas.snapshot()
            doc += "-- plain\n" + r.lines.joined(separator: "\n") + "\n" + (r.status.map { "status: " + $0 + "\n" } ?? "")
        }
        if let problem = TestSupport.checkSnapshot(doc, named: "screens-en-XA-\(size.cols)x\(size.rows).txt") {
            Issue.record(Comment(rawValue: problem))
        }
    }

    /// Every text the screens show comes from the tables: in en-XA no screen (plain lines and
    /// the drawn cells) shows a run of three or more unaccented ASCII letters outside the
    /// fillers, key names and the fixture's paths and error text (a hard-coded English text would).
    @Test(arguments: Fixture.sizes)
    func noHardCodedEnglish(size: Size) {
        let ctx = RenderContext(size: size, strings: Self.strings, theme: .dark)
        let allowed: Set<String> = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                                    "Enter", "Esc", "home", "user", "selfie", "video", "avi", "dev", "No", "such", "device"]
        for (name, view) in Fixture.screens() + Fixture.failedScreens() {
            let r = Screens.render(view, context: ctx)
            for line in r.lines + r.canvas.textRows() {
                let words = line.split(whereSeparator: { !($0.isASCII && $0.isLetter) }).map(String.init).filter { $0.count >= 3 }
                let stray = words.filter { !allowed.contains($0) }
                #expect(stray.isEmpty, "\(name) \(size.cols)x\(size.rows): \(stray) in '\(line)'")
            }
        }
    }
}
