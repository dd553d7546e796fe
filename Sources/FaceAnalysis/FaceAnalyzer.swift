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
    /// Above this |roll| (degrees; the previous frame's or the first estimate), landmarks are
    /// predicted again on a crop turned upright by that roll. dlib's shape predictor starts from an
    /// upright mean shape and sometimes fails on faces rolled ~35° (seen on shared/media `rolled`:
    /// 7 of 114 frames off by 5–26°); upright, it does not.
    public var uprightRefineRoll: Double = 10
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
    /// The first face of the previous frame (box, roll), to seed the roll of the next.
    private var last: (box: Rect, roll: Double?)?

    private func previousRoll(near box: Rect) -> Double? {
        guard let last, last.box.iou(box) > 0.3 else { return nil }
        return last.roll
    }

    /// - Parameters:
    ///   - detector: the detection backend, e.g. `try DlibHOGDetector()`.
    ///   - landmarks: the landmark model, e.g. `DlibShapePredictor` from `LandmarkModelLoader`; may
    ///     be set later (`landmarks` property) once loaded in the background.
    public init(detector: FaceDetecting, landmarks: LandmarkPredicting? = nil, config: FaceAnalyzerConfig = FaceAnalyzerConfig()) {
        self.detector = TrackingFaceDetector(backend: detector, strategy: config.detection)
        self.landmarks = landmarks
        self.config = config
    }

    /// Forgets the track and the previous roll (e.g. when a looping source restarts).
    public func reset() { detector.reset(); last = nil }

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
                let seed = k == 0 ? previousRoll(near: d.box) : nil
                var points = try lm.landmarks(gray: gray, box: d.box)
                var pose = HeadPose.estimate(points)
                let turn = seed.flatMap { abs($0) > config.uprightRefineRoll ? $0 : nil }
                    ?? pose.flatMap { abs($0.roll) > config.uprightRefineRoll ? $0.roll : nil }
                if let turn {
                    let side = Int((max(d.box.w, d.box.h) * 1.6).rounded())
                    let c = Point(x: d.box.centerX, y: d.box.centerY)
                    let (crop, map) = GrayResample.uprightCrop(gray, center: c, rollDeg: turn, size: side)
                    let o = (Double(side) - d.box.w) / 2, p = (Double(side) - d.box.h) / 2
                    let upright = try lm.landmarks(gray: crop, box: Rect(x: o, y: p, w: d.box.w, h: d.box.h))
                    points = upright.map(map)
                    pose = HeadPose.estimate(points)
                }
                face.landmarks = points
                if let pose {
                    face.yaw = pose.yaw; face.pitch = pose.pitch; face.roll = pose.roll
                }
            }
            faces.append(face)
        }
        last = faces.first.map { ($0.box, $0.roll) }
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
