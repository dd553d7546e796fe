import CaptureFlow
import CaptureModel
import FaceAnalysis
import FaceFixtures
import Foundation
import Media
import Testing

/// Issue #24: closed eyes are still caught, now against the person's own open-eye aperture, and a
/// smile is not. The closed eyes are made from a shared/media/fairness clip: dlib finds the face
/// and its 68 points on every frame as in the product; from frame 45 the upper eyelid points
/// (iBUG 37, 38; 43, 44) are blended onto the lower ones (41, 40; 47, 46) over five frames, the
/// quality vector is measured again on the real frame with those points, and the guidance judges
/// it. What this shows: the measure → verdict → patience chain on real people's faces. What it
/// cannot: whether dlib's landmarks close with real lids. Painting the eyes shut in the pixels was
/// tried first (skin blended over the eye; the lids warped together): dlib's 68-point model kept
/// the lids open on such edits (aperture 0.03–0.08 of the eye-to-chin distance, against 0.027
/// open), so only real closed-eye footage can test that end.
@Suite struct ClosedEyesTests {
    /// The fairness clips are newer than the rest of shared/media: absent in an older copy (a real
    /// skip then, not a silent pass).
    static let ready = MediaSupport.available
        && FileManager.default.fileExists(atPath: (MediaSupport.mediaDir ?? "") + "/fairness/cc0_interfaces_061_settle.avi")

    /// Analyses `frames` (15 fps) as the product does, closing the eyelid points from `from` on
    /// (blended over `ramp` frames), and judges each frame with one `Guidance`.
    static func judge(_ frames: [Image], closeFrom from: Int? = nil, ramp: Int = 5) throws -> [GuidanceResult] {
        let m = try #require(MediaSupport.models)
        let analyzer = FaceAnalyzer(detector: try DlibHOGDetector(), landmarks: m.predictor)
        var g = Guidance()
        return try frames.enumerated().map { i, f in
            var a = try analyzer.analyze(gray: f, frameIndex: i, timestampMs: i * 1000 / 15)
            if let from, i >= from, var face = a.faces.first, face.landmarks.count >= 68 {
                let alpha = min(1, Double(i - from + 1) / Double(ramp))
                for (top, bottom) in [(37, 41), (38, 40), (43, 47), (44, 46)] {
                    let t = face.landmarks[top], b = face.landmarks[bottom]
                    face.landmarks[top] = Point(x: t.x + alpha * (b.x - t.x), y: t.y + alpha * (b.y - t.y))
                }
                a.faces[0] = face
                a.quality = QualityMeasures.vector(gray: f, faces: a.faces, sharpness: a.sharpness, pixelScale: 1)
            }
            return g.judge(a)
        }
    }

    @Test(.enabled(if: Self.ready, "../shared/media/fairness or ffmpeg is absent"),
          arguments: ["fairness/cc0_interfaces_061_settle", "fairness/cc0_interfaces_020_settle"])
    func closedEyesAreCaughtAndReported(clip: String) throws {
        let results = try Self.judge(try MediaSupport.grayFrames(clip), closeFrom: 45)
        let open = results[8..<45], closed = results[50...]
        let apertures = results.map { $0.eyesOpenLimit ?? -1 }
        #expect(open.allSatisfy { $0.eyesOpen == true }, "\(clip): open eyes judged closed on \(open.filter { $0.eyesOpen != true }.map(\.frameIndex))")
        let caught = closed.filter { $0.eyesOpen == false }.count
        #expect(Double(caught) >= 0.9 * Double(closed.count), "\(clip): closed on \(caught)/\(closed.count); limits \(apertures.suffix(5))")
        #expect(closed.filter { $0.eyesOpen == false }.allSatisfy { $0.shortfalls.contains { $0.hint == .openEyes } && $0.isPlaced })
        // The patience: shown, then accepted and reported with the EyesOpen measure.
        var p = QualityPatience(windowMs: FlowSettings.defaultQualityPatienceMs)
        var accepted: [AcceptedShortfall] = []
        var acceptedAt = 0
        for r in results where accepted.isEmpty { accepted = p.update(r, nowMs: r.timestampMs); acceptedAt = r.timestampMs }
        let eyes = try #require(accepted.first { $0.measure == "EyesOpen" }, "\(clip): accepted \(accepted)")
        #expect(eyes.hint == .openEyes && eyes.value < eyes.limit && eyes.frames >= 1)
        // A person with nothing else short gets the whole window for the eyes (020's slight turn
        // already started it before the eyes closed).
        if results[..<45].allSatisfy({ $0.shortfalls.isEmpty }) {
            #expect(acceptedAt >= 3000 + 45 * 1000 / 15 && eyes.frames >= 40, "\(clip): accepted at \(acceptedAt) ms after \(eyes.frames) frames")
        }
    }

    /// The unmodified clips of smiling people (eyes narrowed by the smile, some behind glasses):
    /// open on every frame once the person's baseline exists.
    @Test(.enabled(if: Self.ready, "../shared/media/fairness or ffmpeg is absent"),
          arguments: ["fairness/cc0_interfaces_020_settle", "fairness/cc0_interfaces_014_settle", "fairness/cc0_interfaces_079_settle"])
    func smilingEyesAreOpen(clip: String) throws {
        let results = try Self.judge(try MediaSupport.grayFrames(clip))
        let closed = results.filter { $0.eyesOpen == false }.map(\.frameIndex)
        #expect(closed.isEmpty, "\(clip): eyes judged closed on frames \(closed)")
    }
}
