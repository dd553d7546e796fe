import Foundation
import Testing
import TestSupport

/// Issue #29: the generated bash completion, run by bash, offers the locales for `--locale`
/// (en-XA, the built-in ones, and a user's own XDG folder) and only folders after `verify`.
@Suite struct CompletionRunTests {
    static let bin = Harness.binary

    @Test(.enabled(if: bin != nil && Harness.tool("bash") != nil, "needs the built binary and bash"))
    func bashCompletesLocalesAndVerifyFolders() throws {
        let dir = Harness.tempDir("sc-compl")
        let script = dir + "/selfie-capture.bash"
        let gen = try Harness.run(try #require(Self.bin), ["help", "--completion", "bash"])
        #expect(gen.code == 0)
        try gen.out.write(toFile: script, atomically: true, encoding: .utf8)
        let xdg = dir + "/xdg"
        try FileManager.default.createDirectory(atPath: xdg + "/selfie-capture/Localizations/de.lproj", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir + "/work/capture1", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: dir + "/work/notes.txt", contents: Data())
        func complete(_ words: [String]) throws -> [String] {
            let sh = "source \"$1\"; shift; COMP_WORDS=(\"$@\"); COMP_CWORD=$(($# - 1)); _selfie_capture; printf '%s\\n' \"${COMPREPLY[@]}\""
            let r = try Harness.run(try #require(Harness.tool("bash")), ["-c", sh, "bash", script] + words,
                                    env: ["XDG_CONFIG_HOME": xdg], cwd: dir + "/work")
            #expect(r.code == 0, "\(r.err)")
            return r.out.split(separator: "\n").map(String.init).sorted()
        }
        let locales = try complete(["selfie-capture", "--locale", ""])
        #expect(Set(locales).isSuperset(of: ["en-XA", "en", "fr", "de"]), "\(locales)")
        #expect(try complete(["selfie-capture", "--locale", "en-"]) == ["en-XA"])
        #expect(try complete(["selfie-capture", "verify", ""]) == ["capture1"])
    }
}
