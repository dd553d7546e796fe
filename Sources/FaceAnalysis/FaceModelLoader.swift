import Foundation
import Worker

/// Loads both face models off the calling thread (issue #16, "first screen at once"): dlib's
/// HOG detector (350–460 ms to decode without its cache, ~3 ms with it) and the 68-point landmark
/// model (0.6–0.8 s from the .dat, tens of ms from its cache). The caller draws its loading
/// screen first and is told when both are ready. A landmark cache that has to be made (an empty
/// cache: every new user's first run) is written after the models are handed over, on the same
/// background thread, so the 67 MB write never delays the capture. The detector's 155 KB cache
/// is written as it is made.
public enum FaceModelLoader {
    /// Progress of a load, reported on the loading thread.
    public enum Progress: @unchecked Sendable {
        /// Both models ready after `milliseconds` (the loader's clock).
        case loaded(DlibHOGDetector, DlibShapePredictor, milliseconds: Int)
        /// A model could not be made: the detector (`FaceModelError.detectorUnavailable`) or the
        /// landmark file (`.modelLoad`).
        case failed(FaceModelError, milliseconds: Int)
        /// After `.loaded`: what became of the caches (`.read`, `.written`, `.unwritable`, `.none`).
        case cacheDone(detector: ModelCache.Use, landmarks: ModelCache.Use)
    }

    /// Starts loading on a new thread named `face-model-load` (`WorkerThread.once`).
    /// - Returns: the thread, for a bounded wait at exit (`stop(waitingUpToMs:)`: a load still
    ///   inside dlib when the process exits would run C++ destructors under it).
    /// - Parameters:
    ///   - path: the landmark model file.
    ///   - cacheDirectory: `ModelCache.directory()` by default; nil: no cache.
    ///   - clockMs: monotonic milliseconds.
    @discardableResult
    public static func loadInBackground(path: String = DlibShapePredictor.defaultModelPath,
                                        cacheDirectory: String? = ModelCache.directory(),
                                        clockMs: @escaping @Sendable () -> Int = { Int(DispatchTime.now().uptimeNanoseconds / 1_000_000) },
                                        progress: @escaping @Sendable (Progress) -> Void) -> WorkerThread {
        WorkerThread.once(name: "face-model-load") {
            let t0 = clockMs()
            let detector: DlibHOGDetector
            do { detector = try DlibHOGDetector(cacheDirectory: cacheDirectory) } catch {
                progress(.failed(error as? FaceModelError ?? .detectorUnavailable, milliseconds: clockMs() - t0))
                return
            }
            do {
                let model = try DlibShapePredictor(path: path, cacheDirectory: cacheDirectory, deferCacheWrite: true)
                progress(.loaded(detector, model, milliseconds: clockMs() - t0))
                progress(.cacheDone(detector: detector.cacheUse, landmarks: model.writeDeferredCache()))
            } catch let e as FaceModelError {
                progress(.failed(e, milliseconds: clockMs() - t0))
            } catch {
                progress(.failed(.modelLoad(path: path, message: "\(error)"), milliseconds: clockMs() - t0))
            }
        }
    }
}
