import Camera
import CaptureFlow
import CaptureModel
import FaceAnalysis
import Foundation
import Localization
import Media
import TerminalUI

#if canImport(Glibc)
import Glibc
#endif

/// `selfie-capture [capture] [OPTIONS]`: the guided capture. Turns the command line into a
/// `CaptureSetup` (every check that can fail before the screen starts: key script, theme, layout,
/// source, the MP4 encoder, output folder), then hands it to `CaptureRuntime`.
public enum CaptureCommand {
    public static let handler: CommandHandler = { args, console in
        let setup = try CaptureSetup.make(args, environment: ProcessInfo.processInfo.environment, console: console)
        try setup.checkCameraPath()
        return try CaptureRuntime(setup: setup).run()
    }
}

/// Everything a capture run needs, validated. Built by `make(_:environment:console:)`. Grouped
/// by concern (`SourceSetup`, `ScreenSetup`, `OutputSetup`, `AccessibilitySetup`); each group
/// holds its defaults, which the parsing and `--help` read.
public struct CaptureSetup {
    public var settings: FlowSettings
    public var guidance: GuidanceConfig
    /// Where the frames come from and how they are paced.
    public var source: SourceSetup
    /// How the screens are drawn and answered.
    public var screen: ScreenSetup
    /// What the run writes: the recording's folder, logs, the manifest's clock and signature.
    public var output: OutputSetup
    /// `--announce`, `--sound`, `--speak`, `--reduced-motion` (issue #17).
    public var accessibility = AccessibilitySetup()
    /// The run's texts, parsed on first use (`LocalizerLoad`, issue #28: while the terminal
    /// answers the start-up probe); setting it replaces them.
    public var strings: Localizer {
        get { stringsLoad.value }
        set { stringsLoad = LocalizerLoad(ready: newValue) }
    }
    var stringsLoad: LocalizerLoad
    /// The built-in tables' folder `strings` was loaded with, so the rejected-strings report
    /// tells override files from built-in ones without looking for it again (another look at
    /// the environment and /proc/self/exe: ~0.1 ms of the first screen, issue #28); nil: looked
    /// for as `Localizer.standard` does.
    public var builtInStrings: String?
    /// `--keys`: the key script, if any.
    public var keys: [KeyStep]?
    /// `--timeout` per attempt (ms), if any.
    public var timeoutMs: Int?
    /// Unattended: nobody can press a key (no terminal input and no `--keys`), or `--unattended`. Instructions and
    /// the permission screen are skipped (as with `--no-instructions --camera-consent`) and the
    /// capture starts by itself, so a headless run cannot wait forever on a screen.
    public var unattended: Bool
    public var environment: [String: String]
    public var console: Console
    /// Warnings to print on stderr before the screen starts (a theme file below WCAG contrast).
    public var warnings: [String] = []

    /// Whether `renderer` can read keys from a terminal: curses always (stdin or `/dev/tty`,
    /// checked when it starts); plain when stdin is a terminal, or with `--source -` (stdin is
    /// the video) when stdout is one and `/dev/tty` opens; null never.
    static func readsTerminalKeys(renderer: RendererChoice, stdinIsTTY: Bool, stdoutIsTTY: Bool, sourceIsStdin: Bool) -> Bool {
        switch renderer {
        case .curses: return true
        case .null: return false
        case .plain:
            if stdinIsTTY { return true }
            guard sourceIsStdin, stdoutIsTTY else { return false }
            let fd = open("/dev/tty", O_RDONLY | O_CLOEXEC)
            if fd >= 0 { close(fd); return true }
            return false
        }
    }

    /// `--challenge turn` (left, right, up in an order from a fresh random seed, recorded) or
    /// `--challenge FILE` (the verifier's JSON, `ChallengeFile`).
    /// - Throws: `AppError.inputMissing` (66) / `.unreadable` for a file that is not there or
    ///   cannot be read, `.badData` (65) for one that is not a challenge.
    static func challengePlan(_ arg: String) throws -> ChallengePlan {
        if arg == "turn" { return ChallengePlan.random(seed: UInt64.random(in: 0...UInt64.max)) }
        guard access(arg, F_OK) == 0 else { throw AppError.inputMissing(path: arg) }
        guard let data = FileManager.default.contents(atPath: arg) else {
            throw AppError.unreadable(path: arg, reason: String(cString: strerror(errno)))
        }
        do { return try ChallengeFile.parse(Array(data)) } catch ChallengeFileError.malformed(let why) {
            throw AppError.badData("\(arg): error: not a challenge file: \(why)")
        }
    }

    /// Default countdown when `--time-before-capture` does not say otherwise
    /// (`CaptureOptions.defaultTimeBeforeAutomaticCapture`, its one home).
    public static let defaultCountdownSeconds = CaptureOptions.defaultTimeBeforeAutomaticCapture

    /// Parses and validates the capture options.
    /// - Throws: `AppError` — usage (64) for a bad key script or `--events -` with curses, bad
    ///   data (65) for a malformed theme/layout, input missing (66) for a missing source file or
    ///   no camera, video encoder unavailable (78) with `--video-format mp4` (the encoder is
    ///   opened once here, so the failure comes before the screen starts); cannot create (73)
    ///   is checked later when the output folder is made.
    public static func make(_ a: ParsedArguments, environment env: [String: String], console: Console) throws -> CaptureSetup {
        // Flow configuration (names as in the seed SDKs).
        var session = SessionConfig()
        if let p = a.value("--preset"), let preset = AcquisitionPreset(rawValue: p) { session.preset = preset }
        if let d = a.value("--duration-ms"), let ms = Int(d) { session.recordingConfig.recordingDurationMs = ms }
        let qualities = a.value("--quality").map { $0.split(separator: ",").compactMap { VideoQuality(rawValue: String($0)) } }
        if let q = qualities { session.recordingConfig.qualities = q }
        session.uiConfig.showInstructions = !a.flag("--no-instructions")
        session.uiConfig.showVideoCaptureButton = !a.flag("--no-start-button")

        var options = CaptureOptions(timeBeforeAutomaticCapture: defaultCountdownSeconds)
        if let v = a.value("--frames-before-capture"), let n = Int(v) { options.numberOfFramesBeforeCapture = n }
        if let v = a.value("--frames-to-collect"), let n = Int(v) { options.numberOfFrameToCollect = n }
        if let v = a.value("--frame-interval"), let n = Int(v) { options.frameInterval = n }
        if let v = a.value("--time-before-capture"), let s = Double(v) { options.timeBeforeAutomaticCapture = s }
        var target: TargetResolution?
        if let v = a.value("--target-resolution"), let t = TargetResolution(rawValue: v) { options.targetResolution = t; target = t }
        if let v = a.value("--constraints"), let c = CaptureConstraints(rawValue: v) { options.captureConstraints = c }
        if let v = a.value("--preview"), let p = PreviewScaleType(rawValue: v) { options.previewScaleType = p }
        options.payloadOptimization = a.flag("--payload-optimization")

        var guidance = GuidanceConfig()
        guidance.mirror = !a.flag("--no-mirror")
        guidance.constraints = options.captureConstraints == .v2 ? .v2 : .v1

        // Renderer and input.
        let stdoutIsTTY = isatty(1) == 1
        let renderer = RendererChoice.resolve(requested: a.value("--renderer").flatMap(RendererChoice.init(rawValue:)),
                                              stdoutIsTTY: stdoutIsTTY, term: env["TERM"])
        if renderer != .null && a.value("--events") == "-" {
            // Both the curses screen and the plain renderer's text go to stdout; JSON lines mixed
            // with screen text would be unreadable for either.
            throw AppError.invalidValue(option: "--events", value: "-",
                                        expects: "a FILE while the \(renderer.rawValue) renderer writes to stdout (or --renderer null)")
        }
        if renderer == .curses && a.value("--announce") == "-" {
            throw AppError.invalidValue(option: "--announce", value: "-",
                                        expects: "a FILE or another terminal (e.g. /dev/pts/3) while curses draws on stdout (or --renderer plain)")
        }
        if renderer == .null && a.value("--announce") == "-" && a.value("--events") == "-" {
            throw AppError.invalidValue(option: "--announce", value: "-", expects: "a FILE while --events writes to stdout")
        }
        if renderer == .curses && !stdoutIsTTY {
            throw AppError.invalidValue(option: "--renderer", value: "curses", expects: "a terminal on stdout")
        }
        var keys: [KeyStep]?
        if let k = a.value("--keys") {
            do { keys = try KeyScript.parse(argument: k) } catch let e as KeyScriptError {
                throw AppError.invalidValue(option: "--keys", value: k, expects: "a key script (\(e.description))")
            }
        }
        // No terminal type is not consent (issue #18): whoever is at a terminal answers every
        // screen, with the plain renderer too (keys typed as lines). Only a run with no terminal
        // to read keys from, or `--unattended`, goes on by itself.
        let terminalKeys = Self.readsTerminalKeys(renderer: renderer, stdinIsTTY: isatty(0) == 1, stdoutIsTTY: stdoutIsTTY,
                                                 sourceIsStdin: a.value("--source") == "-")
        if renderer == .null, keys == nil, !a.flag("--unattended"), isatty(0) == 1 {
            throw AppError.invalidValue(option: "--renderer", value: "null",
                                        expects: "--unattended or --keys with it on a terminal: the null renderer shows no screen to answer, and nothing records without a key press there")
        }
        let unattended = a.flag("--unattended") || (keys == nil && !terminalKeys)
        let interactive = !unattended && (terminalKeys || renderer == .curses)
        var settings = FlowSettings(session: unattended ? session.unattended : session, options: options,
                                    cameraConsent: a.flag("--camera-consent") || unattended,
                                    interactive: interactive, unattended: unattended,
                                    maxAttempts: a.value("--max-attempts").flatMap { Int($0) },
                                    qualityPatienceMs: a.flag("--strict-quality") ? nil : FlowSettings.defaultQualityPatienceMs)

        // Look and texts.
        let theme: Theme
        do { theme = try ThemeLoader.load(ThemeChoice(argument: a.value("--theme") ?? "auto"), environment: env) } catch let e as ThemeError {
            if case .unreadable = e { throw AppError.inputProblem(a.value("--theme") ?? "") }
            throw AppError.badData("\(e)")
        }
        var layout = Layout()
        if let path = a.value("--layout") {
            var st = stat()
            guard access(path, R_OK) == 0, stat(path, &st) == 0, (st.st_mode & S_IFMT) != S_IFDIR else { throw AppError.inputProblem(path) }
            do { layout = Layout(overrides: try LayoutOverrides.load(path: path)) } catch {
                throw AppError.badData("\(error)")
            }
        }
        if a.flag("--guide-before-start") { layout.overrides.guideBeforeStart = true }
        settings.guideBeforeStart = layout.overrides.guideBeforeStart
        // One look at the environment, the executable's path and the resources for the run's
        // texts and the demo photo (each `.current()` built the environment's dictionary and
        // read /proc/self/exe again: issue #28, the first screen).
        let inputs = LocalizationInputs.current()
        let resources = ResourceLocator.locate(inputs: inputs)   // the tables, and the photo (stat only)
        let builtIn = try AppResources.requireStringTables(inputs: inputs, location: resources)
        let stringsLoad = LocalizerLoad { [locale = a.value("--locale"), directories = a.all("--strings")] in
            Localizer.standard(locale: locale, stringsDirectories: directories, builtInPath: builtIn, inputs: inputs)
        }
        for dir in a.all("--strings") where access(dir, R_OK) != 0 { throw AppError.inputProblem(dir) }

        // Source: the spec, or the first V4L2 camera.
        let spec: String
        if let s = a.value("--source") {
            spec = s
        } else if let cam = V4L2Devices.firstCaptureDevice() {
            spec = cam
        } else {
            throw AppError.noCamera
        }
        guard let kind = FrameSources.kind(of: spec) else { throw AppError.unsupportedSource(spec) }
        if kind == .avi || kind == .mjpegStream || kind == .y4m, spec != "-", access(spec, R_OK) != 0 {
            throw AppError.inputProblem(spec)
        }
        // The demo's photo is found before the screen starts (a camera path: `checkCameraPath`).
        if kind == .demo { _ = try AppResources.requireDemoPhoto(inputs: inputs, location: resources) }
        if spec == "-", a.flag("--loop") {
            // A pipe cannot be read twice; saying so beats "ended … (use --loop)" at its end.
            throw AppError.invalidValue(option: "--loop", value: "--source -",
                                        expects: "a file source (.avi, .mjpeg, .y4m) or demo: standard input cannot be replayed")
        }
        let pace = a.value("--pace").flatMap(PaceMode.init(rawValue:))
            ?? PaceMode.defaultMode(for: kind, interactive: interactive || renderer == .curses)
        let timeoutMs = a.value("--timeout").flatMap(Double.init).map { Int(($0 * 1000).rounded()) }
        let videoFormat = a.value("--video-format").flatMap(VideoFormat.init(rawValue:)) ?? OutputSetup.defaultVideoFormat
        settings.videoContainer = videoFormat.container
        settings.videoCodec = videoFormat.codec
        if videoFormat == .mp4 {
            do { try MP4Writer.checkEncoder() } catch {
                throw AppError.media(error) ?? .encoderUnavailable(encoder: MP4Writer.defaultEncoder, reason: "\(error)")
            }
        }

        var screen = ScreenSetup(renderer: renderer, theme: theme, layout: layout)
        screen.terminalKeys = terminalKeys && !unattended
        screen.debugOverlay = a.flag("--debug-overlay")
        screen.themeChoice = ThemeChoice(argument: a.value("--theme") ?? "auto")
        if let v = a.value("--preview-fps"), let n = Int(v) { screen.previewFps = n }
        if let v = a.value("--preview-mode"), let m = PreviewModeChoice(rawValue: v) { screen.previewMode = m }
        switch a.value("--colors") {
        case "16"?: screen.colors = .ansi16
        case "256"?: screen.colors = .palette256
        case "truecolor"?: screen.colors = .direct
        default: break
        }
        var output = OutputSetup(requested: a.value("--output"), eventsPath: a.value("--events"),
                                 analysisLogPath: a.value("--analysis-log"), videoFormat: videoFormat)
        output.keepFailed = a.flag("--keep-failed")
        var setup = CaptureSetup(settings: settings, guidance: guidance,
                                 source: SourceSetup(spec: spec, kind: kind, pace: pace, loop: a.flag("--loop"), targetResolution: target),
                                 screen: screen, output: output, stringsLoad: stringsLoad, keys: keys, timeoutMs: timeoutMs,
                                 unattended: unattended, environment: env, console: console)
        setup.accessibility = AccessibilitySetup(announcePath: a.value("--announce"), sound: a.flag("--sound"),
                                                 speak: a.flag("--speak"), reducedMotion: a.flag("--reduced-motion"))
        // A process feeding `--source -` whose stderr is the terminal drawn on (issue #29).
        if spec == "-", renderer != .null, isatty(1) == 1, let w = PipeFeeder.warning(terminal: PipeFeeder.terminalPath()) {
            setup.warnings.append(w)
            if renderer == .curses { console.err("selfie-capture: warning: \(w)\n") }   // before the screen hides it
        }
        if let c = a.value("--challenge") { setup.settings.challenge = try Self.challengePlan(c) }
        if let key = a.value("--sign-key") {
            try ManifestSigner.check(key: key)   // before anyone is filmed: missing key 66, refused 77, no ssh-keygen 69
            setup.output.signKey = key
        }
        setup.builtInStrings = builtIn
        if case .file(let path) = ThemeChoice(argument: a.value("--theme") ?? "auto") {
            setup.warnings += ThemeLoader.contrastWarnings(theme, file: path)
        }
        return setup
    }
}

extension CaptureSetup {
    /// The string files and texts of the override layers that `strings` refused, told from the
    /// built-in folder the setup found (`builtInStrings`; else looked for again).
    var rejectedStrings: RejectedStrings {
        builtInStrings.map { RejectedStrings(diagnostics: strings.diagnostics, builtIn: $0) } ?? RejectedStrings(strings: strings)
    }

    /// A camera path that is not there is said before the screen starts ("no camera at …",
    /// 66), not as a camera that stopped working. Skipped when `cameraSystem` (a test's fake
    /// device) stands in for the kernel.
    /// - Throws: `AppError.cameraMissing`.
    public func checkCameraPath() throws {
        guard source.kind == .camera, source.cameraSystem == nil else { return }
        if access(source.spec, F_OK) != 0, errno == ENOENT { throw AppError.cameraMissing(path: source.spec) }
    }
}

extension SessionConfig {
    /// The same session with the screens that need a person removed (instructions, Start button).
    var unattended: SessionConfig {
        var s = self
        s.uiConfig.showInstructions = false
        s.uiConfig.showVideoCaptureButton = false
        return s
    }
}
