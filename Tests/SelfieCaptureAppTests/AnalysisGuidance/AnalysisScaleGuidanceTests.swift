import CaptureFlow
import CaptureModel
import FaceAnalysis
import FaceFixtures
import Foundation
import Media
import Testing
import TestSupport

/// A clip at 720p and 1080p through the analysis scale (FaceAnalysis, `AnalysisScaleTests`) and
/// the guidance (CaptureFlow): the boxes follow the scaled ground truth and the quality hints stay
/// rare on the valid frames.
@Suite struct AnalysisScaleGuidanceTests {
    struct Scaled { var n1 = 0, detected = 0, iouSum = 0.0; var frames = 0; var qualityHints = 0; var valid = 0 }

    /// long.avi (640×480) scaled by ffmpeg to `height` and pillarboxed to `width` (the picture
    /// keeps its aspect, so the ground truth maps by one factor and an x offset), read by our
    /// AVI source at the analysis scale; the boxes are compared with the mapped ground truth.
    static func run(width: Int, height: Int) throws -> (Scaled, Int) {
        let dir = try MediaSupport.requireDir()
        let ffmpeg = try #require(MediaSupport.ffmpeg)
        let truth = try MediaSupport.truth("long")
        let tmp = try TestSupport.tempTree([:], prefix: "scaled")
        try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: tmp) }
        let s = Double(height) / Double(truth.height)
        let padX = (Double(width) - Double(truth.width) * s) / 2
        let out = tmp + "/scaled.avi"
        let r = try ChildProcess.run(ffmpeg, ["-nostdin", "-v", "error", "-i", "\(dir)/long.avi", "-vf",
                                              "scale=-2:\(height),pad=\(width):\(height):(ow-iw)/2:0",
                                              "-c:v", "mjpeg", "-q:v", "4", "-huffman", "default", "-pix_fmt", "yuvj420p", out],
                                     stderr: .null, timeout: 300)
        try #require(r.exitStatus == 0, "ffmpeg could not scale long.avi")
        let source = try AVIFileSource(path: out)
        let predictor = try #require(MediaSupport.models).predictor
        let analyzer = FaceAnalyzer(detector: try DlibHOGDetector(), landmarks: predictor)
        var guidance = Guidance()
        var st = Scaled()
        var denominator = 0
        let validRuns = try validRunsSeconds()
        while let frame = try source.nextFrame(), frame.index < truth.frames.count {
            let job = AnalysisJob(frame: frame)
            denominator = job.scale
            #expect(job.gray.width == (width + job.scale - 1) / job.scale)
            let a = try analyzer.analyze(job)
            #expect(a.frameWidth == width && a.frameHeight == height)
            let g = guidance.judge(a)
            st.frames += 1
            let tf = truth.frames[frame.index]
            if validRuns.contains(where: { $0.contains(tf.t) }) {
                st.valid += 1
                if g.hint.isQuality { st.qualityHints += 1 }
            }
            // Faces of a size the guidance accepts (h ≥ h_min of the height: FaceOval.standard).
            guard tf.count == 1, let t = tf.faces.first, t.h / Double(truth.height) >= FaceOval.standard.minFaceHeight else { continue }
            let tb = Rect(x: t.x * s + padX, y: t.y * s, w: t.w * s, h: t.h * s)
            st.n1 += 1
            if let best = a.faces.max(by: { $0.box.iou(tb) < $1.box.iou(tb) }), best.box.iou(tb) > 0 {
                st.detected += 1
                st.iouSum += best.box.iou(tb)
            }
        }
        return (st, denominator)
    }

    /// long.json's `expect.valid_runs_s` spans, [start, end) in seconds.
    static func validRunsSeconds() throws -> [Range<Double>] {
        let dir = try MediaSupport.requireDir()
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/long.json"))) as? [String: Any]
        let runs = ((json?["expect"] as? [String: Any])?["valid_runs_s"] as? [[Double]]) ?? []
        return runs.compactMap { $0.count == 2 && $0[0] < $0[1] ? $0[0]..<$0[1] : nil }
    }

    /// Goals of issue #10 (detection ≥ 0.98 would be on every face; here on the sizes the guidance
    /// accepts, ≥ 0.95) and #11 (quality hints on < 2 % of the valid frames), at 720p and 1080p.
    @Test(.enabled(if: MediaSupport.available && MediaSupport.models != nil, "../shared/media, ffmpeg or the dlib models absent"),
          arguments: [(1280, 720, 2), (1920, 1080, 4)])
    func scaledClipGivesScaledBoxes(_ width: Int, _ height: Int, _ expectedDenominator: Int) throws {
        let (st, d) = try Self.run(width: width, height: height)
        #expect(d == expectedDenominator)
        #expect(st.n1 > 50, "too few ground-truth faces of an accepted size: \(st.n1)")
        let det = Double(st.detected) / Double(max(st.n1, 1))
        let iou = st.iouSum / Double(max(st.detected, 1))
        print("analysis scale \(width)x\(height) at 1/\(d): detection \(det) on \(st.n1) frames, mean IoU \(iou), quality hints \(st.qualityHints)/\(st.valid) valid frames")
        #expect(det >= 0.95, "\(width)x\(height): detection \(det) on \(st.n1) frames")
        #expect(iou >= 0.75, "\(width)x\(height): mean IoU \(iou) against the scaled ground truth")
        #expect(st.valid > 30)
        #expect(Double(st.qualityHints) < 0.02 * Double(st.valid), "\(width)x\(height): quality hints on \(st.qualityHints) of \(st.valid) valid frames")
    }
}
