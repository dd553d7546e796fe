import Foundation
import Testing
import TestSupport

/// Issue #16 through the built binary: a capture records at 720p and 1080p with boxes in source
/// pixels, and result.json reports the camera-to-screen latency in realtime only. (Speed itself
/// is in `make bench`, Benchmarks/speed.sh.)
@Suite(.serialized) struct SpeedTests {
    static let bin = Harness.binary
    static let ffmpeg = Harness.tool("ffmpeg")
    static let ready = bin != nil && ffmpeg != nil && TestSupport.shared("media/approach.avi") != nil

    struct Truth: Decodable {
        struct Face: Decodable { var x, y, w, h: Double }
        struct Frame: Decodable { var i: Int; var count: Int; var faces: [Face] }
        var width: Int; var height: Int; var frames: [Frame]
    }

    static func result(_ dir: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: dir + "/result.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// approach.avi scaled by ffmpeg to `height` and pillarboxed to `width` records, and the
    /// recorded frames' face boxes match the ground truth mapped the same way (IoU ≥ 0.7 on
    /// average, the box in source pixels: a box left at the analysis scale would give < 0.3).
    @Test(.enabled(if: ready, "needs the built binary, ffmpeg and ../shared/media"), arguments: [(1280, 720), (1920, 1080)])
    func recordsAtHigherResolutionsWithSourcePixelBoxes(_ width: Int, _ height: Int) throws {
        let src = try #require(TestSupport.shared("media/approach.avi"))
        let truthPath = try #require(TestSupport.shared("media/approach.json"))
        let truth = try JSONDecoder().decode(Truth.self, from: Data(contentsOf: URL(fileURLWithPath: truthPath)))
        let dir = Harness.tempDir("sc-speed")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let clip = dir + "/scaled.avi"
        let f = try Harness.run(try #require(Self.ffmpeg), ["-nostdin", "-v", "error", "-i", src, "-vf",
                                                           "scale=-2:\(height),pad=\(width):\(height):(ow-iw)/2:0", "-c:v", "mjpeg",
                                                           "-q:v", "4", "-huffman", "default", "-pix_fmt", "yuvj420p", clip], timeout: 300)
        try #require(f.code == 0, "ffmpeg: \(f.err)")
        let r = try Harness.run(try #require(Self.bin), ["--source", clip, "--renderer", "null", "--pace", "fast",
                                                        "--output", dir + "/out"], timeout: 300)
        #expect(r.code == 0, "exit \(r.code): \(r.err)")
        let json = try Self.result(dir + "/out")
        #expect(json["width"] as? Int == width && json["height"] as? Int == height)
        #expect(json["previewLatency"] is NSNull, "--pace fast has no real latency")
        let s = Double(height) / Double(truth.height), padX = (Double(width) - Double(truth.width) * s) / 2
        var ious: [Double] = []
        for fr in (json["frames"] as? [[String: Any]]) ?? [] {
            guard let i = fr["frameIndex"] as? Int, i < truth.frames.count, truth.frames[i].count == 1,
                  let t = truth.frames[i].faces.first, let face = fr["face"] as? [String: Any],
                  let x = face["x"] as? Double, let y = face["y"] as? Double, let w = face["w"] as? Double,
                  let h = face["h"] as? Double else { continue }
            let tx = t.x * s + padX, ty = t.y * s, tw = t.w * s, th = t.h * s
            let ix = max(0, min(x + w, tx + tw) - max(x, tx)), iy = max(0, min(y + h, ty + th) - max(y, ty))
            ious.append(ix * iy / (w * h + tw * th - ix * iy))
        }
        #expect(ious.count >= 10, "recorded frames with a face: \(ious.count)")
        let mean = ious.reduce(0, +) / Double(max(ious.count, 1))
        #expect(mean >= 0.7, "\(width)x\(height): mean IoU \(mean) of the recorded boxes against the scaled ground truth")
    }

    /// In realtime through a renderer that writes (plain), result.json says how long frames took
    /// from their (paced) capture time to the screen: samples, p50 ≤ p95 ≤ max, source of the time.
    @Test(.enabled(if: ready, "needs the built binary and ../shared/media"))
    func realtimeRunReportsPreviewLatency() throws {
        let src = try #require(TestSupport.shared("media/approach.avi"))
        let dir = Harness.tempDir("sc-latency")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try Harness.run(try #require(Self.bin), ["--source", src, "--renderer", "plain", "--pace", "realtime",
                                                        "--no-instructions", "--camera-consent", "--no-start-button",
                                                        "--output", dir + "/out"], timeout: 120)
        #expect(r.code == 0, "exit \(r.code): \(r.err)")
        let json = try Self.result(dir + "/out")
        let l = try #require(json["previewLatency"] as? [String: Any], "previewLatency: \(String(describing: json["previewLatency"]))")
        let n = try #require(l["samples"] as? Int), p50 = try #require(l["p50Ms"] as? Double)
        let p95 = try #require(l["p95Ms"] as? Double), mx = try #require(l["maxMs"] as? Double)
        #expect(n >= 10, "samples \(n)")
        #expect(0 <= p50 && p50 <= p95 && p95 <= mx)
        #expect(l["from"] as? String == "pacedFile")
    }
}
