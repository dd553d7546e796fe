import Foundation
import JSON

/// `manifest.json`: what a capture's output folder holds and where it came from, so a
/// verification server can check that the files belong together and refuse a replay
/// (issue #12; DESIGN.md "Output").
///
/// Shape (keys sorted when written):
/// `{"schemaVersion": 1, "app": "selfie-capture", "appVersion": "0.1.0",
///   "startedAt": "2026-12-01T12:00:00.000Z", "endedAt": "…",
///   "settings": {…result.json's settings…},
///   "source": {"kind": "camera|file|pipe|demo", "live": true|false, "spec", "width", "height", "fps",
///              "camera"?: {"driver", "card", "busInfo", "fourcc", "measuredFps",
///                          "usb"?: {"vendorId", "productId", "serial"?}, "kernel"},
///              "injection": {"level": "none|virtualCamera|replay", "reasons": […]}},
///   "files": [{"path": "frames/frame-001.jpg", "bytes": 15960, "sha256": "…"}, …],
///   "resultSha256": "…"}`.
/// Paths are relative to the folder, `/`-separated, sorted by their UTF-8 bytes; every file of
/// the folder but the manifest itself is listed. Times are UTC, ISO 8601 with milliseconds.
/// This module reads no clock and no file: the app passes times and file records in.
public struct Manifest: Codable, Equatable, Sendable {
    /// The manifest's own name in the output folder.
    public static let fileName = "manifest.json"
    /// The schema this version writes and reads. A change of meaning gets a new number.
    public static let currentSchemaVersion = 1
    /// The file whose digest is repeated in `resultSha256`.
    public static let resultFileName = "result.json"

    public var schemaVersion: Int
    /// The program that wrote it (`selfie-capture`).
    public var app: String
    /// Its version (`selfie-capture --version`).
    public var appVersion: String
    /// When the capture run started and when the manifest was made (UTC, ISO 8601, ms).
    public var startedAt: String
    public var endedAt: String
    /// The settings used, as written in result.json's `settings`.
    public var settings: JSONValue
    public var source: SourceRecord
    /// Every file of the folder except `manifest.json`, sorted by path.
    public var files: [FileRecord]
    /// SHA-256 of result.json as written (lowercase hex); equal to its entry in `files`.
    public var resultSha256: String

    public init(app: String, appVersion: String, startedAt: Date, endedAt: Date, settings: JSONValue,
                source: SourceRecord, files: [FileRecord], resultSha256: String) {
        self.schemaVersion = Self.currentSchemaVersion
        self.app = app; self.appVersion = appVersion
        self.startedAt = Self.timestamp(startedAt); self.endedAt = Self.timestamp(endedAt)
        self.settings = settings; self.source = source
        self.files = files.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
        self.resultSha256 = resultSha256
    }

    /// `date` in UTC as ISO 8601 with milliseconds, e.g. `2026-12-01T12:00:00.000Z`.
    public static func timestamp(_ date: Date) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        f.timeZone = TimeZone(identifier: "UTC")
        return f.string(from: date)
    }

    /// The JSON text written to disk: this document's `Codable` form (`JSONValueEncoder`)
    /// written by `JSONWriter`, pretty-printed, keys sorted, ending in a newline (the same text
    /// Foundation's JSONEncoder wrote with `.prettyPrinted, .sortedKeys, .withoutEscapingSlashes`).
    /// Reading (`decode`) stays Foundation's JSONDecoder.
    public func encoded() throws -> [UInt8] {
        Array((JSONWriter.text(try JSONValueEncoder.encode(self), layout: .pretty) + "\n").utf8)
    }

    /// Parses and checks a manifest.
    /// - Throws: `ManifestError.malformed` with what is wrong: not JSON, a key missing or of the
    ///   wrong type, an unknown `schemaVersion`, a path that is absolute, empty, holds `.`/`..`
    ///   or repeats, a digest that is not 64 lowercase hex digits, a negative size, or a
    ///   `resultSha256` that is not result.json's entry.
    public static func decode(_ bytes: [UInt8]) throws -> Manifest {
        // The version first, so a future schema is named as such rather than as a missing key.
        let object = try? JSONSerialization.jsonObject(with: Data(bytes))
        guard let top = object as? [String: Any] else { throw ManifestError.malformed("not a JSON object") }
        guard let v = top["schemaVersion"] as? Int else { throw ManifestError.malformed("missing or non-integer 'schemaVersion'") }
        guard v == currentSchemaVersion else {
            throw ManifestError.malformed("unsupported schemaVersion \(v) (this version reads \(currentSchemaVersion))")
        }
        let m: Manifest
        do { m = try JSONDecoder().decode(Manifest.self, from: Data(bytes)) } catch let e as DecodingError {
            throw ManifestError.malformed(describe(e))
        }
        try m.validate()
        return m
    }

    func validate() throws {
        var seen = Set<String>()
        for f in files {
            guard Self.isSafeRelativePath(f.path) else { throw ManifestError.malformed("'\(f.path)' is not a plain relative path inside the folder") }
            guard f.path != Self.fileName else { throw ManifestError.malformed("the manifest lists itself") }
            guard seen.insert(f.path).inserted else { throw ManifestError.malformed("'\(f.path)' is listed twice") }
            guard FileRecord.isDigest(f.sha256) else { throw ManifestError.malformed("'\(f.path)': sha256 is not 64 lowercase hex digits") }
            guard f.bytes >= 0 else { throw ManifestError.malformed("'\(f.path)': negative size") }
        }
        guard FileRecord.isDigest(resultSha256) else { throw ManifestError.malformed("resultSha256 is not 64 lowercase hex digits") }
        guard let r = files.first(where: { $0.path == Self.resultFileName }) else {
            throw ManifestError.malformed("result.json is not listed")
        }
        guard r.sha256 == resultSha256 else { throw ManifestError.malformed("resultSha256 differs from result.json's entry") }
    }

    /// A path relative to the folder that cannot leave it: not empty, not absolute, no empty,
    /// `.` or `..` component, no NUL.
    public static func isSafeRelativePath(_ p: String) -> Bool {
        guard !p.isEmpty, !p.hasPrefix("/"), !p.contains("\0") else { return false }
        return p.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { !$0.isEmpty && $0 != "." && $0 != ".." }
    }

    static func describe(_ e: DecodingError) -> String {
        func at(_ path: [CodingKey]) -> String {
            var s = ""
            for k in path {
                if let i = k.intValue { s += "[\(i)]" } else { s += (s.isEmpty ? "" : ".") + k.stringValue }
            }
            return s.isEmpty ? "the top level" : "'\(s)'"
        }
        switch e {
        case .keyNotFound(let k, let c): return "missing key '\(k.stringValue)' in \(at(c.codingPath))"
        case .typeMismatch(let t, let c): return "\(at(c.codingPath)) should be \(t)"
        case .valueNotFound(let t, let c): return "\(at(c.codingPath)) is null, should be \(t)"
        case .dataCorrupted(let c): return "\(at(c.codingPath)): \(c.debugDescription)"
        @unknown default: return "\(e)"
        }
    }
}

/// One file of the folder: path relative to it, size in bytes, SHA-256 in lowercase hex.
public struct FileRecord: Codable, Equatable, Sendable {
    public var path: String
    public var bytes: Int
    public var sha256: String
    public init(path: String, bytes: Int, sha256: String) { self.path = path; self.bytes = bytes; self.sha256 = sha256 }

    /// 64 lowercase hex digits.
    public static func isDigest(_ s: String) -> Bool {
        s.utf8.count == 64 && s.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
    }
}

/// Where the frames came from. `live` is true only for a camera: a file, a pipe or the demo is a
/// replay as far as a server is concerned.
public struct SourceRecord: Codable, Equatable, Sendable {
    /// `camera` (V4L2 device), `file` (.avi, .mjpeg, .y4m), `pipe` (y4m on standard input),
    /// `demo` (the built-in animated photo).
    public enum Kind: String, Codable, Sendable, CaseIterable {
        case camera, file, pipe, demo
    }

    /// What VIDIOC_QUERYCAP and the negotiation reported for a camera.
    public struct Camera: Codable, Equatable, Sendable {
        /// `v4l2_capability.driver`, `.card`, `.bus_info`.
        public var driver: String
        public var card: String
        public var busInfo: String
        /// The negotiated pixel format's FourCC (`MJPG`, `YUYV`…), as the driver granted it.
        public var fourcc: String
        /// Frames per second measured from the driver's timestamps over the frames delivered
        /// since the camera opened; nil with fewer than two frames.
        public var measuredFps: Double?
        /// The USB device behind the node, from sysfs (`idVendor`, `idProduct`, `serial`); nil
        /// for a camera that is not on USB (or a virtual one).
        public var usb: USB?
        /// The running kernel (`uname -r`), since the driver is part of it.
        public var kernel: String?
        public init(driver: String, card: String, busInfo: String, fourcc: String, measuredFps: Double?,
                    usb: USB? = nil, kernel: String? = nil) {
            self.driver = driver; self.card = card; self.busInfo = busInfo; self.fourcc = fourcc; self.measuredFps = measuredFps
            self.usb = usb; self.kernel = kernel
        }
    }

    /// A USB camera's identity as sysfs gives it: vendor and product ids (4 lowercase hex
    /// digits, e.g. `046d`), the serial string when the device has one.
    public struct USB: Codable, Equatable, Sendable {
        public var vendorId: String
        public var productId: String
        public var serial: String?
        public init(vendorId: String, productId: String, serial: String?) {
            self.vendorId = vendorId; self.productId = productId; self.serial = serial
        }
    }

    public var kind: Kind
    /// True for a camera, false for a file, pipe or demo.
    public var live: Bool
    /// The `--source` argument (`/dev/video0`, a path, `-`, `demo`).
    public var spec: String
    /// Frame size in pixels and nominal frame rate (negotiated for a camera, from the header for a
    /// file or pipe, 30 for the demo).
    public var width: Int
    public var height: Int
    public var fps: Double
    /// Camera details; nil for other kinds.
    public var camera: Camera?
    /// What can be seen of an injection (`InjectionSignals.judge` of the kind and the camera's
    /// identity); nil only in manifests written before issue #25.
    public var injection: InjectionSignals?

    public init(kind: Kind, spec: String, width: Int, height: Int, fps: Double, camera: Camera? = nil) {
        self.kind = kind; self.live = kind == .camera; self.spec = spec
        self.width = width; self.height = height; self.fps = fps; self.camera = camera
        self.injection = InjectionSignals.judge(kind: kind, driver: camera?.driver, card: camera?.card, busInfo: camera?.busInfo)
    }
}

/// A manifest that cannot be used.
public enum ManifestError: Error, Equatable, Sendable {
    /// The text is not a manifest this version reads; the reason says why.
    case malformed(String)
}
