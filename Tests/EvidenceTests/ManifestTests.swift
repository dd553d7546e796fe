import Evidence
import Foundation
import JSON
import Testing

/// The manifest's JSON shape, its checks on reading, and the folder comparison behind `verify`.
@Suite struct ManifestTests {
    static let h1 = String(repeating: "a", count: 64), h2 = String(repeating: "b", count: 64)
    static let h3 = String(repeating: "c", count: 64)

    static func sample() -> Manifest {
        Manifest(app: "selfie-capture", appVersion: "9.9.9",
                 startedAt: Date(timeIntervalSince1970: 1_796_126_400),        // 2026-12-01T12:00:00Z
                 endedAt: Date(timeIntervalSince1970: 1_796_126_403.25),
                 settings: ["preset": .string("selfieFast"), "timeoutSeconds": .null, "mirror": .bool(true)],
                 source: SourceRecord(kind: .file, spec: "clip.avi", width: 640, height: 480, fps: 15),
                 files: [FileRecord(path: "video.avi", bytes: 10, sha256: h1),
                         FileRecord(path: "frames/frame-001.jpg", bytes: 3, sha256: h2),
                         FileRecord(path: "result.json", bytes: 2, sha256: h3)],
                 resultSha256: h3)
    }

    /// The exact text: times pinned by the caller in UTC with milliseconds, keys sorted, files
    /// sorted by path, `live` false for a file, no `camera` member.
    @Test func encodesTheDocumentedShape() throws {
        let text = String(decoding: try Self.sample().encoded(), as: UTF8.self)
        let expected = """
        {
          "app" : "selfie-capture",
          "appVersion" : "9.9.9",
          "endedAt" : "2026-12-01T12:00:03.250Z",
          "files" : [
            {
              "bytes" : 3,
              "path" : "frames/frame-001.jpg",
              "sha256" : "\(Self.h2)"
            },
            {
              "bytes" : 2,
              "path" : "result.json",
              "sha256" : "\(Self.h3)"
            },
            {
              "bytes" : 10,
              "path" : "video.avi",
              "sha256" : "\(Self.h1)"
            }
          ],
          "resultSha256" : "\(Self.h3)",
          "schemaVersion" : 1,
          "settings" : {
            "mirror" : true,
            "preset" : "selfieFast",
            "timeoutSeconds" : null
          },
          "source" : {
            "fps" : 15,
            "height" : 480,
            "injection" : {
              "level" : "replay",
              "reasons" : [
                "the source is a file: a replay by definition"
              ]
            },
            "kind" : "file",
            "live" : false,
            "spec" : "clip.avi",
            "width" : 640
          },
          "startedAt" : "2026-12-01T12:00:00.000Z"
        }

        """
        #expect(text == expected)
        #expect(try Manifest.decode(Array(text.utf8)) == Self.sample())
    }

    @Test func liveOnlyForACamera() {
        for k in SourceRecord.Kind.allCases {
            #expect(SourceRecord(kind: k, spec: "x", width: 1, height: 1, fps: 1).live == (k == .camera))
        }
    }

    @Test(arguments: [
        ("[]", "not a JSON object"),
        ("{\"schemaVersion\": 2}", "unsupported schemaVersion 2"),
        ("{\"files\": []}", "missing or non-integer 'schemaVersion'"),
        ("{\"schemaVersion\": 1, \"app\": \"x\"}", "missing key"),
    ])
    func malformedIsNamed(text: String, reason: String) {
        do {
            _ = try Manifest.decode(Array(text.utf8))
            Issue.record("accepted \(text)")
        } catch let ManifestError.malformed(r) {
            #expect(r.contains(reason), "\(r)")
        } catch { Issue.record("\(error)") }
    }

    /// Paths that would leave the folder, repeats, bad digests and a `resultSha256` that is not
    /// result.json's are refused.
    @Test(arguments: ["../etc/passwd", "/etc/passwd", "frames/../../x", "a//b", "./video.avi", "", "manifest.json"])
    func unsafeOrSelfPathsAreMalformed(path: String) throws {
        var m = Self.sample()
        m.files[0].path = path
        #expect(throws: ManifestError.self) { _ = try Manifest.decode(try m.encoded()) }
    }

    @Test func otherInconsistenciesAreMalformed() throws {
        var dup = Self.sample(); dup.files[2].path = dup.files[0].path
        var hex = Self.sample(); hex.files[0].sha256 = String(repeating: "A", count: 64)
        var res = Self.sample(); res.resultSha256 = Self.h1
        var noResult = Self.sample(); noResult.files.removeAll { $0.path == "result.json" }
        for m in [dup, hex, res, noResult] {
            #expect(throws: ManifestError.self) { _ = try Manifest.decode(try m.encoded()) }
        }
    }

    // MARK: comparison

    static func observed(_ m: Manifest) -> [ObservedFile] { m.files.map { .file($0) } }

    @Test func intactFolderHasNoDiscrepancy() {
        let m = Self.sample()
        #expect(Verification.compare(m, observed: Self.observed(m)).isEmpty)
    }

    @Test func eachDifferenceIsNamedOnItsOwnLine() {
        let m = Self.sample()
        var seen = Self.observed(m)
        seen.removeAll { $0.path == "video.avi" }                                          // removed
        seen[0] = .file(FileRecord(path: "frames/frame-001.jpg", bytes: 3, sha256: Self.h1)) // flipped byte
        seen.append(.file(FileRecord(path: "notes.txt", bytes: 1, sha256: Self.h1)))        // added
        seen.append(.unreadable(path: "frames/frame-002.jpg", reason: "Permission denied"))
        let d = Verification.compare(m, observed: seen)
        #expect(d.map(\.path) == ["frames/frame-001.jpg", "frames/frame-002.jpg", "notes.txt", "video.avi"])
        #expect(d.map { $0.line(folder: "/out") } == [
            "/out/frames/frame-001.jpg: changed (sha256 \(Self.h1), manifest \(Self.h2))",
            "/out/frames/frame-002.jpg: extra (not in the manifest)",
            "/out/notes.txt: extra (not in the manifest)",
            "/out/video.avi: missing",
        ])
    }

    @Test func sizeChangeIsShownWithTheDigest() {
        let m = Self.sample()
        var seen = Self.observed(m)
        seen[2] = .file(FileRecord(path: "video.avi", bytes: 11, sha256: Self.h2))
        #expect(Verification.compare(m, observed: seen).map { $0.line(folder: "d/") }
                == ["d/video.avi: changed (sha256 \(Self.h2), manifest \(Self.h1); 11 bytes, manifest 10)"])
        var unreadable = Self.observed(m)
        unreadable[2] = .unreadable(path: "video.avi", reason: "Permission denied")
        #expect(Verification.compare(m, observed: unreadable).map { $0.line(folder: "d") } == ["d/video.avi: unreadable (Permission denied)"])
    }

    /// The manifest's text is what Foundation's JSONEncoder wrote before issue #26 moved it to
    /// `JSONWriter` (`.prettyPrinted, .sortedKeys, .withoutEscapingSlashes`) for keys of one
    /// case (JSONEncoder sorts mixed case case-insensitively, `JSONWriter` by code point): a
    /// camera's record (USB, kernel, fractional rates, injection) and nested settings come out
    /// byte for byte, and the text reads back to the same manifest.
    @Test func textIsWhatJSONEncoderWrote() throws {
        var m = Self.sample()
        m.source = SourceRecord(kind: .camera, spec: "/dev/video0", width: 1280, height: 720, fps: 29.97,
                                camera: .init(driver: "uvcvideo", card: "HD Webcam: C270", busInfo: "usb-0000:00:14.0-1",
                                              fourcc: "MJPG", measuredFps: 29.8512, usb: .init(vendorId: "046d", productId: "0825", serial: nil),
                                              kernel: "6.1.0-13-amd64"))
        m.settings = ["preset": "selfieFast", "timeoutSeconds": nil, "qualities": ["hd720", "qhd"], "rate": 0.25,
                      "challenge": ["steps": [["direction": "left", "timeoutMs": 5000]], "source": "a/b \u{e9}\u{1}"]]
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let foundation = Array(try e.encode(m)) + [0x0A]
        #expect(String(decoding: try m.encoded(), as: UTF8.self) == String(decoding: foundation, as: UTF8.self))
        #expect(try Manifest.decode(try m.encoded()) == m)
    }
}
