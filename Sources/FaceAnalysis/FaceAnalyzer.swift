import CaptureFlow
import Media

/// Settings of `FaceAnalyzer`.
public struct FaceAnalyzerConfig: Sendable, Equatable {
    /// Where and at which scales to search (tracking ROI, ~320 px downscale, full-res fallback).
    public var detection = DetectionStrategy()
    /// Eye aspect ratio at or above which the eyes count as open. 0.2: the blink threshold used by
    /// Soukupová & Čech (CVWW 2016) for the 68-point markup.
    public var eyesOpenMinEAR: Double = 0.2
    /// Landmarks (and hence pose and eyes) are computed for at most this many faces, most
    /// confident first (guidance only needs the main face; more faces → TooManyFaces anyway).
    public var maxLandmarkFaces: Int = 2
    public init() {}
}

/// Turns a gray frame into a `FrameAnalysis`: faces (tracked detection), 68 landmarks, head pose,
/// and light/focus/eye measures on the main face. Synchronous and not thread-safe: run it on one
/// analysis thread (see `AsyncFaceAnalyzer`).
public final class FaceAnalyzer {
    public let detector: TrackingFaceDetector
    /// nil: no landmarks yet (model still loading) → no pose, eyes unknown.
    public var landmarks: LandmarkPredicting?
    public var config: FaceAnalyzerConfig

    /// - Parameters:
    ///   - detector: the detection backend, e.g. `try DlibHOGDetector()`.
    ///   - landmarks: the landmark model, e.g. `DlibShapePredictor` from `LandmarkModelLoader`; may
    ///     be set later (`landmarks` property) once loaded in the background.
    public init(detector: FaceDetecting, landmarks: LandmarkPredicting? = nil, config: FaceAnalyzerConfig = FaceAnalyzerConfig()) {
        self.detector = TrackingFaceDetector(backend: detector, strategy: config.detection)
        self.landmarks = landmarks
        self.config = config
    }

    /// Analyses one frame.
    /// - Parameters:
    ///   - gray: the source frame as 8-bit gray (`Image.layout == .gray`), any size.
    ///   - frameIndex: the frame's index in its source (copied into the result).
    ///   - timestampMs: the frame's timestamp in ms from the source's start (copied).
    /// - Returns: faces in source pixels (unmirrored), most confident first, with landmarks and
    ///   pose for the first `maxLandmarkFaces`; brightness/clipping/sharpness of the first face's
    ///   box (whole frame when no face); eyesOpen of the first face (nil without landmarks).
    /// - Throws: the backends' errors (`FaceModelError.dlib`).
    public func analyze(gray: Image, frameIndex: Int, timestampMs: Int) throws -> FrameAnalysis {
        precondition(gray.layout == .gray, "FaceAnalyzer.analyze needs a gray image")
        let detections = try detector.detect(gray: gray)
        var faces: [DetectedFace] = []
        for (k, d) in detections.enumerated() {
            var face = DetectedFace(box: d.box, score: d.score)
            if k < config.maxLandmarkFaces, let lm = landmarks {
                face.landmarks = try lm.landmarks(gray: gray, box: d.box)
                if let pose = HeadPose.estimate(face.landmarks) {
                    face.yaw = pose.yaw; face.pitch = pose.pitch; face.roll = pose.roll
                }
            }
            faces.append(face)
        }
        let region = faces.first?.box
        let (mean, clipped) = FaceQuality.luma(gray, region: region)
        let sharp = region.map { FaceQuality.sharpness(gray, region: $0) } ?? 0
        var eyes: Bool?
        if let first = faces.first, let ear = FaceQuality.eyeAspectRatio(first.landmarks) {
            eyes = ear >= config.eyesOpenMinEAR
        }
        return FrameAnalysis(frameIndex: frameIndex, timestampMs: timestampMs, frameWidth: gray.width,
                             frameHeight: gray.height, faces: faces, brightness: mean, clippedFraction: clipped,
                             sharpness: sharp, eyesOpen: eyes)
    }
}
