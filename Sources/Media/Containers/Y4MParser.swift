// Pure Swift (no imports): compiled alone into the fuzz targets (scripts/fuzz-media.sh).

/// The stream header of a YUV4MPEG2 file (mjpegtools `yuv4mpeg(5)`): `YUV4MPEG2 W H F A I C X`.
public struct Y4MHeader: Sendable, Equatable {
    /// Chroma layouts we read (8-bit only).
    public enum Chroma: String, Sendable, Equatable {
        case c420jpeg = "420jpeg", c420paldv = "420paldv", c420mpeg2 = "420mpeg2", c420 = "420"
        case c422 = "422", c444 = "444", mono = "mono"
        /// Chroma subsampling shifts (x, y); nil for mono.
        public var shifts: (x: Int, y: Int)? {
            switch self {
            case .c420jpeg, .c420paldv, .c420mpeg2, .c420: return (1, 1)
            case .c422: return (1, 0)
            case .c444: return (0, 0)
            case .mono: return nil
            }
        }
    }
    public var width: Int
    public var height: Int
    /// Frame rate as a fraction (`F30000:1001`); 0:0 when unknown.
    public var rateNum: Int
    public var rateDen: Int
    /// Pixel aspect ratio (`A1:1`); 0:0 when unknown.
    public var aspectNum: Int
    public var aspectDen: Int
    /// Interlacing letter (`p`, `t`, `b`, `m`, `?`).
    public var interlacing: Character
    public var chroma: Chroma
    /// True with ffmpeg's `XCOLORRANGE=FULL` extension (JPEG range); else limited (TV) range.
    public var fullRange: Bool

    /// Frames per second, or nil when the header gives none.
    public var fps: Double? { rateNum > 0 && rateDen > 0 ? Double(rateNum) / Double(rateDen) : nil }

    /// Bytes of one frame's planes.
    public var frameSize: Int {
        let y = width * height
        guard let s = chroma.shifts else { return y }
        let cw = (width + (1 << s.x) - 1) >> s.x, ch = (height + (1 << s.y) - 1) >> s.y
        return y + 2 * cw * ch
    }
}

/// Why a y4m stream could not be read.
public enum Y4MParseError: Error, Equatable, Sendable, CustomStringConvertible {
    case notY4M
    case badHeader(String)
    case unsupportedChroma(String)

    /// The reason in words, for error messages.
    public var description: String {
        switch self {
        case .notY4M: return "it does not start with a 'YUV4MPEG2' header line"
        case .badHeader(let why): return "bad header: \(why)"
        case .unsupportedChroma(let c): return "chroma format '\(c)' is not supported (420, 422, 444, mono)"
        }
    }
}

/// A streaming YUV4MPEG2 reader over a `ByteStream` (file or pipe).
public final class Y4MParser {
    /// Largest accepted width/height (same bound as the JPEG decoder).
    public static let maxDimension = 8192
    static let maxLine = 4096

    public let header: Y4MHeader
    private let stream: ByteStream
    /// True once a frame was cut short or a frame header was malformed (the stream then ends).
    public private(set) var truncated = false

    /// Reads the stream header.
    /// - Throws: `Y4MParseError`.
    public init(stream: ByteStream) throws {
        self.stream = stream
        guard let line = stream.readLine(maxLength: Y4MParser.maxLine) else { throw Y4MParseError.notY4M }
        self.header = try Y4MParser.parseHeader(line)
    }

    /// Parses the header line (without its newline).
    public static func parseHeader(_ line: [UInt8]) throws -> Y4MHeader {
        let tokens = line.split(separator: 0x20).map { String(decoding: $0, as: UTF8.self) }
        guard tokens.first == "YUV4MPEG2" else { throw Y4MParseError.notY4M }
        var h = Y4MHeader(width: 0, height: 0, rateNum: 0, rateDen: 0, aspectNum: 0, aspectDen: 0,
                          interlacing: "?", chroma: .c420jpeg, fullRange: false)
        func ratio(_ s: Substring) -> (Int, Int)? {
            let parts = s.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, let a = Int(parts[0]), let b = Int(parts[1]), a >= 0, b >= 0 else { return nil }
            return (a, b)
        }
        for t in tokens.dropFirst() {
            guard let tag = t.first else { continue }
            let v = t.dropFirst()
            switch tag {
            case "W": guard let w = Int(v), w > 0, w <= maxDimension else { throw Y4MParseError.badHeader("width '\(v)'") }; h.width = w
            case "H": guard let x = Int(v), x > 0, x <= maxDimension else { throw Y4MParseError.badHeader("height '\(v)'") }; h.height = x
            case "F": guard let r = ratio(v) else { throw Y4MParseError.badHeader("frame rate '\(v)'") }; (h.rateNum, h.rateDen) = r
            case "A": guard let r = ratio(v) else { throw Y4MParseError.badHeader("aspect '\(v)'") }; (h.aspectNum, h.aspectDen) = r
            case "I": h.interlacing = v.first ?? "?"
            case "C":
                guard let c = Y4MHeader.Chroma(rawValue: String(v)) else { throw Y4MParseError.unsupportedChroma(String(v)) }
                h.chroma = c
            case "X": if v == "COLORRANGE=FULL" { h.fullRange = true }
            default: break
            }
        }
        guard h.width > 0, h.height > 0 else { throw Y4MParseError.badHeader("missing W or H") }
        return h
    }

    /// The next frame's planes (Y, then Cb, Cr unless mono), or nil at the end of the stream or
    /// when it is cut short (`truncated` is then set).
    public func nextFrame() -> [UInt8]? {
        if truncated { return nil }
        guard let line = stream.readLine(maxLength: Y4MParser.maxLine) else {
            if !stream.isAtEnd { truncated = true }
            return nil
        }
        guard line.starts(with: Array("FRAME".utf8)) else { truncated = true; return nil }
        guard let planes = stream.read(exactly: header.frameSize) else { truncated = true; return nil }
        return planes
    }
}
