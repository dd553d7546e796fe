// Pure Swift (no imports): compiled alone into the fuzz targets (scripts/fuzz-media.sh).

/// What an AVI file holds for its first video stream, and where each frame's bytes are.
public struct AVIIndex: Sendable, Equatable {
    /// One video chunk: its byte range in the file and its position in the stream (for timing).
    public struct Chunk: Sendable, Equatable {
        public var range: Range<Int>
        public var streamPosition: Int
    }
    /// Frame size from the stream format (BITMAPINFOHEADER), falling back to `avih`.
    public var width: Int
    public var height: Int
    /// `avih.dwMicroSecPerFrame`.
    public var microSecPerFrame: Int
    /// `strh.dwRate / strh.dwScale` of the video stream (frames per second as a fraction).
    public var rate: Int
    public var scale: Int
    /// `avih.dwTotalFrames` as written (OpenDML files may hold more).
    public var headerTotalFrames: Int
    /// FourCCs: `strh.fccHandler` and `strf.biCompression` (e.g. "MJPG").
    public var handler: String
    public var compression: String
    /// Non-empty video chunks in file order. Zero-size chunks (a "repeat the previous frame"
    /// marker) are left out but still advance `streamPosition`.
    public var chunks: [Chunk]
    /// True when the file ended inside a chunk or a list (the last chunk was clamped).
    public var truncated: Bool

    /// Frames per second: `rate/scale` when both are set, else from `microSecPerFrame`, else 30.
    public var fps: Double {
        if rate > 0 && scale > 0 { return Double(rate) / Double(scale) }
        if microSecPerFrame > 0 { return 1_000_000 / Double(microSecPerFrame) }
        return 30
    }
}

/// Why an AVI could not be read.
public enum AVIParseError: Error, Equatable, Sendable, CustomStringConvertible {
    case notRIFFAVI
    case noVideoStream
    case noMoviList

    /// The reason in words, for error messages.
    public var description: String {
        switch self {
        case .notRIFFAVI: return "it does not start with a RIFF 'AVI ' header"
        case .noVideoStream: return "it has no video stream"
        case .noMoviList: return "it has no 'movi' list (no frames)"
        }
    }
}

/// A RIFF AVI parser (Microsoft AVI RIFF reference; OpenDML `AVIX` extensions): reads `hdrl`
/// (`avih`, `strl`/`strh`/`strf`) and walks every `movi` list (including `rec ` lists and the
/// `AVIX` follow-on RIFFs) for the first video stream's `NNdc`/`NNdb` chunks. It does not trust
/// `idx1` (absent or wrong in damaged files). Never reads out of bounds; bounded work (each
/// step advances by ≥ 8 bytes).
public enum AVIParser {
    /// Random access to the file being parsed: `count` bytes, `load(offset, n)` gives up to `n`
    /// of them from `offset` (the parser reads a few header fields per chunk, never a frame).
    public struct Bytes {
        public var count: Int
        public var load: (_ offset: Int, _ n: Int) -> [UInt8]
        public init(count: Int, load: @escaping (_ offset: Int, _ n: Int) -> [UInt8]) { self.count = count; self.load = load }
    }

    static func fourCC(_ b: Bytes, _ at: Int) -> String {
        guard at >= 0, at + 4 <= b.count else { return "" }
        let f = b.load(at, 4)
        guard f.count == 4 else { return "" }
        return String(decoding: f.map { $0 >= 0x20 && $0 < 0x7F ? $0 : 0x3F }, as: UTF8.self)
    }
    static func u32(_ b: Bytes, _ at: Int) -> Int {
        guard at >= 0, at + 4 <= b.count else { return 0 }
        let f = b.load(at, 4)
        guard f.count == 4 else { return 0 }
        return Int(f[0]) | Int(f[1]) << 8 | Int(f[2]) << 16 | Int(f[3]) << 24
    }
    static func i32(_ b: Bytes, _ at: Int) -> Int {
        let v = u32(b, at)
        return v >= 0x8000_0000 ? v - 0x1_0000_0000 : v
    }
    static func memory(_ b: [UInt8]) -> Bytes {
        Bytes(count: b.count, load: { o, n in Array(b[max(0, min(o, b.count))..<max(0, min(o + n, b.count))]) })
    }
    static func fourCC(_ b: [UInt8], _ at: Int) -> String { fourCC(memory(b), at) }
    static func u32(_ b: [UInt8], _ at: Int) -> Int { u32(memory(b), at) }

    /// Parses `bytes` (a whole AVI file).
    /// - Throws: `AVIParseError` when it is not a RIFF AVI, has no video stream or no `movi`.
    public static func parse(_ bytes: [UInt8]) throws -> AVIIndex {
        try parse(memory(bytes))
    }

    /// Parses an AVI file read through `bytes` (`AVIFileSource` reads a regular file's header
    /// fields with `pread` this way, so a long clip is never held in memory: issue #28).
    /// - Throws: as `parse(_:)`.
    public static func parse(_ bytes: Bytes) throws -> AVIIndex {
        guard bytes.count >= 12, fourCC(bytes, 0) == "RIFF", fourCC(bytes, 8) == "AVI " else {
            throw AVIParseError.notRIFFAVI
        }
        var idx = AVIIndex(width: 0, height: 0, microSecPerFrame: 0, rate: 0, scale: 0, headerTotalFrames: 0,
                           handler: "", compression: "", chunks: [], truncated: false)
        var videoStream: Int? = nil
        var streamCount = 0
        var sawMovi = false
        var position = 0
        var pendingEmpty = 0

        // Parses a LIST body's sub-chunks in [start, end).
        func walk(_ start: Int, _ end: Int, inMovi: Bool) {
            var p = start
            while p + 8 <= end {
                let id = fourCC(bytes, p)
                let size = u32(bytes, p + 4)
                let body = p + 8
                var bodyEnd = body + size
                if bodyEnd > end { idx.truncated = true; bodyEnd = end }
                if id == "LIST" {
                    let type = fourCC(bytes, body)
                    if type == "movi" || type == "rec " {
                        if type == "movi" { sawMovi = true }
                        walk(body + 4, bodyEnd, inMovi: true)
                    } else if type == "strl" {
                        parseStrl(body + 4, bodyEnd)
                    } else if type == "hdrl" {
                        walk(body + 4, bodyEnd, inMovi: false)
                    }
                } else if id == "avih" && !inMovi {
                    idx.microSecPerFrame = u32(bytes, body)
                    idx.headerTotalFrames = u32(bytes, body + 16)
                    if idx.width == 0 { idx.width = u32(bytes, body + 32); idx.height = u32(bytes, body + 36) }
                } else if inMovi, let v = videoStream, id.count == 4 {
                    let num = Array(id.utf8.prefix(2)), tag = String(id.suffix(2))
                    if (tag == "dc" || tag == "db"), num.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                       Int(num[0] - 0x30) * 10 + Int(num[1] - 0x30) == v {
                        let pos = idx.chunks.last.map { $0.streamPosition + 1 } ?? 0
                        let streamPosition = pos + pendingEmpty
                        if bodyEnd > body {
                            pendingEmpty = 0
                            idx.chunks.append(.init(range: body..<bodyEnd, streamPosition: streamPosition))
                        } else {
                            pendingEmpty += 1
                        }
                    }
                }
                // Chunks are padded to an even size.
                let next = body + size + (size & 1)
                if next <= p { break }
                p = next
            }
        }

        func parseStrl(_ start: Int, _ end: Int) {
            let stream = streamCount
            streamCount += 1
            var p = start
            var isVideo = false
            while p + 8 <= end {
                let id = fourCC(bytes, p), size = u32(bytes, p + 4), body = p + 8
                if id == "strh" {
                    isVideo = fourCC(bytes, body) == "vids"
                    if isVideo && videoStream == nil {
                        videoStream = stream
                        idx.handler = fourCC(bytes, body + 4)
                        idx.scale = u32(bytes, body + 20)
                        idx.rate = u32(bytes, body + 24)
                    }
                } else if id == "strf" && isVideo && videoStream == stream {
                    let w = i32(bytes, body + 4), h = i32(bytes, body + 8)
                    if w > 0 { idx.width = w }
                    if h != 0 { idx.height = abs(h) }
                    idx.compression = fourCC(bytes, body + 16)
                }
                let next = body + size + (size & 1)
                if next <= p { break }
                p = next
            }
        }

        // Top level: the first RIFF 'AVI ' and any OpenDML 'AVIX' RIFFs after it.
        while position + 12 <= bytes.count {
            guard fourCC(bytes, position) == "RIFF" else { break }
            let size = u32(bytes, position + 4)
            var end = position + 8 + size
            if end > bytes.count { idx.truncated = true; end = bytes.count }
            walk(position + 12, end, inMovi: false)
            let next = position + 8 + size + (size & 1)
            if next <= position { break }
            position = next
        }
        guard videoStream != nil else { throw AVIParseError.noVideoStream }
        guard sawMovi else { throw AVIParseError.noMoviList }
        return idx
    }
}
