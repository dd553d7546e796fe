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
    ///
    /// Camera-stream rules (bug reports JPG-03, JPG-06):
    /// - an SOI met before the frame's first SOS restarts the frame there: a frame with two SOI
    ///   markers is read from the last one;
    /// - an SOI met after the scan, where the EOI should be, means the frame was cut short: the
    ///   frame ends before that SOI (`complete` false) and the next call starts at it, so a
    ///   truncated frame never swallows the good frame that follows.
    public static func nextFrame(in b: [UInt8], from start: Int) -> Frame? {
        let n = b.count
        var s = max(0, start)
        // Find SOI followed by another marker: FF D8 FF.
        while s + 2 < n && !(b[s] == 0xFF && b[s + 1] == 0xD8 && b[s + 2] == 0xFF) { s += 1 }
        guard s + 2 < n else { return nil }
        let e = imageExtent(b, soi: s)
        return Frame(range: e.start..<e.end, complete: e.complete)
    }

    /// Where the image whose (first) SOI is at `soi` really starts and ends.
    public struct Extent: Sendable, Equatable {
        /// The last SOI before the first SOS (equal to `soi` unless the frame repeats SOI).
        public var start: Int
        /// Just past the EOI when `complete`; else the next frame's SOI or the end of the data.
        public var end: Int
        /// True when an EOI was found.
        public var complete: Bool
        /// True when an SOS was met (the frame has entropy-coded data).
        public var hasScan: Bool
    }

    /// Walks the markers of the image at `soi` (ITU T.81 §B.1) under the camera-stream rules
    /// of `nextFrame`. Linear in the bytes scanned; never reads past `b.count`.
    public static func imageExtent(_ b: [UInt8], soi: Int) -> Extent {
        let n = b.count
        var start = soi
        var sawScan = false
        var p = soi + 2
        while p < n {
            // Expect a marker; tolerate extraneous bytes (libjpeg warns about them too).
            guard b[p] == 0xFF else { p += 1; continue }
            while p < n && b[p] == 0xFF { p += 1 }   // fill bytes
            guard p < n else { break }
            let m = b[p]
            p += 1
            switch m {
            case 0xD9: return Extent(start: start, end: p, complete: true, hasScan: sawScan)
            case 0xD8:
                // SOI again: before the scan the frame restarts (JPG-03); after it, this frame
                // was cut short and the next one begins here (JPG-06).
                let at = p - 2   // the FF right before D8 (fill bytes before it are junk)
                if sawScan { return Extent(start: start, end: at, complete: false, hasScan: true) }
                start = at
            case 0x00, 0x01, 0xD0...0xD7: continue    // standalone markers
            default:
                guard p + 1 < n else { p = n; break }
                let length = Int(b[p]) << 8 | Int(b[p + 1])
                // Table and frame headers (DQT, DHT, SOF, SOS, DRI…) never hold a JPEG; APPn and
                // COM may (an EXIF thumbnail). An SOI inside one means the frame was cut in its
                // header and the next frame began: end this one there (JPG-06).
                if !(0xE0...0xEF).contains(m) && m != 0xFE {
                    let stop = min(n, p + max(2, length))
                    var k = p + 2
                    while k < stop && k + 2 < n {
                        if b[k] == 0xFF && b[k + 1] == 0xD8 && b[k + 2] == 0xFF {
                            return Extent(start: start, end: k, complete: false, hasScan: sawScan)
                        }
                        k += 1
                    }
                }
                p += max(2, length)
                if m == 0xDA { sawScan = true; p = scanEntropy(b, from: p) }
            }
        }
        return Extent(start: start, end: n, complete: false, hasScan: sawScan)
    }

    /// The index just past the EOI of the image whose SOI is at `soi`, or nil when the data ends
    /// (or the next frame starts) first. Also used to trim junk after EOI from camera buffers
    /// (JPG-11).
    public static func endOfImage(_ b: [UInt8], soi: Int) -> Int? {
        let e = imageExtent(b, soi: soi)
        return e.complete ? e.end : nil
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
