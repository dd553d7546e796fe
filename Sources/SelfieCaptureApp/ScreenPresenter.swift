import Camera
import CaptureFlow
import CaptureModel
import Foundation
import JSON
import Localization
import Media
import TerminalUI

#if canImport(Glibc)
import Glibc
#endif

/// When a screen is drawn: other screens when they change, the capture screen at most
/// `--preview-fps` times a second of the run's clock, on average (each draw makes the next one
/// due an interval after the last due time, 4 ms of slack for the clock's jitter; after a
/// pause, half an interval after now), so a 15 fps source is drawn at 15 fps, not every other
/// frame. A draw that cost real time pushes the next one back (`drew`). Pure: time comes in.
struct DrawPacer: Equatable {
    /// Something changed since the last draw.
    private(set) var needsRedraw = true
    /// When the next capture screen may be drawn (run clock ms).
    private(set) var nextDueMs = Int.min / 2
    /// ms between two capture screens (1000 / `--preview-fps`).
    let intervalMs: Int

    init(fps: Int) { intervalMs = 1000 / max(1, fps) }

    /// The screen changed: draw it when due.
    mutating func markChanged() { needsRedraw = true }

    /// The screen is drawn from scratch next (after a suspension): due now.
    mutating func restart() {
        needsRedraw = true
        nextDueMs = Int.min / 2
    }

    /// Whether to draw now (`capture`: the capture screen, paced); a yes is the draw.
    mutating func shouldDraw(nowMs now: Int, capture: Bool) -> Bool {
        guard needsRedraw else { return false }
        if capture {
            guard now >= nextDueMs - 4 else { return false }
            nextDueMs = max(nextDueMs + intervalMs, now + intervalMs / 2)
        }
        needsRedraw = false
        return true
    }

    /// The preview never takes more than about 40 % of the loop (issue #13: no mode delays a
    /// recorded frame): after a capture screen that took `costMs` of real time to render and
    /// send, the next waits at least 1.5 × cost (libchafa symbols at 200×60 take ~75 ms).
    mutating func drew(costMs: Int, nowMs now: Int) {
        if costMs > 10 { nextDueMs = max(nextDueMs, now + costMs * 3 / 2) }
    }
}

/// The status line's meters (key `i`, `--debug-overlay`): frames read, previews the terminal
/// got and bytes written per second over `RateMeter`'s window of the run's clock, and the
/// camera-to-screen latency (`PreviewLatency`, realtime only).
struct StatusMeters {
    var source = RateMeter()
    var draws = RateMeter()
    var bytes = RateMeter()
    /// The backend's byte count after the last draw.
    var lastBytes: UInt64?
    var latency = PreviewLatency()
    /// Capture screens drawn.
    var captureDraws = 0
}

/// What the runtime tells the presenter about the run for one draw.
struct SceneFacts {
    var nowMs: Int
    /// The loading screen counts from here (the models, else the source opening; nil: nothing to count).
    var loadingSinceMs: Int?
    var modelLoadMs: Int?
    /// The permission screen says the source is still opening from here (nil: not opening).
    var openingSinceMs: Int?
    /// "Waiting for the camera… (N s)" on the capture screen.
    var sourceWaitSeconds: Int?
    /// The last frame read (the status line's size; the result's thumbnail when no still).
    var lastFrame: VideoFrame?

    /// Now, as the source and the analysis know it: the loading screen counts the models'
    /// load, then the source's opening; the permission screen counts the opening.
    init(source: SourceSession, analysis: AnalysisPipeline) {
        let opening = source.reader != nil && !source.opened ? source.openStartMs : nil
        nowMs = source.pacing.clock.nowMs()
        loadingSinceMs = analysis.loadMs == nil ? analysis.loadStartMs : opening
        modelLoadMs = analysis.loadMs
        openingSinceMs = opening
        sourceWaitSeconds = source.waitShownSeconds
        lastFrame = source.lastFrame
    }
}

/// What the waiting screens last showed: the loading screen's tenth of a second, and the
/// seconds the permission screen said the source has been opening.
struct WaitingShown {
    var loadingTick = -1
    var openingSeconds: Int?
}

/// The start-up terminal probe of a curses run (`ScreenPresenter.probeTerminal`): the descriptor
/// keys are read from (or why there is none), the keys typed during the probe and whether it ran
/// (nil until `probeTerminal` ran), and what the terminal answered.
struct StartupProbe {
    var found: (keysFD: Result<Int32, AppError>, keys: [UInt8], ran: Bool)?
    var answer = TerminalProbeResult.none
}

/// libchafa's load on first use (issue #28): tried once; the curses backend that places pixel
/// pictures (a pixel mode only), whose placer stops when the library is missing; what it said.
struct PictureLibraryLoad {
    var checked = false
    var pixelBackend: CursesBackend?
    var warnings: [String] = []
}

/// The terminal side of the run, and the only owner of it: the backend (chosen and started in
/// `start`, with the start-up probe), the theme, the preview mode and cell geometry, when to
/// draw (`DrawPacer`), the preview's pixels, the status line and its meters, the `?` keys help,
/// and the screens' notice line. It gets the backend's abilities through `TerminalBackend`
/// (`showsScreens`, `lastDrawSkippedPreview`), never by asking its type.
final class ScreenPresenter {
    let setup: CaptureSetup
    let pacing: any Pacing
    private(set) var backend: TerminalBackend = NullBackend()
    /// The start-up probe: what it found (`probeTerminal`), and what the terminal answered.
    private var probe = StartupProbe()
    /// What the terminal answered to the start-up probe (`.none` when not probed).
    var terminalProbe: TerminalProbeResult { probe.answer }
    /// The theme drawn: `setup.screen.theme`, or for `--theme auto` the one the probe's OSC 11
    /// background calls for (`themeAfterProbe`).
    private(set) var theme: Theme
    /// The preview mode in use (`--preview-mode` resolved) and the cell size in pixels.
    private(set) var previewMode = PreviewMode.halfBlocks
    private(set) var cellGeometry = CellGeometry.fallback
    private(set) var pacer: DrawPacer
    private(set) var meters = StatusMeters()
    /// The status line shows (key `i`, `--debug-overlay`); the `?` keys help shows.
    private(set) var statusVisible = false
    private(set) var keysHelpVisible = false
    /// The preview drawn with the capture time (CLOCK_MONOTONIC µs, realtime only: issue #16)
    /// of the frame it shows, and the newest frame not yet decoded for it.
    private var preview: (image: PreviewImage, captureMicros: Int?)?
    private var previewFrame: VideoFrame?
    /// The result screen's thumbnail and the index of the frame it shows.
    private var thumbnail: (frameIndex: Int, image: PreviewImage)?
    /// The loading screen's tenth of a second last drawn, and the seconds the permission
    /// screen last said the source has been opening.
    private var waiting = WaitingShown()
    /// The screens' line about string files the capture cannot use (`RejectedStrings`), or a
    /// width warning.
    var notice: String?
    /// Capture screens drawn so far (`--preview-fps` caps them).
    var captureDraws: Int { meters.captureDraws }

    init(setup: CaptureSetup, pacing: any Pacing) {
        self.setup = setup
        self.pacing = pacing
        theme = setup.screen.theme
        pacer = DrawPacer(fps: setup.screen.previewFps)
        statusVisible = setup.screen.debugOverlay
    }

    func markChanged() { pacer.markChanged() }

    // MARK: the backend

    /// Starts the backend the setup asks for: null, plain (keys as lines when a person
    /// answers), or curses after the start-up terminal probe (issue #13).
    /// - Returns: warnings to print once the screen is restored.
    /// - Throws: `AppError` when no terminal can be read or curses cannot start.
    func start() throws -> [String] {
        switch setup.screen.renderer {
        case .null:
            backend = NullBackend()
        case .plain:
            let console = setup.console, glyphs = PlainBackend.localeGlyphs()
            guard setup.screen.terminalKeys else { backend = PlainBackend(glyphs: glyphs) { console.screen($0) }; return [] }
            // Keys typed as lines on the terminal (stdin, or /dev/tty when stdin is the video).
            var keysFD: Int32 = STDIN_FILENO
            if isatty(STDIN_FILENO) == 0 {
                keysFD = open("/dev/tty", O_RDONLY | O_CLOEXEC)
                guard keysFD >= 0 else {
                    throw AppError.cameraUnavailable("cannot read keys: standard input is not a terminal and /dev/tty cannot be opened (\(String(cString: strerror(errno)))); use --unattended or --keys")
                }
            }
            let intro = setup.strings.text("selfie_capture_plain_keys")
            // Screens sent to a file or pipe: the person at the terminal still learns that the
            // run waits for their keys.
            if isatty(STDOUT_FILENO) == 0 { console.err("\(ErrorReport.program): " + intro + "\n") }
            backend = LinePlainBackend(inputFD: keysFD, intro: intro, glyphs: glyphs) { console.screen($0) }
        case .curses:
            return try startCurses()
        }
        return []
    }

    /// The start-up terminal probe (issue #13), for the curses renderer only, before curses owns
    /// the screen and only on a real terminal: the queries are written, `whileWaiting` runs (the
    /// runtime parses the string tables there, while the terminal answers: issue #28), then the
    /// replies are read and the terminal's modes restored. Nothing of it shows; keys typed
    /// meanwhile go to the backend's input. A descriptor that cannot be opened for keys is said by
    /// `start`, which probes itself when this has not run. `whileWaiting` runs at most once, and
    /// not at all when there is nothing to probe.
    func probeTerminal(whileWaiting: (() -> Void)? = nil) {
        guard setup.screen.renderer == .curses, probe.found == nil else { return }
        // With `--source -` stdin is the video pipe: curses reads its keys from the
        // controlling terminal instead (issue #14; what `less` and `vipe` do).
        var keysFD: Int32 = STDIN_FILENO
        if isatty(STDIN_FILENO) == 0 {
            let tty = open("/dev/tty", O_RDWR | O_CLOEXEC)
            guard tty >= 0 else {
                probe.found = (.failure(AppError.cameraUnavailable("cannot read keys: standard input is not a terminal and /dev/tty cannot be opened (\(String(cString: strerror(errno)))); use --renderer plain or null")), [], false)
                return
            }
            keysFD = tty
        }
        var keys: [UInt8] = []
        var ran = false
        if isatty(STDOUT_FILENO) == 1, TerminalProbe.shouldProbe(environment: setup.environment) {
            (probe.answer, keys) = TTYProbeChannel.probe(outputFD: STDOUT_FILENO, inputFD: keysFD, whileWaiting: whileWaiting)
            ran = true
        }
        probe.found = (.success(keysFD), keys, ran)
    }

    private func startCurses() throws -> [String] {
        probeTerminal()
        guard let found = probe.found else { return [] }
        let keysFD = try found.keysFD.get()
        let probeKeys = found.keys, probed = found.ran
        var warnings: [String] = []
        do {
            let curses = try CursesBackend(inputFD: keysFD, environment: setup.environment, colors: setup.screen.colors)
            curses.takeProbeInput(probeKeys, deadlineExpired: probed && terminalProbe.da1Attributes == nil)
            theme = Self.themeAfterProbe(setup, probe: terminalProbe)
            backend = curses
            // The start-up width check (TUI-02, TUI-03): one line on the first screens and on stderr.
            if let w = curses.widthWarning {
                warnings.append(w)
                if notice == nil { notice = "warning: " + w }
            }
            previewMode = setup.screen.previewMode.resolve(probe: terminalProbe, environment: setup.environment,
                                                    colorMode: setup.screen.theme.noColor ? .none : curses.colorMode, glyphs: curses.glyphs)
            updateCellGeometry()
            if previewMode.isPixels {
                pictureLibrary.pixelBackend = curses
                curses.picturePlacer = PicturePlacer(mode: previewMode, fd: STDOUT_FILENO,
                                                     tmux: TerminalProbe.insideTmux(terminalProbe, environment: setup.environment),
                                                     environment: setup.environment,
                                                     kittyConfirmed: terminalProbe.kittyGraphics == true,
                                                     ackWithDA1: terminalProbe.da1Attributes != nil)
            }
        } catch {
            throw AppError.cameraUnavailable("cannot start the terminal screen (TERM=\(setup.environment["TERM"] ?? "")): \(error); try --renderer plain")
        }
        return warnings
    }

    /// The theme for the terminal's real background (issue #17): with `--theme auto` (or a theme
    /// file based on auto) and an OSC 11 answer from the start-up probe, light or dark by that
    /// colour's luminance (`BackgroundGuess.decide`: the OSC 11 colour first, then COLORFGBG);
    /// otherwise the theme `CaptureSetup` loaded (COLORFGBG, else dark, which paints its own
    /// background).
    static func themeAfterProbe(_ setup: CaptureSetup, probe: TerminalProbeResult) -> Theme {
        guard let c = probe.backgroundRGB else { return setup.screen.theme }
        let rgb = RGB(UInt8(clamping: c.r), UInt8(clamping: c.g), UInt8(clamping: c.b))
        return (try? ThemeLoader.load(setup.screen.themeChoice, environment: setup.environment, backgroundRGB: rgb)) ?? setup.screen.theme
    }

    /// The cell size from TIOCGWINSZ's pixel fields, else the probe's CSI 16/14 t replies,
    /// else 2:1 (IMG-03). Called at start, on each resize (a font change resizes too) and after a suspension.
    func updateCellGeometry() {
        guard setup.screen.renderer == .curses else { return }
        var ws = winsize()
        let px = ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &ws) == 0 ? (Int(ws.ws_xpixel), Int(ws.ws_ypixel)) : nil
        cellGeometry = CellGeometry.from(winsizePixels: px, cols: backend.size.cols, rows: backend.size.rows, probe: terminalProbe)
    }

    /// The window is below `Screens.minimumSize` (the flow pauses).
    var windowTooSmall: Bool {
        backend.size.cols < Screens.minimumSize.cols || backend.size.rows < Screens.minimumSize.rows
    }

    /// The window changed size: new cells, drawn again.
    func resized() {
        updateCellGeometry()
        pacer.markChanged()
    }

    /// Ctrl-Z: the backend leaves the screen, the process stops until `fg`, and the screen is
    /// drawn again from scratch.
    func suspend() {
        backend.suspend()
        pacer.restart()
        updateCellGeometry()
    }

    /// Ends the backend (the terminal restored) and returns the run's warnings about the
    /// terminal side (a picture library that could not be loaded), for stderr.
    @discardableResult
    func end() -> [String] { backend.end(); return pictureLibrary.warnings }

    /// Waits up to `ms` for a key on the backend's input (sleeps when it reads none).
    func waitForKey(ms: Int) {
        guard let fd = backend.inputFD else { usleep(useconds_t(ms * 1000)); return }
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        _ = poll(&p, 1, Int32(ms))
    }

    // MARK: keys the presenter answers

    /// `i` (typed or scripted) shows or hides the status line; the machine ignores the key.
    func toggleStatusLine() {
        statusVisible.toggle()
        pacer.markChanged()
    }

    /// `?` opens the keys help; while it shows, the flow pauses (`Event.keysHelpShown`) and any
    /// key closes it and does nothing else, except Ctrl-C, which still quits. Keys are not
    /// consumed on a window too small (only q, Ctrl-C and a resize act there).
    /// - Returns: whether the key was consumed, and the event the machine hears (open or closed).
    func keysHelp(_ k: Key, windowTooSmall: Bool) -> (consumed: Bool, event: Event?) {
        if keysHelpVisible {
            keysHelpVisible = false
            pacer.markChanged()
            return (k != .interrupt, .keysHelpShown(false))
        }
        guard k == .character("?"), !windowTooSmall else { return (false, nil) }
        keysHelpVisible = true
        pacer.markChanged()
        return (true, .keysHelpShown(true))   // the flow pauses behind it (a take in progress is dropped)
    }

    // MARK: frames

    /// A frame was read on the capture screen (the status line's rate).
    func frameRead(atMs now: Int) { meters.source.add(atMs: now) }

    /// The newest frame to preview. Its RGB is decoded when a screen is drawn (`draw`), from the
    /// newest frame then: frames between two draws (--preview-fps) are never decoded for it, and
    /// a backend that shows nothing decodes none (issue #16).
    func show(_ frame: VideoFrame) {
        previewFrame = frame
        pacer.markChanged()
    }

    /// The source closed: no preview.
    func forgetPreview() {
        preview = nil
        previewFrame = nil
    }

    /// result.json's `previewLatency`.
    func latencyJSON() -> JSONValue? {
        meters.latency.json(from: setup.source.kind == .camera ? "v4l2Buffer" : "pacedFile")
    }

    // MARK: drawing

    /// Draws the machine's screen when it changed (the capture screen paced by `DrawPacer`).
    func draw(_ machine: CaptureStateMachine, facts: SceneFacts, recording: RecordingSession) {
        let now = facts.nowMs
        // While the model loads, the loading screen's time counts up in tenths of a second.
        // So does the camera's opening (a pipe whose header is late, a slow driver): the reader
        // opens it on its own thread, so this screen keeps counting (issue #14).
        // The permission screen, once permission is asked, is where the camera opens: a source
        // that takes long (a pipe whose header is late) is said there too, counting seconds.
        let openingWait = machine.screen == .cameraPermission
            ? facts.openingSinceMs.map { (now - $0) / 1000 }.flatMap { $0 >= SourceSession.waitNoticeMs / 1000 ? $0 : nil } : nil
        if openingWait != waiting.openingSeconds { waiting.openingSeconds = openingWait; pacer.markChanged() }
        if machine.screen == .loading, let start = facts.loadingSinceMs, (now - start) / 100 != waiting.loadingTick {
            waiting.loadingTick = (now - start) / 100
            pacer.markChanged()
        }
        let capture = machine.screen == .capture
        guard pacer.shouldDraw(nowMs: now, capture: capture) else { return }
        if capture || machine.screen == .result { loadPictureLibrary() }
        if let frame = previewFrame, capture, backend.showsScreens {
            // The preview is at most cols × 2·rows pixels: decode RGB only as large as that
            // needs (1/8 of 640×480 on an 80×24 terminal).
            let need = previewMode.sourcePixels(screen: backend.size, cell: cellGeometry)
            let shown = frame.rgb(covering: need.width, need.height)
            preview = (PreviewImage(width: shown.width, height: shown.height, rgb: shown.pixels), pacing.realCaptureMicros(of: frame))
            previewFrame = nil
        }
        var loading = LoadingViewState(stage: machine.loadingStage, elapsedMs: facts.loadingSinceMs.map { now - $0 },
                                       modelLoadMs: facts.modelLoadMs)
        let isCamera = setup.source.kind == .camera
        if !isCamera, loading.stage == .camera { loading.message = setup.strings.text("selfie_capture_loading_video") }
        var view = ScreenView.from(machine.view, image: preview?.image, mirrored: setup.guidance.mirror, faceOval: setup.guidance.oval,
                                   loading: loading, result: resultView(recording, lastFrame: facts.lastFrame))
        if case .capture(var state) = view {
            state.sourceWaitSeconds = facts.sourceWaitSeconds
            state.sourceIsCamera = isCamera
            view = .capture(state)
        }
        if case .failed(var state) = view {
            state.sourceIsCamera = isCamera
            view = .failed(state)
        }
        var context = RenderContext(backend: backend, strings: setup.strings, theme: theme, layout: setup.screen.layout)
        context.canGoBack = machine.backGoesSomewhere
        context.reducedMotion = setup.accessibility.reducedMotion
        context.keysAnswer = setup.settings.interactive
        // Every mode draws for the measured cells, half blocks included (issue #27, IMG-03).
        context.cellGeometry = cellGeometry
        if previewMode != .halfBlocks {
            context.previewMode = previewMode
            if previewMode == .symbols { context.symbolRenderer = ChafaPreview.symbols }
        }
        if statusVisible, capture { context.statusLine = statusInfo(colorMode: context.colorMode, lastFrame: facts.lastFrame) }
        context.notice = waiting.openingSeconds.map { setup.strings.text(isCamera ? "selfie_capture_waiting_source" : "selfie_capture_waiting_video", [.int($0)]) } ?? notice
        let drawStart = SystemClock.monotonicNowMs()
        let screen = keysHelpVisible ? KeysHelp.render(screen: machine.screen, context: context) : Screens.render(view, context: context)
        backend.draw(screen)
        if capture { pacer.drew(costMs: pacing.realCostMs(sinceMonotonicMs: drawStart), nowMs: now) }
        // The backend did not show this draw in full (a pixel picture still being written, or
        // the terminal not drained): it is owed. A waiting screen (the result screen after a
        // kitty or sixel capture) has nothing else that would redraw it, and stayed on the
        // capture's last picture until a key (a new-user trial, 2026-12-02).
        if backend.lastDrawSkippedPreview { pacer.markChanged() }
        let bytes = backend.bytesWritten
        if capture, let c = preview?.captureMicros {
            // The frame's preview is on the terminal now (the backend's write returned).
            meters.latency.add(captureMicros: c, writtenMicros: SourceReader.monotonicMicros())
        }
        if capture {
            meters.captureDraws += 1
            // Preview fps counts the frames the terminal got (a pixel mode skips frames while
            // the terminal drains the previous picture).
            if !backend.lastDrawSkippedPreview { meters.draws.add(atMs: now) }
            if let b = bytes { meters.bytes.add(Double(b &- (meters.lastBytes ?? b)), atMs: now) }
        }
        meters.lastBytes = bytes
    }

    /// libchafa, loaded when the first screen with a picture (capture, result) is drawn in a
    /// mode that needs it (symbols, sixel, iTerm2; issue #28: the earlier screens never do).
    /// Without it the preview falls back to half blocks, and the screens' notice line and
    /// stderr (`warnings`) name the library (`ChafaLibraryError`).
    private var pictureLibrary = PictureLibraryLoad()
    private func loadPictureLibrary() {
        guard !pictureLibrary.checked else { return }
        pictureLibrary.checked = true
        guard previewMode == .symbols || previewMode == .sixel || previewMode == .iterm else { return }
        do {
            try ChafaLibrary.load()
        } catch {
            let line = "\(error)"
            pictureLibrary.warnings.append(line)
            notice = "warning: " + line
            if previewMode.isPixels { pictureLibrary.pixelBackend?.picturePlacer = nil }
            previewMode = .halfBlocks
            updateCellGeometry()
        }
    }

    /// The status line's figures: the source (a file by its name) and its kind, the last frame's
    /// size, the frames read per second and the screens drawn per second (both over
    /// `RateMeter`'s window of the run's clock), the colour mode, the bytes per second curses
    /// wrote, and the camera-to-screen latency p50...p95 (issue #16).
    func statusInfo(colorMode: ColorMode, lastFrame: VideoFrame?) -> StatusLineInfo {
        var info = StatusLineInfo(source: setup.source.kind == .camera || setup.source.spec == "-" ? setup.source.spec
                           : (setup.source.spec as NSString).lastPathComponent, kind: FrameSources.recordKind(setup.source.kind, spec: setup.source.spec).rawValue,
                       width: lastFrame?.width ?? 0, height: lastFrame?.height ?? 0, fps: meters.source.perSecond,
                       colorMode: colorMode, previewMode: previewMode, previewFps: meters.draws.perSecond,
                       bytesPerSecond: backend.bytesWritten == nil ? nil : meters.bytes.perSecond)
        info.latencyMs = meters.latency.statusRange
        return info
    }

    /// The result screen: every file the folder holds and the thumbnail of the reference frame
    /// (else the middle still, else the last frame), a third of the screen at most.
    func resultView(_ recording: RecordingSession, lastFrame: VideoFrame?) -> ResultViewState? {
        guard let s = recording.summary, let folder = recording.folder, let paths = recording.savedPaths else { return nil }
        if let still = recording.thumbnailFrame(fallback: lastFrame), thumbnail?.frameIndex != still.index {
            let px = previewMode.sourcePixels(screen: Size(cols: max(1, backend.size.cols / 3), rows: backend.size.rows), cell: cellGeometry)
            let img = still.rgb(covering: max(1, px.width), max(1, px.height))
            thumbnail = (still.index, PreviewImage(width: img.width, height: img.height, rgb: img.pixels))
        }
        var view = ResultViewState(savedPaths: paths, durationSeconds: Double(s.durationMs) / 1000,
                                   frameCount: s.frameCount, collectedCount: recording.collector?.collected.count ?? 0,
                                   askedCount: setup.settings.options.numberOfFrameToCollect, folder: folder.path,
                                   thumbnail: thumbnail?.image)
        view.mirrored = setup.guidance.mirror
        return view
    }
}
