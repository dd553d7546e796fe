import Testing
import Foundation

@Suite struct BinaryCommandLineTests {
    static let bin = Harness.binary

    @Test(.enabled(if: bin != nil, "the selfie-capture binary is not built"))
    func helpListsTheCommands() throws {
        let r = try Harness.run(try #require(Self.bin), ["--help"])
        #expect(r.code == 0)
        for c in ["capture", "analyze", "devices", "strings"] { #expect(r.out.contains("\n  \(c) ")) }
    }

    @Test(.enabled(if: bin != nil, "the selfie-capture binary is not built"), arguments: ["0", "-1", "x", "3.5"])
    func badMaxAttemptsExits64(value: String) throws {
        let r = try Harness.run(try #require(Self.bin), ["--source", "demo", "--renderer", "null", "--max-attempts", value])
        #expect(r.code == 64)
        #expect(r.err.hasPrefix("selfie-capture: invalid value '\(value)' for '--max-attempts': expected a whole number from 1 to 1000"),
                "stderr: \(r.err)")
    }

    @Test(.enabled(if: bin != nil, "the selfie-capture binary is not built"))
    func helpDocumentsRetries() throws {
        let r = try Harness.run(try #require(Self.bin), ["capture", "--help"])
        #expect(r.code == 0)
        #expect(r.out.contains("--max-attempts N"))
        #expect(r.out.contains("a retry restarts the timer"))
    }

    /// `--events -` is refused where the renderer writes the screen to stdout (curses, plain),
    /// and with `--renderer null` stdout carries JSON lines only, with `t_ms` from the run's start.
    @Test(.enabled(if: bin != nil, "the selfie-capture binary is not built"))
    func eventsOnStdoutOnlyWithTheNullRenderer() throws {
        let bin = try #require(Self.bin)
        for renderer in ["plain", "curses"] {
            let r = try Harness.run(bin, ["--source", "demo", "--renderer", renderer, "--events", "-"])
            #expect(r.code == 64, "\(renderer): \(r.err)")
            #expect(r.err.contains("'--events'") && r.err.contains("--renderer null"), "\(renderer): \(r.err)")
        }
        let dir = Harness.tempDir("ev-null")
        let r = try Harness.run(bin, ["--source", "demo", "--renderer", "null", "--pace", "realtime", "--events", "-",
                                      "--timeout", "1", "--output", dir + "/out"], timeout: 60)
        let lines = r.out.split(separator: "\n")
        #expect(!lines.isEmpty && lines.allSatisfy { $0.hasPrefix("{\"event\":") }, "stdout: \(r.out.prefix(300))")
        // Realtime event times count from the run's start (they counted from boot before).
        let first = lines.first.flatMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
        #expect((first?["t_ms"] as? Int).map { $0 < 60_000 } == true, "first event: \(String(describing: first))")
    }

    @Test(.enabled(if: bin != nil, "the selfie-capture binary is not built"))
    func misspeltOptionExits64WithSuggestion() throws {
        let r = try Harness.run(try #require(Self.bin), ["--sorce", "demo"])
        #expect(r.code == 64)
        #expect(r.err.hasPrefix("selfie-capture: unknown option '--sorce'; did you mean '--source'?\n"))
        #expect(r.out.isEmpty)
    }
}
