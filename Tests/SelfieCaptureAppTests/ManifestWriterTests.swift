import Digest
import Evidence
import Foundation
import Media
@testable import SelfieCaptureApp
import Synchronization
import Testing
import TestSupport

/// manifest.json as the app writes it (times from the injected wall clock, every file hashed,
/// written last) and `verify` in-process (issue #12). The binary-level checks against
/// `sha256sum` are in EndToEndTests/ManifestTests.
@Suite struct ManifestWriterTests {
    static let approach = TestSupport.shared("media/approach.avi")
    static let model = FileManager.default.fileExists(atPath: "/usr/share/dlib/shape_predictor_68_face_landmarks.dat")

    static func tempDir() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("sc-mw-\(UUID().uuidString.prefix(8))").path
    }

    /// A headless capture with the wall clock pinned: the run's start is the clock's first
    /// reading and the manifest's end its second, exactly; result.json names the manifest and
    /// the event log ends with `outputSaved`.
    @Test(.enabled(if: approach != nil && model, "../shared/media/approach.avi or the dlib model is absent"))
    func pinnedClockCapture() throws {
        let dir = Self.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let out = dir + "/out", events = dir + "/events.jsonl"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let argv = ["--source", try #require(Self.approach), "--renderer", "null", "--pace", "fast", "--output", out, "--events", events]
        let args = try ArgumentParser.parse(argv.enumerated().map { ArgToken($0.element, index: $0.offset + 1) }, spec: Commands.capture)
        let captured = Captured()
        var setup = try CaptureSetup.make(args, environment: ProcessInfo.processInfo.environment, console: captured.console)
        let readings = Mutex(0)
        setup.output.wallClock = {
            let n = readings.withLock { n -> Int in n += 1; return n }
            return Date(timeIntervalSince1970: 1_796_126_400 + Double(n - 1) * 5)   // 12:00:00Z, then 12:00:05Z…
        }
        #expect(try CaptureRuntime(setup: setup).run() == .ok, "\(captured.err.withLock { $0 })")
        #expect(readings.withLock { $0 } == 2)
        let manifest = try Manifest.decode(Array(try Data(contentsOf: URL(fileURLWithPath: out + "/manifest.json"))))
        #expect(manifest.startedAt == "2026-12-01T12:00:00.000Z" && manifest.endedAt == "2026-12-01T12:00:05.000Z")
        #expect(manifest.appVersion == Commands.version && manifest.app == "selfie-capture")
        #expect(manifest.files.map(\.path) == ["frames/frame-001.jpg", "frames/frame-002.jpg", "frames/frame-003.jpg",
                                                "reference.jpg", "result.json", "video.avi"])
        #expect(manifest.source == SourceRecord(kind: .file, spec: try #require(Self.approach), width: 640, height: 480, fps: 15))
        #expect(manifest.settings == ResultWriter.settings(setup))
        #expect(manifest.settings["pace"] == .string("fast") && manifest.settings["timeoutSeconds"] == .null)
        let result = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/result.json"))) as? [String: Any])
        #expect(result["manifest"] as? String == out + "/manifest.json")
        let last = try #require(try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n").last)
        #expect(last.hasPrefix("{\"event\":\"outputSaved\",") && last.hasSuffix(",\"manifest\":\"\(out)/manifest.json\"}"))
        #expect(try EvidenceFolder.verify(out).discrepancies.isEmpty)
    }

    /// A folder made by hand: the manifest lists the other files (not itself), written 0600; a
    /// second manifest is refused; `verify` matches, then names a symbolic link as unreadable
    /// and a changed size.
    @Test func writeThenVerifyInProcess() throws {
        let folder = try OutputFolder.prepare(requested: Self.tempDir())
        defer { try? FileManager.default.removeItem(atPath: folder.path) }
        try folder.subfolder("frames")
        try folder.write(Array("frame".utf8), to: "frames/frame-001.jpg")
        try folder.write(Array("{}\n".utf8), to: "result.json")
        try folder.write([UInt8](repeating: 7, count: 200_000), to: "video.avi")
        let path = try EvidenceFolder.writeManifest(in: folder, settings: ["preset": "selfieFast", "mirror": true],
                                                    source: SourceRecord(kind: .pipe, spec: "-", width: 2, height: 2, fps: 25),
                                                    startedAt: Date(timeIntervalSince1970: 0), endedAt: Date(timeIntervalSince1970: 1))
        #expect(path == folder.path + "/manifest.json")
        let attrs = try FileManager.default.attributesOfItem(atPath: path)
        #expect(attrs[.posixPermissions] as? Int == 0o600)
        let m = try Manifest.decode(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(m.files.map(\.path) == ["frames/frame-001.jpg", "result.json", "video.avi"])
        #expect(m.files[2].bytes == 200_000)
        #expect(m.resultSha256 == m.files[1].sha256 && m.startedAt == "1970-01-01T00:00:00.000Z")
        #expect(m.settings == ["preset": .string("selfieFast"), "mirror": .bool(true)])
        #expect(m.source.kind == .pipe && !m.source.live)
        #expect(throws: MediaError.self) {
            try EvidenceFolder.writeManifest(in: folder, settings: [:], source: m.source, startedAt: Date(), endedAt: Date())
        }

        let ok = run(["verify", folder.path], handlers: CommandRegistry.handlers)
        #expect(ok.code == 0 && ok.out == "\(folder.path): 3 files match manifest.json\n" && ok.err.isEmpty)

        symlink("video.avi", folder.file("link.avi"))
        let fd = open(folder.file("frames/frame-001.jpg"), O_WRONLY | O_APPEND)
        _ = write(fd, "!", 1)
        close(fd)
        let bad = run(["verify", folder.path], handlers: CommandRegistry.handlers)
        #expect(bad.code == 65)
        #expect(bad.err.contains("\(folder.path)/frames/frame-001.jpg: changed (sha256 ") && bad.err.contains("; 6 bytes, manifest 5)\n"))
        #expect(bad.err.contains("\(folder.path)/link.avi: extra (not in the manifest)\n"))
        #expect(bad.out.isEmpty)
    }

    /// The observed entries themselves: a link is not hashed through, a FIFO neither.
    @Test func scanDoesNotFollowLinks() throws {
        let dir = Self.tempDir()
        try FileManager.default.createDirectory(atPath: dir + "/sub", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data("a".utf8).write(to: URL(fileURLWithPath: dir + "/sub/a"))
        symlink("/etc/passwd", dir + "/p")
        mkfifo(dir + "/fifo", 0o600)
        try Data("{}".utf8).write(to: URL(fileURLWithPath: dir + "/manifest.json"))
        let seen = try EvidenceFolder.scan(dir)
        #expect(seen.map(\.path) == ["fifo", "p", "sub/a"])
        #expect(seen[0] == .unreadable(path: "fifo", reason: "not a regular file"))
        #expect(seen[1] == .unreadable(path: "p", reason: "not a regular file"))
        #expect(throws: DigestError.self) { _ = try EvidenceFolder.scan(dir + "/missing") }
    }
}
