import CaptureFlow
import Media

/// How `TrackingFaceDetector` searches a frame. Sizes in source pixels.
public struct DetectionStrategy: Sendable, Equatable {
    /// Width of the downscaled full-frame search (the issue: "about 320 px wide"). At 320 for a
    /// 640-wide frame, faces from about 160 px are found (dlib's window is 80 px).
    public var downscaledWidth: Int = 320
    /// Search the full-resolution frame when the downscaled search finds nothing (finds faces
    /// down to dlib's ~80 px minimum).
    public var fullResolutionFallback: Bool = true
    /// Tracking ROI: the last faces' bounding box grown by this fraction of the face size on
    /// every side (0.4: a move of 0.4 face between analysed frames, ~100 px for a 240-px face at
    /// 15 fps, stays inside; a larger jump falls back to the full-frame search).
    public var roiMargin: Double = 0.4
    /// In the ROI, the frame is shrunk so that the last face measures about this many pixels:
    /// dlib's 80-px window plus room for the face to shrink by 20 % before the ROI loses it.
    /// The HOG cost grows with the ROI's pixels, so this is the main speed knob.
    public var roiFaceSize: Double = 100
    /// Every N-th frame also searches the whole frame, so that a second face entering outside the
    /// ROI is found (N = 5: one third of a second at 15 fps).
    public var fullSearchInterval: Int = 5
    public init() {}
}

/// Face detection with tracking: searches an ROI around the last faces first (cheap), then the
/// frame downscaled to about 320 px wide, then the full-resolution frame; returns boxes in source
/// pixels. Not thread-safe (holds the track); one instance per analysis thread.
public final class TrackingFaceDetector {
    /// The backend (dlib HOG by default).
    public let backend: FaceDetecting
    public var strategy: DetectionStrategy
    /// Boxes of the last frame, in source pixels (empty: no track).
    public private(set) var lastFaces: [Rect] = []
    private var framesSinceFullSearch = 0
    /// The ROI shrink factor in use, kept while the tracked face stays within ±(15…35) % of
    /// `roiFaceSize` at it (hysteresis). Recomputing it from every new box fed dlib's 5/6 pyramid
    /// quantisation back into the next frame's scale and made the box cycle by ±15 % on a still
    /// face (measured on shared/media approach.avi frames 40–56), which defeated stillness checks.
    private var roiScale: Double?

    /// Which searches ran on the last call (for tests and the bench).
    public enum Pass: String, Sendable { case roi, downscaled, fullResolution }
    public private(set) var lastPasses: [Pass] = []

    public init(backend: FaceDetecting, strategy: DetectionStrategy = DetectionStrategy()) {
        self.backend = backend; self.strategy = strategy
    }

    /// Forgets the track (e.g. when the source restarts).
    public func reset() { lastFaces = []; framesSinceFullSearch = 0; roiScale = nil }

    /// Faces on `gray` (the full source frame), boxes in its pixels, most confident first.
    /// - Throws: the backend's error.
    public func detect(gray: Image) throws -> [FaceDetection] {
        lastPasses = []
        var found: [FaceDetection] = []
        framesSinceFullSearch += 1
        if !lastFaces.isEmpty {
            found = try searchROI(gray)
        }
        if found.isEmpty || framesSinceFullSearch >= strategy.fullSearchInterval {
            framesSinceFullSearch = 0
            var global = try search(gray, roi: Rect(x: 0, y: 0, w: Double(gray.width), h: Double(gray.height)),
                                    scale: min(1, Double(strategy.downscaledWidth) / Double(max(gray.width, 1))),
                                    pass: .downscaled)
            if global.isEmpty && strategy.fullResolutionFallback && gray.width > strategy.downscaledWidth {
                global = try search(gray, roi: Rect(x: 0, y: 0, w: Double(gray.width), h: Double(gray.height)),
                                    scale: 1, pass: .fullResolution)
            }
            found = Self.merge(found, global)
        }
        found.sort { $0.score > $1.score }
        lastFaces = found.map(\.box)
        if found.isEmpty { roiScale = nil }
        return found
    }

    private func searchROI(_ gray: Image) throws -> [FaceDetection] {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        var minSize = Double.infinity
        for b in lastFaces {
            let m = strategy.roiMargin * max(b.w, b.h)
            minX = min(minX, b.x - m); minY = min(minY, b.y - m)
            maxX = max(maxX, b.x + b.w + m); maxY = max(maxY, b.y + b.h + m)
            minSize = min(minSize, max(b.w, b.h))
        }
        minX = max(0, minX); minY = max(0, minY)
        maxX = min(Double(gray.width), maxX); maxY = min(Double(gray.height), maxY)
        guard maxX - minX >= 40, maxY - minY >= 40 else { return [] }
        var scale = min(1, strategy.roiFaceSize / max(minSize, 1))
        if let kept = roiScale {
            let faceAtKept = minSize * kept
            if faceAtKept >= 0.85 * strategy.roiFaceSize && faceAtKept <= 1.35 * strategy.roiFaceSize { scale = kept }
        }
        roiScale = scale
        // Snap the ROI origin to the HOG cell grid (8 px at the shrunk scale) so a still face
        // meets the same cells every frame; a drifting origin moved the box by a whole cell
        // (~19 px at scale 0.42), as much as the 3 % stillness limit.
        let cell = (8 / scale).rounded()
        if cell >= 1 {
            minX = (minX / cell).rounded(.down) * cell
            minY = (minY / cell).rounded(.down) * cell
        }
        return try search(gray, roi: Rect(x: minX, y: minY, w: maxX - minX, h: maxY - minY), scale: scale, pass: .roi)
    }

    private func search(_ gray: Image, roi: Rect, scale: Double, pass: Pass) throws -> [FaceDetection] {
        lastPasses.append(pass)
        let (img, sx, sy) = GrayResample.cropAndShrink(gray, roi: roi, scale: scale)
        guard img.width >= 20, img.height >= 20 else { return [] }
        let ox = max(0, roi.x.rounded(.down)), oy = max(0, roi.y.rounded(.down))
        return try backend.detect(gray: img).map {
            FaceDetection(box: Rect(x: ox + $0.box.x / sx, y: oy + $0.box.y / sy, w: $0.box.w / sx, h: $0.box.h / sy),
                          score: $0.score)
        }
    }

    /// `a` plus the faces of `b` that do not overlap one of `a` (IoU < 0.3).
    static func merge(_ a: [FaceDetection], _ b: [FaceDetection]) -> [FaceDetection] {
        var out = a
        for d in b where !out.contains(where: { $0.box.iou(d.box) >= 0.3 }) { out.append(d) }
        return out
    }
}
