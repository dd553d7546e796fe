import Foundation
import Testing
import TestSupport

/// The start of a curses run on a terminal with a broken translator override (issue #28: the
/// string tables parse while the terminal answers the start-up probe). What the terminal gets,
/// in order: the probe's queries, the refused-strings report on stderr (each refused text in
/// file and line order, then the note), and only then curses (the alternate screen); the first
/// screen shows the override's own title.
@Suite(.serialized) struct FirstScreenOrderTests {
    static let bin = Harness.binary
    static let demoPhoto = FileManager.default.fileExists(
        atPath: TestSupport.projectRoot().appendingPathComponent("Resources/demo/astronaut.png").path)
    static let ready = bin != nil && TmuxSession.tmux != nil && demoPhoto && Harness.tool("script") != nil

    @Test(.enabled(if: ready, "needs tmux, script, the binary and Resources/demo"))
    func reportAfterTheProbeAndBeforeCursesWithTheOverridesTitle() async throws {
        let bin = try #require(Self.bin)
        let dir = Harness.tempDir("sc-first-screen")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/de.lproj", withIntermediateDirectories: true)
        let file = dir + "/de.lproj/Localizable.strings"
        // Lines 2 and 4 use an argument the English text does not take: refused, reported.
        try """
            "selfie_capture_instructions_title" = "Ein kurzes Selfie-Video aufnehmen";
            "selfie_capture_continue" = "Weiter %d";
            "selfie_capture_start" = "Starten";
            "selfie_capture_permission_title" = "Kamera %@";

            """.write(toFile: file, atomically: true, encoding: .utf8)
        let t = try await TmuxSession.started(cols: 100, rows: 30)
        defer { t.kill() }
        let raw = dir + "/raw"
        let app = "TERM=xterm-256color '\(bin)' --source demo --locale de --strings '\(dir)' --output '\(dir)/out'"
        try t.type("script -q -f -c \"\(app)\" '\(raw)'; echo EXIT=$?")
        #expect(try await t.waitFor("Ein kurzes Selfie-Video aufnehmen"), "the override's title; screen: \(t.dump())")
        try t.keys("q")
        #expect(try await t.waitFor("EXIT="), "screen: \(t.dump())")
        let out = String(decoding: try Data(contentsOf: URL(fileURLWithPath: raw)), as: UTF8.self)
        func at(_ s: String) -> String.Index? { out.range(of: s)?.lowerBound }
        let probe = at("\u{1B}[>0q"), line2 = at("\(file):2:"), line4 = at("\(file):4:"), note = at("\(file): note:")
        let curses = at("\u{1B}[?1049h")
        #expect(probe != nil && line2 != nil && line4 != nil && note != nil && curses != nil, "raw: \(out.prefix(600).debugDescription)")
        if let probe, let line2, let line4, let note, let curses {
            #expect(probe < line2 && line2 < line4 && line4 < note && note < curses, "raw: \(out.prefix(600).debugDescription)")
        }
    }
}
