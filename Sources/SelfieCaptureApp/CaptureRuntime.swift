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
    let pacer: Pacer
    var backend: TerminalBackend = NullBackend()
    var folder: OutputFolder?
    var folderCreated = false

    // Analysis.
    var analyzer: FaceAnalyzer?
    var worker: AsyncFaceAnalyzer?
    var guidance: Guidance
    let modelState = ModelLoadState()
    var modelAnnounced = false

    // Source.
    var source: FrameSource?
    /// The source's `loops` count already reported to the machine (`sourceLooped`).
    var sourceLoopsSeen = 0
    var sourceBaseMs = 0
    var firstFrameTs: Int?
    var lastFrame: VideoFrame?
    var recentFrames: [VideoFrame] = []
    /// Stills the machine asked for (`collectFrame`) that name a frame not in the video: in
    /// realtime an analysis can arrive after the recording started for a frame read before it.
    /// The next frames that go into the video stand in, so every still belongs to the video.
    var pendingCollects = 0
    /// The index of the last frame offered as a still (one still per frame).
    var lastCollectedIndex: Int?
    var lastAnalysis: FrameAnalysis?
    var preview: PreviewImage?
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

    // Ending.
    var exitCode: ExitCode?
    /// A specific error that decides the exit code and message (else the machine's exit).
    var failure: AppError?
    var needsRedraw = true
    var lastDrawMs: Int?

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
        pacer = Pacer(mode: setup.pace, clock: clock)
    }

    /// Runs the capture to its end.
    /// - Returns: the exit code (0 recorded, 130 cancelled, …).
    /// - Throws: `AppError` for what fails before the screen starts (output folder 73, logs).
    public func run() throws -> ExitCode {
        startedAt = setup.wallClock()
        try prepareOutput()
        defer { cleanUp() }
        try openLogs()
        driver = FlowDriver(machine: driver.machine, keys: setup.keys, log: eventLog)
        try startBackend()
        CaptureRuntime.installInterruptHandlers()
        defer { CaptureRuntime.removeInterruptHandlers() }

        send(.started)
        while exitCode == nil {
            if CaptureRuntime.interrupted.load(ordering: .relaxed) != 0 {
                send(.keyPressed(.interrupt))
                if exitCode == nil { exitCode = .cancelled }
                break
            }
            pollModel()
            readTerminal()
            let progressed = try stepSource()
            if !progressed { idle() }
            send()
            if let t = setup.timeoutMs, exitCode == nil, let start = machine.timeoutStartMs, clock.nowMs() - start >= t {
                // The machine fails the attempt (retryable on the capture screen), or ends the run.
                send(.timeout, failure: .timedOut("timed out after \(formatSeconds(t)) s" + attemptNote()))
            }
            draw()
        }
        backend.end()
        let code = exitCode ?? .ok
        if code != .ok, let f = failure ?? machineFailure() {
            setup.console.err(ErrorReport.message(for: f) + "\n")
            return ErrorReport.exitCode(for: f)
        }
        if code == .cancelled { setup.console.err(ErrorReport.message(for: .cancelled) + "\n") }
        if code == .ok, let s = summary, let folder {
            setup.console.err("selfie-capture: recorded \(s.frameCount) frames (\(s.durationMs) ms) to \(folder.path)\n")
        }
        return code
    }

    // MARK: setup and teardown

    func prepareOutput() throws {
        let existed = setup.outputRequested.map { access($0, F_OK) == 0 } ?? false
        do {
            folder = try OutputFolder.prepare(requested: setup.outputRequested)
        } catch {
            throw AppError.media(error) ?? AppError.cannotCreateOutput(path: setup.outputRequested ?? ".", reason: "\(error)")
        }
        folderCreated = !existed
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
            backend = PlainBackend { console.out($0) }
        case .curses:
            do { backend = try CursesBackend(environment: setup.environment) } catch {
                throw AppError.cameraUnavailable("cannot start the terminal screen (TERM=\(setup.environment["TERM"] ?? "")): \(error); try --renderer plain")
            }
        }
    }

    func cleanUp() {
        backend.end()
        worker?.stop()
        worker = nil
        if exitCode != .ok || summary == nil { discardRecording() }
        source?.close()
        source = nil
        eventLog?.close()
        analysisLog?.close()
        if let folder, folderCreated, exitCode != .ok,
           let entries = try? FileManager.default.contentsOfDirectory(atPath: folder.path), entries.isEmpty {
            rmdir(folder.path)
        }
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
        switch modelState.value {
        case .loading: return
        case .loaded(let model, let ms):
            modelAnnounced = true
            modelLoadMs = ms
            needsRedraw = true
            if let worker, let analyzer {
                let box = UncheckedBox(analyzer)
                worker.runOnAnalysisThread { box.value.landmarks = model }
            } else {
                analyzer?.landmarks = model
            }
            send(.modelLoaded)
        case .failed(let message):
            modelAnnounced = true
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
            case .key(let k): send(.keyPressed(k))
            case .resized: send(.terminalResized); needsRedraw = true
            }
            if exitCode != nil { return }
        }
    }

    /// Feeds `event` (after the clock and before any due script keys) and carries out the effects.
    /// Emitted events go to the event log and the key script inside `FlowDriver`.
    func send(_ event: Event? = nil) {
        perform(driver.step(nowMs: clock.nowMs(), events: event.map { [$0] } ?? []))
    }

    /// What the run reports for a failure the machine reached by itself (from frames, not from an
    /// event the runtime sent with its own `AppError`): the face lost too often.
    func machineFailure() -> AppError? {
        guard machine.screen == .failed, machine.failure == .faceLost else { return nil }
        return .timedOut("the face was lost \(machine.faceLosses) times during the countdown or recording" + attemptNote())
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

    /// Reads and processes one frame when the capture screen has an open source.
    /// - Returns: whether anything progressed.
    func stepSource() throws -> Bool {
        guard exitCode == nil, let src = source, machine.screen == .capture else { return false }
        let frame: VideoFrame
        do {
            guard let f = try src.nextFrame() else {
                failure = AppError.media(MediaError.sourceEnded(setup.sourceSpec))
                send(.sourceEnded)
                if exitCode == nil && !setup.settings.interactive { exitCode = .timedOut }
                closeSource()
                return true
            }
            frame = f
        } catch {
            let e = AppError.media(error) ?? .cameraUnavailable("\(error)")
            failure = e
            send(.cameraFailed(reason: ErrorReport.message(for: e)))
            if exitCode == nil && !setup.settings.interactive { exitCode = ErrorReport.exitCode(for: e) }
            closeSource()
            return true
        }
        if let fast = fastClock {
            let first = firstFrameTs ?? frame.timestampMs
            let target = sourceBaseMs + frame.timestampMs - first
            if target > fast.nowMs() { fast.advance(ms: target - fast.nowMs()) }
        } else {
            pacer.release(timestampMs: frame.timestampMs)
        }
        let isFirst = firstFrameTs == nil
        if isFirst { firstFrameTs = frame.timestampMs }
        // The machine's clock reaches this frame's time before the frame is judged, so its
        // events carry the frame's t_ms.
        send()
        // A looping source that started over fails an attempt that is still positioning or
        // counting down (retryable); this frame then belongs to the next attempt, if any.
        if src.loops > sourceLoopsSeen {
            sourceLoopsSeen = src.loops
            send(.sourceLooped, failure: .timedOut("\(setup.sourceSpec) played to its end (--loop) before the capture completed" + attemptNote()))
        }
        guard exitCode == nil, machine.screen == .capture else { return true }
        lastFrame = frame
        recentFrames.append(frame)
        if recentFrames.count > 8 { recentFrames.removeFirst() }
        // The preview is at most cols × 2·rows pixels: decode RGB only as large as that needs
        // (1/8 of 640×480 on an 80×24 terminal).
        let shown = frame.rgb(covering: backend.size.cols, 2 * backend.size.rows)
        preview = PreviewImage(width: shown.width, height: shown.height, rgb: shown.pixels)
        needsRedraw = true
        if isFirst {
            if let fps = source?.info.fps, fps > 0 { send(.sourceFrameRate(fps)) }
            send(.cameraFirstFrame)
        }

        if let worker {
            worker.submit(AnalysisJob(gray: frame.gray, frameIndex: frame.index, timestampMs: frame.timestampMs))
            for r in worker.takeResults() {
                if case .success(let a) = r { judge(a) }
            }
        } else if let analyzer {
            if let a = try? analyzer.analyze(gray: frame.gray, frameIndex: frame.index, timestampMs: frame.timestampMs) {
                judge(a)
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
        return true
    }

    func judge(_ a: FrameAnalysis) {
        lastAnalysis = a
        attach(a)
        let g = guidance.judge(a)
        if let log = analysisLog { try? log.write(AnalysisLog.jsonLine(a, g) + "\n") }
        send(.frameGuided(g))
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
        _ = pollInput(ms: 10)
    }

    func pollInput(ms: Int) -> Bool {
        guard let fd = backend.inputFD else { usleep(useconds_t(ms * 1000)); return false }
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&p, 1, Int32(ms)) > 0
    }

    func draw() {
        let now = clock.nowMs()
        // While the model loads, the loading screen's time counts up in tenths of a second.
        if machine.screen == .loading, modelLoadMs == nil, let start = modelLoadStartMs, (now - start) / 100 != loadingTick {
            loadingTick = (now - start) / 100
            needsRedraw = true
        }
        // At most ~30 screens a second of the run's clock on the capture screen (a camera's
        // rate); other screens draw when they change.
        guard needsRedraw, lastDrawMs.map({ now - $0 >= 33 }) ?? true || machine.screen != .capture else { return }
        needsRedraw = false
        lastDrawMs = now
        let loading = LoadingViewState(stage: machine.loadingStage,
                                       elapsedMs: modelLoadMs == nil ? modelLoadStartMs.map { now - $0 } : nil,
                                       modelLoadMs: modelLoadMs)
        let view = ScreenView.from(machine, image: preview, mirrored: setup.guidance.mirror, faceOval: setup.guidance.oval,
                                   loading: loading,
                                   result: resultView())
        let context = RenderContext(backend: backend, strings: setup.strings, theme: setup.theme, layout: setup.layout)
        backend.draw(Screens.render(view, context: context))
    }

    func resultView() -> ResultViewState? {
        guard let s = summary, let folder else { return nil }
        var paths = [s.path]
        if let c = collector, !c.collected.isEmpty { paths.append(folder.file("frames")) }
        paths.append(folder.file("result.json"))
        return ResultViewState(savedPaths: paths, durationSeconds: Double(s.durationMs) / 1000,
                               frameCount: s.frameCount, collectedCount: collector?.collected.count ?? 0,
                               askedCount: setup.settings.options.numberOfFrameToCollect)
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
            case .exit(let code):
                if exitCode == nil { exitCode = ExitCode(flow: code) }
            }
        }
    }

    /// Try again: removes what the failed attempt left (partial video, collected frames,
    /// per-frame data), forgets its failure and its guidance history; the source stays open.
    func discardAttempt() {
        discardRecording()
        failure = nil
        guidance.reset()
        needsRedraw = true
    }

    func fail(with error: AppError) {
        failure = error
        send(.cameraFailed(reason: ErrorReport.message(for: error)))
        if exitCode == nil && !setup.settings.interactive { exitCode = ErrorReport.exitCode(for: error) }
    }

    func startAnalysis() {
        do {
            let a = FaceAnalyzer(detector: try DlibHOGDetector(), landmarks: nil)
            analyzer = a
            if setup.pace == .realtime {
                let box = UncheckedBox(a)   // used only on the analysis thread from here on
                worker = AsyncFaceAnalyzer(work: { job in
                    try box.value.analyze(gray: job.gray, frameIndex: job.frameIndex, timestampMs: job.timestampMs)
                })
            }
        } catch {
            failure = .cameraUnavailable("face detector: \(error)")
            exitCode = .unavailable
            return
        }
        modelState.set(.loading)
        modelLoadStartMs = clock.nowMs()
        let state = modelState
        LandmarkModelLoader.loadInBackground { progress in
            switch progress {
            case .started: break
            case .loaded(let model, let ms): state.set(.loaded(model, ms: ms))
            case .failed(let e, _): state.set(.failed("\(e)"))
            }
        }
        if setup.pace == .fast {
            // Deterministic runs wait for the model here rather than racing it.
            while case .loading = modelState.value { usleep(5000) }
        }
    }

    func openSource(afterPermission: Bool) {
        do {
            let options = SourceOptions(demoPhoto: DemoPhoto.load, loop: setup.loop,
                                        camera: CameraOptions(qualities: setup.settings.session.effectiveQualities,
                                                              targetResolution: setup.targetResolution))
            source = try FrameSources.open(spec: setup.sourceSpec, options: options)
            // A face too small in pixels is told to choose a higher --quality when the camera
            // offers a taller frame than the one granted (issue #11).
            if let cam = source as? V4L2CameraSource {
                guidance.config.higherQualityAvailable = Self.cameraOffersTaller(cam.description.formats, than: cam.granted.size)
            }
            sourceLoopsSeen = 0
            sourceBaseMs = clock.nowMs()
            firstFrameTs = nil
            pacer.reset()
            send(afterPermission ? .permissionGranted : .cameraOpened)
        } catch {
            let e = AppError.media(error) ?? .cameraUnavailable("\(error)")
            if case .cameraPermissionDenied(let path) = e {
                failure = e
                send(.permissionDenied(devicePath: path))
                if !setup.settings.interactive && exitCode == nil { exitCode = .permissionDenied }
                return
            }
            failure = e
            send(.cameraFailed(reason: ErrorReport.message(for: e)))
            if exitCode == nil && !setup.settings.interactive { exitCode = ErrorReport.exitCode(for: e) }
        }
    }

    /// Whether any format of the camera lists a frame size taller than `granted` (so a higher
    /// `--quality` could give a face more pixels).
    static func cameraOffersTaller(_ formats: [FormatModes], than granted: FrameSize) -> Bool {
        formats.contains { f in f.sizes.contains { $0.size.height > granted.height } }
    }

    func closeSource() {
        if let s = source { sourceRecord = FrameSources.sourceRecord(of: s, spec: setup.sourceSpec) }
        source?.close()
        source = nil
        analyzer?.reset()
        guidance.reset()
        preview = nil
    }

    func startRecording() {
        guard let folder, let frame = lastFrame else { return }
        discardRecording()
        do {
            let fps = source?.info.fps ?? 30
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
        do { try collector.offer(frame, faceBox: box) } catch {
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
                                     reference: referencePath.flatMap { p in reference.map { ($0.candidate, p) } })
        let resultPath: String
        do { resultPath = try folder.write(Array(json.utf8), to: Manifest.resultFileName) } catch {
            fail(with: AppError.media(error) ?? .cannotCreateOutput(path: folder.file(Manifest.resultFileName), reason: "\(error)"))
            return
        }
        writeManifest(folder: folder, resultPath: resultPath)
    }

    /// Writes manifest.json, the folder's last file (sizes and SHA-256 of every other file,
    /// result.json as written), then reports `outputSaved`. If it cannot be written, result.json
    /// goes too, so the failed run leaves no half-documented folder.
    func writeManifest(folder: OutputFolder, resultPath: String) {
        let record = source.map { FrameSources.sourceRecord(of: $0, spec: setup.sourceSpec) } ?? sourceRecord
            ?? SourceRecord(kind: FrameSources.recordKind(setup.sourceKind, spec: setup.sourceSpec), spec: setup.sourceSpec, width: summary?.width ?? 0, height: summary?.height ?? 0,
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
        driver.report(FlowEvent(.outputSaved, tMs: clock.nowMs(), fields: [
            EventField("folder", .string(folder.path)),
            EventField("result", .string(resultPath)),
            EventField("manifest", .string(manifestPath)),
        ]))
    }

    func formatSeconds(_ ms: Int) -> String {
        ms % 1000 == 0 ? String(ms / 1000) : String(Double(ms) / 1000)
    }

    // MARK: signals

    /// Set (to the signal number) by SIGINT/SIGTERM/SIGHUP; the loop ends the run cleanly.
    static let interrupted = Atomic<Int32>(0)
    nonisolated(unsafe) static var previousHandlers: [Int32: sighandler_t?] = [:]

    /// First signal: set the flag (async-signal-safe atomic store). Second: the handler that was
    /// there before (curses' restore-and-reraise), or the default action.
    static func installInterruptHandlers() {
        for s in [SIGINT, SIGTERM, SIGHUP] {
            let old = signal(s) { sig in
                if CaptureRuntime.interrupted.exchange(sig, ordering: .relaxed) != 0 {
                    signal(sig, SIG_DFL)
                    raise(sig)
                }
            }
            previousHandlers[s] = old
        }
    }

    static func removeInterruptHandlers() {
        for (s, h) in previousHandlers { signal(s, h ?? SIG_DFL) }
        previousHandlers = [:]
    }
}

/// The landmark model's load, shared between the loader thread and the runtime loop.
final class ModelLoadState: @unchecked Sendable {
    enum Value {
        case idle, loading
        case loaded(DlibShapePredictor, ms: Int)
        case failed(String)
    }
    private let lock = NSLock()
    private var _value = Value.idle
    var value: Value { lock.lock(); defer { lock.unlock() }; return _value }
    func set(_ v: Value) { lock.lock(); _value = v; lock.unlock() }
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

/// The demo face photo, found beside the built-in tables (see `Localizer.standard`).
enum DemoPhoto {
    static let relative = "Resources/demo/astronaut.png"

    /// `$SELFIE_CAPTURE_DEMO_PHOTO`, else `Resources/demo/astronaut.png` under the project root
    /// found from the executable's real path or the current folder, else Debian's python3-skimage copy.
    static let load: @Sendable () throws -> Image = {
        var candidates: [String] = []
        if let p = ProcessInfo.processInfo.environment["SELFIE_CAPTURE_DEMO_PHOTO"] { candidates.append(p) }
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            var dir = URL(fileURLWithPath: exe).deletingLastPathComponent()
            while dir.path != "/" {
                candidates.append(dir.appendingPathComponent(relative).path)
                dir.deleteLastPathComponent()
            }
        }
        candidates.append(relative)
        candidates.append("/usr/lib/python3/dist-packages/skimage/data/astronaut.png")
        for path in candidates where access(path, R_OK) == 0 { return try ImageFile.loadRGB(path: path) }
        throw MediaError.demoPhotoMissing
    }
}

/// Hands a non-Sendable object to the one thread that uses it from then on.
final class UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
