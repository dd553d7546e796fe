import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The capture's output folder (`--output DIR` or a new timestamped folder).
///
/// Rules (DESIGN.md "Output"): the directory is created 0700 and files 0600 since they hold
/// biometric data; an existing non-empty folder is never written into; writability is checked
/// by `prepare` (a probe file is created and removed) so the app fails with exit 73 **before**
/// the capture starts.
public struct OutputFolder: Sendable {
    /// Absolute path of the folder (resolved by `prepare`).
    public let path: String

    /// Prefix of generated folder names: `selfie-capture-YYYYMMDD-HHMMSS` (local time), with
    /// `-2`, `-3`… appended when that name exists.
    public static let generatedPrefix = "selfie-capture-"

    /// Creates (or adopts an existing empty) folder and checks it is writable.
    /// - Parameters:
    ///   - requested: `--output DIR`; nil to generate a timestamped folder in `parent`.
    ///   - parent: where generated folders go (default the current directory).
    ///   - date: the time used in the generated name.
    /// - Throws: `MediaError.cannotCreateOutput` (exists and not empty, not a directory, cannot
    ///   create, not writable).
    public static func prepare(requested: String?, parent: String = ".", date: Date = Date()) throws -> OutputFolder {
        let path: String
        if let r = requested {
            path = r
        } else {
            let f = DateFormatter()
            f.locale = Locale(identifier: "en_US_POSIX")
            f.dateFormat = "yyyyMMdd-HHmmss"
            let base = (parent as NSString).appendingPathComponent(generatedPrefix + f.string(from: date))
            var candidate = base
            var n = 2
            while access(candidate, F_OK) == 0 { candidate = "\(base)-\(n)"; n += 1 }
            path = candidate
        }
        var st = stat()
        if stat(path, &st) == 0 {
            guard (st.st_mode & S_IFMT) == S_IFDIR else {
                throw MediaError.cannotCreateOutput(path: path, reason: "exists and is not a directory")
            }
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            guard entries.isEmpty else {
                throw MediaError.cannotCreateOutput(path: path, reason: "folder exists and is not empty (never overwritten)")
            }
            guard chmod(path, 0o700) == 0 else {
                throw MediaError.cannotCreateOutput(path: path, reason: String(cString: strerror(errno)))
            }
        } else {
            // Missing parent folders are created too, as `mkdir -p` would (0777 less the user's
            // umask: they hold no biometric data); only the capture folder itself is 0700.
            let parentPath = Self.parentDirectory(path)
            do {
                if !parentPath.isEmpty, access(parentPath, F_OK) != 0 {
                    try FileManager.default.createDirectory(atPath: parentPath, withIntermediateDirectories: true, attributes: nil)
                }
                if mkdir(path, 0o700) != 0 { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            } catch {
                throw MediaError.cannotCreateOutput(path: path, reason: Self.whyNotCreatable(path) ?? (error as NSError).localizedDescription)
            }
            _ = chmod(path, 0o700)   // umask may have removed bits we want; never adds group/other
        }
        // The absolute path, so result.json and the result screen name files unambiguously.
        var resolved = path
        if let r = realpath(path, nil) { resolved = String(cString: r); free(r) }
        let folder = OutputFolder(path: resolved)
        // Probe: can we really create files here (read-only mounts, ACLs, root-owned dirs)?
        let probe = folder.file(".write-probe")
        let fd = Glibc.open(probe, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard fd >= 0 else {
            throw MediaError.cannotCreateOutput(path: path, reason: String(cString: strerror(errno)))
        }
        Glibc.close(fd)
        unlink(probe)
        return folder
    }

    /// The path of `name` inside the folder.
    public func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    /// Creates the subfolder `name` (0700) if needed and returns its path.
    /// - Throws: `MediaError.cannotCreateOutput`.
    @discardableResult
    public func subfolder(_ name: String) throws -> String {
        let p = file(name)
        if mkdir(p, 0o700) != 0 && errno != EEXIST {
            throw MediaError.cannotCreateOutput(path: p, reason: String(cString: strerror(errno)))
        }
        return p
    }

    /// Writes `bytes` to `name` (relative, may contain one folder level) with mode 0600, via a
    /// temporary file that is fsynced and then renamed into place (so a crash leaves the old
    /// state or the whole file, never a torn one); never replaces an existing file.
    /// - Throws: `MediaError.cannotCreateOutput` / `.writeFailed`.
    @discardableResult
    public func write(_ bytes: [UInt8], to name: String) throws -> String {
        let target = file(name)
        let tmp = PartialFile.temporaryPath(for: target)
        let fd = try PartialFile.create(temporary: tmp, for: target)
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + done, bytes.count - done) }
            if n < 0 {
                if errno == EINTR { continue }
                let e = errno
                Glibc.close(fd); unlink(tmp)
                throw MediaError.writeFailed(path: target, errno: e)
            }
            done += n
        }
        // The one publishing path (the video writers use it too): fsync, then rename.
        do { try PartialFile.publish(fd: fd, temporary: tmp, to: target) } catch { unlink(tmp); throw error }
        return target
    }

    /// Starts `video.avi` (or `name`) in this folder.
    public func startRecording(name: String = "video.avi", width: Int, height: Int, fps: Double,
                               quality: Int = MJPEGAVIWriter.defaultQuality) throws -> MJPEGAVIWriter {
        try MJPEGAVIWriter(path: file(name), width: width, height: height, fps: fps, quality: quality)
    }

    /// Starts the video in `format` (`video.avi` or `video.mp4`) in this folder.
    /// - Throws: `MediaError.cannotCreateOutput`, `.encoderUnavailable` (mp4).
    public func startRecording(format: VideoFormat, width: Int, height: Int, fps: Double) throws -> any VideoWriter {
        switch format {
        case .avi: return try MJPEGAVIWriter(path: file(format.fileName), width: width, height: height, fps: fps)
        case .mp4: return try MP4Writer(path: file(format.fileName), width: width, height: height, fps: fps)
        }
    }
}

/// A face bounding box in frame pixels (x, y = top-left), as a plain rectangle so Media does not
/// depend on FaceAnalysis.
public struct PixelRect: Sendable, Equatable {
    public var x: Double, y: Double, width: Double, height: Double
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
}

/// Mobai-style frame collection options (names as in Mobai's capture options).
public struct FrameCollectionOptions: Sendable, Equatable {
    /// Frames skipped after the capture starts before the first kept frame.
    public var numberOfFramesBeforeCapture: Int
    /// Keep one frame every `frameInterval` frames (≥ 1).
    public var frameInterval: Int
    /// How many frames to keep (0 keeps none).
    public var numberOfFrameToCollect: Int
    /// Crop kept frames to the face box plus `FrameCollector.payloadMargin` and encode them at
    /// `FrameCollector.payloadQuality`.
    public var payloadOptimization: Bool

    public init(numberOfFramesBeforeCapture: Int = 0, frameInterval: Int = 1, numberOfFrameToCollect: Int = 0,
                payloadOptimization: Bool = false) {
        self.numberOfFramesBeforeCapture = max(0, numberOfFramesBeforeCapture)
        self.frameInterval = max(1, frameInterval)
        self.numberOfFrameToCollect = max(0, numberOfFrameToCollect)
        self.payloadOptimization = payloadOptimization
    }
}

/// Collects frames during the capture into `frames/frame-NNN.jpg` (NNN from 001).
///
/// Frame k (0-based, counted from the capture start, every frame offered counts) is kept when
/// `k ≥ numberOfFramesBeforeCapture`, `(k - numberOfFramesBeforeCapture) % frameInterval == 0`
/// and fewer than `numberOfFrameToCollect` are kept.
///
/// Without payload optimisation a frame is saved as its source JPEG when it has one, else encoded
/// at `fullQuality` (90). With payload optimisation it is cropped to the face box grown by
/// `payloadMargin` (25 % of the box width/height on each side, clamped to the frame: keeps hair,
/// chin and ears, which face matchers use), scaled down (area) so its longer side is at most
/// `payloadMaxSide` (320 px: the face stays ≥ 200 px tall, far above dlib's 80 px minimum) and
/// encoded at `payloadQuality` (75). Without a face box the whole frame gets the same scaling and
/// quality. Size saved: see the test `payloadOnSharedClip` (approach.avi frame 80, a 240 px face
/// in a 640×480 frame stored by ffmpeg at -q:v 6): 15.6 KB source JPEG, 24.8 KB at q90 → 12.8 KB.
public final class FrameCollector {
    public static let fullQuality = 90
    public static let payloadQuality = 75
    public static let payloadMargin = 0.25
    public static let payloadMaxSide = 320

    /// A kept frame.
    public struct Collected: Sendable, Equatable {
        /// Path relative to the output folder (`frames/frame-001.jpg`).
        public var relativePath: String
        public var frameIndex: Int
        public var timestampMs: Int
        public var bytes: Int
        /// The crop applied (frame pixels), nil when the whole frame was kept.
        public var crop: PixelRect?
    }

    public let options: FrameCollectionOptions
    private let folder: OutputFolder
    private var offered = 0
    public private(set) var collected: [Collected] = []

    public init(options: FrameCollectionOptions, folder: OutputFolder) {
        self.options = options; self.folder = folder
    }

    /// True once `numberOfFrameToCollect` frames are kept.
    public var isComplete: Bool { collected.count >= options.numberOfFrameToCollect }

    /// Offers the next captured frame; saves it when the rule keeps it.
    /// - Parameter faceBox: the face bounding box in this frame (used with payload optimisation).
    /// - Returns: the record of the saved frame, or nil when skipped.
    /// - Throws: `MediaError.cannotCreateOutput`/`.writeFailed`, `JPEGError.encode`.
    @discardableResult
    public func offer(_ frame: VideoFrame, faceBox: PixelRect? = nil) throws -> Collected? {
        let k = offered
        offered += 1
        guard !isComplete, k >= options.numberOfFramesBeforeCapture,
              (k - options.numberOfFramesBeforeCapture) % options.frameInterval == 0 else { return nil }
        let (bytes, crop) = try FrameCollector.encode(frame, faceBox: faceBox, optimize: options.payloadOptimization)
        if collected.isEmpty { try folder.subfolder("frames") }
        let name = String(format: "frames/frame-%03d.jpg", collected.count + 1)
        try folder.write(bytes, to: name)
        let c = Collected(relativePath: name, frameIndex: frame.index, timestampMs: frame.timestampMs, bytes: bytes.count, crop: crop)
        collected.append(c)
        return c
    }

    /// The crop rectangle for a face box: grown by `payloadMargin` per side, rounded outwards to
    /// whole pixels and clamped to the frame; nil when nothing of it is inside the frame.
    public static func payloadCrop(faceBox b: PixelRect, frameWidth: Int, frameHeight: Int) -> PixelRect? {
        let mx = b.width * payloadMargin, my = b.height * payloadMargin
        let x0 = max(0, Int((b.x - mx).rounded(.down))), y0 = max(0, Int((b.y - my).rounded(.down)))
        let x1 = min(frameWidth, Int((b.x + b.width + mx).rounded(.up)))
        let y1 = min(frameHeight, Int((b.y + b.height + my).rounded(.up)))
        guard x1 > x0, y1 > y0 else { return nil }
        return PixelRect(x: Double(x0), y: Double(y0), width: Double(x1 - x0), height: Double(y1 - y0))
    }

    /// The JPEG bytes a frame is saved as, and the crop used.
    public static func encode(_ frame: VideoFrame, faceBox: PixelRect?, optimize: Bool) throws -> ([UInt8], PixelRect?) {
        guard optimize else {
            if let j = frame.jpeg { return (j, nil) }   // with Huffman tables (JPEGFrameDecoder, JPG-02)
            return (try JPEGCodec.encode(frame.rgb, quality: fullQuality), nil)
        }
        func shrink(_ i: Image) -> Image {
            let side = max(i.width, i.height)
            guard side > payloadMaxSide else { return i }
            return Scale.area(i, width: max(1, i.width * payloadMaxSide / side), height: max(1, i.height * payloadMaxSide / side))
        }
        if let b = faceBox, let r = payloadCrop(faceBox: b, frameWidth: frame.width, frameHeight: frame.height),
           let img = Scale.crop(frame.rgb, x: Int(r.x), y: Int(r.y), width: Int(r.width), height: Int(r.height)) {
            return (try JPEGCodec.encode(shrink(img), quality: payloadQuality), r)
        }
        return (try JPEGCodec.encode(shrink(frame.rgb), quality: payloadQuality), nil)
    }
}

extension OutputFolder {
    /// `path` without its last component, as `dirname` gives it but "" for a bare name: "a/b"
    /// → "a", "/a" → "/", "a" and "a/" → "". (Foundation's `NSString.deletingLastPathComponent`
    /// traps on a one-character path such as "z" in swift-corelibs-foundation 6.)
    public static func parentDirectory(_ path: String) -> String {
        var p = Substring(path)
        while p.count > 1, p.hasSuffix("/") { p = p.dropLast() }
        guard let slash = p.lastIndex(of: "/") else { return "" }
        if slash == p.startIndex { return "/" }
        var parent = p[..<slash]
        while parent.count > 1, parent.hasSuffix("/") { parent = parent.dropLast() }
        return String(parent)
    }

    /// Why `path` cannot be made, in words (Foundation's message for this is a generic "The
    /// operation could not be completed"): the first existing ancestor that is not a folder,
    /// or one that cannot be written. nil when no cause is found.
    static func whyNotCreatable(_ path: String) -> String? {
        var ancestor = parentDirectory(path)
        while !ancestor.isEmpty && ancestor != "/" {
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: ancestor, isDirectory: &isDir) {
                if !isDir.boolValue { return "'\(ancestor)' is a file, not a folder" }
                if access(ancestor, W_OK | X_OK) != 0 { return "cannot write in '\(ancestor)': \(String(cString: strerror(errno)))" }
                return nil
            }
            ancestor = parentDirectory(ancestor)
        }
        return nil
    }
}
