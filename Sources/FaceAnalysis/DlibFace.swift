import CDlibFace
import CaptureFlow
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

    /// - Throws: `FaceModelError.detectorUnavailable`.
    public init() throws {
        guard let h = cdf_detector_create() else { throw FaceModelError.detectorUnavailable }
        handle = h
    }
    deinit { cdf_detector_destroy(handle) }

    /// Detects faces on a gray image; boxes in that image's pixels, most confident first
    /// (dlib's order). Faces smaller than about 80×80 px are not found (dlib's window size).
    /// - Throws: `FaceModelError.dlib`.
    public func detect(gray image: Image) throws -> [FaceDetection] {
        try detect(gray: image, adjustThreshold: 0)
    }

    /// As `detect(gray:)`, with dlib's `adjust_threshold`.
    public func detect(gray image: Image, adjustThreshold: Double) throws -> [FaceDetection] {
        precondition(image.layout == .gray, "detect(gray:) needs a gray image")
        var boxes = [cdf_box](repeating: cdf_box(), count: 16)
        var err = [CChar](repeating: 0, count: 256)
        let n = image.pixels.withUnsafeBufferPointer { px in
            cdf_detect(handle, px.baseAddress, Int32(image.width), Int32(image.height), Int32(image.stride),
                       adjustThreshold, &boxes, Int32(boxes.count), &err, err.count)
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

    /// Loads the model file (blocking; 0.5–1 s for the 68-point model).
    /// - Throws: `FaceModelError.modelLoad(path:message:)` (missing or corrupt file).
    public init(path: String = DlibShapePredictor.defaultModelPath) throws {
        var err = [CChar](repeating: 0, count: 256)
        guard let h = cdf_shape_predictor_load(path, &err, err.count) else {
            throw FaceModelError.modelLoad(path: path, message: cString(err))
        }
        handle = h
        parts = Int(cdf_shape_predictor_parts(h))
    }
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
