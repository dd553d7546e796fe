import CaptureModel
import Media

/// Settings of `FaceTracker`. Sources of the values are given per field.
public struct FaceTrackerConfig: Sendable, Equatable {
    /// One Euro filter on every landmark coordinate (pixels of the source frame). fc_min 1 Hz,
    /// β 0.05 /px, f_cd 1 Hz: a still face is low-passed at 1 Hz; a face moving at 30 px/s
    /// (5 % of a 640-px frame per second, a slow real move) gets a cutoff of 2.5 Hz, a lag of
    /// τ = 1/(2π·2.5) ≈ 64 ms, and faster moves less (the ≤ 100 ms lag bound of issue #10,
    /// checked in FaceTrackerTests). Measured on shared/media/people (sensor noise σ 2.5): see
    /// DECISIONS.md 2026-12-01 for the jitter before and after.
    public var landmarkFilter = OneEuroFilter.Parameters(minCutoffHz: 1, beta: 0.05, derivativeCutoffHz: 1)
    /// A detection belongs to a track when its box overlaps the track's box by at least this IoU.
    /// 0.3: dlib's boxes of one face differ by up to one 5/6 pyramid step (IoU ≥ 0.69) plus motion.
    public var matchIoU: Double = 0.3
    /// When the matched detection overlaps the track's box by less than this IoU, the track is
    /// started again from the detection (the face moved further than the landmarks followed).
    /// 0.5: below dlib's own ±1-pyramid-step disagreement (IoU ≥ 0.69) with room for motion.
    public var reinitIoU: Double = 0.5
    /// A landmark fit whose own box overlaps the box it started from by less than this IoU has
    /// degraded (the points ran off the face); the next frame starts the predictor from the
    /// detector's box instead of the track's. 0.7: a face moves less than 15 % of its size
    /// between frames at 15 fps except in a jump.
    public var fitDegradedIoU: Double = 0.7
    /// A track the detector does not confirm is kept (not reported) for this long, so that a
    /// single missed detection neither restarts the filter nor loses the search region. 250 ms:
    /// the blip the capture flow tolerates (`GuidanceConfig.invalidGraceMs`).
    public var coastMs: Int = 250
    /// Above this |roll| (degrees; the track's or the first estimate), landmarks are predicted
    /// on a crop turned upright by that roll. dlib's shape predictor starts from an upright mean
    /// shape and sometimes fails on faces rolled ~35° (seen on shared/media `rolled`: 7 of 114
    /// frames off by 5–26°); upright, it does not.
    public var uprightRefineRoll: Double = 10
    /// Landmarks (so tracks) for at most this many faces, most confident first.
    public var maxTracks: Int = 2
    /// A new track beside a reported one is reported once the detector has found it on this many
    /// consecutive frames (SORT's `min_hits`, Bewley et al., ICIP 2016). 2: a one-frame false
    /// detection (seen on shared/media/people cc0_interfaces_016_off_up frame 0, score 0.03 at
    /// the frame's edge) is never reported as a second face; a real one shows one frame later.
    /// When no tracked face is confirmed on the frame, the strongest new detection is reported
    /// at once.
    public var minHits: Int = 2
    public init() {}
}

/// Follows faces across frames (issue #10; the shape of MediaPipe's face tracking: a detector
/// finds a face, the landmark model then follows it from its own previous points).
///
/// Per frame:
/// 1. the detector (`TrackingFaceDetector`) searches the region predicted from the tracks'
///    landmarks (the ROI around their boxes), and on its own schedule the whole frame
///    (`DetectionStrategy.fullSearchInterval`, and whenever the ROI finds nothing), so that a
///    new face is found; while the tracked faces and the scene stay as they were, the last
///    search's faces confirm the tracks for up to 250 ms (`TrackedSearchSchedule`) and the
///    landmarks still run on every frame;
/// 2. detections are matched to tracks by IoU ≥ `matchIoU`; a track whose detection overlaps it
///    by less than `reinitIoU`, or whose last fit degraded, starts again from the detection;
/// 3. the landmark model runs on the box derived from the track's previous (filtered) landmarks,
///    not on the detector's box, whose size jumps in dlib's 5/6 pyramid steps;
/// 4. each landmark coordinate goes through a One Euro filter (`FaceTrackerConfig.landmarkFilter`);
///    box and pose are derived from the filtered points.
///
/// The reported box keeps dlib's detector convention (eyebrows to chin, cheek to cheek): it is
/// the box in which the landmark model's own mean shape best fits the points (a least-squares
/// similarity fit, `LandmarkBox`), the box the model was trained to start from. The detector's
/// raw box of the frame is kept beside it (`DetectedFace.detectorBox`).
///
/// Not thread-safe; one instance per analysis thread.
public final class FaceTracker {
    public let detector: TrackingFaceDetector
    /// nil while the model loads: detections are then reported as they are, untracked.
    public var landmarks: LandmarkPredicting?
    public var config: FaceTrackerConfig

    private struct Track {
        var filters: [OneEuroFilter]
        /// Filtered landmarks and the box and pose derived from them (pose nil when it could
        /// not be estimated; `roll` then keeps the last estimate, to turn the next crop upright).
        var points: [Point]
        var box: Rect
        var pose: (yaw: Double, pitch: Double, roll: Double)?
        var roll: Double?
        var score: Double
        var lastConfirmedMs: Int
        var fitDegraded = false
        /// Consecutive frames the detector confirmed it (capped at `minHits`).
        var hits = 1
        var confirmedThisFrame = false
        var detectorBox: Rect?
    }
    private var tracks: [Track] = []

    public init(detector: TrackingFaceDetector, landmarks: LandmarkPredicting? = nil, config: FaceTrackerConfig = FaceTrackerConfig()) {
        self.detector = detector; self.landmarks = landmarks; self.config = config
    }

    /// Forgets every track (e.g. when a looping source restarts).
    public func reset() { tracks = []; detector.reset() }

    /// Tracks `gray` (the full source frame, layout `.gray`) taken at `timestampMs`.
    /// - Returns: faces in source pixels, most confident first: tracked faces with filtered
    ///   landmarks, box and pose (up to `maxTracks`), then any further detections as boxes only.
    /// - Throws: the detector's or landmark model's error.
    public func update(gray: Image, timestampMs: Int) throws -> [DetectedFace] {
        // The search regions are the tracks' boxes, set at the end of the previous frame.
        let detections = try detector.detect(gray: gray, timestampMs: timestampMs)
        guard let lm = landmarks else {
            tracks = []
            return detections.map { DetectedFace(box: $0.box, score: $0.score, detectorBox: $0.box) }
        }
        let seconds = Double(timestampMs) / 1000
        for k in tracks.indices { tracks[k].confirmedThisFrame = false; tracks[k].detectorBox = nil }

        // Match detections to tracks, best overlap first.
        var used = Set<Int>()
        var pairs: [(t: Int, d: Int, iou: Double)] = []
        for (t, tr) in tracks.enumerated() {
            for (d, det) in detections.enumerated() {
                let iou = tr.box.iou(det.box)
                if iou >= config.matchIoU { pairs.append((t, d, iou)) }
            }
        }
        pairs.sort { $0.iou > $1.iou }
        var matchedTracks = Set<Int>()
        for p in pairs where !used.contains(p.d) && !matchedTracks.contains(p.t) {
            used.insert(p.d); matchedTracks.insert(p.t)
            let det = detections[p.d]
            // A reused search (`lastReusedSearch`) is older than the track's own points: it
            // confirms the track, it never restarts it (a degraded fit asked for a real search).
            if !detector.lastReusedSearch && (p.iou < config.reinitIoU || tracks[p.t].fitDegraded) {
                let hits = tracks[p.t].hits
                tracks[p.t] = try start(gray, det, lm, seconds: seconds, timestampMs: timestampMs)
                tracks[p.t].hits = min(config.minHits, hits + 1)
            } else {
                try follow(&tracks[p.t], gray, lm, seconds: seconds)
                tracks[p.t].score = det.score
                tracks[p.t].lastConfirmedMs = timestampMs
                tracks[p.t].hits = min(config.minHits, tracks[p.t].hits + 1)
            }
            tracks[p.t].confirmedThisFrame = true
            tracks[p.t].detectorBox = det.box
        }
        // Drop tracks unconfirmed for longer than the coast time.
        // A tentative track (not yet `minHits`) missed once is gone.
        tracks.removeAll {
            !$0.confirmedThisFrame && ($0.hits < config.minHits || timestampMs - $0.lastConfirmedMs > config.coastMs)
        }
        // New faces.
        var extra: [DetectedFace] = []
        // When no tracked face was confirmed on this frame, the strongest new detection is
        // reported at once (a person stepping in, or a face that jumped out of its track's
        // reach with camera shake); further new faces wait for `minHits`.
        var firstFace = !tracks.contains { $0.confirmedThisFrame && $0.hits >= config.minHits }
        for (d, det) in detections.enumerated() where !used.contains(d) {
            if tracks.contains(where: { $0.box.iou(det.box) >= config.matchIoU }) { continue }
            if tracks.filter(\.confirmedThisFrame).count < config.maxTracks {
                // Starts tentative; reported from its `minHits`-th consecutive detection.
                var tr = try start(gray, det, lm, seconds: seconds, timestampMs: timestampMs)
                if firstFace { tr.hits = config.minHits; firstFace = false }
                tr.confirmedThisFrame = true
                tr.detectorBox = det.box
                tracks.append(tr)
            } else {
                extra.append(DetectedFace(box: det.box, score: det.score, detectorBox: det.box))
            }
        }
        // Coasting tracks beyond the limit go first.
        while tracks.count > config.maxTracks, let k = tracks.lastIndex(where: { !$0.confirmedThisFrame }) {
            tracks.remove(at: k)
        }
        let reported = tracks.filter { $0.confirmedThisFrame && $0.hits >= config.minHits }.sorted { $0.score > $1.score }.map { tr in
            DetectedFace(box: tr.box, score: tr.score, landmarks: tr.points, yaw: tr.pose?.yaw,
                         pitch: tr.pose?.pitch, roll: tr.pose?.roll, detectorBox: tr.detectorBox)
        }
        // The next frame needs the detector's own word when a track was not confirmed on this
        // one (a coasting track must not be confirmed by an older search), is still tentative,
        // or its landmarks ran off the face.
        let searchNext = tracks.contains { !$0.confirmedThisFrame || $0.hits < config.minHits || $0.fitDegraded }
        detector.setSearchRegions(tracks.map(\.box), searchNext: searchNext)
        return reported + extra.sorted { $0.score > $1.score }
    }

    /// A new track from a detection: landmarks on the detector's box, then once more on the box
    /// derived from those landmarks, so the track starts in its own convention.
    private func start(_ gray: Image, _ det: FaceDetection, _ lm: LandmarkPredicting, seconds: Double,
                       timestampMs: Int) throws -> Track {
        var points = try predict(gray, box: det.box, roll: nil, lm)
        let roll = HeadPose.estimate(points)?.roll
        if let box = LandmarkBox.fit(points, meanShape: lm.meanShape) {
            points = try predict(gray, box: box, roll: roll, lm)
        }
        var filters = [OneEuroFilter](repeating: OneEuroFilter(config.landmarkFilter), count: points.count * 2)
        let filtered = Self.apply(&filters, points, seconds: seconds)
        let box = LandmarkBox.fit(filtered, meanShape: lm.meanShape) ?? det.box
        let pose = HeadPose.estimate(filtered, frameWidth: gray.width, frameHeight: gray.height)   // the first sample passes the filter unchanged
        return Track(filters: filters, points: filtered, box: box, pose: pose, roll: pose?.roll ?? roll, score: det.score,
                     lastConfirmedMs: timestampMs)
    }

    /// Moves a track to this frame: landmarks from the track's own box, filtered.
    private func follow(_ tr: inout Track, _ gray: Image, _ lm: LandmarkPredicting, seconds: Double) throws {
        let from = tr.box
        let raw = try predict(gray, box: from, roll: tr.roll, lm)
        if let rawBox = LandmarkBox.fit(raw, meanShape: lm.meanShape) {
            tr.fitDegraded = rawBox.iou(from) < config.fitDegradedIoU
        }
        tr.points = Self.apply(&tr.filters, raw, seconds: seconds)
        tr.box = LandmarkBox.fit(tr.points, meanShape: lm.meanShape) ?? from
        tr.pose = HeadPose.estimate(tr.points, frameWidth: gray.width, frameHeight: gray.height)
        tr.roll = tr.pose?.roll ?? tr.roll
    }

    private static func apply(_ filters: inout [OneEuroFilter], _ points: [Point], seconds: Double) -> [Point] {
        if filters.count != points.count * 2 { return points }
        return points.enumerated().map { i, p in
            Point(x: filters[2 * i].filter(p.x, seconds: seconds), y: filters[2 * i + 1].filter(p.y, seconds: seconds))
        }
    }

    /// Landmarks in `box`; on a crop turned upright when the face is rolled beyond
    /// `uprightRefineRoll` (the given roll, else the first estimate's).
    private func predict(_ gray: Image, box: Rect, roll: Double?, _ lm: LandmarkPredicting) throws -> [Point] {
        var points: [Point] = []
        var turn = roll.flatMap { abs($0) > config.uprightRefineRoll ? $0 : nil }
        if turn == nil {
            points = try lm.landmarks(gray: gray, box: box)
            turn = HeadPose.estimate(points).flatMap { abs($0.roll) > config.uprightRefineRoll ? $0.roll : nil }
        }
        guard let turn else { return points }
        let side = Int((max(box.w, box.h) * 1.6).rounded())
        let c = Point(x: box.centerX, y: box.centerY)
        let (crop, map) = GrayResample.uprightCrop(gray, center: c, rollDeg: turn, size: side)
        let o = (Double(side) - box.w) / 2, p = (Double(side) - box.h) / 2
        return try lm.landmarks(gray: crop, box: Rect(x: o, y: p, w: box.w, h: box.h)).map(map)
    }
}

/// The face box in dlib's detector convention derived from 68 landmarks: the square in which
/// the landmark model's mean shape (its starting points, normalised to the box it is given)
/// best fits the points, by a least-squares similarity transform (scale, rotation, translation;
/// the closed form of Umeyama, IEEE TPAMI 1991, in 2-D). The box is upright, sits on the fitted
/// centre and keeps the unrotated size, as shared/media's ground truth does for rolled faces.
public enum LandmarkBox {
    /// - Parameters:
    ///   - points: landmarks in pixels, the same count and order as `meanShape`.
    ///   - meanShape: the model's mean shape in box-normalised coordinates ((0,0) top-left, (1,1)
    ///     bottom-right of the box).
    /// - Returns: the box in the points' pixels, nil when the counts differ or the points are
    ///   degenerate (all at one place).
    public static func fit(_ points: [Point], meanShape: [Point]) -> Rect? {
        let n = points.count
        guard n >= 2, n == meanShape.count else { return nil }
        var mx = 0.0, my = 0.0, px = 0.0, py = 0.0
        for i in 0..<n { mx += meanShape[i].x; my += meanShape[i].y; px += points[i].x; py += points[i].y }
        let dn = Double(n)
        mx /= dn; my /= dn; px /= dn; py /= dn
        var a = 0.0, b = 0.0, uu = 0.0
        for i in 0..<n {
            let ux = meanShape[i].x - mx, uy = meanShape[i].y - my
            let vx = points[i].x - px, vy = points[i].y - py
            a += ux * vx + uy * vy
            b += ux * vy - uy * vx
            uu += ux * ux + uy * uy
        }
        guard uu > 0 else { return nil }
        let sc = a / uu, ss = b / uu          // s·cos θ, s·sin θ
        let scale = (sc * sc + ss * ss).squareRoot()
        guard scale > 0, scale.isFinite else { return nil }
        // Centre of the unit box, (0.5, 0.5), through the transform.
        let ux = 0.5 - mx, uy = 0.5 - my
        let cx = px + sc * ux - ss * uy, cy = py + ss * ux + sc * uy
        return Rect(x: cx - scale / 2, y: cy - scale / 2, w: scale, h: scale)
    }
}
