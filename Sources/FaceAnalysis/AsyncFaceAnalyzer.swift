import CaptureModel
import Foundation
import Media
import Worker

/// A frame handed to the analysis thread.
public struct AnalysisJob: Sendable {
    /// The frame's luma at the analysis scale (`VideoFrame.analysisGray`).
    public var gray: Image
    public var frameIndex: Int
    public var timestampMs: Int
    /// Source pixels per pixel of `gray` (1, 2, 4, 8) and the frame's own size.
    public var scale: Int
    public var sourceWidth: Int
    public var sourceHeight: Int
    public init(gray: Image, frameIndex: Int, timestampMs: Int, scale: Int = 1, sourceWidth: Int? = nil, sourceHeight: Int? = nil) {
        self.gray = gray; self.frameIndex = frameIndex; self.timestampMs = timestampMs
        self.scale = scale; self.sourceWidth = sourceWidth ?? gray.width; self.sourceHeight = sourceHeight ?? gray.height
    }
    /// The job of `frame`: its analysis-scale luma (`VideoFrame.analysisGray`).
    public init(frame: VideoFrame) {
        self.init(gray: frame.analysisGray, frameIndex: frame.index, timestampMs: frame.timestampMs,
                  scale: frame.analysisDenominator, sourceWidth: frame.width, sourceHeight: frame.height)
    }
}

extension FaceAnalyzer {
    /// Analyses `job` (its gray at its scale; results in source pixels).
    public func analyze(_ job: AnalysisJob) throws -> FrameAnalysis {
        try analyze(gray: job.gray, scale: job.scale, sourceWidth: job.sourceWidth, sourceHeight: job.sourceHeight,
                    frameIndex: job.frameIndex, timestampMs: job.timestampMs)
    }
}

/// Runs analysis on its own thread so the drawing path never waits for it. One slot: `submit`
/// replaces a frame that has not started yet (the newest frame wins; the replaced one is dropped
/// and counted). Each result carries its frame's index and timestamp (`FrameAnalysis.frameIndex`).
/// Results are delivered with `onResult` on the analysis thread, or collected with `takeResults()`.
/// The thread is a `WorkerThread` named `face-analysis` (frames go in its slot, actions in its queue).
public final class AsyncFaceAnalyzer: @unchecked Sendable {
    /// The work done per frame (e.g. `FaceAnalyzer.analyze`); called only on the analysis thread.
    public typealias Work = (AnalysisJob) throws -> FrameAnalysis

    private let worker = WorkerThread(name: "face-analysis")
    private let lock = NSLock()
    private var results: [Result<FrameAnalysis, AnalysisFailure>] = []
    private var _dropped = 0
    private var _analysed = 0
    private let work: Work
    private let onResult: (@Sendable (Result<FrameAnalysis, AnalysisFailure>) -> Void)?

    /// A failed analysis: the frame it was for and the error's description.
    public struct AnalysisFailure: Error, Sendable, Equatable {
        public var frameIndex: Int
        public var message: String
    }

    /// Starts the analysis thread.
    /// - Parameters:
    ///   - work: the analysis; it owns its (non-thread-safe) analyzer, e.g.
    ///     `{ try analyzer.analyze(gray: $0.gray, frameIndex: $0.frameIndex, timestampMs: $0.timestampMs) }`.
    ///   - onResult: called on the analysis thread after each frame; nil to poll `takeResults()`.
    public init(work: @escaping Work, onResult: (@Sendable (Result<FrameAnalysis, AnalysisFailure>) -> Void)? = nil) {
        self.work = work
        self.onResult = onResult
    }

    deinit { worker.stop() }

    /// Offers a frame; returns at once. A frame still waiting is replaced (and counted as dropped).
    public func submit(_ job: AnalysisJob) {
        let replaced = worker.offer { [weak self] in self?.analyse(job) }
        if replaced { lock.lock(); _dropped += 1; lock.unlock() }
    }

    /// Runs `action` on the analysis thread before the next frame (in submission order). Use it to
    /// change the analyzer the work closure owns, e.g. to hand it the landmark model once
    /// `LandmarkModelLoader` has loaded it: `async.runOnAnalysisThread { analyzer.landmarks = model }`.
    public func runOnAnalysisThread(_ action: @escaping @Sendable () -> Void) {
        worker.submit(action)
    }

    /// Results finished since the last call, oldest first.
    public func takeResults() -> [Result<FrameAnalysis, AnalysisFailure>] {
        lock.lock(); defer { lock.unlock() }
        let r = results
        results = []
        return r
    }

    /// Frames replaced before they were analysed.
    public var droppedCount: Int { lock.lock(); defer { lock.unlock() }; return _dropped }
    /// Frames analysed (successfully or not).
    public var analysedCount: Int { lock.lock(); defer { lock.unlock() }; return _analysed }

    /// Blocks until no frame is pending or in progress (for tests and draining a file at its end).
    public func waitUntilIdle() { worker.waitUntilIdle() }

    /// Stops the thread after the frame in progress; pending frames are dropped.
    public func stop() { worker.stop() }

    /// Stops the thread and waits (at most `ms` milliseconds) until the frame in progress is
    /// done, so the process can exit: returning from `main` while the thread is still inside
    /// dlib ran C++ destructors under it ("double free or corruption" and exit 134 on a realtime
    /// run's end, seen once in a clean-clone CI run under load). `WorkerThread.stop(waitingUpToMs:)`.
    /// - Returns: false when the frame in progress outlasted `ms`.
    @discardableResult
    public func stop(waitingUpToMs ms: Int) -> Bool { worker.stop(waitingUpToMs: ms) }

    /// One frame, on the analysis thread.
    private func analyse(_ job: AnalysisJob) {
        let result: Result<FrameAnalysis, AnalysisFailure>
        do { result = .success(try work(job)) } catch {
            result = .failure(AnalysisFailure(frameIndex: job.frameIndex, message: "\(error)"))
        }
        onResult?(result)
        lock.lock()
        _analysed += 1
        if onResult == nil { results.append(result) }
        lock.unlock()
    }
}

/// Loads the landmark model off the calling thread and reports how long it took, for the loading
/// screen. The clock is injected (milliseconds, monotonic).
public enum LandmarkModelLoader {
    /// Progress of a load.
    public enum Progress: Sendable {
        case started(path: String)
        /// Loaded in `milliseconds`.
        case loaded(DlibShapePredictor, milliseconds: Int)
        case failed(FaceModelError, milliseconds: Int)
    }

    /// Starts loading `path` on a new thread; `progress` is called on that thread with `.started`,
    /// then `.loaded` or `.failed`.
    /// - Parameter clockMs: monotonic milliseconds (default: `DispatchTime.now()`).
    public static func loadInBackground(path: String = DlibShapePredictor.defaultModelPath,
                                        clockMs: @escaping @Sendable () -> Int = { Int(DispatchTime.now().uptimeNanoseconds / 1_000_000) },
                                        progress: @escaping @Sendable (Progress) -> Void) {
        WorkerThread.once(name: "landmark-model-load") {
            progress(.started(path: path))
            let t0 = clockMs()
            do {
                let model = try DlibShapePredictor(path: path)
                progress(.loaded(model, milliseconds: clockMs() - t0))
            } catch let e as FaceModelError {
                progress(.failed(e, milliseconds: clockMs() - t0))
            } catch {
                progress(.failed(.modelLoad(path: path, message: "\(error)"), milliseconds: clockMs() - t0))
            }
        }
    }
}
