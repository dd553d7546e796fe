import Foundation
import SelfieCaptureApp
import Testing
import TestSupport

/// `selfie-capture analyze` over shared/media clips: one JSON line per frame, boxes in raw source
/// pixels matching the ground truth, statuses in the mirrored view.
@Suite struct AnalyzeCommandTests {
    static let offLeft = TestSupport.shared("media/off_left.avi")
    static let model = FileManager.default.fileExists(atPath: "/usr/share/dlib/shape_predictor_68_face_landmarks.dat")

    func lines(_ out: String) throws -> [[String: Any]] {
        try out.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    @Test(.enabled(if: offLeft != nil && model, "../shared/media/off_left.avi or the dlib model is absent"))
    func offLeftToStdout() throws {
        let r = run(["analyze", "--source", try #require(Self.offLeft)], handlers: ["analyze": AnalyzeCommand.handler])
        #expect(r.code == 0, "\(r.err)")
        #expect(r.err.contains("105 frames read: 105 delivered") && r.err.contains("0 skipped; 105 analysed, 0 failed"), "\(r.err)")
        let objs = try lines(r.out)
        #expect(objs.count == 105)
        #expect(objs.map { $0["frame"] as? Int } == (0..<105).map { $0 })
        // Ground truth frame 0 (off_left.json): box x 383.73 y 118.82 w 240.51 h 240 (raw right half).
        let f0 = try #require((objs[0]["faces"] as? [[String: Any]])?.first)
        let x = try #require(f0["x"] as? Double), w = try #require(f0["w"] as? Double)
        #expect(abs(x + w / 2 - (383.73 + 120.26)) < 15)
        // Shown left of the oval in the mirrored preview → TooFarLeft, hint moveRight (label).
        #expect(objs[0]["status"] as? String == "TooFarLeft" && objs[0]["hint"] as? String == "moveRight")
        #expect(objs[104]["status"] as? String == "ValidFace" && objs[104]["hint"] as? String == "holdStill")
        #expect(objs[0]["t_ms"] as? Int == 0 && objs[15]["t_ms"] as? Int == 1000)
    }

    @Test(.enabled(if: offLeft != nil && model, "../shared/media/off_left.avi or the dlib model is absent"))
    func noMirrorAndLogFile() throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("analyze-\(getpid()).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        let r = run(["analyze", "--source", try #require(Self.offLeft), "--no-mirror", "--analysis-log", log],
                    handlers: ["analyze": AnalyzeCommand.handler])
        #expect(r.code == 0 && r.out.isEmpty)
        let objs = try lines(try String(contentsOfFile: log, encoding: .utf8))
        #expect(objs.count == 105)
        #expect(objs[0]["status"] as? String == "TooFarRight" && objs[0]["hint"] as? String == "moveLeft")
        let mode = try FileManager.default.attributesOfItem(atPath: log)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test func missingSourceFile() {
        let r = run(["analyze", "--source", "/nonexistent/clip.avi"], handlers: ["analyze": AnalyzeCommand.handler])
        #expect(r.code == 66 && r.err == "selfie-capture: no such file or directory: /nonexistent/clip.avi\n")
    }

    @Test(.enabled(if: offLeft != nil, "../shared/media/off_left.avi is absent"))
    func unwritableLog() throws {
        let r = run(["analyze", "--source", try #require(Self.offLeft), "--analysis-log", "/nonexistent/dir/log.jsonl"],
                    handlers: ["analyze": AnalyzeCommand.handler])
        #expect(r.code == 73 && r.err.contains("cannot create output '/nonexistent/dir/log.jsonl'"))
    }
}
