import CaptureFlow
import Foundation
import Localization
@testable import SelfieCaptureApp
import Testing
import TestSupport

/// Work taken off the way to the first screen (issue #28) that must answer as before: the
/// events that end an attempt (a switch now, not a `Set`), and the rejected-strings report made
/// from the built-in folder the setup found (not looked for a second time).
@Suite struct FirstScreenWorkTests {
    @Test func attemptEndingEvents() {
        #expect(Set(EventName.allCases.filter(FlowDriver.endsAnAttempt)) == [.faceCaptureSuccess, .faceCaptureFailed, .cancelled])
    }

    /// A German override with a refused text (line 1: `%d` where English has none) and a missing
    /// `;` (line 2): the report from the setup's built-in folder is the one `RejectedStrings`
    /// makes by looking for the folder itself, errors in file and line order.
    @Test func rejectedStringsFromTheSetupsBuiltInFolder() throws {
        let dir = try TestSupport.tempTree(["de.lproj/Localizable.strings":
            "\"selfie_capture_instructions_title\" = \"Video %d\";\n\"selfie_capture_continue\" = \"Weiter\"\n\"selfie_capture_start\" = \"Starten\";\n"],
            prefix: "first-screen")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let parsed = try ArgumentParser.parse(["--source", "demo", "--renderer", "plain", "--unattended", "--locale", "de", "--strings", dir]
            .enumerated().map { ArgToken($0.element, index: $0.offset + 1) }, spec: Commands.capture)
        let setup = try CaptureSetup.make(parsed, environment: [:], console: Console(out: { _ in }, err: { _ in }))
        let builtIn = try #require(setup.builtInStrings)
        #expect(builtIn == LocalizationPaths.resolve(stringsDirectories: [], inputs: .current()).builtIn)
        let fromSetup = RejectedStrings(diagnostics: setup.strings.diagnostics, builtIn: builtIn)
        #expect(fromSetup == RejectedStrings(strings: setup.strings))
        let file = dir + "/de.lproj/Localizable.strings"
        #expect(fromSetup.files == [file])
        #expect(fromSetup.report.hasPrefix("\(file):2:"), "the parse error of line 2 (the file is refused whole): \(fromSetup.report)")
    }
}
