import Camera
import Foundation
import Media
import Testing
import TestSupport
import TerminalUI
@testable import SelfieCaptureApp

/// Issue #18 "words that say what happened", on the command line: each message names what is
/// really wrong (no camera at a path, a file that exists but cannot be read, a file given to
/// `strings lint`), and none says "no such file" about something that exists.
@Suite struct HonestMessagesTests {
    private func runStrings(_ args: [String]) -> (code: Int32, out: String, err: String) {
        run(["strings"] + args, handlers: CommandRegistry.handlers)
    }

    @Test func missingCameraSaysNoCameraAtThePath() throws {
        let path = "/dev/video-selfie-capture-test-\(UUID().uuidString.prefix(6))"
        let r = run(["--source", path, "--renderer", "null"], handlers: CommandRegistry.handlers)
        #expect(r.code == 66)
        #expect(r.err.hasPrefix("selfie-capture: no camera at \(path)\n"), "\(r.err)")
        #expect(!r.err.lowercased().contains("disconnected"))
        // The same words when the device vanishes between the check and the open (V4L2 ENOENT).
        let e = try #require(AppError.media(CameraError.notFound(path: "/dev/video7")))
        #expect(e == .cameraMissing(path: "/dev/video7"))
        #expect(ErrorReport.exitCode(for: e) == .noInput)
    }

    @Test func aFolderGivenAsAFileIsNotMissing() throws {
        let dir = try TestSupport.tempTree(["x.txt": "x"], prefix: "honest")
        let r = runStrings(["dump", dir])
        #expect(r.code == 66)
        #expect(r.err == "selfie-capture: cannot read \(dir): \(String(cString: strerror(EISDIR)))\n", "\(r.err)")
        #expect(!r.err.contains("no such file"))
        // A layout file that is a folder: the same.
        let l = run(["--source", "demo", "--renderer", "null", "--layout", dir], handlers: CommandRegistry.handlers)
        #expect(l.code == 66 && l.err.hasPrefix("selfie-capture: cannot read \(dir)") && !l.err.contains("no such file"), "\(l.err)")
        // A file source that is unreadable (not missing) says why, when permissions apply (not root).
        if getuid() != 0 {
            let f = dir + "/locked.avi"
            _ = FileManager.default.createFile(atPath: f, contents: Data([0]), attributes: [.posixPermissions: 0])
            let u = run(["--source", f, "--renderer", "null"], handlers: CommandRegistry.handlers)
            #expect(u.code == 66 && u.err.hasPrefix("selfie-capture: cannot read \(f): \(String(cString: strerror(EACCES)))"), "\(u.err)")
        }
    }

    /// `strings lint FILE`: a `.strings` inside an `xx.lproj` is linted as that language
    /// against the built-in base; another file is refused with what lint wants; a folder with
    /// no tables is an error. None of them says "no such file".
    @Test func lintAFile() throws {
        // `selfie_capture_result_saved` takes one %@ in the built-in English: %d is an error.
        let dir = try TestSupport.tempTree([
            "good/fr.lproj/Localizable.strings": "\"selfie_capture_result_title\" = \"Fini\";\n",
            "bad/fr.lproj/Localizable.strings": "\"selfie_capture_result_saved\" = \"Enregistré dans %d\";\n",
            "bad/fr.lproj/Other.strings": "\"x\" = \"unrelated, not linted\"\n",
            "notes.txt": "hello",
            "empty/readme.txt": "nothing here",
        ], prefix: "lint-file")
        let good = runStrings(["lint", dir + "/good/fr.lproj/Localizable.strings"])
        #expect(good.code == 0, "\(good.out)\(good.err)")
        #expect(good.out.hasSuffix("0 error(s), 0 warning(s)\n"), "\(good.out)")
        let bad = runStrings(["lint", dir + "/bad/fr.lproj/Localizable.strings"])
        #expect(bad.code == 65, "\(bad.out)\(bad.err)")
        #expect(bad.out.contains(dir + "/bad/fr.lproj/Localizable.strings") && bad.out.contains("selfie_capture_result_saved"), "\(bad.out)")
        #expect(!bad.out.contains("Other.strings"), "only the file given is linted: \(bad.out)")
        let txt = runStrings(["lint", dir + "/notes.txt"])
        #expect(txt.code == 64)
        #expect(txt.err.contains("is a file; lint wants a folder"), "\(txt.err)")
        let empty = runStrings(["lint", dir + "/empty"])
        #expect(empty.code == 66)
        #expect(empty.err.contains("nothing to check"), "\(empty.err)")
        for r in [good, bad, txt, empty] { #expect(!(r.out + r.err).contains("no such file")) }
    }

    /// No terminal type is not consent: only a run without a terminal, or `--unattended`, goes on
    /// by itself; the plain renderer reads keys when stdin is a terminal.
    @Test func whoCanAnswer() {
        #expect(CaptureSetup.readsTerminalKeys(renderer: .curses, stdinIsTTY: false, stdoutIsTTY: true, sourceIsStdin: false))
        #expect(CaptureSetup.readsTerminalKeys(renderer: .plain, stdinIsTTY: true, stdoutIsTTY: false, sourceIsStdin: false))
        #expect(!CaptureSetup.readsTerminalKeys(renderer: .plain, stdinIsTTY: false, stdoutIsTTY: false, sourceIsStdin: false))
        #expect(!CaptureSetup.readsTerminalKeys(renderer: .plain, stdinIsTTY: false, stdoutIsTTY: false, sourceIsStdin: true))
        #expect(!CaptureSetup.readsTerminalKeys(renderer: .null, stdinIsTTY: true, stdoutIsTTY: true, sourceIsStdin: false))
    }

    /// `--unattended` skips the screens that need a person even with a key script.
    @Test func unattendedFlag() throws {
        let parsed = try ArgumentParser.parse(["--source", "demo", "--renderer", "plain", "--unattended", "--keys", "enter"]
            .enumerated().map { ArgToken($0.element, index: $0.offset + 1) }, spec: Commands.capture)
        let setup = try CaptureSetup.make(parsed, environment: [:], console: Console(out: { _ in }, err: { _ in }))
        #expect(setup.unattended && setup.settings.unattended && !setup.settings.interactive)
        #expect(!setup.screen.terminalKeys)
        #expect(setup.settings.session.uiConfig.showInstructions == false)
        let scripted = try ArgumentParser.parse(["--source", "demo", "--renderer", "plain", "--keys", "enter"]
            .enumerated().map { ArgToken($0.element, index: $0.offset + 1) }, spec: Commands.capture)
        let s2 = try CaptureSetup.make(scripted, environment: [:], console: Console(out: { _ in }, err: { _ in }))
        #expect(!s2.unattended && s2.settings.session.uiConfig.showInstructions)
    }
}
