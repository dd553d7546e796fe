// Pure Swift (no imports): compiled alone into the fuzz targets (scripts/fuzz-media.sh).

/// Splits a raw MJPEG stream (JPEG images back to back, as `ffmpeg -f mjpeg` or a UVC camera
/// writes them) into frames by walking JPEG markers (ITU T.81 §B.1): segment lengths are skipped,
/// entropy-coded data is scanned for a 0xFF not followed by 0x00 or RSTn, and runs of 0xFF fill
/// bytes before a marker are skipped (bug report JPG-10). An EXIF thumbnail's EOI inside an APP
/// segment therefore never ends the frame early. Junk between frames is skipped (JPG-11).
public enum MJPEGStreamParser {
    /// One frame found in the stream.
    public struct Frame: Sendable, Equatable {
        /// From SOI to EOI inclusive (or to the end of the data when `complete` is false).
        public var range: Range<Int>
        /// True when an EOI was found.
        public var complete: Bool
    }

    /// Finds the next frame starting at or after `start`, or nil when no SOI remains.
    /// Work is linear in the bytes scanned.
    public static func nextFrame(in b: [UInt8], from start: Int) -> Frame? {
        let n = b.count
        var s = max(0, start)
        // Find SOI followed by another marker: FF D8 FF.
        while s + 2 < n && !(b[s] == 0xFF && b[s + 1] == 0xD8 && b[s + 2] == 0xFF) { s += 1 }
        guard s + 2 < n else { return nil }
        if let end = endOfImage(b, soi: s) { return Frame(range: s..<end, complete: true) }
        return Frame(range: s..<n, complete: false)
    }

    /// The index just past the EOI of the image whose SOI is at `soi`, or nil when the data ends
    /// first. Also used to trim junk after EOI from camera buffers (JPG-11).
    public static func endOfImage(_ b: [UInt8], soi: Int) -> Int? {
        let n = b.count
        var p = soi + 2
        while p < n {
            // Expect a marker; tolerate extraneous bytes (libjpeg warns about them too).
            guard b[p] == 0xFF else { p += 1; continue }
            while p < n && b[p] == 0xFF { p += 1 }   // fill bytes
            guard p < n else { return nil }
            let m = b[p]
            p += 1
            switch m {
            case 0xD9: return p
            case 0x00, 0x01, 0xD0...0xD8: continue    // standalone markers (and a repeated SOI)
            default:
                guard p + 1 < n else { return nil }
                let length = Int(b[p]) << 8 | Int(b[p + 1])
                p += max(2, length)
                if m == 0xDA { p = scanEntropy(b, from: p) }
            }
        }
        return nil
    }

    /// Skips entropy-coded data: returns the index of the 0xFF that starts the next real marker
    /// (not a stuffed 0xFF00 nor RSTn), or `b.count`.
    static func scanEntropy(_ b: [UInt8], from start: Int) -> Int {
        let n = b.count
        var p = start
        while p < n {
            if b[p] != 0xFF { p += 1; continue }
            var q = p + 1
            while q < n && b[q] == 0xFF { q += 1 }
            guard q < n else { return n }
            if b[q] == 0x00 || (b[q] >= 0xD0 && b[q] <= 0xD7) { p = q + 1; continue }
            return q - 1
        }
        return n
    }

    /// All frames in `b`, in order.
    public static func split(_ b: [UInt8]) -> [Frame] {
        var out: [Frame] = []
        var p = 0
        while let f = nextFrame(in: b, from: p) {
            out.append(f)
            if f.range.upperBound <= p { break }
            p = f.range.upperBound
        }
        return out
    }
}
