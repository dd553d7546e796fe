import CaptureFlow
import Foundation

/// The commands and their options (DESIGN.md "Command line"). Help text is generated from these
/// specs, so an option cannot exist without being documented.
public enum Commands {
    /// A number as `%g` writes it, for the help texts: a whole number below 10⁶ in Swift
    /// (`String(format:)` is Foundation's formatter, set up on the first screen only for this
    /// before issue #28), anything else through `%g`.
    static func helpNumber(_ x: Double) -> String {
        x == x.rounded() && abs(x) < 1e6 && !(x == 0 && x.sign == .minus) ? String(Int(x)) : String(format: "%g", x)
    }

    public static let version = "0.1.0"

    static let sourceHelp = "frame source: /dev/videoN, a .avi (MJPEG), a .mjpeg stream, a .y4m file, - (y4m on stdin) or demo; default: the first V4L2 camera"

    public static let capture = CommandSpec(
        name: "capture",
        summary: "run a guided selfie video capture (the default command)",
        usage: "selfie-capture [capture] [OPTIONS]",
        options: [
            OptionSpec("--source", .text("SPEC"), help: sourceHelp),
            OptionSpec("--preset", .choice(["selfieFast", "selfieSubstantial"]), help: "acquisition preset: selfieFast records 1 s, selfieSubstantial 3 s (default selfieFast)"),
            OptionSpec("--duration-ms", .integer(100...60_000), help: "recording duration in milliseconds; overrides the preset"),
            OptionSpec("--quality", .choiceList(["lowest", "sd", "hd", "fhd", "uhd", "highest"]), help: "preferred camera qualities, in order (lowest 144p, sd 480p, hd 720p, fhd 1080p, uhd 2160p, highest)"),
            OptionSpec("--target-resolution", .choice(["qhd", "hd720", "hd1080", "uhd4k"]), help: "target camera resolution (qhd 540x960, hd720 720x1280, hd1080 1080x1920, uhd4k 2160x3840, either orientation)"),
            OptionSpec("--constraints", .choice(["v1", "v2"]), help: "face constraints: v1 (landmark-based FaceStatus) or v2 (bounding-box based lists); default v1"),
            OptionSpec("--frames-to-collect", .integer(0...1000), help: "number of frames to collect as JPEG files (default 3, as Mobai)"),
            OptionSpec("--frame-interval", .integer(1...1000), help: "keep one frame every N recorded frames while collecting (default 10, as Mobai)"),
            OptionSpec("--frames-before-capture", .integer(0...10_000), help: "recorded frames to skip before collecting (default 10, as Mobai)"),
            OptionSpec("--time-before-capture", .number(0...60), help: "countdown in seconds while the face is valid and still (default \(helpNumber(CaptureOptions.defaultTimeBeforeAutomaticCapture)))"),
            OptionSpec("--preview", .choice(["fit", "fill"]), help: "preview scale type (default fill)"),
            OptionSpec("--no-mirror", .flag, help: "do not mirror the preview (a selfie preview is mirrored by default)"),
            OptionSpec("--payload-optimization", .flag, help: "crop collected frames to the face and re-encode them smaller"),
            OptionSpec("--no-instructions", .flag, help: "skip the instructions screen"),
            OptionSpec("--no-start-button", .flag, help: "start automatically when the camera is ready"),
            OptionSpec("--locale", .text("TAG"), help: "language of the texts, e.g. fr or fr_CA; en-XA: accented, longer English for testing layouts (default from LC_ALL, LC_MESSAGES, LANG)"),
            OptionSpec("--strings", .text("DIR"), repeatable: true, help: "folder of xx.lproj string files and/or a Localizable.xcstrings, layered over the built-in texts (repeatable; later wins)"),
            OptionSpec("--theme", .text("light|dark|high-contrast|auto|FILE"), help: "colour theme or a JSON theme file (default auto: light or dark by the terminal's background, asked with OSC 11, else from COLORFGBG; dark, which paints its own background, when unknown); every built-in theme meets WCAG 2.1 AA contrast"),
            OptionSpec("--layout", .text("FILE"), help: "JSON layout overrides (toolbar top/bottom, hint position, preview side, guideBeforeStart)"),
            OptionSpec("--strict-quality", .flag, help: "enrolment-grade capture: what depends on the person or the room blocks until fixed (eyes, mouth, uneven light or backlight, clipped highlights, blur, a face too small in pixels, a head turned beyond 15° or tilted beyond 10°); by default its hint shows for 3 s while the face is placed and still, then the capture goes on and result.json reports each one (qualityShortfalls)"),
            OptionSpec("--guide-before-start", .flag, help: "show the positioning hints as soon as the camera is ready, before Start (as \"guideBeforeStart\": true in --layout); the oval's colour follows the face either way"),
            OptionSpec("--debug-overlay", .flag, help: "show the status line from the start: source, size, measured fps, colours, preview mode and fps, bytes/s to the terminal (key i toggles it)"),
            OptionSpec("--preview-fps", .integer(1...60), help: "redraw the camera preview at most N times a second (default \(ScreenSetup.defaultPreviewFps); 5 sends about a third of the bytes, for slow links)"),
            OptionSpec("--preview-mode", .choice(["auto", "kitty", "sixel", "iterm", "symbols", "halfblocks"]), help: "how the camera preview is drawn: kitty graphics, sixel or iTerm2 pictures, libchafa symbols (sextants, quadrants), or half blocks (default auto: asks the terminal at start-up, then TERM/TERM_PROGRAM/KITTY_WINDOW_ID, else symbols; inside tmux only sixel that tmux itself draws, else symbols; an explicit kitty/iterm/sixel in tmux needs `set -g allow-passthrough on`)"),
            OptionSpec("--colors", .choice(["16", "256", "truecolor"]), help: "colours sent to the terminal: at most 16 or 256, or 24-bit truecolor (default: what the terminal reports)"),
            OptionSpec("--camera-consent", .flag, help: "the user has already agreed to camera use: skip the permission screen"),
            OptionSpec("--video-format", .choice(["avi", "mp4"]), help: "video file: avi (MJPEG, camera JPEGs as they are; default) or mp4 (H.264 at CRF 23, several times smaller)"),
            OptionSpec("--sign-key", .text("KEY"), help: "sign manifest.json with OpenSSH (ssh-keygen -Y sign, namespace selfie-capture-manifest@v1) into manifest.json.sig; KEY is a private key file or a .pub whose key ssh-agent holds (a key with a passphrase must be in ssh-agent); checked before the screen starts"),
            OptionSpec("--challenge", .text("turn|FILE"), help: "active challenge after the still recording: turn (left, right and up in an order from a recorded random seed) or a verifier's JSON FILE ({\"nonce\", \"steps\": [{\"direction\": \"left|right|up\", \"timeoutMs\"}]}); each step is met at 27° yaw or 17° pitch held 150 ms (Smile ID's targets), then back within 15°; a step that times out fails the attempt"),
            OptionSpec("--keep-failed", .flag, help: "keep up to 4 frames of each failed attempt, each named with its hint, in failed/ of the output folder (listed in result.json's failedAttempts and the manifest); a run that ends failed keeps them with result.json and manifest.json; without it nothing of a failed attempt is kept"),
            OptionSpec("--output", .text("DIR"), help: "output folder (must be new or empty; default a new timestamped folder)"),
            OptionSpec("--events", .text("FILE|-"), help: "write state events as JSON Lines to FILE or - (stdout, with --renderer null only: the other renderers draw there)"),
            OptionSpec("--analysis-log", .text("FILE"), help: "write one JSON object per analysed frame to FILE"),
            OptionSpec("--keys", .text("SCRIPT|@FILE"), help: "scripted keys, e.g. 'enter; wait-for cameraReady; s'"),
            OptionSpec("--renderer", .choice(["curses", "plain", "null"]), help: "screen backend (default curses on a terminal, plain otherwise)"),
            OptionSpec("--pace", .choice(["realtime", "fast"]), help: "release frames at their timestamps or as fast as processed (default realtime for cameras and demo, fast for files off a terminal)"),
            OptionSpec("--loop", .flag, help: "restart a file source at its end; an attempt still positioning or counting down then fails (and may be retried)"),
            OptionSpec("--timeout", .number(0.1...86_400), help: "fail an attempt after SECONDS on the loading and capture screens; a retry restarts the timer (exit 75 after the last attempt)"),
            OptionSpec("--max-attempts", .integer(1...1000), help: "attempts before giving up (exit 75) after a timeout or a --loop source's end (default 3; 1 in unattended runs, which retry by themselves only when this is given)"),
            OptionSpec("--announce", .text("FILE|-"), help: "write short guidance sentences for screen readers and braille displays, at most one every 1.5 s, to FILE (e.g. another terminal, /dev/pts/3) or - (into the plain renderer's output)"),
            OptionSpec("--sound", .flag, help: "ring the terminal bell: 2 slow bells face found, 2 quick valid position, 1 per countdown number, 3 quick recording, 4 quick done, 3 slow failed, 2 quick and a late third a challenge step (--challenge)"),
            OptionSpec("--speak", .flag, help: "speak the guidance sentences through espeak-ng in the language of the texts (paced like --announce; without espeak-ng or its voice: a warning, no speech)"),
            OptionSpec("--reduced-motion", .flag, help: "nothing moves by itself: the loading screen shows a static progress line instead of running seconds"),
            OptionSpec("--unattended", .flag, help: "nobody answers the screens: skip instructions and permission, start by itself, exit at the result (the default only without a terminal on stdin; on a terminal every screen waits for its key, with TERM=dumb too)"),
        ])

    public static let analyze = CommandSpec(
        name: "analyze",
        summary: "run face analysis and guidance over a source, one JSON object per frame",
        usage: "selfie-capture analyze [--source SPEC] [OPTIONS]",
        options: [
            OptionSpec("--source", .text("SPEC"), help: sourceHelp),
            OptionSpec("--analysis-log", .text("FILE"), help: "write the JSON lines to FILE instead of stdout"),
            OptionSpec("--constraints", .choice(["v1", "v2"]), help: "face constraints used for the status fields (default v1)"),
            OptionSpec("--no-mirror", .flag, help: "judge positions in the unmirrored frame"),
            OptionSpec("--pace", .choice(["realtime", "fast"]), help: "frame pacing (default fast)"),
        ])

    public static let devices = CommandSpec(
        name: "devices",
        summary: "list V4L2 cameras with their formats, frame sizes and frame rates",
        usage: "selfie-capture devices",
        options: [])

    public static let verify = CommandSpec(
        name: "verify",
        summary: "check a capture folder against its manifest.json (sizes and SHA-256)",
        usage: "selfie-capture verify DIR [--allowed-signers FILE]",
        options: [
            OptionSpec("--allowed-signers", .text("FILE"), help: "also check manifest.json.sig with OpenSSH (ssh-keygen -Y verify, namespace selfie-capture-manifest@v1) against FILE, in ssh-keygen's allowed_signers format, and name the signer"),
        ], positionals: ["DIR"], minPositionals: 1,
        details: """
        Re-hashes every file of DIR and compares it with DIR/manifest.json. Exit 0 when every
        listed file is there with its size and SHA-256 and nothing else is; otherwise each
        missing, extra, changed or unreadable file is named on its own line (stderr) and the exit
        code is 65. No DIR: 64 (usage). No manifest, or no such folder: 66. A manifest that cannot be read as one: 65.
        With --allowed-signers, a missing signature, a signer FILE does not list, or a manifest
        changed after signing is refused with its own line, exit 65.
        """)

    public static let stringsDump = CommandSpec(
        name: "strings dump",
        summary: "print a .strings, .stringsdict or .xcstrings file as JSON",
        usage: "selfie-capture strings dump FILE",
        options: [], positionals: ["FILE"], minPositionals: 1,
        details: """
        A .strings file prints as {"key": "value"} in file order; a .stringsdict (or any property
        list) as the plist in JSON; a .xcstrings String Catalog as {"LANG": {"key": text}} where a
        plural text is its .stringsdict entry. Text, XML and binary (bplist00) files are read.
        """)

    public static let stringsFormat = CommandSpec(
        name: "strings format",
        summary: "print a localized, formatted text",
        usage: "selfie-capture strings format --locale TAG [--strings DIR]... KEY [ARG...]",
        options: [
            OptionSpec("--locale", .text("TAG"), help: "language, e.g. pl or fr_CA (en-XA: the pseudo-locale)"),
            OptionSpec("--strings", .text("DIR"), repeatable: true, help: "override folder of xx.lproj string files or a Localizable.xcstrings (repeatable)"),
        ], positionals: ["KEY", "ARG..."], minPositionals: 1)

    public static let stringsLint = CommandSpec(
        name: "strings lint",
        summary: "check string folders against the base language",
        usage: "selfie-capture strings lint DIR... [--base en] [--format text|json]",
        options: [
            OptionSpec("--base", .text("LANG"), help: "base language the others are checked against (default en)"),
            OptionSpec("--format", .choice(["text", "json"]), help: "report format (default text)"),
        ], positionals: ["DIR..."], minPositionals: 1)

    public static let stringsConvert = CommandSpec(
        name: "strings convert",
        summary: "convert a String Catalog (.xcstrings) to .lproj folders, or back",
        usage: "selfie-capture strings convert FILE.xcstrings --to DIR | DIR --to FILE.xcstrings",
        options: [
            OptionSpec("--to", .text("DIR|FILE.xcstrings"), help: "where to write (must not exist yet)"),
            OptionSpec("--base", .text("LANG"), help: "source language of a new catalog (default en)"),
        ], positionals: ["SOURCE"], minPositionals: 1,
        details: """
        FILE.xcstrings --to DIR writes DIR/<lang>.lproj/Localizable.strings (plain texts) and
        Localizable.stringsdict (plural texts) for every language of the catalog. DIR --to
        FILE.xcstrings writes one catalog holding every <lang>.lproj/Localizable.strings and
        .stringsdict of DIR (plural entries become substitutions). Both read back to the same
        texts. Files that already exist are never replaced (exit 73); a source that does not parse
        is not converted (exit 65, the errors on stderr); warnings are printed and the rest
        written. The texts are not checked against English: run strings lint for that.
        """)

    public static let strings = CommandSpec(
        name: "strings",
        summary: "work with .strings, .stringsdict and .xcstrings files (dump, format, lint, convert)",
        usage: "selfie-capture strings dump|format|lint|convert ...",
        options: [])

    /// Top-level commands, in help order.
    public static let all: [CommandSpec] = [capture, analyze, devices, verify, strings]
    public static let stringsSubcommands: [CommandSpec] = [stringsDump, stringsFormat, stringsLint, stringsConvert]

    /// Options accepted before any command (the capture options, since capture is the default).
    static let topLevel = CommandSpec(
        name: "selfie-capture", summary: "", usage: "",
        options: [OptionSpec("--version", .flag, help: "print the version")] + capture.options)
}
