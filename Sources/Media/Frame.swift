import Foundation

/// What kind of thing a `FrameSource` reads from.
public enum SourceKind: String, Sendable, Equatable {
    /// A V4L2 camera (`/dev/videoN`).
    case camera
    /// An MJPEG AVI file.
    case avi
    /// A raw MJPEG stream file (concatenated JPEGs).
    case mjpegStream
    /// A YUV4MPEG2 file or pipe.
    case y4m
    /// The built-in demo scene.
    case demo
}

/// Static facts about a source, known once it is open.
public struct SourceInfo: Sendable, Equatable {
    public var kind: SourceKind
    /// Frame width and height in pixels, as delivered (after any driver negotiation).
    public var width: Int
    public var height: Int
    /// Nominal frames per second (from the AVI/y4m header, the V4L2 frame interval, or 30 for the
    /// demo and raw MJPEG streams).
    public var fps: Double
    /// Human-readable description (path, codec, FourCC), for logs and `result.json`.
    public var description: String
    /// True when frames carry the camera's/file's original JPEG bytes (`VideoFrame.jpeg`), so a
    /// recording can store them without re-encoding.
    public var deliversJPEG: Bool

    public init(kind: SourceKind, width: Int, height: Int, fps: Double, description: String, deliversJPEG: Bool) {
        self.kind = kind; self.width = width; self.height = height; self.fps = fps
        self.description = description; self.deliversJPEG = deliversJPEG
    }
}

/// Counters of bad frames a source met. Bad frames never throw (bug reports JPG-03, JPG-06).
public struct SourceStats: Sendable, Equatable {
    /// Frames dropped because they could not be decoded (fatal libjpeg error, truncated container
    /// chunk, wrong size).
    public var skippedFrames = 0
    /// Frames delivered although libjpeg warned (e.g. "extraneous bytes before marker").
    public var warnedFrames = 0
    public init(skippedFrames: Int = 0, warnedFrames: Int = 0) {
        self.skippedFrames = skippedFrames; self.warnedFrames = warnedFrames
    }
}

/// One decoded video frame.
///
/// `rgb` is always decoded. `gray` (full-size luma) and `gray(scaleDenominator:)` are computed
/// on first use and cached; for JPEG frames they are decoded straight to gray by libjpeg-turbo
/// (cheaper than converting the RGB). Copies share the cache.
public struct VideoFrame: Sendable {
    /// 0-based position in the source (counting delivered frames; skipped frames do not count).
    public var index: Int
    /// Presentation time in milliseconds from the start of the source.
    public var timestampMs: Int
    public var width: Int { rgb.width }
    public var height: Int { rgb.height }
    /// The original compressed bytes when the source delivers MJPEG (camera, AVI, .mjpeg);
    /// nil for raw sources (YUYV camera, y4m, demo).
    public var jpeg: [UInt8]?
    /// The decoded picture, packed RGB.
    public var rgb: Image
    private let cache: GrayCache

    /// Creates a frame. `gray` may be given when the source already has luma (y4m Y plane).
    public init(index: Int, timestampMs: Int, rgb: Image, jpeg: [UInt8]? = nil, gray: Image? = nil) {
        precondition(rgb.layout == .rgb, "VideoFrame.rgb must be RGB")
        self.index = index
        self.timestampMs = timestampMs
        self.rgb = rgb
        self.jpeg = jpeg
        self.cache = GrayCache(gray)
    }

    /// Full-size luma (BT.601 weights, full range 0…255).
    public var gray: Image { gray(scaleDenominator: 1) }

    /// Luma scaled down by 1, 2, 4 or 8 (for analysis; sizes round up like libjpeg's scaling).
    public func gray(scaleDenominator: Int) -> Image {
        let d = [1, 2, 4, 8].contains(scaleDenominator) ? scaleDenominator : 1
        return cache.get(d) {
            if let j = jpeg, let g = try? JPEGCodec.decode(j, layout: .gray, scaleDenominator: d).image,
               g.width == (rgb.width + d - 1) / d, g.height == (rgb.height + d - 1) / d {
                return g
            }
            let full = cache.get(1) { PixelConvert.gray(rgb) }
            return d == 1 ? full : Scale.area(full, width: (full.width + d - 1) / d, height: (full.height + d - 1) / d)
        }
    }
}

/// Thread-safe memo of gray images by scale denominator.
final class GrayCache: @unchecked Sendable {
    private let lock = NSLock()
    private var images: [Int: Image] = [:]
    init(_ full: Image?) { if let f = full { images[1] = f } }
    func get(_ d: Int, _ make: () -> Image) -> Image {
        lock.lock()
        if let i = images[d] { lock.unlock(); return i }
        lock.unlock()
        let made = make()
        lock.lock(); images[d] = made; lock.unlock()
        return made
    }
}

/// A source of timestamped frames: camera, file, pipe or demo.
///
/// Contract: `nextFrame()` returns frames in order and `nil` at the end of a finite source.
/// Corrupt frames are skipped and counted in `stats`; it throws only when the source becomes
/// unusable (camera unplugged, file unreadable). `close()` is idempotent and releases the device
/// or file.
public protocol FrameSource: AnyObject {
    var info: SourceInfo { get }
    var stats: SourceStats { get }
    /// The next frame, or nil at the end of the source.
    /// - Throws: `MediaError` / the camera's error when the source is unusable.
    func nextFrame() throws -> VideoFrame?
    func close()
}

/// Errors of the media layer. The app maps them to exit codes (see `exitCodeHint`).
public enum MediaError: Error, Equatable, Sendable {
    /// The input file does not exist (exit 66).
    case fileMissing(path: String)
    /// The input exists but cannot be read (exit 66).
    case unreadable(path: String, errno: Int32)
    /// The input is not a valid file of its kind: `reason` says what is wrong (exit 65).
    case malformed(path: String, reason: String)
    /// The `--source` spec is not one of the supported forms (exit 64).
    case unsupportedSource(String)
    /// The demo source was asked for but no photo was supplied (exit 66).
    case demoPhotoMissing
    /// The source ended before the capture completed (exit 75).
    case sourceEnded(String)
    /// The output folder or file cannot be created (exit 73).
    case cannotCreateOutput(path: String, reason: String)
    /// Writing the output failed mid-way (exit 73).
    case writeFailed(path: String, errno: Int32)

    /// The sysexits code the app uses for this error (DESIGN.md "Exit codes").
    public var exitCodeHint: Int32 {
        switch self {
        case .fileMissing, .unreadable, .demoPhotoMissing: return 66
        case .malformed: return 65
        case .unsupportedSource: return 64
        case .sourceEnded: return 75
        case .cannotCreateOutput, .writeFailed: return 73
        }
    }
}
