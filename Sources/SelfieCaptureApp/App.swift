import TerminalUI
/// Where a command writes: stdout and stderr as closures so tests capture them.
public struct Console: Sendable {
    public var out: @Sendable (String) -> Void
    public var err: @Sendable (String) -> Void
    /// The plain renderer's screens on stdout: in a kept non-UTF-8 locale's codeset
    /// (`LocaleText`, issue #27), unlike `out`'s JSON; `out` unless given.
    public var screen: @Sendable (String) -> Void
    /// The columns of the terminal the person reads this on (nil: none), for `--help`'s wrapping.
    public var width: @Sendable () -> Int?
    public init(out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void,
                screen: (@Sendable (String) -> Void)? = nil, width: @escaping @Sendable () -> Int? = { nil }) {
        self.out = out; self.err = err; self.screen = screen ?? out; self.width = width
    }
}

/// A command implementation: parsed arguments in, exit code out; errors are thrown as `AppError`.
public typealias CommandHandler = @Sendable (ParsedArguments, Console) throws -> ExitCode

/// The command-line front: dispatches argv to a command, prints help, maps errors to exit codes.
public struct App: Sendable {
    /// Handlers by command name (`capture`, `analyze`, `devices`, `strings dump`, …). A command
    /// with no handler answers "not implemented yet" (exit 69).
    public var handlers: [String: CommandHandler]

    public init(handlers: [String: CommandHandler] = [:]) { self.handlers = handlers }

    /// Runs with `argv` (argv[0] is the program) and returns the process exit code.
    public func run(_ argv: [String], console: Console) -> Int32 {
        let tokens = argv.enumerated().dropFirst().map { ArgToken($0.element, index: $0.offset) }
        do {
            return try dispatch(tokens, console: console).rawValue
        } catch let error as AppError {
            console.err(ErrorReport.message(for: error) + "\n")
            return ErrorReport.exitCode(for: error).rawValue
        } catch {
            console.err("\(ErrorReport.program): \(error)\n")
            return ExitCode.unavailable.rawValue
        }
    }

    func dispatch(_ tokens: [ArgToken], console: Console) throws -> ExitCode {
        guard let first = tokens.first else {
            return try runCommand(Commands.capture, [], console: console)
        }
        switch first.text {
        case "help" where tokens.count > 1:
            return try Help.generated(Array(tokens.dropFirst()), console: console)
        case "-h", "--help", "help":
            console.out(Help.topLevel(width: console.width()))
            return .ok
        case "--version", "-V":
            console.out("selfie-capture \(Commands.version)\n")
            return .ok
        default: break
        }
        if first.text.hasPrefix("-") && first.text != "-" {
            // Options before any command belong to `capture`, the default command; still catch
            // `--version` anywhere among them.
            if tokens.contains(where: { $0.text == "--version" }) {
                console.out("selfie-capture \(Commands.version)\n")
                return .ok
            }
            return try runCommand(Commands.capture, tokens, console: console)
        }
        let rest = Array(tokens.dropFirst())
        switch first.text {
        case "capture": return try runCommand(Commands.capture, rest, console: console)
        case "analyze": return try runCommand(Commands.analyze, rest, console: console)
        case "devices": return try runCommand(Commands.devices, rest, console: console)
        case "verify": return try runCommand(Commands.verify, rest, console: console)
        case "strings":
            guard let sub = rest.first else {
                throw AppError.missingArgument(command: "strings", name: "a command: dump, format, lint or convert")
            }
            if sub.text == "-h" || sub.text == "--help" {
                console.out(Help.command(Commands.strings, width: console.width()))
                return .ok
            }
            guard let spec = Commands.stringsSubcommands.first(where: { $0.name == "strings " + sub.text }) else {
                throw AppError.unknownCommand("strings \(sub.text)",
                                              suggestion: ArgumentParser.suggest(sub.text, among: ["dump", "format", "lint", "convert"]).map { "strings " + $0 })
            }
            return try runCommand(spec, Array(rest.dropFirst()), console: console)
        default:
            throw AppError.unknownCommand(first.text,
                                          suggestion: ArgumentParser.suggest(first.text, among: Commands.all.map(\.name)))
        }
    }

    func runCommand(_ spec: CommandSpec, _ tokens: [ArgToken], console: Console) throws -> ExitCode {
        let parsed = try ArgumentParser.parse(tokens, spec: spec)
        if parsed.helpRequested {
            console.out(Help.command(spec, width: console.width()))
            return .ok
        }
        guard let handler = handlers[spec.name] else {
            throw AppError.notImplemented("'\(spec.name)'")
        }
        return try handler(parsed, console)
    }
}

#if canImport(Glibc)
import Glibc
#endif

extension Console {
    /// The process's stdout (fd 1) and stderr (fd 2), written with `write(2)` (retrying on EINTR
    /// and short writes).
    /// Messages on stderr and the plain renderer's screens follow a kept non-UTF-8 locale's
    /// codeset (`LocaleText`, issue #27); stdout's JSON, events and documents stay UTF-8.
    public static let standard = Console(out: { writeAll(1, $0) }, err: { writeAll(2, $0, localeText: true) },
                                         screen: { writeAll(1, $0, localeText: true) }, width: { terminalColumns() })

    /// The columns of the terminal on stdout, else on stderr (`--help | less` and `| head` still
    /// read on one: stdout is the pipe, stderr the terminal); nil when neither is a terminal
    /// (a script, a test: the help's lines are then not wrapped, one line per entry for grep).
    static func terminalColumns() -> Int? {
        for fd: Int32 in [1, 2] where isatty(fd) == 1 {
            var ws = winsize()
            if ioctl(fd, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_col > 0 { return Int(ws.ws_col) }
        }
        return nil
    }

    static func writeAll(_ fd: Int32, _ text: String, localeText: Bool = false) {
        var bytes = localeText ? LocaleText.bytes(text) : Array(text.utf8)
        var off = 0
        while off < bytes.count {
            let n = bytes.withUnsafeMutableBytes { write(fd, $0.baseAddress! + off, $0.count - off) }
            if n < 0 { if errno == EINTR || errno == EAGAIN { continue }; return }
            off += n
        }
    }
}
