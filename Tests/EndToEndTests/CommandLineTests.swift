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

    @Test(.enabled(if: bin != nil, "the selfie-capture binary is not built"))
    func misspeltOptionExits64WithSuggestion() throws {
        let r = try Harness.run(try #require(Self.bin), ["--sorce", "demo"])
        #expect(r.code == 64)
        #expect(r.err.hasPrefix("selfie-capture: unknown option '--sorce'; did you mean '--source'?\n"))
        #expect(r.out.isEmpty)
    }
}
