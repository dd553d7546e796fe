import Foundation
import Testing
import TestSupport

/// Issue #27, bug report TUI-01: under a real ISO-8859-1 locale (compiled here with
/// `localedef -i fr_FR -f ISO-8859-1` into a private LOCPATH) the app writes what that
/// terminal can show: `vidéo` as Latin-1 (é = byte E9), never UTF-8 (C3 A9, which such a
/// terminal shows as `vidÃ©o`); characters Latin-1 lacks are transliterated (’ → ').
@Suite(.serialized) struct LatinOneLocaleTests {
    static let bin = Harness.binary
    static let demoPhoto = FileManager.default.fileExists(
        atPath: TestSupport.projectRoot().appendingPathComponent("Resources/demo/astronaut.png").path)
    static let ready = bin != nil && TmuxSession.tmux != nil && demoPhoto && Harness.tool("localedef") != nil
        && Harness.tool("script") != nil && FileManager.default.fileExists(atPath: "/usr/share/i18n/locales/fr_FR")

    static func contains(_ hay: [UInt8], _ needle: [UInt8]) -> Bool {
        guard hay.count >= needle.count else { return false }
        return (0...(hay.count - needle.count)).contains { hay[$0..<$0 + needle.count].elementsEqual(needle) }
    }

    @Test(.enabled(if: ready, "needs tmux, script, localedef with /usr/share/i18n (Debian locales), the binary and Resources/demo"))
    func tui01_latin1LocaleGetsLatin1Bytes() async throws {
        let bin = try #require(Self.bin)
        let dir = Harness.tempDir("sc-latin1")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let loc = try Self.latin1Locale(dir)
        let t = try await TmuxSession.started(cols: 80, rows: 24)
        defer { t.kill() }
        let raw = dir + "/raw"
        let app = "env LOCPATH='\(loc)' LANG=fr_FR.ISO-8859-1 LC_ALL= TERM=xterm-256color '\(bin)' --source demo --locale fr --output '\(dir)/out'"
        try t.type("script -q -f -c \"\(app)\" '\(raw)'; echo EXIT=$?")
        let vidEo: [UInt8] = [0x76, 0x69, 0x64, 0xE9, 0x6F]   // "vidéo" in ISO-8859-1
        var bytes: [UInt8] = []
        #expect(await t.waitUntil(60) {
            bytes = (try? Array(Data(contentsOf: URL(fileURLWithPath: raw)))) ?? []
            return Self.contains(bytes, vidEo)
        }, "no Latin-1 'vidéo' in \(bytes.count) bytes; screen: \(t.dump())")
        try t.keys("q")
        #expect(try await t.waitFor("EXIT="), "screen: \(t.dump())")
        bytes = try Array(Data(contentsOf: URL(fileURLWithPath: raw)))
        #expect(!Self.contains(bytes, [0xC3, 0xA9]), "é written as UTF-8")
        #expect(!Self.contains(bytes, [0xE2, 0x80, 0x99]), "’ written as UTF-8")
    }

    /// Compiles fr_FR.ISO-8859-1 into `dir/locales` (a private LOCPATH) and returns that path.
    static func latin1Locale(_ dir: String) throws -> String {
        let loc = dir + "/locales"
        try FileManager.default.createDirectory(atPath: loc, withIntermediateDirectories: true)
        let made = try Harness.run(try #require(Harness.tool("localedef")), ["-i", "fr_FR", "-f", "ISO-8859-1", loc + "/fr_FR.ISO-8859-1"], timeout: 120)
        #expect(made.code == 0, "localedef: \(made.err)")
        return loc
    }

    /// TUI-01 for `--renderer plain` (issue #27 follow-up): its screens on stdout are in the
    /// locale's codeset as curses' are: `vidéo` as Latin-1, no UTF-8 anywhere (’ transliterated,
    /// the bar in ASCII `#`/`-`). Before, the plain renderer wrote UTF-8 whatever the locale.
    @Test(.enabled(if: ready, "needs localedef with /usr/share/i18n (Debian locales), the binary and Resources/demo"))
    func tui01_plainRendererWritesLatin1() throws {
        let bin = try #require(Self.bin)
        let dir = Harness.tempDir("sc-latin1-plain")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let loc = try Self.latin1Locale(dir)
        var env = ProcessInfo.processInfo.environment
        env["LOCPATH"] = loc; env["LANG"] = "fr_FR.ISO-8859-1"; env["LC_ALL"] = nil; env["LC_CTYPE"] = nil; env["LC_MESSAGES"] = nil
        // The first screen (the instructions, with pictograms), then q: half a second.
        let r = try ChildProcess.run(bin, ["--source", "demo", "--locale", "fr", "--renderer", "plain", "--pace", "fast", "--keys", "q",
                                           "--output", dir + "/out"], environment: env, stdin: .null, timeout: 120)
        let bytes = Array(r.out)
        #expect(r.code == 130, "exit \(r.code): \(String(decoding: r.err, as: UTF8.self))")
        #expect(Self.contains(Array(r.err), [0x61, 0x6E, 0x6E, 0x75, 0x6C, 0xE9]), "stderr's 'annulé' in Latin-1")
        #expect(Self.contains(bytes, [0x76, 0x69, 0x64, 0xE9, 0x6F]), "no Latin-1 'vidéo' in \(bytes.count) bytes")
        #expect(!Self.contains(bytes, [0xC3, 0xA9]), "é written as UTF-8")
        #expect(!bytes.contains { $0 >= 0x80 && $0 < 0xA0 } && String(decoding: bytes, as: UTF8.self).contains("\u{FFFD}"),
                "stdout is UTF-8 or has C1 bytes, not Latin-1")
    }
}
