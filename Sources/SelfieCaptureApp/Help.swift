/// Help text generated from `CommandSpec`s.
public enum Help {
    /// Width the option column is padded to.
    static let column = 34

    /// The top-level `--help`.
    public static func topLevel() -> String {
        var s = """
        selfie-capture \(Commands.version): guided liveness selfie video capture in the terminal

        Usage:
          selfie-capture [capture] [OPTIONS]      guided capture (the default command)
          selfie-capture analyze --source SPEC    per-frame face analysis as JSON lines
          selfie-capture devices                  list V4L2 cameras
          selfie-capture verify DIR               check a capture folder against its manifest
          selfie-capture strings dump FILE        a string file as JSON
          selfie-capture strings format --locale TAG [--strings DIR]... KEY [ARG...]
          selfie-capture strings lint DIR... [--base en] [--format text|json]
          selfie-capture strings convert FILE.xcstrings --to DIR | DIR --to FILE.xcstrings

        Commands:

        """
        for c in Commands.all { s += "  " + pad(c.name, 12) + c.summary + "\n" }
        s += "\nCapture options:\n"
        s += optionLines(Commands.capture.options)
        s += "  " + pad("--version", column) + "print the version\n"
        s += "  " + pad("-h, --help", column) + "show this help; 'selfie-capture COMMAND --help' for a command\n"
        s += "\n" + exitCodes
        return s
    }

    /// `COMMAND --help`.
    public static func command(_ spec: CommandSpec) -> String {
        var s = "selfie-capture \(spec.name): \(spec.summary)\n\nUsage:\n  \(spec.usage)\n"
        if spec.name == "strings" {
            s += "\nCommands:\n"
            for c in Commands.stringsSubcommands {
                s += "  " + pad(String(c.name.dropFirst("strings ".count)), 12) + c.summary + "\n"
            }
        }
        if !spec.options.isEmpty {
            s += "\nOptions:\n" + optionLines(spec.options)
        }
        s += "  " + pad("-h, --help", column) + "show this help\n"
        if !spec.details.isEmpty { s += "\n" + spec.details + "\n" }
        if spec.name == "capture" { s += "\n" + exitCodes }
        return s
    }

    static let exitCodes = """
    Exit codes:
      0    recorded (or the command succeeded)
      64   usage error          65   bad data (string or video file)
      66   input missing        69   camera unavailable or busy
      73   cannot create output 75   timed out, or the source ended first
      77   camera permission denied 78   video encoder cannot open
      130  cancelled (Ctrl-C or q; on the result screen q exits 0, files kept)
      128+N  ended by signal N (143 SIGTERM, 129 SIGHUP, 131 SIGQUIT, ...): the terminal
           is restored and an unfinished recording removed first
    Keys: ? shows the keys of the screen; Ctrl-Z suspends (fg resumes).

    """

    static func optionLines(_ options: [OptionSpec]) -> String {
        var s = ""
        for o in options {
            let head = o.name + (o.kind.placeholder.map { " " + $0 } ?? "")
            if head.count >= column - 1 {
                s += "  " + head + "\n  " + pad("", column) + o.help + "\n"
            } else {
                s += "  " + pad(head, column) + o.help + "\n"
            }
        }
        return s
    }

    static func pad(_ s: String, _ n: Int) -> String {
        s.count >= n ? s + " " : s + String(repeating: " ", count: n - s.count)
    }
}
