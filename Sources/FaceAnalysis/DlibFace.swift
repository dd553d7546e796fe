import CDlibFace
import Foundation
import CaptureModel
import Media

/// Errors from the dlib backend.
public enum FaceModelError: Error, Equatable, Sendable {
    /// The detector could not be created.
    case detectorUnavailable
    /// dlib threw while detecting or predicting (message from dlib).
    case dlib(String)
    /// The shape-predictor model file could not be loaded (path, dlib's message).
    case modelLoad(path: String, message: String)
    /// An image file could not be read (path, dlib's message).
    case imageLoad(path: String, message: String)
}

/// dlib's HOG frontal face detector (`get_frontal_face_detector`, dlib 19.24). Not thread-safe:
/// use one instance per thread.
public final class DlibHOGDetector: FaceDetecting, @unchecked Sendable {
    private let handle: OpaquePointer

    /// How the model cache was used when this detector was made.
    public let cacheUse: ModelCache.Use

    /// Makes dlib's built-in detector. Decoding it takes 350–460 ms on one core; with a cache
    /// directory it is read from `frontal-face-detector.bin` there (~3 ms) or written there
    /// for next time (see `ModelCache`).
    /// - Parameter cacheDirectory: default `ModelCache.directory()`; nil: no cache.
    /// - Throws: `FaceModelError.detectorUnavailable`.
    public init(cacheDirectory: String? = ModelCache.directory()) throws {
        var use: Int32 = 0
        let file = cacheDirectory.map { $0 + "/frontal-face-detector.bin" }
        guard let h = cdf_detector_create(file, &use) else { throw FaceModelError.detectorUnavailable }
        handle = h
        cacheUse = ModelCache.Use(code: use)
    }
    deinit { cdf_detector_destroy(handle) }

    /// Detects faces on a gray image; boxes in that image's pixels, most confident first
    /// (dlib's order). Faces smaller than about 80×80 px are not found (dlib's window size).
    /// - Throws: `FaceModelError.dlib`.
    public func detect(gray image: Image) throws -> [FaceDetection] {
        try detect(gray: image, adjustThreshold: 0)
    }

    /// Detection scanning only the pyramid levels that can hold a face up to `maxFaceSize` px:
    /// dlib's window is 80 px and each level shrinks the image by 5/6, so level k finds faces of
    /// about 80·1.2^k px (±10 %). Scanning 4 levels instead of all on a 180-px tracking ROI
    /// takes 2.8 instead of 3.4 ms (measured on shared/media long.avi, one core).
    public func detect(gray image: Image, maxFaceSize: Double) throws -> [FaceDetection] {
        try detect(gray: image, adjustThreshold: 0, maxPyramidLevels: Self.pyramidLevels(forFaceSize: maxFaceSize))
    }

    /// Pyramid levels needed to find faces up to `size` px: the smallest n with 80·1.2^(n-1)·1.1 ≥ size.
    public static func pyramidLevels(forFaceSize size: Double) -> Int {
        guard size.isFinite, size > 88 else { return 1 }
        return min(64, Int((log(size / 88) / log(1.2)).rounded(.up)) + 1)
    }

    /// The bounded search of `detect(gray:maxFaceSize:)` with dlib's `adjust_threshold`.
    public func detect(gray image: Image, maxFaceSize: Double, adjustThreshold: Double) throws -> [FaceDetection] {
        try detect(gray: image, adjustThreshold: adjustThreshold, maxPyramidLevels: Self.pyramidLevels(forFaceSize: maxFaceSize))
    }

    /// As `detect(gray:)`, with dlib's `adjust_threshold`; `maxPyramidLevels` > 0 limits the scan.
    public func detect(gray image: Image, adjustThreshold: Double, maxPyramidLevels: Int = 0) throws -> [FaceDetection] {
        precondition(image.layout == .gray, "detect(gray:) needs a gray image")
        var boxes = [cdf_box](repeating: cdf_box(), count: 16)
        var err = [CChar](repeating: 0, count: 256)
        let n = image.pixels.withUnsafeBufferPointer { px in
            cdf_detect(handle, px.baseAddress, Int32(image.width), Int32(image.height), Int32(image.stride),
                       adjustThreshold, Int32(maxPyramidLevels), &boxes, Int32(boxes.count), &err, err.count)
        }
        guard n >= 0 else { throw FaceModelError.dlib(cString(err)) }
        return boxes.prefix(Int(min(n, 16))).map { FaceDetection(box: Rect(x: $0.x, y: $0.y, w: $0.w, h: $0.h), score: $0.score) }
    }
}

/// dlib's 68-point shape predictor (iBUG 300-W markup), e.g. Debian `libdlib-data`'s
/// `/usr/share/dlib/shape_predictor_68_face_landmarks.dat` (99.7 MB, loads in 0.45–0.9 s: load it
/// once, off the main path, see `LandmarkModelLoader`). Not thread-safe: one instance per thread.
/// Licence note: Debian lists the model as CC0; upstream dlib says its training data (iBUG 300-W)
/// excludes commercial use. Check before shipping; `LandmarkPredicting` lets another model replace it.
public final class DlibShapePredictor: LandmarkPredicting, @unchecked Sendable {
    /// Debian's path of the 68-landmark model (package `libdlib-data`).
    public static let defaultModelPath = "/usr/share/dlib/shape_predictor_68_face_landmarks.dat"
    private let handle: OpaquePointer
    /// Number of landmarks per face (68 for the iBUG model).
    public let parts: Int
    /// How the model cache was used when loading.
    public let cacheUse: ModelCache.Use

    /// Loads the model file (blocking; 0.5–1 s for the 68-point model). By default the regression
    /// trees are packed into contiguous arrays and evaluated with dlib's arithmetic in dlib's
    /// order: the same points as dlib's `shape_predictor`, in about half the time (1.1 vs 2.1 ms
    /// per face, one core). `reference: true` keeps dlib's own evaluation (the test oracle).
    /// With a cache directory the packed trees are read from there (tens of ms instead of
    /// 0.6–0.8 s) when they were made from this model file, else written there for next time
    /// (see `ModelCache`).
    /// - Parameter cacheDirectory: default `ModelCache.directory()`; nil: no cache.
    /// - Throws: `FaceModelError.modelLoad(path:message:)` (missing or corrupt file).
    /// - Parameter deferCacheWrite: a cache that has to be made is not written now
    ///   (`cacheUse == .deferred`): call `writeDeferredCache()` once the model is in use, e.g.
    ///   on the loading thread after handing the model over (issue #16: 67 MB written after, not
    ///   before, the capture can start).
    public init(path: String = DlibShapePredictor.defaultModelPath, reference: Bool = false,
                cacheDirectory: String? = ModelCache.directory(), deferCacheWrite: Bool = false) throws {
        var err = [CChar](repeating: 0, count: 256)
        var use: Int32 = 0
        let file = reference ? nil : cacheDirectory.map { $0 + "/" + ModelCache.landmarkFileName(modelPath: path) }
        modelPath = path
        cacheFile = file
        guard let h = cdf_shape_predictor_load_deferring(path, reference ? 1 : 0, file, deferCacheWrite ? 1 : 0, &use, &err, err.count) else {
            throw FaceModelError.modelLoad(path: path, message: cString(err))
        }
        handle = h
        parts = Int(cdf_shape_predictor_parts(h))
        cacheUse = ModelCache.Use(code: use)
        var mean = [Double](repeating: 0, count: 2 * max(parts, 1))
        let m = cdf_shape_predictor_mean_shape(h, &mean, Int32(mean.count))
        meanShape = (0..<max(0, Int(m))).map { Point(x: mean[2 * $0], y: mean[2 * $0 + 1]) }
    }

    private let modelPath: String
    private let cacheFile: String?

    /// Writes the cache a `deferCacheWrite` load left unwritten. Only reads the model, so it may
    /// run on another thread while this one predicts.
    /// - Returns: `.written` or `.unwritable`; `cacheUse` itself when nothing was deferred.
    public func writeDeferredCache() -> ModelCache.Use {
        guard cacheUse == .deferred, let cacheFile else { return cacheUse }
        return ModelCache.Use(code: cdf_shape_predictor_write_cache(handle, modelPath, cacheFile))
    }

    /// The model's initial shape (dlib's `initial_shape`), box-normalised.
    public let meanShape: [Point]
    deinit { cdf_shape_predictor_destroy(handle) }

    /// Landmarks of the face in `box` (pixels of `image`), in that image's pixels.
    /// - Throws: `FaceModelError.dlib`.
    public func landmarks(gray image: Image, box: Rect) throws -> [Point] {
        precondition(image.layout == .gray, "landmarks(gray:) needs a gray image")
        var xy = [Double](repeating: 0, count: 2 * max(parts, 1))
        var err = [CChar](repeating: 0, count: 256)
        let n = image.pixels.withUnsafeBufferPointer { px in
            cdf_landmarks(handle, px.baseAddress, Int32(image.width), Int32(image.height), Int32(image.stride),
                          box.x, box.y, box.w, box.h, &xy, Int32(xy.count), &err, err.count)
        }
        guard n >= 0 else { throw FaceModelError.dlib(cString(err)) }
        return (0..<Int(n)).map { Point(x: xy[2 * $0], y: xy[2 * $0 + 1]) }
    }
}

/// Image files read through dlib's `load_image` (PNG, JPEG, BMP).
public enum ImageFile {
    /// Loads `path` as packed RGB.
    /// - Throws: `FaceModelError.imageLoad` with dlib's message (missing file, unknown format).
    public static func loadRGB(path: String) throws -> Image {
        var w: Int32 = 0, h: Int32 = 0
        var err = [CChar](repeating: 0, count: 256)
        guard let p = cdf_load_image_rgb(path, &w, &h, &err, err.count) else {
            throw FaceModelError.imageLoad(path: path, message: cString(err))
        }
        defer { cdf_free(p) }
        let pixels = Array(UnsafeBufferPointer(start: p, count: Int(w) * Int(h) * 3))
        return Image(width: Int(w), height: Int(h), layout: .rgb, pixels: pixels)
    }
}

/// Text of a NUL-terminated C buffer.
func cString(_ buf: [CChar]) -> String {
    String(decoding: buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// Caches of the face models in a form that loads fast (see `DlibHOGDetector.init` and
/// `DlibShapePredictor.init`). A cache file is tied to what it was made from (dlib's version,
/// or the model file's size and modification time) and carries a hash; a stale, foreign or
/// damaged file is rebuilt, never an error. Files are written under a temporary name and
/// renamed, so concurrent runs are safe.
public enum ModelCache {
    /// How a cache was used.
    public enum Use: String, Sendable, Equatable {
        /// No cache directory.
        case none
        /// Loaded from the cache.
        case read
        /// Built from the source and written to the cache.
        case written
        /// Built from the source; the cache could not be written (read-only, full disk).
        case unwritable
        /// Built from the source; the cache is to be written later (`writeDeferredCache`).
        case deferred
        init(code: Int32) {
            switch code {
            case 1: self = .read
            case 2: self = .written
            case 3: self = .unwritable
            case 4: self = .deferred
            default: self = .none
            }
        }
    }

    /// The cache directory: `$SELFIE_CAPTURE_CACHE_DIR` (empty: no cache), else
    /// `$XDG_CACHE_HOME/selfie-capture`, else `$HOME/.cache/selfie-capture` (XDG Base Directory
    /// spec); created with mode 0700 if missing. nil when it cannot be created.
    public static func directory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        let dir: String
        if let own = environment["SELFIE_CAPTURE_CACHE_DIR"] {
            guard !own.isEmpty else { return nil }
            dir = own
        } else if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            dir = xdg + "/selfie-capture"
        } else if let home = environment["HOME"], !home.isEmpty {
            dir = home + "/.cache/selfie-capture"
        } else {
            return nil
        }
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: dir, isDirectory: &isDir) { return isDir.boolValue ? dir : nil }
        do {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            return dir
        } catch {
            return nil
        }
    }

    /// `landmarks-<FNV-1a 64 of the model path, hex>.bin`: one cache per model file.
    public static func landmarkFileName(modelPath: String) -> String {
        var h: UInt64 = 0xcbf29ce484222325
        for b in modelPath.utf8 { h = (h ^ UInt64(b)) &* 0x100000001b3 }
        return "landmarks-" + String(h, radix: 16) + ".bin"
    }
}
