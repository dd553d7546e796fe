import Testing
import Foundation
@testable import TerminalUI

/// libchafa is loaded on first use (issue #28): the binary does not link it, the sonames are
/// libchafa 1.12's and glib 2's, a library that cannot be opened (or lacks the shim's
/// functions) is a named error carrying the dynamic loader's message, and the first canvas
/// loads it.
@Suite struct ChafaLibraryTests {
    @Test func defaultSonames() {
        #expect(ChafaLibrary.defaultNames == ["libglib-2.0.so.0", "libchafa.so.0"])
    }

    @Test func missingLibraryIsANamedError() throws {
        try ChafaLibrary.load()
        #expect(ChafaLibrary.isLoaded)
        do {
            try ChafaLibrary.load(names: ["libglib-2.0.so.0", "libchafa.so.0-not-installed"])
            Issue.record("a missing library loaded")
        } catch let e as ChafaLibraryError {
            #expect(e.library == "libchafa.so.0-not-installed")
            #expect(e.reason.contains("libchafa.so.0-not-installed") && e.reason.contains("No such file"), "dlerror's message: \(e.reason)")
            #expect(e.description.hasPrefix("libchafa unavailable: cannot load libchafa.so.0-not-installed ("), "\(e)")
        }
        // A library without the shim's functions is refused the same way (libz has no chafa_*),
        // naming the library that lacks them.
        #expect(throws: ChafaLibraryError.self) { try ChafaLibrary.load(names: ["libglib-2.0.so.0", "libz.so.1"]) }
        do {
            try ChafaLibrary.load(names: ["libz.so.1", "libchafa.so.0"])
            Issue.record("libz loaded as glib")
        } catch let e as ChafaLibraryError {
            #expect(e.library == "libz.so.1")
            #expect(e.reason.contains("g_string_free"), "dlsym's message names the function: \(e.reason)")
        }
        // The loaded libchafa still draws: a 2×1 symbol canvas of a red picture is red.
        let red = PreviewImage(width: 4, height: 4, rgb: [UInt8](repeating: 0, count: 48).enumerated().map { $0.offset % 3 == 0 ? 255 : 0 })
        let cells = try #require(ChafaPreview.symbols(red, 2, 1, .direct))
        #expect(cells.count == 2)
        let r = Color.rgb(RGB(255, 0, 0))
        #expect(cells.allSatisfy { ($0.text == " " && $0.style.bg == r) || ($0.text == "█" && $0.style.fg == r) || ($0.style.fg == r && $0.style.bg == r) },
                "\(cells)")
    }
}
