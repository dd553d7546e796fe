import Camera
import CaptureFlow
import CaptureModel
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

/// The runtime loop of DESIGN.md: each turn it reads keys (terminal and `--keys` script), takes
/// what the source queued, has it judged, feeds the state machine, carries out its effects
/// (`perform`) and draws. The work is done in rooms, each the only owner of its state:
/// `SourceSession` (reader thread; time through `Pacing`, realtime or virtual),
/// `AnalysisPipeline` (models, analyzer, guidance), `RecordingSession` (video, stills, reference
/// frame, result.json and manifest), `ScreenPresenter` (backend, preview, draw pacing, status
/// line, keys help), `AccessibilitySession`; `RunReport` says how the run ended. Every frame
/// read while recording goes into the video. `--timeout` is per attempt (`timeoutStartMs`).
public final class CaptureRuntime {
    let setup: CaptureSetup
    var driver: FlowDriver
    var machine: CaptureStateMachine { driver.machine }
    let source: SourceSession
    let analysis: AnalysisPipeline
    /// The run's output: video, stills, reference frame, result.json and manifest.
    let recording: RecordingSession
    let presenter: ScreenPresenter
    let accessibility = AccessibilitySession()
    var clock: MediaClock { source.pacing.clock }

    var eventLog: EventLog?
    /// Events `--keep-failed` hears, seen during the driver's step and handled after it.
    var attemptEvents: [FlowEvent] = []
    /// True while `playScriptKeys` runs (it is not re-entered from the keys it presses).
    var playingScript = false
    /// Warnings printed on stderr once the screen is restored.
    var warnings: [String] = []
    /// The last hint other than "Hold still" the capture screen showed (named in the final
    /// message of a run that timed out).
    var lastShownHint: Hint?
    var exitCode: ExitCode?
    /// A specific error that decides the exit code and message (else the machine's exit).
    var failure: AppError?

    typealias RecordedFrame = RecordingSession.RecordedFrame

    public init(setup: CaptureSetup) {
        self.setup = setup
        // The one place that decides how time passes.
        let pacing: any Pacing = setup.source.pace == .fast ? VirtualPacing() : RealtimePacing()
        source = SourceSession(setup: setup, pacing: pacing)
        analysis = AnalysisPipeline(config: setup.guidance, pacing: pacing)
        recording = RecordingSession(setup: setup)
        presenter = ScreenPresenter(setup: setup, pacing: pacing)
        driver = FlowDriver(machine: CaptureStateMachine(settings: setup.settings))
    }

    /// Runs the capture to its end.
    /// - Returns: the exit code (0 recorded, 130 cancelled, …).
    /// - Throws: `AppError` for what fails before the screen starts (output folder 73, logs).
    public func run() throws -> ExitCode {
        recording.startedAt = setup.output.wallClock()
        // SIGTERM/SIGHUP: re-raised once everything below is cleaned up (exit 143/129).
        defer { SignalGuard.finishTermination() }
        try recording.prepareOutput()
        defer { cleanUp() }
        eventLog = try setup.output.eventsPath.map { p in
            do { return try EventLog(path: p) } catch { throw AppError.cannotCreateOutput(path: p, reason: String(cString: strerror(errno))) }
        }
        analysis.log = try setup.output.analysisLogPath.map { $0 == "-" ? LineSink(console: setup.console) : try LineSink(path: $0) }
        driver = FlowDriver(machine: driver.machine, keys: setup.keys, log: eventLog)
        // `frameCounts` just before each event that ends an attempt, else once at the end.
        driver.beforeAttemptEnds = { [unowned self] t in self.source.frameCountsEvent(tMs: t, analysed: self.analysis.analysedFrames) }
        driver.recordedVideo = { [unowned self] owed in self.recording.recordedVideo(owedStillOffsetsMs: owed) }
        // --keep-failed: seen during the driver's step (which holds the machine), handled after it.
        driver.observeEvent = { [unowned self] e in
            if self.setup.output.keepFailed, e.name == .videoCaptureStarted || e.name == .faceCaptureFailed { self.attemptEvents.append(e) }
        }
        presenter.probeTerminal { [setup] in _ = setup.strings }   // the tables parse while the terminal answers (issue #28)
        reportRejectedStrings()
        warnings += try accessibility.open(setup, bell: { [unowned self] in self.presenter.backend.bell() },
                                    report: { [unowned self] e in self.driver.report(e) })
        warnings += try presenter.start()
        SignalGuard.armForRun()
        defer { SignalGuard.disarmAfterRun() }

        send(.started)
        send(.windowTooSmall(presenter.windowTooSmall))
        // The loading screen goes out before anything heavy: the face models load behind it on
        // their own thread, started only now so that it does not compete with the first draw
        // (issue #16, first screen at once; `make bench` measures it).
        draw()
        analysis.startLoader()
        while exitCode == nil {
            if SignalGuard.suspendRequested.exchange(false, ordering: .relaxed) { send(.keyPressed(.suspend)) }
            if SignalGuard.requested.load(ordering: .relaxed) != 0 {
                send(.keyPressed(.interrupt))
                if exitCode == nil { exitCode = .cancelled }
                break
            }
            pollModel()
            readTerminal()
            if !stepSource() { idle() }
            send()
            if exitCode == nil, presenter.backend.inputFD == nil,
               let why = driver.stallReason(keysHelpShown: presenter.keysHelpVisible, timeoutMs: setup.timeoutMs) {
                failure = .timedOut(why)
                exitCode = .timedOut
            }
            if let t = setup.timeoutMs, exitCode == nil, let start = machine.timeoutStartMs, clock.nowMs() - start >= t {
                // The machine fails the attempt (retryable on the capture screen), or ends the run.
                send(.timeout, failure: .timedOut("timed out after \(RunReport.seconds(t)) s" + RunReport.attemptNote(machine)))
            }
            accessibility.update(machine, nowMs: clock.nowMs())
            draw()
        }
        accessibility.finish(recorded: exitCode == .ok, machine: machine, pacing: source.pacing)
        if let f = accessibility.speakerFailure { warnings.append(f) }
        if !driver.attemptSummaryWritten, let e = source.frameCountsEvent(tMs: clock.nowMs(), analysed: analysis.analysedFrames) { driver.report(e) }
        warnings += presenter.end()
        // A run over within a second of an empty cache's first load lets the landmark cache's
        // background write finish (at most 3 s), so no half-written temporary file stays behind.
        analysis.waitForLoader(ms: 3000)
        return RunReport(setup: setup, machine: machine, failure: failure, lastShownHint: lastShownHint)
            .finish(exitCode ?? .ok, warnings: warnings, stats: source.stats, recording: recording)
    }

    /// Reports the string files the capture could not use (`RejectedStrings`), before curses starts: stderr, events
    /// (through `FlowDriver.report`, so a key script can wait for them) and the screens' notice.
    func reportRejectedStrings() {
        guard case let rejected = setup.rejectedStrings, !rejected.isEmpty else { return }
        setup.console.err(rejected.report)
        for e in rejected.events(tMs: clock.nowMs()) { driver.report(e) }
        presenter.notice = rejected.notice(setup.strings)
    }

    func cleanUp() {
        presenter.end()
        analysis.stop()
        let keep = exitCode != .cancelled && SignalGuard.requested.load(ordering: .relaxed) == 0
            ? RecordingSession.KeptFailure(attempts: machine.attempt, source: source.recordOrFallback(recording), console: setup.console) : nil
        recording.cleanUp(succeeded: exitCode == .ok, keepFailed: keep)
        source.shutDown()
        eventLog?.close()
    }

    // MARK: loop steps

    func pollModel() {
        switch analysis.poll() {
        case nil: return
        case .ready:
            presenter.markChanged()
            send(.modelLoaded)
        case .failed(let e):
            failure = e
            exitCode = ErrorReport.exitCode(for: e)
        }
    }

    func readTerminal() {
        guard presenter.backend.inputFD != nil else { return }
        while let input = presenter.backend.readInput(timeoutMs: 0) {
            switch input {
            case .key(let k):
                press(k)
            case .resized:
                send(.terminalResized)
                send(.windowTooSmall(presenter.windowTooSmall))
                presenter.resized()
            case .hangup:   // as if the terminal's SIGHUP had come: the run ends cleanly, exit 129
                _ = raise(SIGHUP)
                return
            }
            if exitCode != nil { return }
        }
    }

    /// Feeds `event` (after the clock and before any due script keys) and carries out the effects.
    /// Emitted events go to the event log and the key script inside `FlowDriver`.
    func send(_ event: Event? = nil) {
        let effects = driver.step(nowMs: clock.nowMs(), events: event.map { [$0] } ?? [], playKeys: false)
        for e in attemptEvents { recording.noteAttemptEvent(e) }   // --keep-failed
        attemptEvents = []
        perform(effects)
        playScriptKeys()
    }

    /// A key, typed or scripted: the keys help takes it first (`?` opens it, any key closes it),
    /// then `i` toggles the status line, then the machine hears it.
    func press(_ k: Key) {
        let help = presenter.keysHelp(k, windowTooSmall: machine.windowTooSmall)
        if let e = help.event { send(e) }
        if help.consumed { return }
        if k == .character("i") { presenter.toggleStatusLine() }
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

    /// Feeds `event`, which may fail the attempt; `error` is what the run reports (stderr, exit
    /// code) if it ends on that failure. When the machine ignores the event, the previous
    /// failure stands; when it retries at once (unattended), `discardAttempt` clears it.
    func send(_ event: Event, failure error: AppError) {
        let previous = failure, attemptBefore = machine.attempt
        failure = error
        send(event)
        if machine.screen != .failed && machine.attempt == attemptBefore { failure = previous }
    }

    /// Takes what the source queued (`SourceSession.takeTurn`) and hands each item to the
    /// machine in order, stopping when one closed the source or ended the run.
    /// - Returns: whether anything progressed.
    func stepSource() -> Bool {
        guard exitCode == nil else { return false }
        let onCapture = machine.screen == .capture
        switch source.takeTurn(onCapture: onCapture, inputFD: presenter.backend.inputFD) {
        case .none: return false
        case .idle: return false
        case .waited: return true
        case .items(let items, let reader):
            let newest = items.lastIndex { if case .frame = $0 { return true } else { return false } }
            for (i, item) in items.enumerated() {
                guard exitCode == nil, source.isCurrent(reader) else { break }
                handle(item, of: reader, newest: i == newest)
            }
            return true
        }
    }

    /// One item of the reader, as `SourceSession.accept` reads it.
    func handle(_ item: SourceReader.Item, of reader: SourceReader, newest: Bool) {
        switch source.accept(item, of: reader, onCapture: machine.screen == .capture) {
        case .opened(let event, let higher, let readerWarnings):
            if let higher { analysis.setHigherQualityAvailable(higher) }
            warnings += readerWarnings
            send(event)
        case .frame(let f, let arrival):
            handle(frame: f, arrival: arrival, newest: newest)
        case .silent(let redraw):
            if redraw { presenter.markChanged() }
        case .ended(let error, let event, let exit, let closeFirst):
            failure = error
            if closeFirst { closeSource() }
            send(event)
            if exitCode == nil && !setup.settings.interactive { exitCode = exit }
            if !closeFirst { closeSource() }
        }
    }

    /// One frame from the reader. `newest`: the last frame of this turn's batch (previewed and
    /// analysed); older ones only go into the recording.
    func handle(frame: VideoFrame, arrival: SourceSession.Arrival, newest: Bool) {
        if arrival.waitNoticeCleared { presenter.markChanged() }
        // The machine's clock reaches this frame's time before the frame is judged, so its
        // events carry the frame's t_ms.
        send()
        // A looping source that started over fails an attempt that is still positioning or
        // counting down (retryable); this frame then belongs to the next attempt, if any.
        if arrival.looped {
            send(.sourceLooped, failure: .timedOut("\(setup.source.spec) played to its end (--loop) before the capture completed" + RunReport.attemptNote(machine)))
        }
        guard exitCode == nil, machine.screen == .capture else { return }
        source.keep(frame)
        presenter.frameRead(atMs: clock.nowMs())
        if arrival.first {
            if let fps = source.info?.fps, fps > 0 { send(.sourceFrameRate(fps)) }
            send(.cameraFirstFrame)
        }
        if newest {
            presenter.show(frame)
            for a in analysis.analyse(frame) { judge(a) }
        }
        if machine.isRecording {
            output { try recording.append(frame, analysis: analysis.lastAnalysis) }
        }
    }

    func judge(_ raw: FrameAnalysis) {
        let (a, g) = analysis.judge(raw)
        recording.attach(a)
        if machine.screen == .capture { recording.noteForKeepFailed(g, index: a.frameIndex, among: source.recentFrames, tMs: clock.nowMs()) }
        send(.frameGuided(g))
        if machine.phase == .positioning || machine.phase == .countdown || machine.phase == .recording,
           let h = machine.guidance?.hint, h != .holdStill { lastShownHint = h }
    }

    /// Nothing to read: wait a little for keys (without spinning), and let virtual time follow
    /// a script's `wait` (`Pacing.idle`).
    func idle() {
        let fd = presenter.backend.inputFD
        let capture = machine.screen == .capture
        source.pacing.idle(IdleTurn(
            nextDeadlineMs: driver.nextDeadlineMs, loading: machine.screen == .loading, capture: capture,
            modelReady: analysis.modelSettled, readerWakes: source.reader != nil && (capture || !source.opened),
            redrawPending: presenter.pacer.needsRedraw,
            waitReader: { [source] ms in _ = source.reader?.wait(ms: ms, alsoFD: fd) },
            pollInput: { [presenter] ms in presenter.waitForKey(ms: ms) },
            hasInput: fd != nil))
    }

    func draw() {
        presenter.draw(machine, facts: SceneFacts(source: source, analysis: analysis), recording: recording)
    }

    // MARK: effects

    func perform(_ effects: [Effect]) {
        for e in effects {
            switch e {
            case .showScreen:
                presenter.markChanged()
            case .loadModel:
                analysis.requestModels()
            case .requestPermission:
                openSource(afterPermission: true)
            case .openCamera:
                openSource(afterPermission: false)
            case .closeCamera:
                closeSource()
            case .startRecording:
                if let frame = source.lastFrame { output { try recording.start(frame: frame, fps: source.info?.fps) } }
            case .collectFrame(let index):
                output { try recording.collect(frameIndex: index, recent: source.recentFrames, analysis: analysis.lastAnalysis) }
            case .collectOwed(let offsets):
                output { try recording.collectOwed(offsetsMs: offsets) }
            case .stopRecording:
                output { try recording.finish() }
            case .abortRecording:
                recording.discard()
            case .discardAttempt:
                // Try again: the failed attempt's files and failure go, the source stays open.
                recording.discardAttempt()
                failure = nil
                analysis.resetGuidance()
                presenter.markChanged()
            case .writeResult:
                writeResult()
            case .suspend:
                presenter.suspend()
                send(.windowTooSmall(presenter.windowTooSmall))
            case .exit(let code):
                if exitCode == nil { exitCode = ExitCode(flow: code) }
            }
        }
    }

    /// Runs a step of the recording; its error fails the attempt (`fail(with:)`).
    func output(_ body: () throws -> Void) {
        do { try body() } catch {
            fail(with: RecordingSession.outputError(error, path: recording.folder?.path ?? setup.output.parent))
        }
    }

    func fail(with error: AppError) {
        failure = error
        send(.cameraFailed(reason: ErrorReport.message(for: error)))
        if exitCode == nil && !setup.settings.interactive { exitCode = ErrorReport.exitCode(for: error) }
    }

    /// Starts the reader thread, which opens the source; the machine hears `permissionGranted`
    /// or `cameraOpened` when it has (`SourceSession.didOpen`), or the failure.
    func openSource(afterPermission: Bool) {
        closeSource()
        source.open(afterPermission: afterPermission)
    }

    func closeSource() {
        source.close()
        analysis.sourceClosed()
        presenter.forgetPreview()
    }

    /// The machine's `writeResult`: the recording's documents (the last recorded frames may
    /// still be in the analyser; the models go first: peak RSS, issue #28), then `outputSaved`.
    func writeResult() {
        for a in analysis.finishAnalysis() { recording.attach(a) }
        let facts = RecordingSession.ResultFacts(
            attempt: machine.attempt, plan: machine.collectionPlan, shortfalls: machine.patience.shortfalls,
            challenge: ResultWriter.challengeResult(machine.challenge), sourceFrames: source.sourceFramesJSON(analysed: analysis.analysedFrames),
            source: source.record, previewLatency: presenter.latencyJSON())
        output { if let saved = try recording.writeResult(facts) { driver.report(saved.event(tMs: clock.nowMs())) } }
    }
}
