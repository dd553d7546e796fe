import CaptureFlow
import CaptureModel
import FaceAnalysis
import Foundation
import Media
import Worker

/// From a frame to a judged frame, and the only owner of what that takes: the face models
/// (loaded on their own thread by `FaceModelLoader`, after the first screen), the analyzer (on
/// its own thread, newest frame winning, when the pacing says so: `Pacing.analysesInBackground`),
/// the guidance (`Guidance` → `GuidanceResult`), the analysis log, and the counts.
final class AnalysisPipeline {
    let pacing: any Pacing
    private(set) var guidance: Guidance
    /// The analyzer when analysis runs in the loop (virtual pacing); nil when it runs on `worker`.
    private var analyzer: FaceAnalyzer?
    /// Starts the tracking over on whichever thread owns the analyzer.
    private var resetTracking: () -> Void = {}
    private var worker: AsyncFaceAnalyzer?
    let modelState = ModelLoadState()
    /// The models' loading thread (it also writes an empty cache after handing the models over).
    private var loader: WorkerThread?
    /// The machine asked for the models (`loadModel`); the loader starts after the first draw.
    private var loaderPending = false
    /// The models' outcome was handed to the runtime (`poll`).
    private(set) var modelSettled = false
    /// When the landmark model started loading (run clock ms) and how long it took (the
    /// loader's ms), for the loading screen.
    private(set) var loadStartMs: Int?
    private(set) var loadMs: Int?
    /// The newest judged analysis (its eyes verdict the guidance's).
    private(set) var lastAnalysis: FrameAnalysis?
    /// Frames analysed over the run.
    private(set) var analysedFrames = 0
    /// `--analysis-log` (one JSON line per judged frame), opened by the runtime with its logs.
    var log: LineSink?

    init(config: GuidanceConfig, pacing: any Pacing) {
        guidance = Guidance(config: config)
        self.pacing = pacing
    }

    /// The machine's `loadModel`: the loader starts at the next `startLoader` (after the first
    /// screen was drawn). Nothing here blocks the first screen.
    func requestModels() {
        modelState.set(.loading)
        loadStartMs = pacing.clock.nowMs()
        loaderPending = true
    }

    /// Starts `FaceModelLoader` once, if the models were asked for.
    func startLoader() {
        guard loaderPending else { return }
        loaderPending = false
        let state = modelState
        loader = FaceModelLoader.loadInBackground { progress in
            switch progress {
            case .loaded(let detector, let model, let ms): state.set(.loaded(detector, model, ms: ms))
            case .failed(let e, _): state.set(.failed(e))
            case .cacheDone: break
            }
        }
    }

    /// What `poll` found.
    enum ModelOutcome {
        /// The analyzer is ready (the machine hears `modelLoaded`).
        case ready
        /// The models cannot be used: the run ends with this error.
        case failed(AppError)
    }

    /// Looks at the loader once a turn: the outcome, once; nil while loading or not asked for.
    func poll() -> ModelOutcome? {
        guard !modelSettled else { return nil }
        startLoader()   // no-op once started (after the first draw)
        if case .loading = modelState.value {
            pacing.waitForModels { if case .loading = modelState.value { return true } else { return false } }
        }
        switch modelState.value {
        case .loading, .idle: return nil
        case .loaded(let detector, let model, let ms):
            modelSettled = true
            loadMs = ms
            let a = FaceAnalyzer(detector: detector, landmarks: model)
            if pacing.analysesInBackground {
                // The analyzer is the analysis thread's alone from here on: the loop keeps no
                // reference, and reaches it only through `runOnAnalysisThread`. (Resetting it from
                // the loop while a frame was in progress crashed realtime runs at a clip's end
                // under load: SIGSEGV in FaceTracker.update, 3 of 6 concurrent runs.)
                let box = UncheckedBox(a)
                let w = AsyncFaceAnalyzer(work: { job in try box.value.analyze(job) })
                worker = w
                resetTracking = { w.runOnAnalysisThread { box.value.reset() } }
            } else {
                analyzer = a
                resetTracking = { a.reset() }
            }
            return .ready
        case .failed(.detectorUnavailable):
            modelSettled = true
            return .failed(.cameraUnavailable("face detector: \(FaceModelError.detectorUnavailable)"))
        case .failed(let error):
            modelSettled = true
            let message: String
            if case .modelLoad(_, let m) = error { message = m } else { message = "\(error)" }
            return .failed(.inputMissing(path: "\(DlibShapePredictor.defaultModelPath) (\(message); install libdlib-data)"))
        }
    }

    /// Analyses `frame`: in the loop (the result now), or handed to the analysis thread (the
    /// results that thread finished meanwhile, for older frames).
    func analyse(_ frame: VideoFrame) -> [FrameAnalysis] {
        if let worker {
            worker.submit(AnalysisJob(frame: frame))
            return worker.takeResults().compactMap { if case .success(let a) = $0 { a } else { nil } }
        }
        return analyzer.flatMap { try? $0.analyze(AnalysisJob(frame: frame)) }.map { [$0] } ?? []
    }

    /// The run reached its result: waits for the analysis thread to finish what it holds and
    /// returns its results (the last recorded frames' analyses, before result.json is written),
    /// then lets the models go (`releaseModels`): the result screen analyses nothing.
    func finishAnalysis() -> [FrameAnalysis] {
        var last: [FrameAnalysis] = []
        if let worker {
            worker.waitUntilIdle()
            last = worker.takeResults().compactMap { if case .success(let a) = $0 { a } else { nil } }
        }
        releaseModels()
        return last
    }

    /// Judges an analysis (`Guidance`): the frame's eyes verdict becomes the guidance's (issue
    /// #24: relative to the person), it is logged, counted and kept as `lastAnalysis`.
    func judge(_ analysis: FrameAnalysis) -> (analysis: FrameAnalysis, guidance: GuidanceResult) {
        analysedFrames += 1
        let g = guidance.judge(analysis)
        var a = analysis
        a.eyesOpen = g.eyesOpen
        a.eyesOpenLimit = g.eyesOpenLimit
        lastAnalysis = a
        if let log { try? log.write(AnalysisLog.jsonLine(a, g) + "\n") }
        return (a, g)
    }

    /// A face too small in pixels is told to choose a higher `--quality` (issue #11).
    func setHigherQualityAvailable(_ available: Bool) {
        guidance.config.higherQualityAvailable = available
    }

    /// The source closed: tracking and guidance history start over.
    func sourceClosed() {
        resetTracking()
        guidance.reset()
    }

    /// Try again: the guidance history starts over.
    func resetGuidance() {
        guidance.reset()
    }

    /// At the end of the run, before the process exits: waits (at most `ms`) for the loading
    /// thread to end, so that no half-written cache file stays behind (an empty cache's first
    /// load writes it after handing the models over) and no load is inside dlib at exit.
    /// - Returns: false when it outlasted `ms`.
    @discardableResult
    func waitForLoader(ms: Int) -> Bool { loader?.waitUntilEnded(ms: ms) ?? true }

    /// The run reached its result (`finishAnalysis`): nothing analyses a frame again, so the
    /// analysis thread stops and the analyzer and its models (the landmark model's
    /// 62 MB at any camera size) are let go before the result's files are written (issue #28:
    /// at 1080p they were written on top of the models, the run's peak RSS). When the thread
    /// is still inside a frame after `waitMs`, nothing is let go (no model is freed under it).
    /// - Returns: whether the models were let go.
    @discardableResult
    func releaseModels(waitMs: Int = 2000) -> Bool {
        if let worker {
            guard worker.stop(waitingUpToMs: waitMs) else { return false }
            self.worker = nil
        }
        analyzer = nil
        resetTracking = {}
        modelState.set(.idle)
        return true
    }

    /// At the end of the run: the analysis thread stops, the log closes.
    func stop() {
        // The frame in progress finishes before the run ends (one takes < 0.1 s; 2 s on a
        // machine loaded far beyond its cores).
        worker?.stop(waitingUpToMs: 2000)
        worker = nil
        log?.close()
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
}
