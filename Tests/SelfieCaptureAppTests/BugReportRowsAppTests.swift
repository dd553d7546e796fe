import Foundation
import Testing
import TestSupport
@testable import SelfieCaptureApp

/// TUI-05 of ../shared/corpus/bug-reports.md (issue #29: a row without a test carrying its id).
@Suite struct BugReportRowsAppTests {
    /// TUI-05: SIGKILL cannot be caught, so the way back is documented: `reset` / `stty sane` in
    /// the man page and README (the catchable signals restore the terminal: TUI-04's tests).
    @Test("TUI-05: reset and stty sane are documented for a killed process")
    func tui05() throws {
        let page = ManPage.render(prefix: "/usr")
        #expect(page.contains(".SH TERMINAL") && page.contains("SIGKILL") && page.contains("reset") && page.contains("stty sane"))
        let readme = try String(contentsOf: TestSupport.projectRoot().appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("stty sane") && readme.contains("reset"))
    }
}
