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

/// Why a source dropped a frame (bug reports JPG-03..06, V4L-14). The raw value is the name
/// used in `result.json`, the event log and the `analyze` summary.
public enum FrameSkipReason: String, Sendable, CaseIterable, Comparable {
    /// The frame ended before its EOI: cut short in a stream or container chunk (JPG-06).
    case truncated
    /// The JPEG header's size differs from the stream's established (or negotiated) size (JPG-05).
    case wrongSize
    /// Not a JPEG, or libjpeg-turbo failed fatally on it (a warning is not fatal: JPG-03).
    case corrupt
    /// A raw frame shorter than its pixel format and size need.
    case shortBuffer
    /// The driver flagged the buffer as bad (V4L2_BUF_FLAG_ERROR, empty, or DQBUF EIO: V4L-14).
    case deviceError

    public static func < (a: Self, b: Self) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// Counters of the frames a source read: delivered, warned, and skipped by reason. Bad frames
/// never throw (bug reports JPG-03, JPG-06); every one is counted here.
public struct SourceStats: Sendable, Equatable {
    /// Frames handed to the caller (warned ones included).
    public var deliveredFrames = 0
    /// Frames delivered although libjpeg warned (e.g. "extraneous bytes before marker").
    public var warnedFrames = 0
    /// Frames delivered after the standard Huffman tables were inserted (JPG-01/02).
    public var huffmanInsertedFrames = 0
    /// Frames dropped, by reason.
    public var skipped: [FrameSkipReason: Int] = [:]

    /// All frames dropped, whatever the reason.
    public var skippedFrames: Int { skipped.values.reduce(0, +) }
    /// Frames read from the source: delivered plus skipped.
    public var readFrames: Int { deliveredFrames + skippedFrames }

    public init(deliveredFrames: Int = 0, warnedFrames: Int = 0, skipped: [FrameSkipReason: Int] = [:]) {
        self.deliveredFrames = deliveredFrames; self.warnedFrames = warnedFrames; self.skipped = skipped
    }

    /// Counts one dropped frame.
    public mutating func skip(_ reason: FrameSkipReason) { skipped[reason, default: 0] += 1 }

    /// The sum of two counts (a looping source's passes).
    public static func + (a: SourceStats, b: SourceStats) -> SourceStats {
        var s = a
        s.deliveredFrames += b.deliveredFrames
        s.warnedFrames += b.warnedFrames
        s.huffmanInsertedFrames += b.huffmanInsertedFrames
        s.skipped.merge(b.skipped, uniquingKeysWith: +)
        return s
    }

    /// "12 skipped (3 truncated, 9 corrupt)" style summary of the skips, reasons in a fixed order.
    public var skippedSummary: String {
        let parts = skipped.keys.sorted().map { "\(skipped[$0]!) \($0.rawValue)" }
        return parts.isEmpty ? "0 skipped" : "\(skippedFrames) skipped (\(parts.joined(separator: ", ")))"
    }
}

/// One decoded video frame.
///
/// Raw sources (YUYV camera, y4m, demo) give the RGB picture. MJPEG sources (AVI, `.mjpeg`,
/// MJPEG camera) decode each frame once when it is read, to YCbCr planes at the analysis scale
/// (`JPEGFrameDecoder.decodeForAnalysis`: it validates the JPEG, its luma is what analysis
/// needs); RGB is made on first use at the scale asked for: from those planes when that scale
/// is the analysis scale or smaller (a terminal preview: 1/4 or 1/8), else by decoding the JPEG
/// at that scale (reference.jpg, full size). Decoded images are cached; copies share the cache.
public struct VideoFrame: Sendable {
    /// 0-based position in the source (counting delivered frames; skipped frames do not count).
    public var index: Int
    /// Presentation time in milliseconds from the start of the source.
    public var timestampMs: Int
    public let width: Int
    public let height: Int
    /// The compressed bytes when the source delivers MJPEG (camera, AVI, .mjpeg), as
    /// `JPEGFrameDecoder` delivers them: from the last SOI before the scan to the EOI, with
    /// Huffman tables (JPG-01..03, JPG-11), so they are saved as they are; nil for raw sources
    /// (YUYV camera, y4m, demo).
    public var jpeg: [UInt8]?
    /// When the frame was captured, CLOCK_MONOTONIC in µs: the V4L2 buffer timestamp of a
    /// camera frame (when the driver stamps it monotonic, else the dequeue time), the due time of
    /// a file frame paced in realtime (`SourceReader`); nil otherwise (`--pace fast`). The
    /// runtime measures camera-to-screen latency from it (issue #16).
    public var captureMicros: Int?
    private let cache: DecodeCache

    /// Creates a frame from a decoded picture. `gray` may be given when the source already has
    /// luma (y4m Y plane).
    public init(index: Int, timestampMs: Int, rgb: Image, jpeg: [UInt8]? = nil, gray: Image? = nil) {
        precondition(rgb.layout == .rgb, "VideoFrame.rgb must be RGB")
        self.index = index
        self.timestampMs = timestampMs
        self.width = rgb.width
        self.height = rgb.height
        self.jpeg = jpeg
        self.cache = DecodeCache(rgb: rgb, gray: gray)
    }

    /// Creates a frame of an MJPEG source from its JPEG bytes and their decoded full-size luma;
    /// RGB is decoded from `jpeg` when first asked for.
    public init(index: Int, timestampMs: Int, jpeg: [UInt8], gray: Image) {
        self.init(index: index, timestampMs: timestampMs, jpeg: jpeg, width: gray.width, height: gray.height,
                  gray: gray, grayDenominator: 1)
    }

    /// Creates a frame of an MJPEG source of `width` × `height` from its JPEG bytes and their
    /// luma decoded at 1/`grayDenominator` (what `JPEGFrameDecoder.decodeForAnalysis` gives);
    /// other sizes and RGB are decoded from `jpeg` when first asked for.
    /// `chroma`, when given, holds the Cb/Cr planes decoded with `gray` (`JPEGCodec.decodePlanes`):
    /// RGB at 1/`grayDenominator` or smaller (a terminal preview) is then made from the planes
    /// instead of decoding the JPEG again; larger RGB (reference.jpg) still decodes it.
    public init(index: Int, timestampMs: Int, jpeg: [UInt8], width: Int, height: Int, gray: Image, grayDenominator: Int,
                chroma: ChromaPlanes? = nil) {
        precondition(gray.layout == .gray, "VideoFrame(jpeg:gray:) needs the gray decode")
        self.index = index
        self.timestampMs = timestampMs
        self.width = width
        self.height = height
        self.jpeg = jpeg
        self.cache = DecodeCache(rgb: nil, gray: gray, grayDenominator: grayDenominator, chroma: chroma)
    }

    /// Creates a frame of a raw source from its RGB picture and its luma already shrunk by
    /// `grayDenominator` (`PixelConvert.lumaShrunk` from the camera's or y4m's Y samples).
    public init(index: Int, timestampMs: Int, rgb: Image, gray: Image, grayDenominator: Int) {
        precondition(rgb.layout == .rgb && gray.layout == .gray, "VideoFrame(rgb:gray:grayDenominator:) layouts")
        self.index = index
        self.timestampMs = timestampMs
        self.width = rgb.width
        self.height = rgb.height
        self.jpeg = nil
        self.cache = DecodeCache(rgb: rgb, gray: gray, grayDenominator: grayDenominator)
    }

    /// The denominator face analysis works at for this frame's size (`AnalysisScale`).
    public var analysisDenominator: Int { AnalysisScale.denominator(width: width, height: height) }

    /// Luma at the analysis scale (`analysisDenominator`): what `FaceAnalyzer` is given. MJPEG
    /// and raw camera/y4m sources decode it when the frame is read.
    public var analysisGray: Image { gray(scaleDenominator: analysisDenominator) }

    /// The picture, packed RGB, full size.
    public var rgb: Image { rgb(scaleDenominator: 1) }

    /// The picture scaled down by 1, 2, 4 or 8 (sizes round up like libjpeg's scaling). From a
    /// JPEG this is libjpeg-turbo's scaled decoding; otherwise an area average.
    public func rgb(scaleDenominator: Int) -> Image { image(.rgb, scaleDenominator: scaleDenominator) }

    /// The picture at the smallest of the scales 1/8, 1/4, 1/2, 1 that is at least
    /// `width` × `height` pixels (the full picture when none is): what a preview of that many
    /// pixels needs.
    public func rgb(covering width: Int, _ height: Int) -> Image {
        var d = 8
        while d > 1 && ((self.width + d - 1) / d < width || (self.height + d - 1) / d < height) { d /= 2 }
        return rgb(scaleDenominator: d)
    }

    /// Full-size luma (BT.601 weights, full range 0…255).
    public var gray: Image { gray(scaleDenominator: 1) }

    /// Luma scaled down by 1, 2, 4 or 8 (for analysis; sizes round up like libjpeg's scaling).
    public func gray(scaleDenominator: Int) -> Image { image(.gray, scaleDenominator: scaleDenominator) }

    /// `layout` at 1/d: decoded from the JPEG at that scale when there is one, else converted
    /// from the other layout at full size (one of the two is always cached from the start) and
    /// area-averaged.
    private func image(_ layout: Image.Layout, scaleDenominator: Int) -> Image {
        let d = [1, 2, 4, 8].contains(scaleDenominator) ? scaleDenominator : 1
        return cache.get(layout, d) {
            let (w, h) = ((width + d - 1) / d, (height + d - 1) / d)
            // The frame was read as planes (one decode): RGB at their scale or smaller comes from
            // them, not from a second decode of the JPEG (issue #28).
            if layout == .rgb, let (luma, chroma, cd) = cache.planes(), d >= cd, d % cd == 0,
               let c = PixelConvert.rgb(luma: luma, chroma: chroma, shrink: d / cd), c.width == w, c.height == h {
                return c
            }
            if let j = jpeg, let c = try? JPEGCodec.decode(j, layout: layout, scaleDenominator: d).image, c.width == w, c.height == h {
                return c
            }
            if jpeg != nil, let have = cache.anyGray() {
                // The JPEG decoded once when read; should it fail now, resize the luma it gave.
                let g = have.width > w ? Scale.area(have, width: w, height: h) : Scale.nearest(have, width: w, height: h)
                return layout == .rgb ? PixelConvert.rgb(g) : g
            }
            let full = cache.get(layout, 1) { layout == .rgb ? PixelConvert.rgb(gray) : PixelConvert.gray(rgb) }
            return d == 1 ? full : Scale.area(full, width: w, height: h)
        }
    }
}

/// Thread-safe memo of a frame's decoded images by kind and scale denominator.
final class DecodeCache: @unchecked Sendable {
    private struct Key: Hashable { var layout: Image.Layout; var d: Int }
    private let lock = NSLock()
    private var images: [Key: Image] = [:]
    /// The Cb/Cr planes decoded with the gray at `grayDenominator` (never changed after init).
    private let chroma: ChromaPlanes?
    private let grayDenominator: Int
    init(rgb: Image?, gray: Image?, grayDenominator: Int = 1, chroma: ChromaPlanes? = nil) {
        if let rgb { images[Key(layout: .rgb, d: 1)] = rgb }
        if let gray { images[Key(layout: .gray, d: grayDenominator)] = gray }
        self.chroma = gray == nil ? nil : chroma
        self.grayDenominator = grayDenominator
    }
    /// The luma and chroma planes the frame was read as, and their denominator; nil when it was
    /// not read as planes.
    func planes() -> (Image, ChromaPlanes, Int)? {
        guard let chroma else { return nil }
        lock.lock(); defer { lock.unlock() }
        return images[Key(layout: .gray, d: grayDenominator)].map { ($0, chroma, grayDenominator) }
    }
    /// The largest gray image cached, if any.
    func anyGray() -> Image? {
        lock.lock(); defer { lock.unlock() }
        return images.filter { $0.key.layout == .gray }.min { $0.key.d < $1.key.d }?.value
    }
    func get(_ layout: Image.Layout, _ d: Int, _ make: () -> Image) -> Image {
        let key = Key(layout: layout, d: d)
        lock.lock()
        if let i = images[key] { lock.unlock(); return i }
        lock.unlock()
        let made = make()
        lock.lock(); images[key] = made; lock.unlock()
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
    /// How many times the source started over from its beginning (`--loop`, `LoopingSource`);
    /// 0 for sources that never do. The runtime compares it after each frame to see a wrap.
    var loops: Int { get }
}

extension FrameSource {
    /// Sources that do not loop never start over.
    public var loops: Int { 0 }
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
    /// The video encoder cannot be opened or refused a frame (`--video-format mp4`: FFmpeg's
    /// libx264); `reason` names the failing call and FFmpeg's message (exit 78).
    case encoderUnavailable(encoder: String, reason: String)
    /// A shared library loaded on first use cannot be opened or lacks a function
    /// (`FFmpegLibrary`: FFmpeg for `--video-format mp4`); `reason` is the dynamic loader's
    /// message (exit 78, as an encoder that cannot open).
    case libraryMissing(library: String, reason: String)

    /// The sysexits code the app uses for this error (DESIGN.md "Exit codes").
    public var exitCodeHint: Int32 {
        switch self {
        case .fileMissing, .unreadable, .demoPhotoMissing: return 66
        case .malformed: return 65
        case .unsupportedSource: return 64
        case .sourceEnded: return 75
        case .cannotCreateOutput, .writeFailed: return 73
        case .encoderUnavailable, .libraryMissing: return 78
        }
    }
}
