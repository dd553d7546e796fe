import CDlibFace
import Media

/// A face bounding box in source pixels (x, y = top-left), with the detector's confidence.
public struct FaceBox: Sendable, Equatable, Codable {
    public var x: Double
    public var y: Double
    public var w: Double
    public var h: Double
    /// dlib's detection confidence (SVM margin; > 0 means above the default threshold).
    public var score: Double
    public init(x: Double, y: Double, w: Double, h: Double, score: Double = 0) {
        self.x = x; self.y = y; self.w = w; self.h = h; self.score = score
    }

    /// Intersection over union with `other`, in 0...1.
    public func iou(_ other: FaceBox) -> Double {
        let ix = max(0, min(x + w, other.x + other.w) - max(x, other.x))
        let iy = max(0, min(y + h, other.y + other.h) - max(y, other.y))
        let inter = ix * iy
        let union = w * h + other.w * other.h - inter
        return union > 0 ? inter / union : 0
    }
}

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
public final class DlibHOGDetector: @unchecked Sendable {
    private let handle: OpaquePointer

    /// - Throws: `FaceModelError.detectorUnavailable`.
    public init() throws {
        guard let h = cdf_detector_create() else { throw FaceModelError.detectorUnavailable }
        handle = h
    }
    deinit { cdf_detector_destroy(handle) }

    /// Detects faces on a gray image; boxes in that image's pixels, most confident first
    /// (dlib's order). Faces smaller than about 80×80 px are not found (dlib's window size).
    /// - Parameter adjustThreshold: dlib's `adjust_threshold` (0 = default; lower finds more).
    /// - Throws: `FaceModelError.dlib`.
    public func detect(gray image: Image, adjustThreshold: Double = 0) throws -> [FaceBox] {
        precondition(image.layout == .gray, "detect(gray:) needs a gray image")
        var boxes = [cdf_box](repeating: cdf_box(), count: 16)
        var err = [CChar](repeating: 0, count: 256)
        let n = image.pixels.withUnsafeBufferPointer { px in
            cdf_detect(handle, px.baseAddress, Int32(image.width), Int32(image.height), Int32(image.stride),
                       adjustThreshold, &boxes, Int32(boxes.count), &err, err.count)
        }
        guard n >= 0 else { throw FaceModelError.dlib(cString(err)) }
        return boxes.prefix(Int(min(n, 16))).map { FaceBox(x: $0.x, y: $0.y, w: $0.w, h: $0.h, score: $0.score) }
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
