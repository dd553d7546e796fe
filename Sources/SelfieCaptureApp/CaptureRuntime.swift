import Camera
import CaptureFlow
import Evidence
import FaceAnalysis
import Foundation
import Localization
import Media
import Synchronization
import TerminalUI

#if canImport(Glibc)
import Glibc
#endif

/// The runtime loop of DESIGN.md: it owns all I/O. Each turn it reads keys (terminal and
/// `--keys` script), reads a frame from the source, analyses and judges it, feeds the state
/// machine, carries out the machine's effects (recording, frame collection, events, result), and
/// draws. Time comes from a `MediaClock`: the system clock with `--pace realtime`, a virtual
/// clock driven by frame timestamps with `--pace fast` (so headless runs are deterministic).
///
/// Recording: while the machine is in its recording phase every frame read from the source goes
/// into the video (not only analysed ones), so a realtime capture whose analysis drops stale
/// frames still records at the source's frame rate. Collected stills follow the machine's
/// `collectFrame` decisions (CaptureOptions rule, one place).
///
/// Nothing is left half-written: the video is written under a temporary name and renamed on
/// success; on cancel, failure or timeout it is removed with any collected frames, and an output
/// folder this run created is removed when it is left empty. Try again (`discardAttempt`)
/// removes the same files of the failed attempt and keeps the source open.
///
/// `--timeout` is per attempt: the loop compares the clock with the machine's
/// `timeoutStartMs`, which the machine restarts at Try again.
public final class CaptureRuntime {
    let setup: CaptureSetup
    var driver: FlowDriver
    var machine: CaptureStateMachine { driver.machine }
    let clock: MediaClock
    let fastClock: ManualClock?
    var backend: TerminalBackend = NullBackend()
    /// What the terminal answered to the start-up probe (`.none` when not probed).
    var terminalProbe = TerminalProbeResult.none
    /// The theme drawn: `setup.theme`, or for `--theme auto` the one the probe's OSC 11
    /// background calls for (`themeAfterProbe`).
    lazy var theme: Theme = setup.theme
    /// The preview mode in use (`--preview-mode` resolved) and the cell size in pixels.
    var previewMode = PreviewMode.halfBlocks
    var cellGeometry = CellGeometry.fallback
    var folder: OutputFolder?
    var folderCreated = false

    // Analysis.
    var analyzer: FaceAnalyzer?
    var worker: AsyncFaceAnalyzer?
    var guidance: Guidance
    let modelState = ModelLoadState()
    /// The machine asked for the models (`loadModel`); the loader starts after the first draw.
    var modelLoaderPending = false
    var modelAnnounced = false

    // Source.
    /// The source, read on its own thread (`SourceReader`), and what it reported on opening.
    var reader: SourceReader?
    var sourceInfo: SourceInfo?
    var readerOpened = false
    /// When the reader was asked to open the source (run clock ms), for the loading screen.
    var sourceOpenStartMs: Int?
    var openingAfterPermission = false
    /// Real time (monotonic ms) since the reader last had nothing for a `--pace fast` loop.
    var readerIdleSinceMs: Int?
    /// Up to when (monotonic ms) a real stall has been added to the virtual clock.
    var readerIdleAdvancedMs: Int?
    /// When the open source went silent (run clock ms), and the whole seconds shown for it on
    /// the capture screen ("waiting for the camera", from `sourceWaitNoticeMs`).
    var sourceWaitingSinceMs: Int?
    var sourceWaitShownSeconds: Int?
    /// Whole seconds the source has been opening, shown on the permission screen from 1 s.
    var openingWaitShown: Int?
    /// The source's warnings, printed on stderr once the screen is restored.
    var sourceWarnings: [String] = []
    /// The source's `loops` count already reported to the machine (`sourceLooped`).
    var sourceLoopsSeen = 0
    var sourceBaseMs = 0
    var firstFrameTs: Int?
    var lastFrame: VideoFrame?
    var recentFrames: [VideoFrame] = []
    /// `--keep-failed` (issue #25, `CaptureRuntime+KeepFailed.swift`): the running attempt's
    /// explaining frames, and those of the attempts that failed.
    var failureFrames = FailureFrames<VideoFrame>()
    var failedAttempts: [FailedAttempt] = []
    var attemptEvents: [FlowEvent] = []
    /// Stills the machine asked for (`collectFrame`) that name a frame not in the video: in
    /// realtime an analysis can arrive after the recording started for a frame read before it.
    /// The next frames that go into the video stand in, so every still belongs to the video.
    var pendingCollects = 0
    /// The index of the last frame offered as a still (one still per frame).
    var lastCollectedIndex: Int?
    var lastAnalysis: FrameAnalysis?
    /// Frames analysed over the run, and the source's counts after its last read.
    var analysedFrames = 0
    /// The last hint other than "Hold still" the capture screen showed (named in the final
    /// message of a run that timed out).
    var lastShownHint: Hint?
    var sourceStats: SourceStats?
    var frameCountsReported = false
    var preview: PreviewImage?
    /// The capture time (CLOCK_MONOTONIC µs) of the frame in `preview`, and the latencies of
    /// the previews written so far (realtime only: issue #16).
    var previewCaptureMicros: Int?
    var latency = PreviewLatency()
    /// The newest frame not yet decoded for the preview.
    var previewFrame: VideoFrame?
    /// When the landmark model started loading and how long it took (ms, the run's clock /
    /// the loader's), for the loading screen.
    var modelLoadStartMs: Int?
    var modelLoadMs: Int?
    var loadingTick = -1

    // Recording.
    var writer: (any VideoWriter)?
    var collector: FrameCollector?
    var recorded: [RecordedFrame] = []
    var summary: VideoSummary?
    /// The best recorded frame so far for `reference.jpg` (`ReferenceCandidate` ranking), with
    /// its pixels; and the recorded frames whose analysis has not arrived yet (realtime), kept
    /// until it does or a newer frame's analysis shows it never will.
    var reference: (candidate: ReferenceCandidate, frame: VideoFrame)?
    var unanalysedFrames: [Int: VideoFrame] = [:]

    // Evidence (manifest.json).
    /// When the run started, on the wall clock (`CaptureSetup.wallClock`).
    var startedAt = Date()
    /// The source as the manifest describes it, kept when the source closes.
    var sourceRecord: SourceRecord?

    // Logs and script.
    var eventLog: EventLog?
    var analysisLog: LineSink?
    /// `--announce`, `--sound`, `--speak` (nil when none is asked for).
    var a11y: AccessibilityOutputs?
    /// /dev/tty for `--sound` without curses (-1: none).
    var bellFD: Int32 = -1
    /// The screens' line about string files the capture cannot use (`RejectedStrings`), if any.
    var stringsNotice: String?

    // Ending.
    var exitCode: ExitCode?
    /// A specific error that decides the exit code and message (else the machine's exit).
    var failure: AppError?
    var needsRedraw = true
    /// Frames read from the source so far (all attempts).
    var sourceFramesRead = 0
    /// Capture screens drawn so far (`--preview-fps` caps them).
    var captureDraws = 0
    /// When the next capture screen may be drawn (ms, the run's clock; `--preview-fps`).
    var nextDrawDueMs = Int.min / 2

    // Status line (key i, --debug-overlay).
    var statusVisible = false
    /// The `?` keys help is shown (TerminalControl.swift).
    var keysHelpVisible = false
    /// True while `playScriptKeys` runs (it is not re-entered from the keys it presses).
    var playingScript = false
    var sourceRate = RateMeter()
    var drawRate = RateMeter()
    var byteRate = RateMeter()
    /// Frames saved as stills in this attempt, in order (the result screen's thumbnail).
    var stills: [VideoFrame] = []
    var thumbnail: PreviewImage?

    /// One recorded frame's measurements, for result.json.
    struct RecordedFrame {
        var index: Int
        var timestampMs: Int
        var analysis: FrameAnalysis?
    }

    public init(setup: CaptureSetup) {
        self.setup = setup
        driver = FlowDriver(machine: CaptureStateMachine(settings: setup.settings))
        guidance = Guidance(config: setup.guidance)
        if setup.pace == .fast {
            let c = ManualClock(startMs: 0)
            fastClock = c
            clock = c
        } else {
            fastClock = nil
            clock = SystemClock(startingAtZero: true)   // event t_ms from the run's start, as with --pace fast
        }
    }

    /// Runs the capture to its end.
    /// - Returns: the exit code (0 recorded, 130 cancelled, …).
    /// - Throws: `AppError` for what fails before the screen starts (output folder 73, logs).
    public func run() throws -> ExitCode {
        startedAt = setup.wallClock()
        // SIGTERM/SIGHUP: re-raised once everything below is cleaned up (exit 143/129).
        defer { SignalGuard.finishTermination() }
        try prepareOutput()
        defer { cleanUp() }
        try openLogs()
        driver = FlowDriver(machine: driver.machine, keys: setup.keys, log: eventLog)
        driver.beforeAttemptEnds = { [unowned self] t in self.frameCountsEvent(tMs: t) }
        driver.recordedVideo = { [unowned self] in self.writer.map { ($0.frameCount, $0.durationMs) } }
        // --keep-failed: seen during the driver's step (which holds the machine), handled after it.
        driver.observeEvent = { [unowned self] e in
            if self.setup.keepFailed, e.name == .videoCaptureStarted || e.name == .faceCaptureFailed { self.attemptEvents.append(e) }
        }
        reportRejectedStrings()
        try openAccessibility()
        try startBackend()
        CaptureRuntime.installInterruptHandlers()
        defer { CaptureRuntime.removeInterruptHandlers() }

        statusVisible = setup.debugOverlay
        send(.started)
        reportWindowSize()
        // The loading screen goes out before anything heavy: the face models load behind it on
        // their own thread, started only now so that it does not compete with the first draw
        // (issue #16, first screen at once; `make bench` measures it).
        draw()
        startModelLoader()
        while exitCode == nil {
            if SignalGuard.suspendRequested.exchange(false, ordering: .relaxed) { send(.keyPressed(.suspend)) }
            if SignalGuard.requested.load(ordering: .relaxed) != 0 {
                send(.keyPressed(.interrupt))
                if exitCode == nil { exitCode = .cancelled }
                break
            }
            pollModel()
            readTerminal()
            let progressed = try stepSource()
            if !progressed { idle() }
            send()
            endIfScriptStalled()
            if let t = setup.timeoutMs, exitCode == nil, let start = machine.timeoutStartMs, clock.nowMs() - start >= t {
                // The machine fails the attempt (retryable on the capture screen), or ends the run.
                send(.timeout, failure: .timedOut("timed out after \(formatSeconds(t)) s" + attemptNote()))
            }
            a11y?.update(machine, nowMs: clock.nowMs())
            draw()
        }
        finishAccessibility()
        if let f = a11y?.speaker?.failure { sourceWarnings.append(f) }
        reportFrameCounts()
        backend.end()
        // A run over within a second of an empty cache's first load lets the landmark cache's
        // background write finish (at most 3 s), so no half-written temporary file stays behind.
        for _ in 0..<300 where modelState.cacheWritePending { usleep(10_000) }
        let code = exitCode ?? .ok
        for w in sourceWarnings { setup.console.err("selfie-capture: warning: \(w)\n") }
        if let st = sourceStats, st.skippedFrames > 0 {
            setup.console.err("selfie-capture: note: \(st.skippedSummary) of \(st.readFrames) frames read from \(setup.sourceSpec)\n")
        }
        if code != .ok, let f = failure ?? machineFailure() {
            setup.console.err(ErrorReport.message(for: f) + "\n")
            // What held the capture back, in the screens' words (issue #24: --strict-quality, or a
            // blocking hint such as "Too dark"), so the operator knows what to change.
            if ErrorReport.exitCode(for: f) == .timedOut, machine.failure != .challengeFailed, let h = lastShownHint {
                setup.console.err("\(ErrorReport.program): note: the last hint shown was \"\(setup.strings.text(h.stringKey))\"\n")
            }
            return ErrorReport.exitCode(for: f)
        }
        // The last line follows --locale, as the screens do.
        if code == .cancelled { setup.console.err("\(ErrorReport.program): " + setup.strings.text("selfie_capture_done_cancelled") + "\n") }
        if code == .ok, let s = summary, let folder {
            let frames = setup.strings.text("selfie_capture_result_frames", [.int(s.frameCount)])
            setup.console.err("\(ErrorReport.program): " + setup.strings.text("selfie_capture_done_recorded", [
                .string(folder.path), .string(frames), .double(Double(s.durationMs) / 1000)]) + "\n")
        }
        return code
    }

    // MARK: setup and teardown

    /// The theme for the terminal's real background (issue #17): with `--theme auto` (or a theme
    /// file based on auto) and an OSC 11 answer from the start-up probe, light or dark by that
    /// colour's luminance (`BackgroundGuess.decide`: the OSC 11 colour first, then COLORFGBG);
    /// otherwise the theme `CaptureSetup` loaded (COLORFGBG, else dark, which paints its own
    /// background).
    static func themeAfterProbe(_ setup: CaptureSetup, probe: TerminalProbeResult) -> Theme {
        guard let c = probe.backgroundRGB else { return setup.theme }
        let rgb = RGB(UInt8(clamping: c.r), UInt8(clamping: c.g), UInt8(clamping: c.b))
        return (try? ThemeLoader.load(setup.themeChoice, environment: setup.environment, backgroundRGB: rgb)) ?? setup.theme
    }

    /// `--announce`, `--sound`, `--speak` (issue #17), and the warnings found before the screen
    /// (a theme file below WCAG contrast, no espeak-ng): each said once on stderr, before the
    /// screen for the plain and null renderers, and again after it (curses hides stderr).
    func openAccessibility() throws {
        var warnings = setup.warnings
        var sink: AnnounceSink?
        if let p = setup.announcePath {
            let console = setup.console
            sink = p == "-" ? AnnounceSink { console.out($0) } : try AnnounceSink(path: p)
        }
        var speaker: Speaker?
        if setup.speak {
            // The language the texts really come from (a locale without tables falls back, e.g. to en).
            let (s, warning) = Speaker.make(language: setup.strings.lookup("selfie_capture_announce_done")?.language ?? "en")
            speaker = s
            if let w = warning { warnings.append(w) }
        }
        if setup.sound && setup.renderer != .curses {
            // Without curses the bell goes straight to the controlling terminal (over SSH, the
            // person's own), not into a log on stdout.
            bellFD = open("/dev/tty", O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
            if bellFD < 0 { warnings.append("--sound: no terminal to ring (/dev/tty: \(String(cString: strerror(errno)))); the capture goes on without sound") }
        }
        for w in warnings {
            if setup.renderer != .curses { setup.console.err("selfie-capture: warning: \(w)\n") }
        }
        if setup.renderer == .curses { sourceWarnings += warnings }
        guard sink != nil || speaker != nil || setup.sound else { return }
        let out = AccessibilityOutputs(announcer: Announcer(mirrored: setup.guidance.mirror, sourceIsCamera: setup.sourceKind == .camera), sink: sink, speaker: speaker,
                                       sound: setup.sound, strings: setup.strings)
        out.ring = { [unowned self] in
            if self.setup.renderer == .curses { self.backend.bell() } else if self.bellFD >= 0 {
                var bel: UInt8 = 7
                _ = Glibc.write(self.bellFD, &bel, 1)
            }
        }
        out.report = { [unowned self] e in self.driver.report(e) }
        a11y = out
    }

    /// At the end of a recorded run: lets the last announcement out once its pacing window
    /// opens (virtual time with `--pace fast`; at most 1.5 s of waiting in realtime) and the
    /// last bells and speech finish (at most 4 s), so "Done. Saved." is heard before the exit.
    /// A cancelled or failed run stops at once.
    func finishAccessibility() {
        guard let a = a11y else { return }
        defer { a.close(); if bellFD >= 0 { close(bellFD); bellFD = -1 } }
        guard exitCode == .ok else { a.speaker?.stop(); return }
        let start = SystemClock.monotonicNowMs()
        while SystemClock.monotonicNowMs() - start < 4000 {
            if let due = a.pendingDueMs, let fast = fastClock, due > fast.nowMs() { fast.advance(ms: due - fast.nowMs()) }
            a.update(machine, nowMs: clock.nowMs())
            if a.pendingDueMs == nil && !a.isBusy { break }
            if fastClock != nil, a.pendingDueMs == nil, a.speaker == nil, !(a.sink?.isBacklogged ?? false) {
                // Only bells left: their rhythm is virtual time too.
                fastClock?.advance(ms: 10)
                continue
            }
            usleep(10_000)
        }
    }

    /// `--output DIR` is prepared (created, checked writable) before the screen starts. Without
    /// it, only the current folder's writability is checked now: the timestamped folder is
    /// named and created when the recording starts (`startRecording`), so its name says when
    /// the capture was made, not when the app started.
    func prepareOutput() throws {
        guard setup.outputRequested != nil else {
            guard access(setup.outputParent, W_OK | X_OK) == 0 else {
                throw AppError.cannotCreateOutput(path: setup.outputParent, reason: String(cString: strerror(errno)))
            }
            return
        }
        let existed = setup.outputRequested.map { access($0, F_OK) == 0 } ?? false
        do {
            folder = try OutputFolder.prepare(requested: setup.outputRequested)
        } catch {
            throw AppError.media(error) ?? AppError.cannotCreateOutput(path: setup.outputRequested ?? ".", reason: "\(error)")
        }
        folderCreated = !existed
        registerUnfinishedOutput()
    }

    func openLogs() throws {
        if let p = setup.eventsPath {
            do { eventLog = try EventLog(path: p) } catch {
                throw AppError.cannotCreateOutput(path: p, reason: String(cString: strerror(errno)))
            }
        }
        if let p = setup.analysisLogPath {
            analysisLog = p == "-" ? LineSink(console: setup.console) : try LineSink(path: p)
        }
    }

    func startBackend() throws {
        switch setup.renderer {
        case .null:
            backend = NullBackend()
        case .plain:
            let console = setup.console
            guard setup.terminalKeys else { backend = PlainBackend { console.out($0) }; return }
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
            backend = LinePlainBackend(inputFD: keysFD, intro: intro) { console.out($0) }
        case .curses:
            // With `--source -` stdin is the video pipe: curses reads its keys from the
            // controlling terminal instead (issue #14; what `less` and `vipe` do).
            var keysFD: Int32 = STDIN_FILENO
            if isatty(STDIN_FILENO) == 0 {
                let tty = open("/dev/tty", O_RDWR | O_CLOEXEC)
                guard tty >= 0 else {
                    throw AppError.cameraUnavailable("cannot read keys: standard input is not a terminal and /dev/tty cannot be opened (\(String(cString: strerror(errno)))); use --renderer plain or null")
                }
                keysFD = tty
            }
            // The start-up terminal probe (issue #13), before curses owns the screen; only on a
            // real terminal. Keys typed meanwhile go to the backend's input.
            var probeKeys: [UInt8] = []
            var probed = false
            if isatty(STDOUT_FILENO) == 1, TerminalProbe.shouldProbe(environment: setup.environment) {
                (terminalProbe, probeKeys) = TTYProbeChannel.probe(outputFD: STDOUT_FILENO, inputFD: keysFD)
                probed = true
            }
            do {
                let curses = try CursesBackend(inputFD: keysFD, environment: setup.environment, colors: setup.colors)
                curses.takeProbeInput(probeKeys, deadlineExpired: probed && terminalProbe.da1Attributes == nil)
                theme = Self.themeAfterProbe(setup, probe: terminalProbe)
                backend = curses
                // The start-up width check (TUI-02, TUI-03): one line on the first screens and on stderr.
                if let w = curses.widthWarning {
                    sourceWarnings.append(w)
                    if stringsNotice == nil { stringsNotice = "warning: " + w }
                }
                previewMode = setup.previewMode.resolve(probe: terminalProbe, environment: setup.environment,
                                                        colorMode: setup.theme.noColor ? .none : curses.colorMode, glyphs: curses.glyphs)
                updateCellGeometry()
                if previewMode.isPixels {
                    curses.picturePlacer = PicturePlacer(mode: previewMode, fd: STDOUT_FILENO,
                                                         tmux: TerminalProbe.insideTmux(terminalProbe, environment: setup.environment),
                                                         environment: setup.environment,
                                                         kittyConfirmed: terminalProbe.kittyGraphics == true,
                                                         ackWithDA1: terminalProbe.da1Attributes != nil)
                }
            } catch {
                throw AppError.cameraUnavailable("cannot start the terminal screen (TERM=\(setup.environment["TERM"] ?? "")): \(error); try --renderer plain")
            }
        }
    }

    /// The cell size from TIOCGWINSZ's pixel fields, else the probe's CSI 16/14 t replies,
    /// else 2:1 (IMG-03). Called at start, on each resize (a font change resizes too) and after a suspension.
    func updateCellGeometry() {
        guard setup.renderer == .curses else { return }
        var ws = winsize()
        let px = ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &ws) == 0 ? (Int(ws.ws_xpixel), Int(ws.ws_ypixel)) : nil
        cellGeometry = CellGeometry.from(winsizePixels: px, cols: backend.size.cols, rows: backend.size.rows, probe: terminalProbe)
    }

    func cleanUp() {
        backend.end()
        worker?.stop()
        worker = nil
        if exitCode != .ok || summary == nil { discardRecording(); keepFailedAfterFailedRun() }
        if let r = reader {
            r.stop()
            r.waitFinished(ms: 500)   // let the thread close the device (STREAMOFF, munmap)
        }
        reader = nil
        eventLog?.close()
        analysisLog?.close()
        if let folder, folderCreated, exitCode != .ok,
           let entries = try? FileManager.default.contentsOfDirectory(atPath: folder.path), entries.isEmpty {
            rmdir(folder.path)
        }
        SignalGuard.clearCleanup()
    }

    /// Removes the partial video and any frames collected during the attempt.
    func discardRecording() {
        writer?.abort()
        writer = nil
        if let collector, let folder {
            for c in collector.collected { unlink(folder.file(c.relativePath)) }
            rmdir(folder.file("frames"))
        }
        collector = nil
        stills = []
        thumbnail = nil
        recorded = []
        reference = nil
        unanalysedFrames = [:]
        if let folder { unlink(folder.file(ReferenceImage.fileName)) }
        pendingCollects = 0
        lastCollectedIndex = nil
    }

    // MARK: loop steps

    func pollModel() {
        guard !modelAnnounced else { return }
        startModelLoader()   // no-op once started (after the first draw)
        if fastClock != nil, case .loading = modelState.value {
            // Deterministic runs wait for the models here (after the first screen) rather than
            // racing them.
            while case .loading = modelState.value { usleep(2000) }
        }
        switch modelState.value {
        case .loading: return
        case .loaded(let detector, let model, let ms):
            modelAnnounced = true
            modelLoadMs = ms
            needsRedraw = true
            let a = FaceAnalyzer(detector: detector, landmarks: model)
            analyzer = a
            if setup.pace == .realtime {
                let box = UncheckedBox(a)   // used only on the analysis thread from here on
                worker = AsyncFaceAnalyzer(work: { job in try box.value.analyze(job) })
            }
            send(.modelLoaded)
        case .failed(.detectorUnavailable):
            modelAnnounced = true
            failure = .cameraUnavailable("face detector: \(FaceModelError.detectorUnavailable)")
            exitCode = .unavailable
        case .failed(let error):
            modelAnnounced = true
            let message: String
            if case .modelLoad(_, let m) = error { message = m } else { message = "\(error)" }
            failure = .inputMissing(path: "\(DlibShapePredictor.defaultModelPath) (\(message); install libdlib-data)")
            exitCode = .noInput
        case .idle:
            return
        }
    }

    func readTerminal() {
        guard backend.inputFD != nil else { return }
        while let input = backend.readInput(timeoutMs: 0) {
            switch input {
            case .key(let k):
                press(k)
            case .resized: send(.terminalResized); reportWindowSize(); updateCellGeometry(); needsRedraw = true
            }
            if exitCode != nil { return }
        }
    }

    /// Feeds `event` (after the clock and before any due script keys) and carries out the effects.
    /// Emitted events go to the event log and the key script inside `FlowDriver`.
    func send(_ event: Event? = nil) {
        let effects = driver.step(nowMs: clock.nowMs(), events: event.map { [$0] } ?? [], playKeys: false)
        for e in attemptEvents { noteAttemptEvent(e) }   // --keep-failed
        attemptEvents = []
        perform(effects)
        playScriptKeys()
    }

    /// A key, typed or scripted: the keys help takes it first (`?` opens it, any key closes it),
    /// then `i` toggles the status line, then the machine hears it.
    func press(_ k: Key) {
        if keysHelpConsumes(k) { return }
        if k == .character("i") { toggleStatusLine() }
        send(.keyPressed(k))
    }

    /// Plays the `--keys` script's due keys one at a time through `press`, so each key acts on
    /// the state the previous one left (issue #29: `?; x` opens the help and closes it again).
    func playScriptKeys() {
        guard !playingScript else { return }   // `press` → `send` comes back here
        playingScript = true
        defer { playingScript = false }
        var rounds = 0
        while exitCode == nil, rounds < 1000, let k = driver.nextScriptKey(nowMs: clock.nowMs()) {
            rounds += 1
            press(k)
        }
    }

    /// `i` (typed or scripted) shows or hides the status line; the machine ignores the key.
    func toggleStatusLine() {
        statusVisible.toggle()
        needsRedraw = true
    }

    /// Ends a run nobody else can move (issue #14 "nothing waits forever"): no terminal to read
    /// keys from, the flow waiting for a key (instructions, permission, Start, a failed screen
    /// offering Try again), and the `--keys` script either played to its end or waiting for an
    /// event that cannot come before a key. A running `--timeout` timer still decides instead;
    /// the screens where it does not run (instructions, permission) end here. Exit 75.
    func endIfScriptStalled() {
        guard exitCode == nil, backend.inputFD == nil, let player = driver.player, machine.awaitsKey || keysHelpVisible,
              setup.timeoutMs == nil || machine.timeoutStartMs == nil else { return }
        let screen = keysHelpVisible ? "keys help" : machine.screen == .capture ? "capture (waiting for Start)" : machine.screen.rawValue
        let why: String
        if player.isFinished {
            why = "key script ended at step \(player.steps.count) while the \(screen) screen waits for a key"
        } else if let event = player.waitingFor {
            why = "key script waits for \(event.rawValue) at step \(player.index + 1), but the \(screen) screen waits for a key"
        } else {
            return
        }
        failure = .timedOut(why)
        exitCode = .timedOut
    }

    /// What the run reports for a failure the machine reached by itself (from frames, not from an
    /// event the runtime sent with its own `AppError`): the face lost too often.
    func machineFailure() -> AppError? {
        guard machine.screen == .failed else { return nil }
        if machine.failure == .faceLost {
            return .timedOut("the face was lost \(machine.faceLosses) times during the countdown or recording" + attemptNote())
        }
        // Issue #25, new-user trial: a failed challenge said nothing on stderr. Name the step and why.
        if machine.failure == .challengeFailed {
            let failed = machine.challenge?.records.last { $0.outcome != nil && $0.outcome != "passed" }
            let what = failed.map { "step \($0.index + 1) (\($0.direction.rawValue)) " + ($0.outcome == "timeout" ? "was not met in time" : "was answered the wrong way") }
            return .timedOut("the head-turn challenge failed: " + (what ?? "a step was not met") + attemptNote())
        }
        return nil
    }

    /// Feeds `event`, which may fail the attempt; `error` is what the run reports (stderr, exit
    /// code) if it ends on that failure. When the machine ignores the event, the previous
    /// failure stands; when it retries at once (unattended), `discardAttempt` clears it.
    func send(_ event: Event, failure error: AppError) {
        let previous = failure, attemptBefore = machine.attempt
        failure = error
        send(event)
        if machine.screen != .failed && machine.attempt == attemptBefore { failure = previous }
    }

    /// " (attempt N of M)" when the run may make more than one attempt, else "".
    func attemptNote() -> String {
        machine.maxAttempts > 1 ? " (attempt \(machine.attempt) of \(machine.maxAttempts))" : ""
    }

    /// Takes what the source's reader thread has queued and processes it: the source opening,
    /// frames (on the capture screen only), a camera's recoverable timeouts, the end, a failure.
    /// Never waits on the source itself (`SourceReader`).
    ///
    /// Realtime: every queued frame goes into the recording while recording, and only the
    /// newest is previewed and analysed (V4L-11: the preview drains to the newest frame each
    /// turn). Fast: one frame per turn, every frame analysed; the loop waits for the reader
    /// (at most `fastStallMs` of real time) rather than letting the virtual clock run ahead, so
    /// headless runs stay repeatable.
    /// - Returns: whether anything progressed.
    func stepSource() throws -> Bool {
        guard exitCode == nil, let r = reader else { return false }
        let onCapture = machine.screen == .capture
        let maxFrames = onCapture ? (fastClock != nil ? 1 : Int.max) : 0
        var items = r.take(maxFrames: maxFrames)
        if items.isEmpty, fastClock != nil, !readerOpened || onCapture {
            // Deterministic runs wait for the reader; a source stalled for real keeps the loop
            // turning (keys, signals) and, past `fastStallMs`, lets virtual time move.
            let now = SystemClock.monotonicNowMs()
            if r.wait(ms: 20, alsoFD: backend.inputFD) { items = r.take(maxFrames: maxFrames) }
            if items.isEmpty {
                let since = readerIdleSinceMs ?? now
                readerIdleSinceMs = since
                guard now - since >= Self.fastStallMs, let fast = fastClock else { return true }
                // Stalled for real: virtual time follows real time from the stall's start, so
                // `--timeout` fires on time on a pipe that sends nothing.
                let last = readerIdleAdvancedMs ?? since
                if now > last { fast.advance(ms: now - last) }
                readerIdleAdvancedMs = now
                noteSourceIdle()
                return true
            }
        }
        if items.isEmpty {
            noteSourceIdle()
            return false
        }
        readerIdleSinceMs = nil
        readerIdleAdvancedMs = nil
        let newest = items.lastIndex { if case .frame = $0 { return true } else { return false } }
        for (i, item) in items.enumerated() {
            guard exitCode == nil, reader === r else { break }
            switch item {
            case .opened(let info):
                sourceOpened(info)
            case .frame(let f, let loops, let stats):
                sourceStats = stats   // the counts up to this frame (the thread may have read ahead)
                sourceWaitingSinceMs = nil
                handle(frame: f, loops: loops, newest: i == newest)
            case .waiting:
                // A camera poll timeout (V4L-13): the reader retries, and the camera restarts
                // streaming after `CameraOptions.timeoutsBeforeRestart`; the screen says so.
                noteSourceIdle()
            case .ended:
                sourceStats = r.stats
                failure = AppError.media(MediaError.sourceEnded(setup.sourceSpec))
                send(.sourceEnded)
                if exitCode == nil && !setup.settings.interactive { exitCode = .timedOut }
                closeSource()
            case .failed(let error):
                sourceStats = r.stats
                let e = AppError.media(error) ?? .cameraUnavailable("\(error)")
                if !readerOpened, case .cameraPermissionDenied(let path) = e {
                    failure = e
                    closeSource()
                    send(.permissionDenied(devicePath: path))
                    if !setup.settings.interactive && exitCode == nil { exitCode = .permissionDenied }
                    break
                }
                failure = e
                closeSource()
                send(.cameraFailed(reason: ErrorReport.message(for: e)))
                if exitCode == nil && !setup.settings.interactive { exitCode = ErrorReport.exitCode(for: e) }
            }
        }
        return true
    }

    /// Real time (ms) a `--pace fast` run waits for a silent source before its virtual clock
    /// follows real time (from the stall's start, so `--timeout` fires on time on a stalled
    /// pipe); far above what reading and decoding one file frame takes (a few ms), so file runs
    /// stay repeatable.
    static let fastStallMs = 1000

    /// The source opened on the reader thread: the machine hears of it now.
    func sourceOpened(_ info: SourceInfo) {
        readerOpened = true
        // A face too small in pixels is told to choose a higher --quality when the camera
        // offers a taller frame than the one granted (issue #11).
        if let c = reader?.cameraModes {
            guidance.config.higherQualityAvailable = Self.cameraOffersTaller(c.formats, than: c.granted)
        }
        sourceWarnings += reader?.warnings ?? []
        sourceInfo = info
        sourceLoopsSeen = 0
        sourceBaseMs = clock.nowMs()
        firstFrameTs = nil
        sourceWaitingSinceMs = nil
        send(openingAfterPermission ? .permissionGranted : .cameraOpened)
    }

    /// No frame this turn: from the first silent turn on the capture screen, time how long the
    /// source has been silent, for the "waiting for the camera" status.
    func noteSourceIdle() {
        guard machine.screen == .capture, readerOpened else { return }
        let now = clock.nowMs()
        if sourceWaitingSinceMs == nil { sourceWaitingSinceMs = now }
        let waited = now - (sourceWaitingSinceMs ?? now)
        let shown = waited >= Self.sourceWaitNoticeMs ? waited / 1000 : nil
        if shown != sourceWaitShownSeconds { sourceWaitShownSeconds = shown; needsRedraw = true }
    }

    /// How long a source may be silent before the capture screen says it is waiting for it
    /// (ms): 1 s, about 30 frame periods of a webcam and 15 of a 15 fps clip.
    static let sourceWaitNoticeMs = 1000

    /// One frame from the reader. `newest`: the last frame of this turn's batch (previewed and
    /// analysed); older ones only go into the recording.
    func handle(frame: VideoFrame, loops: Int, newest: Bool) {
        if sourceWaitShownSeconds != nil { sourceWaitShownSeconds = nil; needsRedraw = true }
        if let fast = fastClock {
            let first = firstFrameTs ?? frame.timestampMs
            let target = sourceBaseMs + frame.timestampMs - first
            if target > fast.nowMs() { fast.advance(ms: target - fast.nowMs()) }
        }
        let isFirst = firstFrameTs == nil
        if isFirst { firstFrameTs = frame.timestampMs }
        // The machine's clock reaches this frame's time before the frame is judged, so its
        // events carry the frame's t_ms.
        send()
        // A looping source that started over fails an attempt that is still positioning or
        // counting down (retryable); this frame then belongs to the next attempt, if any.
        if loops > sourceLoopsSeen {
            sourceLoopsSeen = loops
            send(.sourceLooped, failure: .timedOut("\(setup.sourceSpec) played to its end (--loop) before the capture completed" + attemptNote()))
        }
        guard exitCode == nil, machine.screen == .capture else { return }
        lastFrame = frame
        sourceRate.add(atMs: clock.nowMs())
        sourceFramesRead += 1
        recentFrames.append(frame)
        if recentFrames.count > 8 { recentFrames.removeFirst() }
        if isFirst {
            if let fps = sourceInfo?.fps, fps > 0 { send(.sourceFrameRate(fps)) }
            send(.cameraFirstFrame)
        }
        if newest {
            // The preview's RGB is decoded when a screen is drawn (`draw`), from the newest frame
            // then: frames between two draws (--preview-fps) are never decoded for it, and the
            // null renderer, which shows nothing, decodes none (issue #16).
            previewFrame = frame
            needsRedraw = true
            if let worker {
                worker.submit(AnalysisJob(frame: frame))
                for r in worker.takeResults() {
                    if case .success(let a) = r { judge(a) }
                }
            } else if let analyzer {
                if let a = try? analyzer.analyze(AnalysisJob(frame: frame)) {
                    judge(a)
                }
            }
        }
        if machine.isRecording, let w = writer {
            do {
                try w.append(frame)
                let analysed = lastAnalysis?.frameIndex == frame.index ? lastAnalysis : nil
                recorded.append(RecordedFrame(index: frame.index, timestampMs: frame.timestampMs, analysis: analysed))
                if let analysed { considerReference(analysed, frame) } else { unanalysedFrames[frame.index] = frame }
                if pendingCollects > 0, frame.index > lastCollectedIndex ?? Int.min { pendingCollects -= 1; offer(frame) }
            } catch {
                fail(with: AppError.media(error) ?? .cannotCreateOutput(path: w.path, reason: "\(error)"))
            }
        }
    }

    func judge(_ analysis: FrameAnalysis) {
        analysedFrames += 1
        let g = guidance.judge(analysis)
        // The one eyes verdict (issue #24): the guidance's, relative to the person.
        var a = analysis
        a.eyesOpen = g.eyesOpen
        a.eyesOpenLimit = g.eyesOpenLimit
        lastAnalysis = a
        attach(a)
        if let log = analysisLog { try? log.write(AnalysisLog.jsonLine(a, g) + "\n") }
        noteForKeepFailed(a, g)
        send(.frameGuided(g))
        if machine.phase == .positioning || machine.phase == .countdown || machine.phase == .recording,
           let h = machine.guidance?.hint, h != .holdStill { lastShownHint = h }
    }

    /// Nothing to read: wait a little for keys (without spinning), and let virtual time follow
    /// a script's `wait` or a stalled source.
    func idle() {
        if let fast = fastClock {
            if let deadline = driver.nextDeadlineMs, deadline > fast.nowMs(), modelAnnounced || machine.screen != .loading {
                fast.advance(ms: deadline - fast.nowMs())
                return
            }
            if backend.inputFD != nil { _ = pollInput(ms: 5) } else { usleep(2000) }
            if machine.screen == .capture || modelAnnounced { fast.advance(ms: 5) }
            return
        }
        // The reader's queue wakes the loop only where its frames are taken (the capture
        // screen) or while it opens the source; elsewhere queued frames would keep its pipe
        // readable and the loop would spin.
        if let r = reader, machine.screen == .capture || !readerOpened { r.wait(ms: 10, alsoFD: backend.inputFD); return }
        // Waiting screens (instructions, permission, result, failed) change only on a key, a
        // script step or a signal (which interrupts poll): sleep until one comes, at most
        // `waitingScreenPollMs`, and no longer than the script's next `wait` ends. The loading
        // screen counts tenths of a second and keeps its 10 ms turn.
        var ms = machine.screen == .loading ? 10 : Self.waitingScreenPollMs
        if let d = driver.nextDeadlineMs { ms = min(ms, max(0, d - clock.nowMs())) }
        // A screen changed this turn (e.g. the models arrived): draw it first.
        if needsRedraw { ms = 0 }
        _ = pollInput(ms: ms)
    }

    /// Longest sleep of a waiting screen between two loop turns (ms): two turns a second cost
    /// nothing measurable (`make bench`: CPU share on the waiting screens), and anything that
    /// changes such a screen wakes the poll first (a key, a signal) or bounds it (a script wait).
    static let waitingScreenPollMs = 500

    func pollInput(ms: Int) -> Bool {
        guard let fd = backend.inputFD else { usleep(useconds_t(ms * 1000)); return false }
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&p, 1, Int32(ms)) > 0
    }

    func draw() {
        let now = clock.nowMs()
        // While the model loads, the loading screen's time counts up in tenths of a second.
        // So does the camera's opening (a pipe whose header is late, a slow driver): the reader
        // opens it on its own thread, so this screen keeps counting (issue #14).
        let loadingSince = modelLoadMs == nil ? modelLoadStartMs : (reader != nil && !readerOpened ? sourceOpenStartMs : nil)
        // The permission screen, once permission is asked, is where the camera opens: a source
        // that takes long (a pipe whose header is late) is said there too, counting seconds.
        let openingWait = machine.screen == .cameraPermission && reader != nil && !readerOpened
            ? sourceOpenStartMs.map { (now - $0) / 1000 }.flatMap { $0 >= Self.sourceWaitNoticeMs / 1000 ? $0 : nil } : nil
        if openingWait != openingWaitShown { openingWaitShown = openingWait; needsRedraw = true }
        if machine.screen == .loading, let start = loadingSince, (now - start) / 100 != loadingTick {
            loadingTick = (now - start) / 100
            needsRedraw = true
        }
        // At most --preview-fps screens a second of the run's clock on the capture screen
        // (default 15), on average: each draw makes the next one due an interval after the last
        // due time (4 ms of slack for the clock's jitter; after a pause, half an interval after
        // now), so a 15 fps source is drawn at 15 fps, not every other frame; other screens
        // draw when they change.
        guard needsRedraw else { return }
        if machine.screen == .capture {
            let interval = 1000 / max(1, setup.previewFps)
            guard now >= nextDrawDueMs - 4 else { return }
            nextDrawDueMs = max(nextDrawDueMs + interval, now + interval / 2)
        }
        needsRedraw = false
        if let frame = previewFrame, machine.screen == .capture, !(backend is NullBackend) {
            // The preview is at most cols × 2·rows pixels: decode RGB only as large as that
            // needs (1/8 of 640×480 on an 80×24 terminal).
            let need = previewMode.sourcePixels(screen: backend.size, cell: cellGeometry)
            let shown = frame.rgb(covering: need.width, need.height)
            preview = PreviewImage(width: shown.width, height: shown.height, rgb: shown.pixels)
            previewCaptureMicros = fastClock == nil ? frame.captureMicros : nil
            previewFrame = nil
        }
        var loading = LoadingViewState(stage: machine.loadingStage,
                                       elapsedMs: loadingSince.map { now - $0 },
                                       modelLoadMs: modelLoadMs)
        let isCamera = setup.sourceKind == .camera
        if !isCamera, loading.stage == .camera { loading.message = setup.strings.text("selfie_capture_loading_video") }
        var view = ScreenView.from(machine, image: preview, mirrored: setup.guidance.mirror, faceOval: setup.guidance.oval,
                                   loading: loading,
                                   result: resultView())
        if case .capture(var state) = view {
            state.sourceWaitSeconds = sourceWaitShownSeconds
            state.sourceIsCamera = isCamera
            view = .capture(state)
        }
        if case .failed(var state) = view {
            state.sourceIsCamera = isCamera
            view = .failed(state)
        }
        var context = RenderContext(backend: backend, strings: setup.strings, theme: theme, layout: setup.layout)
        context.canGoBack = machine.backGoesSomewhere
        context.reducedMotion = setup.reducedMotion
        // Every mode draws for the measured cells, half blocks included (issue #27, IMG-03).
        context.cellGeometry = cellGeometry
        if previewMode != .halfBlocks {
            context.previewMode = previewMode
            if previewMode == .symbols { context.symbolRenderer = SextantSymbols.renderer(fallback: ChafaPreview.symbols) }
        }
        if statusVisible, machine.screen == .capture { context.statusLine = statusInfo(colorMode: context.colorMode) }
        context.notice = openingWaitShown.map { setup.strings.text(isCamera ? "selfie_capture_waiting_source" : "selfie_capture_waiting_video", [.int($0)]) } ?? stringsNotice
        let drawStart = SystemClock.monotonicNowMs()
        backend.draw(withKeysHelp(Screens.render(view, context: context), context: context))
        // The preview never takes more than about 40 % of the loop (issue #13: no mode delays a
        // recorded frame): after a capture screen that took `cost` ms to render and send, the
        // next waits at least 1.5 × cost (libchafa symbols at 200×60 take ~75 ms; realtime only,
        // a --pace fast run's clock is virtual).
        if machine.screen == .capture, fastClock == nil {
            let cost = SystemClock.monotonicNowMs() - drawStart
            if cost > 10 { nextDrawDueMs = max(nextDrawDueMs, now + cost * 3 / 2) }
        }
        let bytes = backend.bytesWritten
        if machine.screen == .capture, let c = previewCaptureMicros, preview != nil {
            // The frame's preview is on the terminal now (the backend's write returned).
            latency.add(captureMicros: c, writtenMicros: SourceReader.monotonicMicros())
        }
        if machine.screen == .capture {
            captureDraws += 1
            // Preview fps counts the frames the terminal got (a pixel mode skips frames while
            // the terminal drains the previous picture).
            if (backend as? CursesBackend)?.lastDrawSkippedPreview != true { drawRate.add(atMs: now) }
            if let b = bytes { byteRate.add(Double(b &- (lastBytes ?? b)), atMs: now) }
        }
        lastBytes = bytes
    }

    /// The backend's byte count after the last draw (for the status line's bytes per second).
    var lastBytes: UInt64?

    /// The status line's figures: the source (a file by its name) and its kind, the last frame's size, the
    /// frames read per second and the screens drawn per second (both over `RateMeter`'s window
    /// of the run's clock), the colour mode, and the bytes per second curses wrote.
    /// The mode the preview is drawn in, as the status line names it: symbols under line
    /// spacing are drawn as (full-block) half blocks (issue #27, IMG-02).
    var shownPreviewMode: PreviewMode { previewMode == .symbols && cellGeometry.lineSpacing ? .halfBlocks : previewMode }

    func statusInfo(colorMode: ColorMode) -> StatusLineInfo {
        var info = StatusLineInfo(source: setup.sourceKind == .camera || setup.sourceSpec == "-" ? setup.sourceSpec
                           : (setup.sourceSpec as NSString).lastPathComponent, kind: FrameSources.recordKind(setup.sourceKind, spec: setup.sourceSpec).rawValue,
                       width: lastFrame?.width ?? 0, height: lastFrame?.height ?? 0, fps: sourceRate.perSecond,
                       colorMode: colorMode, previewMode: shownPreviewMode, previewFps: drawRate.perSecond,
                       bytesPerSecond: backend.bytesWritten == nil ? nil : byteRate.perSecond)
        info.latencyMs = latency.statusRange   // camera-to-screen p50...p95 (issue #16)
        return info
    }

    func resultView() -> ResultViewState? {
        guard let s = summary, let folder else { return nil }
        // Every file the folder holds: the video, reference.jpg (#11), the stills, result.json and
        // manifest.json (written last, before this screen shows).
        var paths = [s.path]
        if reference != nil { paths.append(folder.file(ReferenceImage.fileName)) }
        if let c = collector, !c.collected.isEmpty { paths.append(folder.file("frames")) }
        paths.append(folder.file(Manifest.resultFileName))
        paths.append(folder.file(Manifest.fileName))
        if thumbnail == nil, let still = thumbnailFrame() {
            // The thumbnail's pixels in the preview's mode (a third of the screen at most).
            let px = previewMode.sourcePixels(screen: Size(cols: max(1, backend.size.cols / 3), rows: backend.size.rows), cell: cellGeometry)
            let img = still.rgb(covering: max(1, px.width), max(1, px.height))
            thumbnail = PreviewImage(width: img.width, height: img.height, rgb: img.pixels)
        }
        var view = ResultViewState(savedPaths: paths, durationSeconds: Double(s.durationMs) / 1000,
                                   frameCount: s.frameCount, collectedCount: collector?.collected.count ?? 0,
                                   askedCount: setup.settings.options.numberOfFrameToCollect, folder: folder.path,
                                   thumbnail: thumbnail)
        view.mirrored = setup.guidance.mirror
        return view
    }

    /// The result screen's thumbnail: the reference frame (`reference.jpg`, issue #11), else
    /// the middle collected still, else the last frame read.
    func thumbnailFrame() -> VideoFrame? {
        reference?.frame ?? (stills.isEmpty ? lastFrame : stills[stills.count / 2])
    }

    // MARK: effects

    func perform(_ effects: [Effect]) {
        for e in effects {
            switch e {
            case .showScreen:
                needsRedraw = true
            case .emit:
                break   // FlowDriver wrote it to the event log and showed it to the script
            case .loadModel:
                startAnalysis()
            case .requestPermission:
                openSource(afterPermission: true)
            case .openCamera:
                openSource(afterPermission: false)
            case .closeCamera:
                closeSource()
            case .startRecording:
                startRecording()
            case .recordFrame:
                break   // every frame read while recording is written (see the type's doc)
            case .collectFrame(let index):
                collect(frameIndex: index)
            case .stopRecording:
                finishRecording()
            case .abortRecording:
                discardRecording()
            case .discardAttempt:
                discardAttempt()
            case .writeResult:
                writeResult()
            case .redraw:
                needsRedraw = true
            case .suspend:
                suspendTerminal()
            case .exit(let code):
                if exitCode == nil { exitCode = ExitCode(flow: code) }
            }
        }
    }

    /// Try again: removes what the failed attempt left (partial video, collected frames,
    /// per-frame data), forgets its failure and its guidance history; the source stays open.
    func discardAttempt() {
        discardRecording()
        // A default folder left empty by the failed attempt goes, so the next attempt's folder
        // is named when it records.
        if setup.outputRequested == nil, let f = folder, folderCreated,
           (try? FileManager.default.contentsOfDirectory(atPath: f.path))?.isEmpty == true {
            rmdir(f.path)
            folder = nil
        }
        registerUnfinishedOutput()
        failure = nil
        guidance.reset()
        needsRedraw = true
    }

    func fail(with error: AppError) {
        failure = error
        send(.cameraFailed(reason: ErrorReport.message(for: error)))
        if exitCode == nil && !setup.settings.interactive { exitCode = ErrorReport.exitCode(for: error) }
    }

    /// Both face models load on their own thread (`FaceModelLoader`); `pollModel` makes the
    /// analyzer once they are there. Nothing here blocks the first screen.
    func startAnalysis() {
        modelState.set(.loading)
        modelLoadStartMs = clock.nowMs()
        modelLoaderPending = true
    }

    /// Starts `FaceModelLoader` once, after the first screen was drawn (`run`).
    func startModelLoader() {
        guard modelLoaderPending else { return }
        modelLoaderPending = false
        let state = modelState
        FaceModelLoader.loadInBackground { progress in
            switch progress {
            case .loaded(let detector, let model, let ms):
                state.cacheWritePending = model.cacheUse == .deferred
                state.set(.loaded(detector, model, ms: ms))
            case .failed(let e, _): state.set(.failed(e))
            case .cacheDone: state.cacheWritePending = false
            }
        }
    }

    /// Starts the reader thread, which opens the source; the machine hears `permissionGranted`
    /// or `cameraOpened` when it has (`sourceOpened`), or the failure.
    func openSource(afterPermission: Bool) {
        closeSource()
        var camera = CameraOptions(qualities: setup.settings.session.effectiveQualities, targetResolution: setup.targetResolution)
        if let system = setup.cameraSystem { camera.system = system }
        let options = SourceOptions(demoPhoto: DemoPhoto.load, loop: setup.loop, camera: camera)
        let spec = setup.sourceSpec
        openingAfterPermission = afterPermission
        readerOpened = false
        sourceOpenStartMs = clock.nowMs()
        reader = SourceReader(open: { try FrameSources.open(spec: spec, options: options) }, spec: setup.recordedSourceSpec,
                              pace: setup.pace)
    }

    /// Whether any format of the camera lists a frame size taller than `granted` (so a higher
    /// `--quality` could give a face more pixels).
    static func cameraOffersTaller(_ formats: [FormatModes], than granted: FrameSize) -> Bool {
        formats.contains { f in f.sizes.contains { $0.size.height > granted.height } }
    }

    func closeSource() {
        if let r = reader {
            sourceRecord = r.record ?? sourceRecord
            r.stop()
        }
        reader = nil
        readerOpened = false
        sourceWaitingSinceMs = nil
        sourceWaitShownSeconds = nil
        analyzer?.reset()
        guidance.reset()
        preview = nil
        previewFrame = nil
    }

    func startRecording() {
        guard let frame = lastFrame else { return }
        if folder == nil {
            // The default folder is named now, at the recording's start (see `prepareOutput`).
            do {
                folder = try OutputFolder.prepare(requested: nil, parent: setup.outputParent, date: setup.wallClock())
                folderCreated = true
                registerUnfinishedOutput()
            } catch {
                fail(with: AppError.media(error) ?? .cannotCreateOutput(path: setup.outputParent, reason: "\(error)"))
                return
            }
        }
        guard let folder else { return }
        discardRecording()
        do {
            let fps = sourceInfo?.fps ?? 30
            writer = try folder.startRecording(format: setup.videoFormat, width: frame.width, height: frame.height,
                                               fps: fps > 0 ? fps : 30)
            let o = setup.settings.options
            // The machine decides which frames are collected (CaptureOptions.collects); the
            // collector only saves what it is offered.
            collector = FrameCollector(options: FrameCollectionOptions(numberOfFramesBeforeCapture: 0, frameInterval: 1,
                                                                        numberOfFrameToCollect: o.numberOfFrameToCollect,
                                                                        payloadOptimization: o.payloadOptimization),
                                       folder: folder)
        } catch {
            fail(with: AppError.media(error) ?? .cannotCreateOutput(path: folder.path, reason: "\(error)"))
        }
    }

    func collect(frameIndex: Int) {
        // Only a frame that is in the video is collected; one read before the recording started
        // (or not yet written, e.g. the frame that starts a recording with no countdown) waits
        // for the next frame written.
        guard collector != nil else { return }
        guard let first = recorded.first?.index, frameIndex >= first, frameIndex > lastCollectedIndex ?? Int.min,
              let frame = recentFrames.last(where: { $0.index == frameIndex }) else {
            pendingCollects += 1
            return
        }
        offer(frame)
    }

    func offer(_ frame: VideoFrame) {
        guard let collector else { return }
        lastCollectedIndex = frame.index
        let box = lastAnalysis?.faces.first.map { PixelRect(x: $0.box.x, y: $0.box.y, width: $0.box.w, height: $0.box.h) }
        do { try collector.offer(frame, faceBox: box); stills.append(frame) } catch {
            fail(with: AppError.media(error) ?? .cannotCreateOutput(path: folder?.path ?? ".", reason: "\(error)"))
        }
    }

    func finishRecording() {
        guard let w = writer else { return }
        do {
            summary = try w.finalize()
            writer = nil
        } catch {
            fail(with: AppError.media(error) ?? .cannotCreateOutput(path: w.path, reason: "\(error)"))
        }
    }

    /// Gives a recorded frame its analysis. In realtime the analysis of a frame arrives after
    /// the frame was written (the analyser runs on its own thread), so it is matched by index.
    func attach(_ a: FrameAnalysis) {
        guard let i = recorded.lastIndex(where: { $0.index == a.frameIndex }), recorded[i].analysis == nil else { return }
        recorded[i].analysis = a
        if let f = unanalysedFrames.removeValue(forKey: a.frameIndex) { considerReference(a, f) }
        // The analyser works on the newest frame: older ones still waiting will not come.
        unanalysedFrames = unanalysedFrames.filter { $0.key > a.frameIndex }
    }

    /// Keeps `frame` as the reference when it ranks above the current one.
    func considerReference(_ a: FrameAnalysis, _ frame: VideoFrame) {
        guard let v = a.quality, let c = ReferenceCandidate(frameIndex: frame.index, timestampMs: frame.timestampMs, vector: v) else { return }
        if reference.map({ c.isBetter(than: $0.candidate) }) ?? true { reference = (c, frame) }
    }

    func writeResult() {
        guard let folder, let s = summary else { return }
        if let worker {
            // The last recorded frames may still be in the analyser.
            worker.waitUntilIdle()
            for r in worker.takeResults() { if case .success(let a) = r { attach(a) } }
        }
        var referencePath: String?
        if let r = reference {
            do { referencePath = try ReferenceImage.write(r.frame, in: folder) } catch {
                fail(with: AppError.media(error) ?? .cannotCreateOutput(path: folder.file(ReferenceImage.fileName), reason: "\(error)"))
                return
            }
        }
        let json = ResultWriter.json(summary: s, folder: folder, collected: collector?.collected ?? [],
                                     recorded: recorded, attempt: machine.attempt, plan: machine.collectionPlan, setup: setup,
                                     sourceFrames: sourceFramesJSON, sourceRecord: reader?.record ?? sourceRecord,
                                     reference: referencePath.flatMap { p in reference.map { ($0.candidate, p) } },
                                     previewLatency: latency.json(from: setup.sourceKind == .camera ? "v4l2Buffer" : "pacedFile"),
                                     shortfalls: machine.patience.shortfalls)
        let resultPath: String
        let failedJSON: [[String: Any]]
        do { failedJSON = try writeFailedAttempts(in: folder) } catch {
            fail(with: AppError.media(error) ?? .cannotCreateOutput(path: folder.file(Self.failedFolder), reason: "\(error)"))
            return
        }
        let fullJSON = Self.adding(challenge: ResultWriter.challengeResult(machine.challenge),
                                   to: Self.adding(failedAttempts: failedJSON, to: json))
        do { resultPath = try folder.write(Array(fullJSON.utf8), to: Manifest.resultFileName) } catch {
            fail(with: AppError.media(error) ?? .cannotCreateOutput(path: folder.file(Manifest.resultFileName), reason: "\(error)"))
            return
        }
        writeManifest(folder: folder, resultPath: resultPath)
    }

    /// Writes manifest.json, the folder's last file (sizes and SHA-256 of every other file,
    /// result.json as written), then reports `outputSaved`. If it cannot be written, result.json
    /// goes too, so the failed run leaves no half-documented folder.
    func writeManifest(folder: OutputFolder, resultPath: String) {
        let record = reader?.record ?? sourceRecord
            ?? SourceRecord(kind: FrameSources.recordKind(setup.sourceKind, spec: setup.sourceSpec), spec: setup.recordedSourceSpec, width: summary?.width ?? 0, height: summary?.height ?? 0,
                            fps: summary?.fps ?? 0)
        let manifestPath: String
        do {
            manifestPath = try EvidenceFolder.writeManifest(in: folder, settings: ResultWriter.settings(setup), source: record,
                                                            startedAt: startedAt, endedAt: setup.wallClock())
        } catch {
            unlink(resultPath)
            fail(with: AppError.media(error) ?? .cannotCreateOutput(path: folder.file(Manifest.fileName), reason: EvidenceFolder.describe(error)))
            return
        }
        if let key = setup.signKey, !signManifest(folder: folder, manifestPath: manifestPath, resultPath: resultPath, key: key) {
            return
        }
        SignalGuard.clearCleanup()   // published: a signal no longer removes it
        driver.report(FlowEvent(.outputSaved, tMs: clock.nowMs(), fields: [
            EventField("folder", .string(folder.path)),
            EventField("result", .string(resultPath)),
            EventField("manifest", .string(manifestPath)),
        ]))
    }

    /// `--sign-key`: signs manifest.json as written into manifest.json.sig (`ManifestSigner`,
    /// through a private temporary copy, then `OutputFolder.write`). When signing fails the
    /// manifest and result.json go too (as when the manifest cannot be written): the folder is
    /// never left signed in part or looking complete without its signature.
    /// - Returns: false when it failed (the run fails with the signing error).
    func signManifest(folder: OutputFolder, manifestPath: String, resultPath: String, key: String) -> Bool {
        do {
            let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: manifestPath)))
            let sig = try ManifestSigner.sign(bytes, key: key)
            _ = try folder.write(sig, to: ManifestSigner.signatureFileName)
            return true
        } catch {
            unlink(manifestPath); unlink(resultPath)
            fail(with: error as? AppError ?? AppError.media(error)
                 ?? .cannotCreateOutput(path: folder.file(ManifestSigner.signatureFileName), reason: "\(error)"))
            return false
        }
    }

    /// The `frameCounts` event: what the source read, delivered, skipped (by reason) and what
    /// was analysed, so far. Written just before each event that ends an attempt
    /// (`FlowDriver.beforeAttemptEnds`: faceCaptureSuccess, faceCaptureFailed, cancelled) once
    /// a source was opened, and at the end of a run that ended otherwise.
    func frameCountsEvent(tMs: Int) -> FlowEvent? {
        guard let st = sourceStats ?? (reader != nil ? SourceStats() : nil) else { return nil }
        frameCountsReported = true
        var fields = [EventField("read", .int(st.readFrames)), EventField("delivered", .int(st.deliveredFrames)),
                      EventField("analysed", .int(analysedFrames)), EventField("warned", .int(st.warnedFrames)),
                      EventField("huffmanInserted", .int(st.huffmanInsertedFrames)), EventField("skipped", .int(st.skippedFrames))]
        for r in st.skipped.keys.sorted() {
            let name = r.rawValue.prefix(1).uppercased() + r.rawValue.dropFirst()
            fields.append(EventField("skipped" + name, .int(st.skipped[r]!)))
        }
        return FlowEvent(.frameCounts, tMs: tMs, fields: fields)
    }

    /// At the end of a run: `frameCounts` if no attempt-ending event carried it.
    func reportFrameCounts() {
        guard !frameCountsReported, let e = frameCountsEvent(tMs: clock.nowMs()) else { return }
        driver.report(e)
    }

    /// result.json's `sourceFrames`: the same counts as the `frameCounts` event, at the time
    /// the result is written.
    var sourceFramesJSON: [String: Any] {
        let st = sourceStats ?? SourceStats()
        var skipped: [String: Int] = [:]
        for (r, n) in st.skipped { skipped[r.rawValue] = n }
        return ["read": st.readFrames, "delivered": st.deliveredFrames, "analysed": analysedFrames,
                "warned": st.warnedFrames, "huffmanInserted": st.huffmanInsertedFrames,
                "skipped": st.skippedFrames, "skippedByReason": skipped]
    }

    func formatSeconds(_ ms: Int) -> String {
        ms % 1000 == 0 ? String(ms / 1000) : String(Double(ms) / 1000)
    }

    // MARK: signals

    /// SIGINT/SIGTERM/SIGHUP end the loop cleanly (`SignalGuard`, the one home of signal
    /// handling: the first one sets `SignalGuard.requested`, which the loop polls).
    static func installInterruptHandlers() {
        SignalGuard.install()
        SignalGuard.setPolite(true)
        SignalGuard.catchTerminalStop(true)   // kill -TSTP suspends as Ctrl-Z does
    }

    static func removeInterruptHandlers() {
        SignalGuard.setPolite(false)
        SignalGuard.catchTerminalStop(false)
    }
}

/// The landmark model's load, shared between the loader thread and the runtime loop.
final class ModelLoadState: @unchecked Sendable {
    enum Value {
        case idle, loading
        case loaded(DlibHOGDetector, DlibShapePredictor, ms: Int)
        case failed(FaceModelError)
    }
    private let lock = NSLock()
    private var _value = Value.idle
    var value: Value { lock.lock(); defer { lock.unlock() }; return _value }
    func set(_ v: Value) { lock.lock(); _value = v; lock.unlock() }
    private var _cacheWritePending = false
    /// The landmark cache is being written after the models were handed over (empty cache).
    var cacheWritePending: Bool {
        get { lock.lock(); defer { lock.unlock() }; return _cacheWritePending }
        set { lock.lock(); _cacheWritePending = newValue; lock.unlock() }
    }
}

extension ExitCode {
    init(flow: FlowExit) {
        switch flow {
        case .recorded: self = .ok
        case .cameraUnavailable: self = .unavailable
        case .timedOut: self = .timedOut
        case .cancelled: self = .cancelled
        }
    }
}

/// The demo face photo, where `ResourceLocator` finds it (`$SELFIE_CAPTURE_DEMO_PHOTO`, the
/// installed `share/selfie-capture/demo/`, the build tree's `Resources/demo/`).
enum DemoPhoto {
    static let load: @Sendable () throws -> Image = {
        guard let path = try? AppResources.requireDemoPhoto() else { throw MediaError.demoPhotoMissing }
        return try ImageFile.loadRGB(path: path)
    }
}

/// Hands a non-Sendable object to the one thread that uses it from then on.
final class UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
