import Foundation
import Testing
import TestSupport

/// `--keep-failed` (issue #25) on ../shared/media/no_face.avi looping (each pass fails the
/// attempt as `sourceEnded`): with the option the run that ends failed keeps, per attempt, the
/// frames that explain it, each named with its hint (no_face: only `noFace`), listed in
/// result.json's `failedAttempts` and in the manifest, which `verify` accepts; without it
/// nothing is kept (RetryTests checks that too).
@Suite(.serialized) struct KeepFailedTests {
    static let bin = Harness.binary
    static let noFace = TestSupport.shared("media/no_face.avi")
    static let ready = bin != nil && noFace != nil
    static let approach = TestSupport.shared("media/approach.avi")

    static func files(under dir: String) -> [String] {
        let e = FileManager.default.enumerator(atPath: dir)
        var out: [String] = []
        while let p = e?.nextObject() as? String {
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: dir + "/" + p, isDirectory: &isDir), !isDir.boolValue { out.append(p) }
        }
        return out.sorted()
    }

    @Test(.enabled(if: ready, "needs the built binary and ../shared/media/no_face.avi"))
    func failedRunKeepsEachAttemptsFramesWithTheirHintsListedInTheManifest() throws {
        let dir = Harness.tempDir("sc-keep-failed")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let out = dir + "/out"
        let r = try Harness.run(try #require(Self.bin), ["--source", try #require(Self.noFace), "--pace", "fast", "--renderer", "null",
                                                         "--loop", "--max-attempts", "2", "--keep-failed", "--output", out], timeout: 300)
        #expect(r.code == 75, "stderr: \(r.err)")
        #expect(Self.files(under: out) == ["failed/attempt-1-1-noFace.jpg", "failed/attempt-2-1-noFace.jpg", "manifest.json", "result.json"])
        let result = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/result.json"))) as? [String: Any])
        #expect(result["status"] as? String == "failed")
        let attempts = try #require(result["failedAttempts"] as? [[String: Any]])
        #expect(attempts.compactMap { $0["attempt"] as? Int } == [1, 2])
        #expect(attempts.allSatisfy { $0["reason"] as? String == "sourceEnded" })
        let frames = attempts.flatMap { $0["frames"] as? [[String: Any]] ?? [] }
        #expect(frames.compactMap { $0["hint"] as? String } == ["noFace", "noFace"])
        // Each kept file is a JPEG (SOI marker) of the clip's size (ffprobe would say the same).
        for f in frames {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: out + "/" + (try #require(f["path"] as? String))))
            #expect(bytes.prefix(2) == Data([0xFF, 0xD8]))
        }
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/manifest.json"))) as? [String: Any])
        let listed = (manifest["files"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }
        #expect(listed == ["failed/attempt-1-1-noFace.jpg", "failed/attempt-2-1-noFace.jpg", "result.json"])
        let v = try Harness.run(try #require(Self.bin), ["verify", out])
        #expect(v.code == 0, "\(v.err)")
    }

    @Test(.enabled(if: ready, "needs the built binary and ../shared/media/no_face.avi"))
    func withoutTheOptionNothingOfAFailedAttemptIsKept() throws {
        let dir = Harness.tempDir("sc-keep-failed-off")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let out = dir + "/out"
        let r = try Harness.run(try #require(Self.bin), ["--source", try #require(Self.noFace), "--pace", "fast", "--renderer", "null",
                                                         "--loop", "--max-attempts", "1", "--output", out], timeout: 300)
        #expect(r.code == 75)
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    /// A run that records on its second attempt (../shared/media/approach.avi, `--timeout 2.5`:
    /// the face is placed only after 2.5 s) keeps the first attempt's frames in the capture's
    /// folder, each with its hint (getCloser while it approached, then ok), in result.json's
    /// `failedAttempts` and in the manifest; without the option the same run keeps none.
    @Test(.enabled(if: bin != nil && approach != nil, "needs the built binary and ../shared/media/approach.avi"))
    func aLaterSuccessKeepsTheFailedAttemptsFramesBesideTheCapture() throws {
        let dir = Harness.tempDir("sc-keep-failed-retry")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        func run(_ out: String, _ extra: [String]) throws -> Harness.Result {
            try Harness.run(try #require(Self.bin), ["--source", try #require(Self.approach), "--pace", "fast", "--renderer", "null",
                                                     "--timeout", "2.5", "--max-attempts", "3", "--output", out] + extra, timeout: 300)
        }
        let r = try run(dir + "/kept", ["--keep-failed"])
        #expect(r.code == 0, "\(r.err)")
        let files = Self.files(under: dir + "/kept")
        #expect(files.filter { $0.hasPrefix("failed/") } == ["failed/attempt-1-1-getCloser.jpg", "failed/attempt-1-2-ok.jpg"])
        let result = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/kept/result.json"))) as? [String: Any])
        #expect(result["attempt"] as? Int == 2)
        let failed = try #require(result["failedAttempts"] as? [[String: Any]])
        #expect(failed.count == 1 && failed[0]["attempt"] as? Int == 1 && failed[0]["reason"] as? String == "timeout")
        #expect((failed[0]["frames"] as? [[String: Any]])?.compactMap { $0["hint"] as? String } == ["getCloser", "ok"])
        let manifest = try String(contentsOfFile: dir + "/kept/manifest.json", encoding: .utf8)
        #expect(manifest.contains("failed/attempt-1-1-getCloser.jpg") && manifest.contains("failed/attempt-1-2-ok.jpg"))
        #expect(try Harness.run(try #require(Self.bin), ["verify", dir + "/kept"]).code == 0)

        let plain = try run(dir + "/plain", [])
        #expect(plain.code == 0)
        #expect(!Self.files(under: dir + "/plain").contains { $0.hasPrefix("failed/") })
    }
}
