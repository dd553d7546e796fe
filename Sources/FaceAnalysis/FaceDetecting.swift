import CaptureModel
import Media

/// One detection: a bounding box and the detector's confidence.
public struct FaceDetection: Sendable, Equatable {
    /// Bounding box in pixels of the image that was searched (x, y = top-left).
    public var box: Rect
    /// Detector confidence (dlib: SVM margin, > 0 above its default threshold).
    public var score: Double
    public init(box: Rect, score: Double = 0) { self.box = box; self.score = score }
}

/// A face detector on 8-bit gray images. dlib's HOG detector is one backend; another model can
/// replace it by conforming. Implementations need not be thread-safe: one instance per thread.
public protocol FaceDetecting: AnyObject {
    /// Faces in `image` (layout `.gray`), boxes in that image's pixels, most confident first.
    /// - Throws: a backend error (`FaceModelError` for dlib).
    func detect(gray image: Image) throws -> [FaceDetection]
    /// As `detect(gray:)`, but the caller needs only faces up to about `maxFaceSize` pixels wide
    /// (in `image`'s pixels), so a backend may skip the scales of larger faces. It may still
    /// return larger faces.
    func detect(gray image: Image, maxFaceSize: Double) throws -> [FaceDetection]
    /// As `detect(gray:maxFaceSize:)`, keeping detections whose score is at least
    /// `adjustThreshold` above the detector's own threshold (dlib's `adjust_threshold`: negative
    /// keeps weaker detections).
    func detect(gray image: Image, maxFaceSize: Double, adjustThreshold: Double) throws -> [FaceDetection]
}

extension FaceDetecting {
    /// Backends without a cheaper bounded search search everything.
    public func detect(gray image: Image, maxFaceSize: Double) throws -> [FaceDetection] {
        try detect(gray: image)
    }
    /// Backends without a threshold to move search as `detect(gray:maxFaceSize:)`.
    public func detect(gray image: Image, maxFaceSize: Double, adjustThreshold: Double) throws -> [FaceDetection] {
        try detect(gray: image, maxFaceSize: maxFaceSize)
    }
}

/// A landmark model: points of one face given its detector box. dlib's 68-point shape predictor is
/// one backend (iBUG 300-W order, which `HeadPose` and `FaceQuality.eyeAspectRatio` expect).
public protocol LandmarkPredicting: AnyObject {
    /// Landmarks of the face in `box` (pixels of `image`, layout `.gray`), in that image's pixels.
    /// - Throws: a backend error (`FaceModelError` for dlib).
    func landmarks(gray image: Image, box: Rect) throws -> [Point]
    /// The model's starting shape in box-normalised coordinates ((0,0) the top-left of the box
    /// given to `landmarks`, (1,1) its bottom-right), one point per landmark. `LandmarkBox` uses
    /// it to turn landmarks back into a box in the detector's convention.
    var meanShape: [Point] { get }
}
