import Testing
import Foundation
import Glibc
import CaptureModel
@testable import TerminalUI

/// Issue #27 and bug reports TUI-01, TUI-02, TUI-03: the locale decides what is written; a
/// start-up check measures that a multibyte character takes the cells it should.
@Suite struct LocaleChoiceTests {
    /// TUI-01: setlocale(LC_ALL, "") before curses; a codeset that is not UTF-8 is kept and the
    /// UI degrades (ASCII pictures, characters it cannot encode transliterated); only the C
    /// locale (no locale chosen) is switched to C.UTF-8.
    @Test func tui01_nonUTF8LocaleIsKeptAndTheUIDegrades() {
        #expect(CursesTerminal.localeChoice(ctype: "C.UTF-8", codeset: "UTF-8") == .utf8)
        #expect(CursesTerminal.localeChoice(ctype: "fr_FR.utf8", codeset: "utf8") == .utf8)
        #expect(CursesTerminal.localeChoice(ctype: "C", codeset: "ANSI_X3.4-1968") == .switchToUTF8)
        #expect(CursesTerminal.localeChoice(ctype: "POSIX", codeset: "ANSI_X3.4-1968") == .switchToUTF8)
        #expect(CursesTerminal.localeChoice(ctype: "fr_FR.ISO-8859-1", codeset: "ISO-8859-1") == .keepAndDegrade)
        #expect(CursesTerminal.localeChoice(ctype: "ru_RU.KOI8-R", codeset: "KOI8-R") == .keepAndDegrade)
        // What a cell shows in ISO-8859-1 (Latin-1 encodes U+0000…U+00FF): é itself, the rest
        // transliterated (… → ., ✓ has no ASCII form → ?); in ASCII é becomes e.
        let latin1: (Character) -> Bool = { $0.unicodeScalars.allSatisfy { $0.value < 0x100 } }
        #expect(CursesBackend.shown("é", encodable: latin1) == "é")
        #expect(CursesBackend.shown("…", encodable: latin1) == ".")
        #expect(CursesBackend.shown("’", encodable: latin1) == "'")
        #expect(CursesBackend.shown("é", encodable: { $0.isASCII }) == "e")
        #expect(CursesBackend.shown("▀", encodable: { $0.isASCII }) == "#")
    }

    /// TUI-02: the warning of a failed width check is one line naming the character, the cells
    /// it took and the locale.
    @Test func tui02_widthWarningIsOneLine() {
        let w = CursesBackend.widthWarning(character: "é", expected: 1, got: 2, locale: "C.UTF-8")
        #expect(!w.contains("\n"))
        #expect(w == "the terminal library puts 'é' in 2 cells, not 1 (locale C.UTF-8): curses is not ncursesw or the locale does not match the terminal; drawing in ASCII")
        #expect(CursesBackend.widthChecks.map(\.1) == CursesBackend.widthChecks.map { DisplayWidth.of($0.0) }, "expected widths from the width table")
        // The self-check itself: a narrow curses advances by bytes (é = 2, 日 = 3) and fails on
        // é; a locale that gives 日 one cell fails on 日; ncursesw in UTF-8 passes.
        #expect(CursesBackend.widthCheck(advance: { $0.utf8.count }, locale: "C") ==
                CursesBackend.widthWarning(character: "é", expected: 1, got: 2, locale: "C"))
        #expect(CursesBackend.widthCheck(advance: { _ in 1 }, locale: "C")?.contains("'日' in 1 cell, not 2") == true)
        #expect(CursesBackend.widthCheck(advance: { DisplayWidth.of($0) }, locale: "C.UTF-8") == nil)
    }
}

extension CursesBackendTests {
    /// TUI-02 and TUI-03: with ncursesw in a UTF-8 locale the start-up check passes (é takes 1
    /// cell, 日 2, measured by curses' own cursor), the screen keeps its Unicode glyphs, and the
    /// progress bar's blocks reach the terminal as UTF-8 (█ = E2 96 88, ░ = E2 96 91), not
    /// `M-b~V~H`-style bytes of a narrow curses.
    @Test func tui03_widthCheckPassesAndBarGlyphsAreUTF8() throws {
        try withPty(cols: 80, rows: 24) { slave, reader in
            let backend = try CursesBackend(term: "xterm-256color", outputFD: slave, inputFD: slave,
                                            environment: ["TERM": "xterm-256color"], quietStderr: false)
            #expect(backend.widthWarning == nil)
            #expect(backend.glyphs == .unicode)
            #expect(backend.nonUTF8Codeset == nil)
            let ctx = RenderContext(size: backend.size, strings: StubStrings(locale: "en"), theme: .dark,
                                    colorMode: backend.colorMode, glyphs: backend.glyphs)
            backend.draw(Screens.render(.capture(CaptureViewState(phase: .recording, isValid: true, progress: 0.5)), context: ctx))
            let bytes = reader.take()
            func has(_ seq: [UInt8]) -> Bool { bytes.indices.contains { i in bytes[i...].starts(with: seq) } }
            #expect(has([0xE2, 0x96, 0x88]) && has([0xE2, 0x96, 0x91]), "█ and ░ as UTF-8")
            backend.end()
        }
    }
}
