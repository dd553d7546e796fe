import Foundation
/// Help text generated from `CommandSpec`s.
public enum Help {
    /// Width the option column is padded to.
    static let column = 34

    /// The top-level `--help`, its entries' descriptions wrapped to `width` columns (see
    /// `wrapped`; nil: not wrapped).
    public static func topLevel(width: Int? = nil) -> String {
        var s = """
        selfie-capture \(Commands.version): \(tagline)

        Usage:
          selfie-capture [capture] [OPTIONS]      guided capture (the default command)
          selfie-capture analyze --source SPEC    per-frame face analysis as JSON lines
          selfie-capture devices                  list V4L2 cameras
          selfie-capture verify DIR               check a folder against its manifest
          selfie-capture strings dump FILE        a string file as JSON
          selfie-capture strings format --locale TAG [--strings DIR]... KEY [ARG...]
          selfie-capture strings lint DIR... [--base en] [--format text|json]
          selfie-capture strings convert FILE.xcstrings --to DIR
          selfie-capture strings convert DIR --to FILE.xcstrings
          selfie-capture help --man [--prefix DIR]    the man page (make install)
          selfie-capture help --completion bash|zsh   a completion script (make install)

        Commands:

        """
        for c in Commands.all { s += entry(c.name, c.summary, width: width, column: 12) }
        s += "\nCapture options:\n"
        s += optionLines(Commands.capture.options, width: width)
        s += entry("--version", "print the version", width: width)
        s += entry("-h, --help", helpOptionText, width: width)
        s += "\nEnvironment:\n"
        for (name, text) in environment { s += entry(name, text, width: width) }
        s += "\nFiles:\n"
        for (name, text) in files { s += entry(name, text, width: width) }
        s += "\n" + exitCodes
        return s
    }

    /// The one-line description (top of `--help`, NAME of the man page).
    static let tagline = "guided liveness selfie video capture in the terminal"
    /// The man page's DESCRIPTION.
    static let description = """
    A terminal app that guides a person through a liveness selfie video capture: instructions, a \
    camera-permission screen, a live preview with an oval and positioning hints, a countdown and \
    a short recording (MJPEG AVI or H.264 MP4), collected frames, result.json and manifest.json. \
    The source is a V4L2 camera, a video file, a y4m pipe or a built-in demo. On a terminal the \
    person answers each screen with keys; only runs without a terminal, or with --unattended, \
    capture without a key press. Run 'selfie-capture COMMAND --help' for one command.
    """
    /// What `-h, --help` does (top-level help and the man page).
    static let helpOptionText = "show this help; 'selfie-capture COMMAND --help' for a command"
    /// Environment variables the app reads, with what each does (help and man page).
    static let environment: [(String, String)] = [
        ("LC_ALL, LC_MESSAGES, LANG", "language of the texts when --locale is not given"),
        ("TERM", "terminal type; unset or dumb: the plain renderer, still answered with keys (Enter after each)"),
        ("NO_COLOR", "when set and not empty, no colours"),
        ("COLORTERM", "truecolor or 24bit: 24-bit colours"),
        ("XDG_CONFIG_HOME", "overrides in $XDG_CONFIG_HOME/selfie-capture/Localizations (default ~/.config)"),
        ("SELFIE_CAPTURE_LOCALIZATIONS", "folder of the built-in xx.lproj string tables, instead of the installed ones"),
        ("SELFIE_CAPTURE_DEMO_PHOTO", "PNG photo for --source demo, instead of the installed one"),
        ("SELFIE_CAPTURE_CACHE_DIR", "face model cache folder (empty: no cache; default $XDG_CACHE_HOME/selfie-capture)"),
    ]
    /// Files the app reads, relative to the installation prefix (help and man page).
    static let files: [(String, String)] = [
        ("PREFIX/share/selfie-capture/Localizations", "the built-in string tables (en.lproj, fr.lproj, ...), found from the binary's folder (../share/selfie-capture)"),
        ("PREFIX/share/selfie-capture/demo/astronaut.png", "the demo face photo (--source demo)"),
    ]

    /// `COMMAND --help`, wrapped as `topLevel(width:)` is.
    public static func command(_ spec: CommandSpec, width: Int? = nil) -> String {
        var s = wrapped("selfie-capture \(spec.name): \(spec.summary)", width: width).joined(separator: "\n")
            + "\n\nUsage:\n  " + wrapped(spec.usage, width: width.map { $0 - 4 }).joined(separator: "\n    ") + "\n"
        if spec.name == "strings" {
            s += "\nCommands:\n"
            for c in Commands.stringsSubcommands {
                s += entry(String(c.name.dropFirst("strings ".count)), c.summary, width: width, column: 12)
            }
        }
        if !spec.options.isEmpty {
            s += "\nOptions:\n" + optionLines(spec.options, width: width)
        }
        s += entry("-h, --help", "show this help", width: width)
        if !spec.details.isEmpty { s += "\n" + reflowed(spec.details, width: width) + "\n" }
        if spec.name == "capture" { s += "\n" + exitCodes }
        return s
    }

    static let exitCodes = """
    Exit codes:
      0      recorded (or the command succeeded)
      64     usage error
      65     bad data (string or video file)
      66     input missing or unreadable (a file, a camera path, the built-in texts)
      69     camera unavailable or busy
      73     cannot create output
      75     timed out, or the source ended first
      77     camera permission denied
      78     video encoder cannot open
      130    cancelled (Ctrl-C or q; on the result screen q exits 0, files kept)
      128+N  ended by signal N (143 SIGTERM, 129 SIGHUP, 131 SIGQUIT, ...): the
             terminal is restored and an unfinished recording removed first

    Keys: ? shows the keys of the screen; Ctrl-Z suspends (fg resumes).

    """

    static func optionLines(_ options: [OptionSpec], width: Int? = nil) -> String {
        options.map { o in entry(o.name + (o.kind.placeholder.map { " " + $0 } ?? ""), o.help, width: width) }.joined()
    }

    /// One entry: `head` in the first column (alone on its line when it does not fit), `text`
    /// from column `column + 2`, wrapped (`wrapped`) to `width`.
    static func entry(_ head: String, _ text: String, width: Int?, column: Int = Help.column) -> String {
        let indent = String(repeating: " ", count: column + 2)
        let lines = wrapped(text, width: width.map { min($0, maximumWidth) - indent.count })
        let first = head.count >= column - 1 ? "  " + head + "\n" + indent : "  " + pad(head, column)
        return first + lines.joined(separator: "\n" + indent) + "\n"
    }

    /// The widest `--help` is wrapped to, columns: lines longer than this are hard to read
    /// (the usual 80-column convention, with room for wider terminals).
    static let maximumWidth = 100

    /// Prose (paragraphs separated by a blank line) re-broken to `width` (`wrapped`); nil: as is.
    static func reflowed(_ text: String, width: Int?) -> String {
        guard width != nil else { return text }
        return text.components(separatedBy: "\n\n").map {
            wrapped($0.replacingOccurrences(of: "\n", with: " "), width: width).joined(separator: "\n")
        }.joined(separator: "\n\n")
    }

    /// `text` broken at spaces into lines of at most `width` characters (at most `maximumWidth`,
    /// at least 24), a word longer than that on a line of its own; nil width:
    /// one line. A terminal wraps a long line in the middle of a word, at column 0 (a new-user
    /// trial at 80 columns: `FaceSta` / `tus`).
    static func wrapped(_ text: String, width: Int?) -> [String] {
        guard let width else { return [text] }
        let limit = max(24, min(width, maximumWidth))
        var lines: [String] = [], line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            if line.isEmpty { line = String(word) } else if line.count + 1 + word.count <= limit { line += " " + word } else {
                lines.append(line); line = String(word)
            }
        }
        return lines + [line]
    }

    static func pad(_ s: String, _ n: Int) -> String {
        s.count >= n ? s + " " : s + String(repeating: " ", count: n - s.count)
    }
}

extension Help {
    /// `help --man` (the man page, roff) and `help --completion bash|zsh` (a completion script):
    /// documents generated from the option specs, for `make install`.
    /// - Throws: `AppError.invalidValue` / `.unknownOption` (64) for anything else.
    static func generated(_ tokens: [ArgToken], console: Console) throws -> ExitCode {
        switch tokens.map(\.text) {
        case ["--man"]: console.out(ManPage.render(prefix: installedPrefix() ?? "PREFIX"))
        case let t where t.count == 3 && t[0] == "--man" && t[1] == "--prefix": console.out(ManPage.render(prefix: t[2]))
        case ["--completion", "bash"]: console.out(Completions.bash())
        case ["--completion", "zsh"]: console.out(Completions.zsh())
        case let t where t.first == "--completion":
            throw AppError.invalidValue(option: "--completion", value: t.dropFirst().joined(separator: " "), expects: "one of bash, zsh")
        default:
            throw AppError.unknownOption(tokens[0].text, suggestion: ArgumentParser.suggest(tokens[0].text, among: ["--man", "--completion"]))
        }
        return .ok
    }

    /// The prefix this binary is installed under (`<exe dir>/..` when it holds
    /// `share/selfie-capture`), or nil for a build-tree binary.
    static func installedPrefix() -> String? {
        guard let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return nil }
        let prefix = ((exe as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: prefix + "/share/selfie-capture", isDirectory: &isDir), isDir.boolValue else { return nil }
        return prefix
    }
}
