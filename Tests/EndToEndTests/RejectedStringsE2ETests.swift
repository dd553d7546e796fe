import Foundation
import Testing
import TestSupport

/// The built binary with a broken `--strings` override (issue #14 "a broken override is never
/// silent"): the capture still runs with the built-in text, and says so on stderr, in the event
/// log and on the screen.
@Suite struct RejectedStringsE2ETests {
    static let bin = Harness.binary
    static let clip = TestSupport.shared("media/approach.avi")
    static let ready = bin != nil && clip != nil

    /// A German override whose line 2 lacks its `;`, and a French one with a refused text.
    static func overrides() throws -> String {
        let dir = Harness.tempDir("sc-strings")
        try FileManager.default.createDirectory(atPath: dir + "/de.lproj", withIntermediateDirectories: true)
        try "\"selfie_capture_continue\" = \"Weiter\";\n\"selfie_capture_start\" = \"Starten\"\n\"selfie_capture_hint_no_face\" = \"Kein Gesicht\";\n"
            .write(toFile: dir + "/de.lproj/Localizable.strings", atomically: true, encoding: .utf8)
        return dir
    }

    @Test(.enabled(if: ready, "needs the built binary and ../shared/media/approach.avi"))
    func brokenOverrideIsReportedOnStderrAndAsAnEvent() throws {
        let bin = try #require(Self.bin)
        let dir = try Self.overrides()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/de.lproj/Localizable.strings"
        let r = try Harness.run(bin, ["--source", try #require(Self.clip), "--renderer", "null", "--pace", "fast", "--locale", "de",
                                      "--strings", dir, "--events", dir + "/events.jsonl", "--output", dir + "/out",
                                      "--timeout", "20"], timeout: 180)
        #expect(r.code == 0, "stderr: \(r.err)")
        let lines = r.err.split(separator: "\n").map(String.init)
        #expect(lines.prefix(2) == ["\(file):2:35: error: expected ';' after value, found '\"' at 3:1",
                                    "\(file): note: the file is not used; the built-in text is used for its table"], "stderr: \(r.err)")
        let events = try String(contentsOfFile: dir + "/events.jsonl", encoding: .utf8).split(separator: "\n")
        let first = try #require(events.first.flatMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
        #expect(first["event"] as? String == "stringsRejected")
        #expect(first["t_ms"] as? Int == 0)
        #expect(first["file"] as? String == file)
        #expect(first["line"] as? Int == 2 && first["column"] as? Int == 35)
        #expect(first["message"] as? String == "expected ';' after value, found '\"' at 3:1")
        #expect(first["key"] is NSNull)
        #expect(events.filter { $0.contains("\"stringsRejected\"") }.count == 1)
        #expect(events.last?.contains("\"outputSaved\"") == true, "the capture went on: \(events.suffix(2))")
    }

    /// The plain renderer prints the notice with the first screens; a key script can wait for
    /// the event. Only the files of the languages used are read.
    @Test(.enabled(if: ready, "needs the built binary and ../shared/media/approach.avi"))
    func noticeOnTheScreenAndWaitFor() throws {
        let bin = try #require(Self.bin)
        let dir = try Self.overrides()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // French is asked for: the broken German file is not read, so nothing is reported.
        let fr = try Harness.run(bin, ["--source", try #require(Self.clip), "--renderer", "null", "--pace", "fast", "--locale", "fr",
                                       "--strings", dir, "--output", dir + "/out", "--timeout", "20"], timeout: 180)
        #expect(fr.code == 0 && !fr.err.contains("error:"), "stderr: \(fr.err)")
        // Realtime, and the script lingers on the first screens so the plain renderer prints them.
        let de = try Harness.run(bin, ["--source", try #require(Self.clip), "--renderer", "plain", "--pace", "realtime", "--locale", "de",
                                       "--strings", dir, "--output", dir + "/out2", "--timeout", "20",
                                       "--keys", "wait-for stringsRejected; wait-for instructionsShown; wait 200ms; enter; wait 200ms; enter; "
                                           + "wait-for cameraReady; s; wait-for outputSaved; enter"],
                                       timeout: 180)
        #expect(de.code == 0, "stderr: \(de.err)")
        let notice = "de.lproj/Localizable.strings has errors: the built-in text is used instead"
        // On the loading, instructions and permission screens.
        #expect(de.out.split(separator: "\n").filter { $0 == notice }.count == 3, "stdout: \(de.out.prefix(900))")
        #expect(de.out.contains("Record a short selfie video"), "the built-in (English) text")
    }
}
