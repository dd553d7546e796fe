import CaptureModel
import Media

/// How `TrackingFaceDetector` searches a frame. Sizes in source pixels.
public struct DetectionStrategy: Sendable, Equatable {
    /// Width of the downscaled full-frame search (the issue: "about 320 px wide"). At 320 for a
    /// 640-wide frame, faces from about 160 px are found (dlib's window is 80 px).
    public var downscaledWidth: Int = 320
    /// Search the full-resolution frame when neither the ROI nor the downscaled search finds a
    /// face (finds faces down to dlib's ~80 px minimum). While a face is tracked it does not run,
    /// so a second face smaller than the downscaled search's minimum (~160 px at 640 wide) that
    /// enters outside the ROI is not seen until the track is lost.
    public var fullResolutionFallback: Bool = true
    /// While no face is found, the full-resolution fallback (25–40 ms on a 640×480 frame, one
    /// core) runs on the first search that finds nothing and then on every N-th such search
    /// (N = 3: ten times a second at 30 fps). A face too small
    /// for the downscaled search is then found within 2·N frames and tracked in its ROI from
    /// then on. N = 1 runs it on every search.
    public var fullResolutionInterval: Int = 3
    /// While no face was found on the previous frame, the frame is searched only every N-th
    /// frame; the frames between report no face without a search. N = 1 (every frame): at 2,
    /// half the single frames in which a shaking hand-held camera caught a face were missed
    /// (shared/media/real selfie_handheld.mp4: recall against full-frame dlib 0.93 → 0.976 at 1;
    /// DECISIONS.md 2026-12-01).
    public var idleSearchInterval: Int = 1
    /// While no face is tracked and frame times are given (`detect(gray:timestampMs:)`), a frame
    /// is searched only when the scene changed since the last search or half a second passed
    /// (`IdleSearchSchedule`, issue #28); nil searches every idle frame.
    public var idleSchedule: IdleSearchSchedule? = IdleSearchSchedule()
    /// While a face is tracked and frame times are given, the ROI search and the periodic
    /// whole-frame search run only when the tracked face or the scene changed or a time bound
    /// passed (`TrackedSearchSchedule`, issue #28); the frames between are confirmed by the last
    /// search's faces. nil searches every tracked frame.
    public var trackedSchedule: TrackedSearchSchedule? = TrackedSearchSchedule()
    /// Tracking ROI: the last faces' bounding box grown by this fraction of the face size on
    /// every side (0.3: a move of 0.3 face between analysed frames, ~70 px for a 240-px face,
    /// stays inside; a larger jump falls back to the full-frame search). 0.4 cost 25 % more HOG
    /// time for no detection gained on shared/media.
    public var roiMargin: Double = 0.3
    /// In the ROI, the frame is shrunk so that the last face measures about this many pixels:
    /// dlib's 80-px window plus room for the face to shrink by 20 % before the ROI loses it.
    /// The HOG cost grows with the ROI's pixels, so this is the main speed knob. 90 px was
    /// 35 % faster but put faces between dlib's pyramid levels 0 and 1, where the box flips
    /// 80↔96 px from frame to frame and restarts countdowns (DECISIONS 2026-11-30).
    public var roiFaceSize: Double = 100
    /// The ROI scale is kept while the tracked face measures within this range × `roiFaceSize`
    /// at it (hysteresis, see `TrackingFaceDetector`). The ROI search looks for faces up to one
    /// pyramid step (× 1.2) above the upper bound, since a face near a step can come back one
    /// step larger on the next frame: 150 px, 4 dlib pyramid levels instead of 5–6. At 1.35 the
    /// search needed 5 levels (a tracked 126-px face came back at 150 px, long.avi frame 80).
    public var roiKeepScaleWithin: ClosedRange<Double> = 0.9...1.25
    /// Every N-th frame also searches the whole frame (downscaled), so that a second face
    /// entering outside the ROI is found (N = 10: a third of a second at 30 analysed frames a
    /// second). That search costs about 4× the ROI search; at N = 5 it was a third of all
    /// analysis time on shared/media long.avi.
    public var fullSearchInterval: Int = 10
    /// dlib's `adjust_threshold` in the ROI search around a tracked face (hysteresis: a face
    /// already tracked there is kept on weaker evidence, e.g. motion blur from a shaking hand;
    /// new faces elsewhere still need dlib's default threshold, 0). See DECISIONS.md 2026-12-01
    /// for the value's measurement on shared/media/real.
    public var roiAdjustThreshold: Double = -0.4
    public init() {}
}

/// Face detection with tracking: searches an ROI around the last faces first (cheap), then the
/// frame downscaled to about 320 px wide, then the full-resolution frame; returns boxes in source
/// pixels. Not thread-safe (holds the track); one instance per analysis thread.
public final class TrackingFaceDetector {
    /// The backend (dlib HOG by default).
    public let backend: FaceDetecting
    public var strategy: DetectionStrategy {
        didSet { schedule = strategy.idleSchedule; tracked = strategy.trackedSchedule; lastSearchFound = [] }
    }
    /// Boxes of the last frame, in source pixels (empty: no track).
    public private(set) var lastFaces: [Rect] = []
    private var framesSinceFullSearch = 0
    /// Searches still to skip before the next full-resolution fallback (0: run it when needed).
    private var fallbackSkips = 0
    /// Idle frames (no face on the previous one) still to skip before the next search.
    private var idleSkips = 0
    /// The ROI shrink factor in use, kept while the tracked face stays within
    /// `strategy.roiKeepScaleWithin` × `roiFaceSize` at it (hysteresis). Recomputing it from every new box fed dlib's 5/6 pyramid
    /// quantisation back into the next frame's scale and made the box cycle by ±15 % on a still
    /// face (measured on shared/media approach.avi frames 40–56), which defeated stillness checks.
    private var roiScale: Double?
    /// The change detector's state (a copy of `strategy.idleSchedule`, reset while tracking).
    private var schedule: IdleSearchSchedule?
    /// The tracked-frame schedule's state (a copy of `strategy.trackedSchedule`, reset while idle).
    private var tracked: TrackedSearchSchedule?
    /// The faces of the last frame whose ROI was searched: what a frame without a search reports.
    private var lastSearchFound: [FaceDetection] = []
    /// The next tracked frame is searched whatever the schedule says (`setSearchRegions`).
    private var searchRequested = false
    /// The ROI was searched on the last frame: the boxes `setSearchRegions` gives next are the
    /// ones that search confirmed.
    private var confirmPending = false

    /// Which searches ran on the last call (for tests and the bench).
    public enum Pass: String, Sendable { case roi, downscaled, fullResolution }
    public private(set) var lastPasses: [Pass] = []
    /// True when the last call ran no ROI search and handed back the faces of the last one
    /// (`DetectionStrategy.trackedSchedule`): they confirm the tracks, they are not new evidence.
    public private(set) var lastReusedSearch = false

    public init(backend: FaceDetecting, strategy: DetectionStrategy = DetectionStrategy()) {
        self.backend = backend; self.strategy = strategy
        schedule = strategy.idleSchedule
        tracked = strategy.trackedSchedule
    }

    /// Sets where the next frame's ROI search looks: the boxes a tracker predicts (e.g. from the
    /// faces' landmarks) instead of this frame's raw detections. Empty: no track (idle search).
    /// `searchNext`: the next frame gets an ROI search whatever `DetectionStrategy.trackedSchedule`
    /// says (the caller needs the detector's word on it, e.g. a track it did not confirm). After a
    /// frame that was searched, `boxes` are the boxes that search confirmed, which later frames'
    /// boxes are compared with.
    public func setSearchRegions(_ boxes: [Rect], searchNext: Bool = false) {
        lastFaces = boxes
        if boxes.isEmpty { roiScale = nil }
        searchRequested = searchNext
        if confirmPending { tracked?.confirm(boxes); confirmPending = false }
    }

    /// Forgets the track (e.g. when the source restarts).
    public func reset() {
        lastFaces = []; framesSinceFullSearch = 0; fallbackSkips = 0; idleSkips = 0; roiScale = nil
        schedule = strategy.idleSchedule
        tracked = strategy.trackedSchedule; lastSearchFound = []; searchRequested = false; lastReusedSearch = false
        confirmPending = false
    }

    /// Faces on `gray` (the full source frame), boxes in its pixels, most confident first.
    /// - Throws: the backend's error.
    public func detect(gray: Image) throws -> [FaceDetection] {
        try detect(gray: gray, timestampMs: nil)
    }

    /// Faces on `gray` taken at `timestampMs` (the frame's time, ms; nil: no time, every idle
    /// frame is searched). While no face is tracked, `strategy.idleSchedule` decides from the
    /// frame time and the scene's change whether the frame is searched (`lastPasses` empty and
    /// no faces when not). While a face is tracked, `strategy.trackedSchedule` decides whether
    /// the ROI is searched; when not, the last ROI search's faces come back
    /// (`lastReusedSearch`, `lastPasses` without `.roi`).
    /// - Throws: the backend's error.
    public func detect(gray: Image, timestampMs: Int?) throws -> [FaceDetection] {
        lastPasses = []
        lastReusedSearch = false
        var found: [FaceDetection] = []
        framesSinceFullSearch += 1
        // The tracked frame's look and ROI blocks, when the tracked schedule decides.
        var look: (t: Int, signature: SceneSignature, roi: [Bool])?
        if lastFaces.isEmpty {
            tracked?.reset(); lastSearchFound = []
            if idleSkips > 0 { idleSkips -= 1; return [] }
            idleSkips = max(0, strategy.idleSearchInterval - 1)
            if let t = timestampMs, schedule != nil,
               schedule?.shouldSearch(timestampMs: t, signature: SceneSignature(gray: gray)) == false { return [] }
        } else {
            schedule?.reset()
            if let t = timestampMs, tracked != nil {
                let signature = SceneSignature(gray: gray)
                let roi = SceneSignature.blocks(covering: roiRect(gray), width: gray.width, height: gray.height)
                look = (t, signature, roi)
                if tracked?.shouldSearchROI(timestampMs: t, signature: signature, regions: lastFaces, roiMask: roi,
                                            force: searchRequested) == false {
                    found = lastSearchFound
                    lastReusedSearch = true
                } else {
                    found = try searchROI(gray)
                }
            } else {
                found = try searchROI(gray)
            }
        }
        searchRequested = false
        var wholeDue = found.isEmpty || framesSinceFullSearch >= strategy.fullSearchInterval
        if wholeDue, !found.isEmpty, let look {
            // Tracked and due by the frame count: only when the outside of the ROI changed or
            // the time bound passed (the count stays due, so the next frame asks again).
            wholeDue = tracked?.shouldSearchWhole(timestampMs: look.t, signature: look.signature, roiMask: look.roi) ?? true
        } else if wholeDue, let look {
            tracked?.searchedWhole(timestampMs: look.t, signature: look.signature)
        }
        if wholeDue {
            framesSinceFullSearch = 0
            let whole = Rect(x: 0, y: 0, w: Double(gray.width), h: Double(gray.height))
            var global = try search(gray, roi: whole,
                                    scale: min(1, Double(strategy.downscaledWidth) / Double(max(gray.width, 1))),
                                    pass: .downscaled)
            if global.isEmpty && found.isEmpty && strategy.fullResolutionFallback && gray.width > strategy.downscaledWidth {
                if fallbackSkips == 0 {
                    global = try search(gray, roi: whole, scale: 1, pass: .fullResolution)
                    fallbackSkips = max(0, strategy.fullResolutionInterval - 1)
                } else {
                    fallbackSkips -= 1
                }
            }
            found = Self.merge(found, global)
        }
        found.sort { $0.score > $1.score }
        if !lastReusedSearch || !lastPasses.isEmpty { lastSearchFound = found }
        lastFaces = found.map(\.box)
        if !lastReusedSearch { tracked?.confirm(lastFaces); confirmPending = true }
        if found.isEmpty { roiScale = nil } else { fallbackSkips = 0; idleSkips = 0 }
        return found
    }

    /// The ROI around `lastFaces` (grown by `roiMargin`, clamped to the frame), before the ROI
    /// search snaps it to the HOG cell grid.
    private func roiRect(_ gray: Image) -> Rect {
        let (minX, minY, maxX, maxY) = roiBounds(gray)
        guard maxX > minX, maxY > minY else { return Rect(x: 0, y: 0, w: 0, h: 0) }
        return Rect(x: minX, y: minY, w: maxX - minX, h: maxY - minY)
    }

    /// `roiRect`'s edges (left, top, right, bottom).
    private func roiBounds(_ gray: Image) -> (Double, Double, Double, Double) {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for b in lastFaces {
            let m = strategy.roiMargin * max(b.w, b.h)
            minX = min(minX, b.x - m); minY = min(minY, b.y - m)
            maxX = max(maxX, b.x + b.w + m); maxY = max(maxY, b.y + b.h + m)
        }
        minX = max(0, minX); minY = max(0, minY)
        maxX = min(Double(gray.width), maxX); maxY = min(Double(gray.height), maxY)
        return (minX, minY, maxX, maxY)
    }

    private func searchROI(_ gray: Image) throws -> [FaceDetection] {
        let bounds = roiBounds(gray)
        var minX = bounds.0, minY = bounds.1
        let maxX = bounds.2, maxY = bounds.3
        guard maxX - minX >= 40, maxY - minY >= 40 else { return [] }
        let minSize = lastFaces.map { max($0.w, $0.h) }.min() ?? .infinity
        var scale = min(1, strategy.roiFaceSize / max(minSize, 1))
        if let kept = roiScale {
            let faceAtKept = minSize * kept
            if strategy.roiKeepScaleWithin.contains(faceAtKept / strategy.roiFaceSize) { scale = kept }
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
        return try search(gray, roi: Rect(x: minX, y: minY, w: maxX - minX, h: maxY - minY), scale: scale, pass: .roi,
                          maxFaceSize: strategy.roiFaceSize * strategy.roiKeepScaleWithin.upperBound * Self.pyramidStep,
                          adjustThreshold: strategy.roiAdjustThreshold)
    }

    /// Size ratio between neighbouring levels of dlib's HOG pyramid (`pyramid_down<6>`: 6/5).
    static let pyramidStep = 1.2

    /// Searches `roi` of `gray` shrunk by `scale`; `maxFaceSize` (pixels of the shrunk image)
    /// bounds the faces looked for.
    private func search(_ gray: Image, roi: Rect, scale: Double, pass: Pass, maxFaceSize: Double? = nil,
                        adjustThreshold: Double = 0) throws -> [FaceDetection] {
        lastPasses.append(pass)
        let (img, sx, sy) = GrayResample.cropAndShrink(gray, roi: roi, scale: scale)
        guard img.width >= 20, img.height >= 20 else { return [] }
        let ox = max(0, roi.x.rounded(.down)), oy = max(0, roi.y.rounded(.down))
        let faces = try maxFaceSize.map {
            adjustThreshold == 0 ? try backend.detect(gray: img, maxFaceSize: $0)
                : try backend.detect(gray: img, maxFaceSize: $0, adjustThreshold: adjustThreshold)
        } ?? backend.detect(gray: img)
        return faces.map {
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
