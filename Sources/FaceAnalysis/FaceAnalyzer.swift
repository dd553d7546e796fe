import CaptureModel
import Media

#if canImport(Glibc)
import Glibc
#endif

/// Settings of `FaceAnalyzer`.
public struct FaceAnalyzerConfig: Sendable, Equatable {
    /// Where and at which scales to search (tracking ROI, ~320 px downscale, full-res fallback).
    public var detection = DetectionStrategy()
    /// How faces are followed and smoothed across frames (`FaceTracker`).
    public var tracking = FaceTrackerConfig()
    public init() {}
}

/// Turns a gray frame into a `FrameAnalysis`: faces (tracked detection), 68 landmarks, head pose,
/// and light/focus/eye measures on the main face. Synchronous and not thread-safe: run it on one
/// analysis thread (see `AsyncFaceAnalyzer`).
public final class FaceAnalyzer {
    /// Detection and tracking across frames (one home for tracking).
    public let tracker: FaceTracker
    /// nil: no landmarks yet (model still loading) → untracked boxes, no pose, eyes unknown.
    public var landmarks: LandmarkPredicting? {
        get { tracker.landmarks }
        set { tracker.landmarks = newValue }
    }
    public let config: FaceAnalyzerConfig
    /// CPU time (this thread's clock, µs) the last `analyze` call spent on the quality vector
    /// (`QualityMeasures.vector`): what `analyze` and `make bench` report as its cost.
    public private(set) var lastQualityCPUMicros = 0

    /// - Parameters:
    ///   - detector: the detection backend, e.g. `try DlibHOGDetector()`.
    ///   - landmarks: the landmark model, e.g. `DlibShapePredictor` from `LandmarkModelLoader`; may
    ///     be set later (`landmarks` property) once loaded in the background.
    public init(detector: FaceDetecting, landmarks: LandmarkPredicting? = nil, config: FaceAnalyzerConfig = FaceAnalyzerConfig()) {
        tracker = FaceTracker(detector: TrackingFaceDetector(backend: detector, strategy: config.detection),
                              landmarks: landmarks, config: config.tracking)
        self.config = config
    }

    /// Forgets the tracks (e.g. when a looping source restarts).
    public func reset() { tracker.reset() }

    /// Analyses one frame.
    /// - Parameters:
    ///   - gray: the source frame as 8-bit gray (`Image.layout == .gray`), any size.
    ///   - frameIndex: the frame's index in its source (copied into the result).
    ///   - timestampMs: the frame's timestamp in ms from the source's start (copied; drives the
    ///     tracker's temporal filter, so it must not go back except after `reset()`).
    /// - Returns: faces in source pixels (unmirrored), most confident first, tracked (filtered
    ///   landmarks, box and pose) for the first `tracking.maxTracks`; brightness/clipping/sharpness
    ///   of the first face's box (whole frame when no face); the whole frame's mean luma
    ///   (`sceneBrightness`); eyesOpen nil (the verdict is `Guidance`'s, relative to the person's
    ///   own eyes, from the vector's `EyesOpen`); the quality vector of the first face (`QualityMeasures.vector`).
    /// - Throws: the backends' errors (`FaceModelError.dlib`).
    public func analyze(gray: Image, frameIndex: Int, timestampMs: Int) throws -> FrameAnalysis {
        try analyze(gray: gray, scale: 1, sourceWidth: gray.width, sourceHeight: gray.height,
                    frameIndex: frameIndex, timestampMs: timestampMs)
    }

    /// Analyses one frame given at an analysis scale (issue #16: `VideoFrame.analysisGray`,
    /// `AnalysisScale`): detection, tracking, landmarks and the pixel measures run on `gray`;
    /// boxes and landmarks are reported in SOURCE pixels (× `scale`), as is the quality vector's
    /// InterEyeDistance. The tracker's filters thus work in analysis pixels, which at 720p and
    /// 1080p are 640 and 480 px wide frames, the widths their parameters were measured on.
    /// - Parameters:
    ///   - gray: the frame shrunk by `scale` (`ceil(sourceWidth / scale)` wide).
    ///   - scale: 1, 2, 4 or 8: source pixels per analysis pixel.
    ///   - sourceWidth, sourceHeight: the frame's own size (`FrameAnalysis.frameWidth/Height`).
    public func analyze(gray: Image, scale: Int, sourceWidth: Int, sourceHeight: Int, frameIndex: Int,
                        timestampMs: Int) throws -> FrameAnalysis {
        precondition(gray.layout == .gray, "FaceAnalyzer.analyze needs a gray image")
        let d = Double(max(1, scale))
        let local = try analyzeAtScale(gray: gray, frameIndex: frameIndex, timestampMs: timestampMs, pixelScale: d)
        guard scale > 1 else { return local }
        var a = local
        a.frameWidth = sourceWidth
        a.frameHeight = sourceHeight
        a.faces = local.faces.map { AnalysisScale.toSource($0, scale: d) }
        return a
    }

    private func analyzeAtScale(gray: Image, frameIndex: Int, timestampMs: Int, pixelScale: Double) throws -> FrameAnalysis {
        let faces = try tracker.update(gray: gray, timestampMs: timestampMs)
        let region = faces.first?.box
        let (mean, clipped) = FaceQuality.luma(gray, region: region)
        let sharp = region.map { FaceQuality.sharpness(gray, region: $0) } ?? 0
        // The whole frame's exposure (issue #24: light is judged on the scene, not on the skin),
        // on every 4th pixel of every 4th row: 1/16 of the pixels, the same mean within 0.5 luma.
        let scene = FaceQuality.sceneLuma(gray, step: 4)
        let q0 = Self.threadCPUMicros()
        let quality = QualityMeasures.vector(gray: gray, faces: faces, sharpness: sharp, pixelScale: pixelScale)
        lastQualityCPUMicros = Self.threadCPUMicros() - q0
        return FrameAnalysis(frameIndex: frameIndex, timestampMs: timestampMs, frameWidth: gray.width,
                             frameHeight: gray.height, faces: faces, brightness: mean, clippedFraction: clipped,
                             sharpness: sharp, eyesOpen: nil, quality: quality, sceneBrightness: scene)
    }

    /// This thread's CPU time in µs (CLOCK_THREAD_CPUTIME_ID).
    static func threadCPUMicros() -> Int {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Int(ts.tv_sec) * 1_000_000 + Int(ts.tv_nsec) / 1000
    }
}

extension AnalysisScale {
    /// A face found at an analysis scale, in source pixels: analysis pixel i covers source
    /// pixels [i·d, (i+1)·d), as libjpeg's scaled decode and `PixelConvert.lumaShrunk` make it,
    /// so a box's edges scale by d and a landmark (a pixel centre) maps to i·d + (d−1)/2.
    public static func toSource(_ f: DetectedFace, scale d: Double) -> DetectedFace {
        func box(_ r: Rect) -> Rect { Rect(x: r.x * d, y: r.y * d, w: r.w * d, h: r.h * d) }
        var out = f
        out.box = box(f.box)
        out.detectorBox = f.detectorBox.map(box)
        out.landmarks = f.landmarks.map { Point(x: $0.x * d + (d - 1) / 2, y: $0.y * d + (d - 1) / 2) }
        return out
    }
}
