import Foundation
import Testing
import TestSupport

/// Issue #29 "data that agree": what a recorded run reports in its events, result.json,
/// manifest.json and last stderr line is one set of facts; a y4m with no decodable frame is bad
/// data (65) for `analyze` and for a capture alike.
@Suite struct DataAgreementTests {
    static let bin = Harness.binary
    static let clip = TestSupport.shared("media/approach.avi")
    static let ready = bin != nil && clip != nil
    static let demoPhoto = FileManager.default.fileExists(
        atPath: TestSupport.projectRoot().appendingPathComponent("Resources/demo/astronaut.png").path)

    static func json(_ path: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    }

    static func events(_ path: String) -> [[String: Any]] {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// In realtime the analyser takes only the newest frame, yet every frame read goes into the
    /// video: `faceCaptureSuccess` reports the video's frames and duration, as result.json and
    /// the last stderr line do.
    @Test(.enabled(if: ready, "needs the built binary and ../shared/media/approach.avi"))
    func successEventFramesAndDurationMatchResultAndStderr() throws {
        let dir = Harness.tempDir("sc-agree")
        let out = dir + "/out", log = dir + "/events.jsonl"
        let r = try Harness.run(try #require(Self.bin), ["--source", try #require(Self.clip), "--pace", "realtime", "--renderer", "null",
                                                        "--unattended", "--output", out, "--events", log], timeout: 180)
        #expect(r.code == 0, "\(r.err)")
        let success = try #require(Self.events(log).last { $0["event"] as? String == "faceCaptureSuccess" })
        let result = try Self.json(out + "/result.json")
        let frames = try #require(result["frameCount"] as? Int), ms = try #require(result["durationMs"] as? Int)
        #expect(success["frames"] as? Int == frames, "event \(success) vs result.json \(frames)")
        #expect(success["durationMs"] as? Int == ms, "event \(success) vs result.json \(ms)")
        #expect(r.err.contains("\(frames) frames recorded, \(String(format: "%.1f", Double(ms) / 1000)) s"), "\(r.err)")
    }

    /// result.json's `source.kind` is the manifest's (camera|file|pipe|demo) and `format` says
    /// how it is read; the undocumented `videoBytes` is gone (`video.bytes` holds the size).
    @Test(.enabled(if: ready, "needs the built binary and ../shared/media/approach.avi"))
    func sourceKindIsTheSameInResultAndManifest() throws {
        let dir = Harness.tempDir("sc-kind")
        let out = dir + "/out"
        let r = try Harness.run(try #require(Self.bin), ["--source", try #require(Self.clip), "--pace", "fast", "--renderer", "null",
                                                        "--unattended", "--output", out], timeout: 120)
        #expect(r.code == 0, "\(r.err)")
        let result = try Self.json(out + "/result.json"), manifest = try Self.json(out + "/manifest.json")
        let rs = try #require(result["source"] as? [String: Any]), ms = try #require(manifest["source"] as? [String: Any])
        #expect(rs["kind"] as? String == "file" && ms["kind"] as? String == "file", "\(rs) \(ms)")
        #expect(rs["format"] as? String == "avi")
        #expect(result["videoBytes"] == nil)
        #expect((result["video"] as? [String: Any])?["bytes"] as? Int != nil)
    }

    /// A y4m whose only frame is cut short: README's 65 "no decodable frame" from `analyze` and
    /// from a capture.
    @Test(.enabled(if: bin != nil, "the selfie-capture binary is not built"))
    func y4mWithNoDecodableFrameExits65FromAnalyzeAndCapture() throws {
        let dir = Harness.tempDir("sc-y4m")
        var bytes = Array("YUV4MPEG2 W64 H48 F30:1 C420jpeg\nFRAME\n".utf8)
        bytes += [UInt8](repeating: 128, count: 64 * 48)   // half of the 4608-byte frame
        let path = dir + "/bad.y4m"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let a = try Harness.run(try #require(Self.bin), ["analyze", "--source", path], timeout: 60)
        #expect(a.code == 65 && a.err.contains("no decodable frame"), "\(a.code) \(a.err)")
        let c = try Harness.run(try #require(Self.bin), ["--source", path, "--pace", "fast", "--renderer", "null", "--unattended",
                                                        "--output", dir + "/out"], timeout: 60)
        #expect(c.code == 65 && c.err.contains("no decodable frame"), "\(c.code) \(c.err)")
    }

    /// Issue #29: the demo shows a clean capture. Its scripted face never stops inside the oval
    /// before its final hold, so the countdown is never restarted with "You moved" (`moved`).
    @Test(.enabled(if: bin != nil && demoPhoto, "needs the built binary and Resources/demo (make setup)"))
    func demoRecordsWithoutMovedRestart() throws {
        let dir = Harness.tempDir("sc-demo")
        let log = dir + "/events.jsonl"
        let r = try Harness.run(try #require(Self.bin), ["--source", "demo", "--pace", "fast", "--renderer", "null", "--unattended",
                                                        "--output", dir + "/out", "--events", log], timeout: 180)
        #expect(r.code == 0, "\(r.err)")
        let events = Self.events(log)
        let restarts = events.filter { $0["event"] as? String == "captureRestarted" }
        #expect(restarts.isEmpty, "\(restarts)")
        let firstCount = try #require(events.first { $0["event"] as? String == "faceCaptureCountDown" }?["t_ms"] as? Int)
        #expect(firstCount >= 7000, "the countdown starts on the final hold, not at \(firstCount) ms")
    }
}

