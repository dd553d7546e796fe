import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reading whole input files with named errors.
enum InputFile {
    /// Reads `path` fully.
    /// - Throws: `MediaError.fileMissing` (ENOENT/ENOTDIR), `.unreadable` (other errno).
    static func read(_ path: String) throws -> [UInt8] {
        let fd = Glibc.open(path, O_RDONLY)
        guard fd >= 0 else {
            let e = errno
            if e == ENOENT || e == ENOTDIR { throw MediaError.fileMissing(path: path) }
            throw MediaError.unreadable(path: path, errno: e)
        }
        defer { Glibc.close(fd) }
        var st = stat()
        if fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR { throw MediaError.unreadable(path: path, errno: EISDIR) }
        var out: [UInt8] = []
        if st.st_size > 0 { out.reserveCapacity(Int(st.st_size)) }
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw MediaError.unreadable(path: path, errno: errno)
            }
            if n == 0 { break }
            out.append(contentsOf: chunk[0..<n])
        }
        return out
    }

    /// Opens `path` for `pread` when it is a regular, non-empty file.
    /// - Returns: the open descriptor (the caller closes it) and the file's size; nil when the
    ///   file is not a regular non-empty file (then it is closed: read it with `read`).
    /// - Throws: as `read`, for the open itself and for a directory.
    static func openRegular(_ path: String) throws -> (fd: Int32, size: Int)? {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let e = errno
            if e == ENOENT || e == ENOTDIR { throw MediaError.fileMissing(path: path) }
            throw MediaError.unreadable(path: path, errno: e)
        }
        var st = stat()
        guard fstat(fd, &st) == 0 else { Glibc.close(fd); return nil }
        if (st.st_mode & S_IFMT) == S_IFDIR { Glibc.close(fd); throw MediaError.unreadable(path: path, errno: EISDIR) }
        guard (st.st_mode & S_IFMT) == S_IFREG, st.st_size > 0 else { Glibc.close(fd); return nil }
        return (fd, Int(st.st_size))
    }

    /// Up to `n` bytes of `fd` from `offset` (fewer at the end of the file or on a read error).
    static func pread(_ fd: Int32, _ offset: Int, _ n: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: max(0, n))
        var got = 0
        out.withUnsafeMutableBytes { buf in
            while got < n {
                let r = Glibc.pread(fd, buf.baseAddress! + got, n - got, off_t(offset + got))
                if r < 0 && errno == EINTR { continue }
                if r <= 0 { break }
                got += r
            }
        }
        if got < n { out.removeSubrange(got...) }
        return out
    }

    /// `AVIParser.Bytes` over an open file: reads through a 4 KiB window (`pread`), so the
    /// parser's scattered header reads cost one read per chunk and no memory beyond the window.
    static func windowed(_ fd: Int32, size: Int) -> AVIParser.Bytes {
        final class Window { var start = 0; var bytes: [UInt8] = [] }
        let w = Window()
        return AVIParser.Bytes(count: size) { offset, n in
            if offset < w.start || offset + n > w.start + w.bytes.count {
                w.start = offset
                w.bytes = pread(fd, offset, max(n, 4096))
            }
            let lo = offset - w.start
            return Array(w.bytes[min(lo, w.bytes.count)..<min(lo + n, w.bytes.count)])
        }
    }

    /// A chunk reader over a file descriptor (for pipes); returns [] at EOF or error.
    static func reader(fd: Int32) -> (Int) -> [UInt8] {
        return { n in
            var buf = [UInt8](repeating: 0, count: max(1, n))
            while true {
                let r = buf.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                if r < 0 && errno == EINTR { continue }
                if r <= 0 { return [] }
                return Array(buf[0..<r])
            }
        }
    }
}

/// Frames from an MJPEG AVI file (ffmpeg's and `MJPEGAVIWriter`'s). A regular file is indexed
/// by reading its chunk headers with `pread` (`AVIParser.Bytes`), and each chunk is read when
/// its frame is due, so the process holds one frame of the file, not all of it (issue #28: the
/// 20 s 1080p clip of the kiosk bench is 18.6 MB; a long clip would be hundreds; a memory map
/// was tried first: the kernel's fault-around brought the whole file in while the index was
/// read); a file that shrinks meanwhile gives short chunks, skipped as truncated. Other files
/// (a FIFO) are read into memory whole, as before. Chunks are decoded one at a time.
public final class AVIFileSource: FrameSource {
    public let info: SourceInfo
    public var stats: SourceStats { decoder.stats }
    /// The whole file, when it is not a regular file (a FIFO); else empty.
    private var bytes: [UInt8] = []
    /// The open file the chunks are read from (-1 when `bytes` holds it, or after `close`).
    private var fd: Int32 = -1
    private let index: AVIIndex
    private let path: String
    private var next = 0
    private var delivered = 0
    private var decoder = JPEGFrameDecoder()

    /// Opens and indexes `path`.
    /// - Throws: `MediaError.fileMissing` / `.unreadable`; `.malformed` when it is not an AVI,
    ///   has no video stream, or the video is not MJPEG.
    public init(path: String) throws {
        self.path = path
        var openFd: Int32 = -1
        do {
            if let file = try InputFile.openRegular(path) {
                openFd = file.fd
                do { index = try AVIParser.parse(InputFile.windowed(file.fd, size: file.size)) } catch {
                    Glibc.close(file.fd); throw error
                }
            } else {
                bytes = try InputFile.read(path)
                index = try AVIParser.parse(bytes)
            }
        } catch let e as AVIParseError {
            throw MediaError.malformed(path: path, reason: "not a readable AVI file: \(e)")
        }
        let codec = index.compression.uppercased()
        guard ["MJPG", "AVRN", "LJPG", "JPEG", "MJPA", "JPGL"].contains(codec) || index.handler.uppercased() == "MJPG" else {
            if openFd >= 0 { Glibc.close(openFd) }
            throw MediaError.malformed(path: path, reason: "video codec '\(index.compression)' is not MJPEG")
        }
        fd = openFd
        decoder.expectedWidth = index.width
        decoder.expectedHeight = index.height
        info = SourceInfo(kind: .avi, width: index.width, height: index.height, fps: index.fps,
                          description: "\(path) (MJPEG AVI \(index.width)x\(index.height) \(index.chunks.count) frames)",
                          deliversJPEG: true)
    }

    /// Number of video chunks in the file.
    public var frameCount: Int { index.chunks.count }

    public func nextFrame() throws -> VideoFrame? {
        while next < index.chunks.count {
            let chunk = index.chunks[next]
            next += 1
            guard let d = decoder.decodeForAnalysis(chunkBytes(chunk.range)) else { continue }
            let t = Int((Double(chunk.streamPosition) * 1000 / info.fps).rounded())
            defer { delivered += 1 }
            return d.frame(index: delivered, timestampMs: t)
        }
        try NoDecodableFrame.check(path: path, delivered: delivered, stats: stats)
        return nil
    }

    /// The bytes of `range` of the file: from memory, or read from the file (fewer when the file
    /// is now shorter or a read fails: the frame decoder then skips the frame as truncated).
    private func chunkBytes(_ range: Range<Int>) -> [UInt8] {
        guard fd >= 0 else { return range.upperBound <= bytes.count ? Array(bytes[range]) : [] }
        return InputFile.pread(fd, range.lowerBound, range.count)
    }

    public func close() {
        bytes = []; next = index.chunks.count
        if fd >= 0 { Glibc.close(fd); fd = -1 }
    }

    deinit { if fd >= 0 { Glibc.close(fd) } }
}

/// Frames from a raw MJPEG stream file (concatenated JPEGs, `.mjpeg`); timestamps at `fps` from
/// each frame's position in the stream (skipped frames keep their place).
public final class MJPEGFileSource: FrameSource {
    public let info: SourceInfo
    public var stats: SourceStats { decoder.stats }
    private var bytes: [UInt8]
    private let path: String
    private var position = 0
    private var delivered = 0
    /// Frames the stream parser found so far, decoded or skipped.
    private var streamPosition = 0
    private var decoder = JPEGFrameDecoder()

    /// Opens `path`; the size most of the first 9 complete frames declare is the stream's size
    /// (`EstablishedSize`), and frames of another size are skipped and counted (JPG-05).
    /// - Parameter fps: the nominal rate (a raw stream carries none); default 30.
    /// - Throws: `MediaError.fileMissing`/`.unreadable`; `.malformed` when no frame has a
    ///   readable header.
    public init(path: String, fps: Double = 30) throws {
        self.path = path
        bytes = try InputFile.read(path)
        guard let (w, h) = EstablishedSize.of(bytes) else {
            throw MediaError.malformed(path: path, reason: "no decodable frame in \(path)")
        }
        decoder.expectedWidth = w
        decoder.expectedHeight = h
        info = SourceInfo(kind: .mjpegStream, width: w, height: h, fps: fps,
                          description: "\(path) (MJPEG stream \(w)x\(h))", deliversJPEG: true)
    }

    public func nextFrame() throws -> VideoFrame? {
        while let f = MJPEGStreamParser.nextFrame(in: bytes, from: position) {
            position = max(f.range.upperBound, position + 1)
            let place = streamPosition
            streamPosition += 1
            guard let d = decoder.decodeForAnalysis(Array(bytes[f.range])) else { continue }
            // From the frame's place in the stream (every frame the parser found, skipped ones
            // too), as an AVI's chunk position: a skipped frame shifts no later one (issue #29).
            let t = Int((Double(place) * 1000 / info.fps).rounded())
            defer { delivered += 1 }
            return d.frame(index: delivered, timestampMs: t)
        }
        position = bytes.count
        try NoDecodableFrame.check(path: path, delivered: delivered, stats: stats)
        return nil
    }

    public func close() { bytes = []; position = 0 }
}

/// Frames from a YUV4MPEG2 stream (file, or stdin with `path == "-"`). Frame rate from the
/// header (30 when absent); limited-range BT.601 unless `XCOLORRANGE=FULL`.
public final class Y4MSource: FrameSource {
    public let info: SourceInfo
    public private(set) var stats = SourceStats()
    /// The parsed stream header (frame rate, aspect, chroma).
    public let header: Y4MHeader
    private let parser: Y4MParser
    private var fd: Int32 = -1
    private var delivered = 0
    private var countedTruncation = false
    /// Frames read from the stream so far, delivered or skipped (the next frame's position).
    private var streamPosition = 0

    private let ownsFD: Bool
    /// The path, or `stdin`, for errors.
    private let name: String

    /// Opens `path` (`-` for stdin).
    /// - Throws: `MediaError.fileMissing`/`.unreadable`; `.malformed` on a bad header or an
    ///   unsupported chroma (only 8-bit 420jpeg/420paldv/420mpeg2/420/422/444/mono).
    public convenience init(path: String) throws {
        if path == "-" {
            try self.init(fileDescriptor: STDIN_FILENO, name: "stdin", ownsDescriptor: false)
            return
        }
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let e = errno
            if e == ENOENT || e == ENOTDIR { throw MediaError.fileMissing(path: path) }
            throw MediaError.unreadable(path: path, errno: e)
        }
        try self.init(fileDescriptor: fd, name: path, ownsDescriptor: true)
    }

    /// Reads a y4m stream from an open descriptor (a pipe, stdin); closes it on `close()` when
    /// `ownsDescriptor`.
    public init(fileDescriptor: Int32, name: String, ownsDescriptor: Bool) throws {
        fd = fileDescriptor
        ownsFD = ownsDescriptor
        self.name = name
        do {
            parser = try Y4MParser(stream: ByteStream(read: InputFile.reader(fd: fd)))
        } catch {
            if ownsDescriptor { Glibc.close(fileDescriptor) }
            throw MediaError.malformed(path: name, reason: "not a readable y4m stream: \(error)")
        }
        header = parser.header
        info = SourceInfo(kind: .y4m, width: header.width, height: header.height, fps: header.fps ?? 30,
                          description: "\(name) (y4m \(header.width)x\(header.height) C\(header.chroma.rawValue))",
                          deliversJPEG: false)
    }

    /// - Throws: `MediaError.malformed` ("no decodable frame", 65) at the end of a stream that
    ///   delivered no frame but skipped some (issue #29: as the AVI and MJPEG sources do).
    public func nextFrame() throws -> VideoFrame? {
        while let planes = parser.nextFrame() {
            defer { streamPosition += 1 }
            if let frame = convert(planes) { return frame }   // else skipped and counted
        }
        // A frame cut short at the end of the stream counts as one skipped frame.
        if parser.truncated && !countedTruncation { stats.skip(.truncated); countedTruncation = true }
        try NoDecodableFrame.check(path: name, delivered: delivered, stats: stats)
        return nil
    }

    /// One frame's planes as a `VideoFrame`; nil (counted as `shortBuffer`) when they cannot be
    /// converted.
    private func convert(_ planes: [UInt8]) -> VideoFrame? {
        let h = header
        let slice = planes[...]
        let rgb: Image?
        if let s = h.chroma.shifts {
            rgb = PixelConvert.planarYUVToRGB(slice, width: h.width, height: h.height, subX: s.x, subY: s.y, fullRange: h.fullRange)
        } else {
            rgb = PixelConvert.grayFromLuma(slice, width: h.width, height: h.height, fullRange: h.fullRange).map(PixelConvert.rgb)
        }
        // Analysis gets the Y plane shrunk to its scale in one pass (issue #16).
        let ad = AnalysisScale.denominator(width: h.width, height: h.height)
        let gray = PixelConvert.lumaShrunk(slice, width: h.width, height: h.height, rowStride: h.width, sampleStep: 1,
                                           denominator: ad, fullRange: h.fullRange)
        guard let image = rgb, let gray else { stats.skip(.shortBuffer); return nil }
        // From the frame's place in the stream, so a skipped frame shifts no later one.
        let t = Int((Double(streamPosition) * 1000 / info.fps).rounded())
        defer { delivered += 1; stats.deliveredFrames += 1 }
        return VideoFrame(index: delivered, timestampMs: t, rgb: image, gray: gray, grayDenominator: ad)
    }

    public func close() {
        if ownsFD && fd >= 0 { Glibc.close(fd) }
        fd = -1
    }
    deinit { close() }
}
