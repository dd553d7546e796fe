import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes an MJPEG AVI (Microsoft RIFF AVI 1.0 layout, one video stream):
///
/// `RIFF 'AVI '` → `LIST 'hdrl'` (`avih` with `dwMicroSecPerFrame`, `dwTotalFrames`,
/// `AVIF_HASINDEX`; `LIST 'strl'` with `strh` `vids`/`MJPG` rate/scale/length and `strf`
/// BITMAPINFOHEADER `MJPG`) → `LIST 'movi'` of `00dc` chunks (padded to even size) → `idx1`
/// (offsets relative to the `movi` FourCC, every frame a key frame).
///
/// JPEG bytes from an MJPEG source are stored as they are (no re-encode); other frames are encoded
/// at `quality` (default 90: visually lossless for review, about 1/10 of raw size at 640×480).
/// The file is written as `.<name>.partial` beside the target, created 0600 (biometric data), and
/// renamed to the target by `finalize()`; `abort()` (or deinit without finalize) removes it, so
/// a failed or cancelled capture never leaves a half-written video.
public final class MJPEGAVIWriter: VideoWriter {
    /// Quality used when frames must be encoded (no source JPEG); 1…100 libjpeg scale.
    public static let defaultQuality = 90

    public let path: String
    public let temporaryPath: String
    public let width: Int
    public let height: Int
    /// Frame rate as a fraction (`rateNum / rateDen` frames per second).
    public let rateNum: Int
    public let rateDen: Int
    public let quality: Int
    private var fd: Int32
    private var position = 0
    private var index: [(offset: Int, size: Int)] = []
    private var moviStart = 0
    private var maxChunk = 0
    private var finished = false
    /// Frames written so far.
    public var frameCount: Int { index.count }
    /// Frames whose JPEG bytes were stored as delivered (not re-encoded).
    public private(set) var passthroughFrames = 0

    /// What `finalize` returns (shared with `MP4Writer`).
    public typealias Summary = VideoSummary
    public var format: VideoFormat { .avi }

    /// Creates the temporary file and writes the header.
    /// - Parameters:
    ///   - fps: frames per second; stored as `fps*1000/1000` (rounded to 1/1000) unless integral.
    /// - Throws: `MediaError.cannotCreateOutput` when the file cannot be created (it never
    ///   replaces an existing file at `path`).
    public init(path: String, width: Int, height: Int, fps: Double, quality: Int = MJPEGAVIWriter.defaultQuality) throws {
        precondition(width > 0 && height > 0 && fps > 0, "MJPEGAVIWriter: bad geometry")
        self.path = path
        self.temporaryPath = PartialFile.temporaryPath(for: path)
        self.width = width; self.height = height; self.quality = quality
        if fps == fps.rounded() { rateNum = Int(fps); rateDen = 1 } else { rateNum = Int((fps * 1000).rounded()); rateDen = 1000 }
        fd = try PartialFile.create(temporary: temporaryPath, for: path)
        do { try write(header(frames: 0, moviSize: 4)) } catch { abort(); throw error }
        moviStart = headerSize - 4   // position of the 'movi' FourCC
    }

    deinit { if !finished { abort() } }

    // Header layout sizes (bytes).
    private let headerSize = 12 + 8 + 192 + 12   // RIFF+AVI, LIST hdrl(192 body), LIST movi header

    private func header(frames: Int, moviSize: Int, riffSize: Int = 0) -> [UInt8] {
        var b: [UInt8] = []
        func fcc(_ s: String) { b.append(contentsOf: Array(s.utf8)) }
        func u32(_ v: Int) { let x = UInt32(truncatingIfNeeded: v); b.append(contentsOf: [UInt8(x & 0xFF), UInt8(x >> 8 & 0xFF), UInt8(x >> 16 & 0xFF), UInt8(x >> 24)]) }
        func u16(_ v: Int) { b.append(UInt8(v & 0xFF)); b.append(UInt8(v >> 8 & 0xFF)) }
        let usPerFrame = Int((1_000_000 * Double(rateDen) / Double(rateNum)).rounded())
        let suggested = max(maxChunk + 8, 0)
        fcc("RIFF"); u32(riffSize); fcc("AVI ")
        fcc("LIST"); u32(192); fcc("hdrl")
        fcc("avih"); u32(56)
        u32(usPerFrame)
        u32(Int(Double(maxChunk) * Double(rateNum) / Double(rateDen)))  // dwMaxBytesPerSec
        u32(0)                  // dwPaddingGranularity
        u32(0x10)               // dwFlags: AVIF_HASINDEX
        u32(frames)             // dwTotalFrames
        u32(0); u32(1); u32(suggested); u32(width); u32(height)
        u32(0); u32(0); u32(0); u32(0)
        fcc("LIST"); u32(4 + 64 + 48); fcc("strl")
        fcc("strh"); u32(56)
        fcc("vids"); fcc("MJPG")
        u32(0); u16(0); u16(0); u32(0)
        u32(rateDen); u32(rateNum)   // dwScale, dwRate
        u32(0); u32(frames)          // dwStart, dwLength
        u32(suggested); u32(0xFFFF_FFFF); u32(0)
        u16(0); u16(0); u16(width); u16(height)
        fcc("strf"); u32(40)
        u32(40); u32(width); u32(height); u16(1); u16(24); fcc("MJPG"); u32(width * height * 3)
        u32(0); u32(0); u32(0); u32(0)
        fcc("LIST"); u32(moviSize); fcc("movi")
        return b
    }

    private func write(_ bytes: [UInt8], at offset: Int? = nil) throws {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { buf -> Int in
                let p = buf.baseAddress! + done
                if let o = offset { return pwrite(fd, p, bytes.count - done, off_t(o + done)) }
                return Glibc.write(fd, p, bytes.count - done)
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw MediaError.writeFailed(path: path, errno: errno)
            }
            done += n
        }
        if offset == nil { position += bytes.count }
    }

    /// Appends one JPEG as a frame, stored as is. The caller vouches it is `width × height`.
    /// - Throws: `MediaError.writeFailed`.
    public func append(jpeg: [UInt8]) throws {
        precondition(!finished, "MJPEGAVIWriter: append after finalize/abort")
        let size = jpeg.count
        var chunk: [UInt8] = Array("00dc".utf8)
        chunk.append(contentsOf: [UInt8(size & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 24 & 0xFF)])
        chunk.append(contentsOf: jpeg)
        if size & 1 == 1 { chunk.append(0) }
        index.append((offset: position - moviStart, size: size))
        maxChunk = max(maxChunk, size)
        try write(chunk)
    }

    /// Appends a frame: its source JPEG as is when it has one of the right size (every source's
    /// JPEG went through `JPEGFrameDecoder`, so it carries Huffman tables: JPG-02), else the RGB
    /// picture (resized to the writer's size if needed) encoded at `quality`.
    /// - Throws: `MediaError.writeFailed`, `JPEGError.encode`.
    public func append(_ frame: VideoFrame) throws {
        if let j = frame.jpeg, frame.width == width, frame.height == height {
            try append(jpeg: j)
            passthroughFrames += 1
        } else {
            try append(image: frame.rgb)
        }
    }

    /// Encodes and appends an image (resized with `Scale.area` when its size differs).
    public func append(image: Image) throws {
        let sized = (image.width == width && image.height == height) ? image : Scale.area(image, width: width, height: height)
        try append(jpeg: try JPEGCodec.encode(sized, quality: quality))
    }

    /// Writes `idx1`, patches the header totals, and renames the file into place.
    /// - Throws: `MediaError.writeFailed` / `.cannotCreateOutput` (the temporary file is removed).
    @discardableResult
    public func finalize() throws -> Summary {
        precondition(!finished, "MJPEGAVIWriter: finalize twice")
        do {
            let moviSize = position - moviStart
            var idx: [UInt8] = Array("idx1".utf8)
            func u32(_ v: Int) { let x = UInt32(truncatingIfNeeded: v); idx.append(contentsOf: [UInt8(x & 0xFF), UInt8(x >> 8 & 0xFF), UInt8(x >> 16 & 0xFF), UInt8(x >> 24)]) }
            u32(16 * index.count)
            for e in index {
                idx.append(contentsOf: Array("00dc".utf8)); u32(0x10); u32(e.offset); u32(e.size)
            }
            try write(idx)
            try write(header(frames: index.count, moviSize: moviSize, riffSize: position - 8), at: 0)
            let f = fd
            fd = -1
            try PartialFile.publish(fd: f, temporary: temporaryPath, to: path)
            finished = true
        } catch {
            abort()
            throw error
        }
        let fps = Double(rateNum) / Double(rateDen)
        return Summary(path: path, frameCount: index.count, width: width, height: height, fps: fps,
                       durationMs: durationMs, bytes: position, format: .avi)
    }

    /// Stops and removes the temporary file. Safe to call more than once.
    public func abort() {
        if fd >= 0 { Glibc.close(fd); fd = -1 }
        if !finished { unlink(temporaryPath) }
        finished = true
    }
}
