import Testing
@testable import SelfieCaptureApp
import TestSupport
import Synchronization

/// Captures what a run writes.
final class Captured: Sendable {
    let out = Mutex("")
    let err = Mutex("")
    var console: Console {
        Console(out: { s in self.out.withLock { $0 += s } }, err: { s in self.err.withLock { $0 += s } })
    }
}

func run(_ args: [String], handlers: [String: CommandHandler] = [:]) -> (code: Int32, out: String, err: String) {
    let c = Captured()
    let code = App(handlers: handlers).run(["selfie-capture"] + args, console: c.console)
    return (code, c.out.withLock { $0 }, c.err.withLock { $0 })
}

@Suite struct ArgumentErrorTests {
    /// Each bad command line gives exit 64 (EX_USAGE) and names the option and what it expects.
    @Test(arguments: [
        (["--sorce", "demo"], "selfie-capture: unknown option '--sorce'; did you mean '--source'?"),
        (["capture", "--sorce=demo"], "selfie-capture: unknown option '--sorce'; did you mean '--source'?"),
        (["capure"], "selfie-capture: unknown command 'capure'; did you mean 'capture'?"),
        (["strings", "lnt", "x"], "selfie-capture: unknown command 'strings lnt'; did you mean 'strings lint'?"),
        (["--zzzzzz"], "selfie-capture: unknown option '--zzzzzz'\n"),
        (["--source"], "selfie-capture: option '--source' needs a value: SPEC"),
        (["--source", "--no-mirror"], "selfie-capture: option '--source' needs a value: SPEC"),
        (["--duration-ms", "abc"], "selfie-capture: invalid value 'abc' for '--duration-ms': expected a whole number from 100 to 60000"),
        (["--duration-ms=99"], "invalid value '99' for '--duration-ms'"),
        (["--preset", "fast"], "invalid value 'fast' for '--preset': expected one of selfieFast, selfieSubstantial"),
        (["--quality", "hd,4k"], "invalid value 'hd,4k' for '--quality': expected a comma-separated list of lowest, sd, hd, fhd, uhd, highest"),
        (["--timeout", "-3"], "invalid value '-3' for '--timeout': expected a number from 0.1 to 86400"),
        (["--max-attempts", "0"], "invalid value '0' for '--max-attempts': expected a whole number from 1 to 1000"),
        (["--preview-fps", "0"], "invalid value '0' for '--preview-fps': expected a whole number from 1 to 60"),
        (["--colors", "8"], "invalid value '8' for '--colors': expected one of 16, 256, truecolor"),
        (["--max-attempts=two"], "invalid value 'two' for '--max-attempts': expected a whole number from 1 to 1000"),
        (["--max-attempts", "1.5"], "invalid value '1.5' for '--max-attempts'"),
        (["--max-attempts"], "option '--max-attempts' needs a value: a whole number from 1 to 1000"),
        (["--no-mirror=yes"], "invalid value 'yes' for '--no-mirror': expected no value"),
        (["--video-format", "mkv"], "invalid value 'mkv' for '--video-format': expected one of avi, mp4"),
        (["strings"], "'strings' needs a command: dump, format, lint or convert"),
        (["strings", "dump"], "'strings dump' needs FILE"),
        (["strings", "dump", "a", "b"], "unexpected argument 'b'"),
        (["devices", "extra"], "unexpected argument 'extra'"),
        (["analyze", "--renderer", "null"], "unknown option '--renderer'"),
    ])
    func usageError(args: [String], message: String) {
        let r = run(args)
        #expect(r.code == 64)
        #expect(r.err.contains(message), "stderr: \(r.err.debugDescription)")
        #expect(r.out.isEmpty)
    }

    @Test func valueFormsAndDoubleDash() throws {
        let spec = Commands.stringsFormat
        let toks = ["--locale=pl", "--strings", "a", "--strings", "b", "--", "--KEY", "22"].enumerated()
            .map { ArgToken($0.element, index: $0.offset + 1) }
        let p = try ArgumentParser.parse(toks, spec: spec)
        #expect(p.value("--locale") == "pl")
        #expect(p.all("--strings") == ["a", "b"])
        #expect(p.positionals == [ArgToken("--KEY", index: 7), ArgToken("22", index: 8)])
    }

    @Test func unimplementedCommandExits69() {
        let r = run(["devices"])
        #expect(r.code == 69)
        #expect(r.err == "selfie-capture: 'devices' is not implemented yet\n")
    }

    @Test func handlerReceivesParsedOptions() {
        let r = run(["--source", "demo", "--no-mirror"], handlers: ["capture": { args, console in
            console.out("source=\(args.value("--source") ?? "-") mirror=\(!args.flag("--no-mirror"))\n")
            return .ok
        }])
        #expect(r.code == 0)
        #expect(r.out == "source=demo mirror=false\n")
    }

    @Test(arguments: [
        (AppError.cancelled, ExitCode.cancelled), (.timedOut("x"), .timedOut),
        (.cameraPermissionDenied(path: "/dev/video0"), .permissionDenied), (.inputMissing(path: "x"), .noInput),
        (.badData("x"), .dataError), (.cannotCreateOutput(path: "x", reason: "y"), .cannotCreate),
        (.cameraUnavailable("busy"), .unavailable), (.unknownOption("--x", suggestion: nil), .usage),
        (.evidenceMismatch(folder: "d", lines: ["d/x: missing"]), .dataError),
        (.notACaptureFolder(path: "d", reason: "not a folder"), .noInput),
    ])
    func exitCodeTable(error: AppError, code: ExitCode) {
        #expect(ErrorReport.exitCode(for: error) == code)
    }

    @Test func editDistance() {
        #expect(ArgumentParser.editDistance("--sorce", "--source") == 1)
        #expect(ArgumentParser.editDistance("", "abc") == 3)
        #expect(ArgumentParser.editDistance("kitten", "sitting") == 3)
    }
}

@Suite struct HelpTests {
    @Test func topLevelHelpSnapshot() {
        let r = run(["--help"])
        #expect(r.code == 0)
        #expect(TestSupport.checkSnapshot(r.out, named: "help.txt") == nil)
        for command in ["capture", "analyze", "devices", "verify", "strings"] { #expect(r.out.contains("  \(command) ")) }
    }

    /// On a terminal of 80 columns (or 120) no line of any help is wider than the terminal (or
    /// than `Help.maximumWidth`) but a single long word, each option still starts its own line, and no
    /// word is lost or cut: the words are those of the unwrapped help, in order.
    @Test(arguments: [80, 120]) func helpIsWrappedToTheTerminal(columns: Int) {
        let pages = [(Help.topLevel(), Help.topLevel(width: columns))] + (Commands.all + Commands.stringsSubcommands).map {
            (Help.command($0), Help.command($0, width: columns))
        }
        for (plain, wrapped) in pages {
            // Only a single word wider than its column may pass the width (a long path).
            let long = wrapped.split(separator: "\n").filter {
                $0.count > min(columns, Help.maximumWidth) && $0.split(separator: " ").count > 1
            }
            #expect(long.isEmpty, "\(long)")
            #expect(wrapped.split(whereSeparator: \.isWhitespace) == plain.split(whereSeparator: \.isWhitespace))
            #expect(wrapped.split(separator: "\n").filter { $0.hasPrefix("  --") }.count
                    == plain.split(separator: "\n").filter { $0.hasPrefix("  --") }.count)
        }
        #expect(Help.topLevel(width: 80) != Help.topLevel(), "the capture options' help is longer than 80 columns")
    }

    /// Through the console: its width (the terminal's) wraps `--help`; no terminal, no wrapping.
    @Test func consoleWidthWrapsTheHelp() {
        let c = Captured()
        let console = Console(out: { s in c.out.withLock { $0 += s } }, err: { _ in }, width: { 80 })
        _ = App(handlers: [:]).run(["selfie-capture", "--help"], console: console)
        #expect(c.out.withLock { $0 } == Help.topLevel(width: 80))
        #expect(run(["--help"]).out == Help.topLevel())
    }

    @Test func everyCommandHasHelp() {
        for args in [["capture", "--help"], ["analyze", "-h"], ["devices", "--help"], ["verify", "--help"], ["strings", "--help"],
                     ["strings", "dump", "--help"], ["strings", "format", "--help"], ["strings", "lint", "--help"]] {
            let r = run(args)
            #expect(r.code == 0)
            #expect(r.out.hasPrefix("selfie-capture \(args[0])"), "\(args)")
            #expect(r.out.contains("Usage:"))
        }
        #expect(TestSupport.checkSnapshot(run(["strings", "--help"]).out, named: "help-strings.txt") == nil)
    }

    @Test func version() {
        #expect(run(["--version"]).out == "selfie-capture \(Commands.version)\n")
    }
}

@Suite struct VerifyArgumentTests {
    /// `verify` needs exactly one folder; its mismatch message lists the lines, then says how many.
    @Test func usageAndMessage() {
        let none = run(["verify"], handlers: CommandRegistry.handlers)
        #expect(none.code == 64 && none.err.hasPrefix("selfie-capture: 'verify' needs DIR"))
        #expect(run(["verify", "a", "b"], handlers: CommandRegistry.handlers).code == 64)
        #expect(ErrorReport.message(for: .evidenceMismatch(folder: "d", lines: ["d/a: missing", "d/b: extra (not in the manifest)"]))
                == "d/a: missing\nd/b: extra (not in the manifest)\nselfie-capture: d does not match its manifest: 2 files differ")
    }
}
