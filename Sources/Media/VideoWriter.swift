import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The recorded video's container and codec (`--video-format avi|mp4`).
public enum VideoFormat: String, Sendable, Equatable, CaseIterable {
    /// MJPEG in AVI: camera JPEGs stored as they are (the default).
    case avi
    /// H.264 (libx264, yuv420p, CRF `MP4Writer.crf`) in MP4 with `+faststart`.
    case mp4

    /// The container's name as result.json and the event log give it (`avi`, `mp4`).
    public var container: String { rawValue }
    /// The codec's name as ffprobe reports it (`mjpeg`, `h264`).
    public var codec: String {
        switch self {
        case .avi: return "mjpeg"
        case .mp4: return "h264"
        }
    }
    /// The video's file name in the output folder (`video.avi`, `video.mp4`).
    public var fileName: String { "video." + rawValue }
}

/// What a finished recording is, whichever writer made it (`finalize()` returns it).
public struct VideoSummary: Sendable, Equatable {
    public var path: String
    public var frameCount: Int
    public var width: Int
    public var height: Int
    /// Frames per second (the source's, as stored in the file).
    public var fps: Double
    /// frameCount / fps, in milliseconds (rounded).
    public var durationMs: Int
    /// Size of the file in bytes.
    public var bytes: Int
    public var format: VideoFormat

    public init(path: String, frameCount: Int, width: Int, height: Int, fps: Double, durationMs: Int, bytes: Int,
                format: VideoFormat) {
        self.path = path; self.frameCount = frameCount; self.width = width; self.height = height
        self.fps = fps; self.durationMs = durationMs; self.bytes = bytes; self.format = format
    }
}

/// A video file being recorded: frames in, one finished file out, or nothing at all.
///
/// Every writer writes `.<name>.partial` beside its target (0600: biometric data), and
/// `finalize()` publishes it with `PartialFile.publish` (fsync, then rename; never replaces an
/// existing file). `abort()`, or dropping an unfinished writer, removes the partial file, so a
/// cancelled, failed or discarded attempt leaves no video and no temporary file.
public protocol VideoWriter: AnyObject {
    /// The target path (where `finalize()` puts the file).
    var path: String { get }
    /// The temporary path written until `finalize()`.
    var temporaryPath: String { get }
    var format: VideoFormat { get }
    /// Frames appended so far.
    var frameCount: Int { get }
    /// The video's frame rate as a fraction (`rateNum / rateDen` frames per second).
    var rateNum: Int { get }
    var rateDen: Int { get }
    /// Appends one frame (every frame is kept; none is dropped or duplicated).
    /// - Throws: `MediaError` (`.writeFailed`, `.encoderUnavailable`) or `JPEGError`.
    func append(_ frame: VideoFrame) throws
    /// Completes the file and renames it into place.
    /// - Throws: `MediaError`; the temporary file is then removed.
    func finalize() throws -> VideoSummary
    /// Stops and removes the temporary file. Safe to call more than once.
    func abort()
}

extension VideoWriter {
    /// The duration (ms) of the frames appended so far at the file's frame rate: what
    /// `finalize()` reports as `VideoSummary.durationMs` (frames × 1000 / fps, rounded).
    public var durationMs: Int { Self.durationMs(frames: frameCount, rateNum: rateNum, rateDen: rateDen) }

    /// frames × 1000 / (rateNum / rateDen), rounded: the one formula of a video's duration.
    public static func durationMs(frames: Int, rateNum: Int, rateDen: Int) -> Int {
        Int((Double(frames) * 1000 * Double(rateDen) / Double(max(1, rateNum))).rounded())
    }
}

/// The one "temporary name, fsync, rename" path of the output folder's files.
public enum PartialFile {
    /// `.<name>.partial` in the same folder as `path` (same file system, so the rename is atomic;
    /// hidden, so a listing of a half-done capture does not show it as a result).
    public static func temporaryPath(for path: String) -> String {
        let url = URL(fileURLWithPath: path)
        return url.deletingLastPathComponent().appendingPathComponent("." + url.lastPathComponent + ".partial").path
    }

    /// Creates (or truncates a stale) temporary file for `target`, mode 0600, write-only.
    /// - Returns: the open descriptor (close-on-exec).
    /// - Throws: `MediaError.cannotCreateOutput` when `target` exists or the file cannot be made.
    public static func create(temporary: String, for target: String) throws -> Int32 {
        if access(target, F_OK) == 0 { throw MediaError.cannotCreateOutput(path: target, reason: "file exists") }
        let fd = Glibc.open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw MediaError.cannotCreateOutput(path: target, reason: String(cString: strerror(errno))) }
        _ = fchmod(fd, 0o600)   // a stale partial file may have had other bits
        return fd
    }

    /// Flushes `fd` to disk (fsync), closes it, and renames `temporary` to `target`. Never replaces
    /// an existing `target`. On error the temporary file is left for the caller's `abort()`.
    /// - Throws: `MediaError.writeFailed` (fsync) / `.cannotCreateOutput` (target exists, rename).
    public static func publish(fd: Int32, temporary: String, to target: String) throws {
        let synced = fsync(fd) == 0 || errno == EINVAL   // EINVAL: a file system without fsync
        let e = errno
        Glibc.close(fd)
        guard synced else { throw MediaError.writeFailed(path: target, errno: e) }
        if access(target, F_OK) == 0 { throw MediaError.cannotCreateOutput(path: target, reason: "file exists") }
        guard rename(temporary, target) == 0 else {
            throw MediaError.cannotCreateOutput(path: target, reason: String(cString: strerror(errno)))
        }
    }
}
