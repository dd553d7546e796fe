import Foundation
import Testing
import TestSupport

/// manifest.json and `selfie-capture verify` on real headless runs (issue #12): every file of
/// the folder listed with the size and SHA-256 that `sha256sum` (the oracle) computes, the
/// source kind and `live` flag for a file, a pipe and the demo, and `verify` catching a flipped
/// byte, a removed file and an added file.
@Suite(.serialized) struct ManifestTests {
    static let bin = Harness.binary
    static let approach = TestSupport.shared("media/approach.avi")
    static let ready = bin != nil && approach != nil
    static let demoPhoto = FileManager.default.fileExists(
        atPath: TestSupport.projectRoot().appendingPathComponent("Resources/demo/astronaut.png").path)

    static func json(_ path: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    }

    /// Relative paths of every regular file under `dir`, sorted.
    static func files(under dir: String) -> [String] {
        let e = FileManager.default.enumerator(atPath: dir)
        var out: [String] = []
        while let p = e?.nextObject() as? String {
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: dir + "/" + p, isDirectory: &isDir), !isDir.boolValue { out.append(p) }
        }
        return out.sorted()
    }

    /// `sha256sum FILE`'s digest.
    static func sha256sum(_ path: String) throws -> String {
        let r = try ChildProcess.run("/usr/bin/sha256sum", [path], timeout: 60)
        try #require(r.code == 0)
        return String(String(decoding: r.out, as: UTF8.self).prefix(64))
    }

    /// The manifest lists exactly the folder's other files with their sizes and digests.
    static func checkListing(_ out: String) throws -> [String: Any] {
        let manifest = try json(out + "/manifest.json")
        let listed = try #require(manifest["files"] as? [[String: Any]])
        let onDisk = files(under: out).filter { $0 != "manifest.json" }
        #expect(listed.compactMap { $0["path"] as? String } == onDisk)
        for f in listed {
            let path = out + "/" + (try #require(f["path"] as? String))
            let size = (try FileManager.default.attributesOfItem(atPath: path))[.size] as? Int
            #expect(f["bytes"] as? Int == size, "\(path)")
            let digest = try sha256sum(path)
            #expect(f["sha256"] as? String == digest, "\(path)")
        }
        return manifest
    }

    @Test(.enabled(if: ready, "needs the built binary and ../shared/media/approach.avi"))
    func fileSourceManifestAndVerify() throws {
        let bin = try #require(Self.bin)
        let dir = Harness.tempDir("sc-manifest")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let out = dir + "/out", events = dir + "/events.jsonl"
        let before = Date()
        let r = try Harness.run(bin, ["--source", try #require(Self.approach), "--renderer", "null", "--pace", "fast",
                                      "--output", out, "--events", events], timeout: 300)
        let after = Date()
        #expect(r.code == 0, "stderr: \(r.err)")
        let manifest = try Self.checkListing(out)
        #expect(Self.files(under: out) == ["frames/frame-001.jpg", "frames/frame-002.jpg", "frames/frame-003.jpg",
                                           "manifest.json", "reference.jpg", "result.json", "video.avi"])
        #expect(manifest["schemaVersion"] as? Int == 1 && manifest["app"] as? String == "selfie-capture")
        let version = try Harness.run(bin, ["--version"]).out
        let appVersion = try #require(manifest["appVersion"] as? String)
        #expect(version == "selfie-capture \(appVersion)\n")
        let resultDigest = try Self.sha256sum(out + "/result.json")
        #expect(manifest["resultSha256"] as? String == resultDigest)

        // Times: UTC ISO 8601 with milliseconds, within the run.
        let iso = ISO8601DateFormatter()
        iso.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let start = try #require((manifest["startedAt"] as? String).flatMap(iso.date(from:)))
        let end = try #require((manifest["endedAt"] as? String).flatMap(iso.date(from:)))
        #expect((manifest["startedAt"] as? String)?.hasSuffix("Z") == true)
        #expect(before.addingTimeInterval(-1) <= start && start <= end && end <= after.addingTimeInterval(1))

        // The source: a file is not live.
        let source = try #require(manifest["source"] as? [String: Any])
        #expect(source["kind"] as? String == "file" && source["live"] as? Bool == false)
        #expect(source["width"] as? Int == 640 && source["height"] as? Int == 480 && source["camera"] == nil)

        // The settings are result.json's; result.json names the manifest; so does the last event.
        let result = try Self.json(out + "/result.json")
        #expect((manifest["settings"] as? NSDictionary) == (result["settings"] as? NSDictionary))
        #expect(result["manifest"] as? String == URL(fileURLWithPath: out).resolvingSymlinksInPath().path + "/manifest.json")
        let lines = try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n")
        let lastLine = try #require(lines.last)
        let last = try #require(try JSONSerialization.jsonObject(with: Data(lastLine.utf8)) as? [String: Any])
        #expect(last["event"] as? String == "outputSaved")
        #expect(last["manifest"] as? String == result["manifest"] as? String)
        let attrs = try FileManager.default.attributesOfItem(atPath: out + "/manifest.json")
        #expect(attrs[.posixPermissions] as? Int == 0o600)

        // verify: intact → 0.
        let ok = try Harness.run(bin, ["verify", out])
        #expect(ok.code == 0 && ok.out == "\(out): 6 files match manifest.json\n", "\(ok.out)\(ok.err)")

        // A flipped byte, a removed file, an added file: each 65 and named.
        func copy(_ name: String) throws -> String {
            let c = dir + "/" + name
            try FileManager.default.copyItem(atPath: out, toPath: c)
            return c
        }
        let flipped = try copy("flipped")
        let fh = try FileHandle(forUpdating: URL(fileURLWithPath: flipped + "/frames/frame-001.jpg"))
        try fh.seek(toOffset: 100)
        let byte = try #require(try fh.read(upToCount: 1)?.first)
        try fh.seek(toOffset: 100)
        try fh.write(contentsOf: Data([byte ^ 0x01]))
        try fh.close()
        let f = try Harness.run(bin, ["verify", flipped])
        #expect(f.code == 65)
        let flippedDigest = try Self.sha256sum(flipped + "/frames/frame-001.jpg")
        #expect(f.err.contains("\(flipped)/frames/frame-001.jpg: changed (sha256 \(flippedDigest), manifest "), "\(f.err)")
        #expect(!f.err.contains("video.avi") && !f.err.contains("result.json"))

        let removed = try copy("removed")
        try FileManager.default.removeItem(atPath: removed + "/video.avi")
        let m = try Harness.run(bin, ["verify", removed])
        #expect(m.code == 65 && m.err.contains("\(removed)/video.avi: missing\n"), "\(m.err)")

        let added = try copy("added")
        try Data("x".utf8).write(to: URL(fileURLWithPath: added + "/frames/frame-004.jpg"))
        let a = try Harness.run(bin, ["verify", added])
        #expect(a.code == 65 && a.err.contains("\(added)/frames/frame-004.jpg: extra (not in the manifest)\n"), "\(a.err)")
        #expect(a.err.hasSuffix("selfie-capture: \(added) does not match its manifest: 1 file differs\n"))
    }

    @Test(.enabled(if: bin != nil, "the selfie-capture binary is not built"))
    func verifyMissingOrMalformedManifest() throws {
        let bin = try #require(Self.bin)
        let dir = Harness.tempDir("sc-verify")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let none = try Harness.run(bin, ["verify", dir])
        #expect(none.code == 66 && none.err == "selfie-capture: \(dir) is not a capture folder: no manifest.json (a capture writes it last)\n",
                "\(none.err)")
        let gone = try Harness.run(bin, ["verify", dir + "/nothing"])
        // ENOENT's own words: the path may have been meant as a folder (a new-user trial got
        // "no such file or device").
        #expect(gone.code == 66 && gone.err == "selfie-capture: no such file or directory: \(dir)/nothing\n", "\(gone.err)")
        // A file, not a folder.
        _ = FileManager.default.createFile(atPath: dir + "/result.json", contents: Data("{}".utf8))
        let file = try Harness.run(bin, ["verify", dir + "/result.json"])
        #expect(file.code == 66 && file.err == "selfie-capture: \(dir)/result.json is not a capture folder: not a folder\n", "\(file.err)")
        try FileManager.default.removeItem(atPath: dir + "/result.json")
        try Data("{\"schemaVersion\": 1, \"files\": 3}".utf8).write(to: URL(fileURLWithPath: dir + "/manifest.json"))
        let bad = try Harness.run(bin, ["verify", dir])
        #expect(bad.code == 65 && bad.err.hasPrefix("\(dir)/manifest.json: error: not a valid manifest:"), "\(bad.err)")
        let help = try Harness.run(bin, ["verify", "--help"])
        #expect(help.code == 0 && help.out.contains("selfie-capture verify DIR"))
    }

    /// A y4m pipe is `pipe`, not live.
    @Test(.enabled(if: ready && Harness.tool("ffmpeg") != nil, "needs ffmpeg, the binary and ../shared/media"))
    func pipeSourceIsNotLive() throws {
        let ffmpeg = try #require(Harness.tool("ffmpeg"))
        let dir = Harness.tempDir("sc-manifest-pipe")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let cmd = "'\(ffmpeg)' -v error -i '\(try #require(Self.approach))' -pix_fmt yuv420p -f yuv4mpegpipe - | '\(try #require(Self.bin))' "
            + "--source - --renderer null --pace fast --output '\(dir)/out'"
        let r = try Harness.run("/bin/sh", ["-c", cmd], timeout: 300)
        #expect(r.code == 0, "stderr: \(r.err)")
        let source = try #require(try Self.checkListing(dir + "/out")["source"] as? [String: Any])
        #expect(source["kind"] as? String == "pipe" && source["live"] as? Bool == false && source["spec"] as? String == "-")
    }

    /// The demo is `demo`, not live.
    @Test(.enabled(if: bin != nil && demoPhoto, "needs the built binary and Resources/demo (make setup)"))
    func demoSourceIsNotLive() throws {
        let dir = Harness.tempDir("sc-manifest-demo")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try Harness.run(try #require(Self.bin), ["--source", "demo", "--renderer", "null", "--pace", "fast",
                                                         "--timeout", "120", "--output", dir + "/out"], timeout: 300)
        #expect(r.code == 0, "stderr: \(r.err)")
        let source = try #require(try Self.checkListing(dir + "/out")["source"] as? [String: Any])
        #expect(source["kind"] as? String == "demo" && source["live"] as? Bool == false)
    }
}
