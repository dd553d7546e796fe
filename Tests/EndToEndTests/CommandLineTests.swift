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

    @Test(.enabled(if: bin != nil, "the selfie-capture binary is not built"))
    func misspeltOptionExits64WithSuggestion() throws {
        let r = try Harness.run(try #require(Self.bin), ["--sorce", "demo"])
        #expect(r.code == 64)
        #expect(r.err.hasPrefix("selfie-capture: unknown option '--sorce'; did you mean '--source'?\n"))
        #expect(r.out.isEmpty)
    }
}
