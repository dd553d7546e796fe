// Pure Swift (no imports): compiled alone into the fuzz targets (scripts/fuzz-media.sh).

/// The standard Huffman tables of ITU T.81 Annex K.3 (Tables K.3–K.6), and their insertion into
/// camera frames that omit them.
///
/// UVC cameras may send MJPEG frames without any DHT segment: the USB Video Class MJPEG payload
/// spec lets the decoder assume these tables. libjpeg-turbo does so, but many viewers do not
/// (bug reports JPG-01, JPG-02: "uninitialized Huffman table", Safari paints nothing). So a frame
/// we save (`frames/`, the AVI, `reference.jpg`) always carries them: `withStandardTables`
/// inserts one DHT segment holding the standard tables the frame does not define before its
/// first SOS.
public enum JPEGHuffman {
    /// One Huffman table: class 0 (DC) or 1 (AC), destination 0 (luminance) or 1 (chrominance),
    /// `bits[i]` = number of codes of length i+1 (16 entries), `values` the symbols in code order.
    public struct Table: Sendable, Equatable {
        public var tableClass: UInt8
        public var destination: UInt8
        public var bits: [UInt8]
        public var values: [UInt8]
    }

    /// Annex K.3, Tables K.3 (DC luminance), K.4 (DC chrominance), K.5 (AC luminance) and
    /// K.6 (AC chrominance), in the order libjpeg's `jstdhuff.c` lists them.
    public static let standard: [Table] = [
        Table(tableClass: 0, destination: 0, bits: [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0],
              values: Array(0...11)),
        Table(tableClass: 0, destination: 1, bits: [0, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0],
              values: Array(0...11)),
        Table(tableClass: 1, destination: 0, bits: [0, 2, 1, 3, 3, 2, 4, 3, 5, 5, 4, 4, 0, 0, 1, 0x7D],
              values: [
                0x01, 0x02, 0x03, 0x00, 0x04, 0x11, 0x05, 0x12, 0x21, 0x31, 0x41, 0x06, 0x13, 0x51, 0x61, 0x07,
                0x22, 0x71, 0x14, 0x32, 0x81, 0x91, 0xA1, 0x08, 0x23, 0x42, 0xB1, 0xC1, 0x15, 0x52, 0xD1, 0xF0,
                0x24, 0x33, 0x62, 0x72, 0x82, 0x09, 0x0A, 0x16, 0x17, 0x18, 0x19, 0x1A, 0x25, 0x26, 0x27, 0x28,
                0x29, 0x2A, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3A, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49,
                0x4A, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5A, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69,
                0x6A, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7A, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89,
                0x8A, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9A, 0xA2, 0xA3, 0xA4, 0xA5, 0xA6, 0xA7,
                0xA8, 0xA9, 0xAA, 0xB2, 0xB3, 0xB4, 0xB5, 0xB6, 0xB7, 0xB8, 0xB9, 0xBA, 0xC2, 0xC3, 0xC4, 0xC5,
                0xC6, 0xC7, 0xC8, 0xC9, 0xCA, 0xD2, 0xD3, 0xD4, 0xD5, 0xD6, 0xD7, 0xD8, 0xD9, 0xDA, 0xE1, 0xE2,
                0xE3, 0xE4, 0xE5, 0xE6, 0xE7, 0xE8, 0xE9, 0xEA, 0xF1, 0xF2, 0xF3, 0xF4, 0xF5, 0xF6, 0xF7, 0xF8,
                0xF9, 0xFA]),
        Table(tableClass: 1, destination: 1, bits: [0, 2, 1, 2, 4, 4, 3, 4, 7, 5, 4, 4, 0, 1, 2, 0x77],
              values: [
                0x00, 0x01, 0x02, 0x03, 0x11, 0x04, 0x05, 0x21, 0x31, 0x06, 0x12, 0x41, 0x51, 0x07, 0x61, 0x71,
                0x13, 0x22, 0x32, 0x81, 0x08, 0x14, 0x42, 0x91, 0xA1, 0xB1, 0xC1, 0x09, 0x23, 0x33, 0x52, 0xF0,
                0x15, 0x62, 0x72, 0xD1, 0x0A, 0x16, 0x24, 0x34, 0xE1, 0x25, 0xF1, 0x17, 0x18, 0x19, 0x1A, 0x26,
                0x27, 0x28, 0x29, 0x2A, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3A, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48,
                0x49, 0x4A, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5A, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68,
                0x69, 0x6A, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7A, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87,
                0x88, 0x89, 0x8A, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9A, 0xA2, 0xA3, 0xA4, 0xA5,
                0xA6, 0xA7, 0xA8, 0xA9, 0xAA, 0xB2, 0xB3, 0xB4, 0xB5, 0xB6, 0xB7, 0xB8, 0xB9, 0xBA, 0xC2, 0xC3,
                0xC4, 0xC5, 0xC6, 0xC7, 0xC8, 0xC9, 0xCA, 0xD2, 0xD3, 0xD4, 0xD5, 0xD6, 0xD7, 0xD8, 0xD9, 0xDA,
                0xE2, 0xE3, 0xE4, 0xE5, 0xE6, 0xE7, 0xE8, 0xE9, 0xEA, 0xF2, 0xF3, 0xF4, 0xF5, 0xF6, 0xF7, 0xF8,
                0xF9, 0xFA]),
    ]

    /// One DHT segment (marker FF C4, length, then each table) holding `tables`.
    public static func dhtSegment(_ tables: [Table] = standard) -> [UInt8] {
        var body: [UInt8] = []
        for t in tables { body.append(t.tableClass << 4 | t.destination); body += t.bits; body += t.values }
        let length = body.count + 2
        return [0xFF, 0xC4, UInt8(length >> 8), UInt8(length & 0xFF)] + body
    }

    /// The Huffman tables defined in the DHT segments of `jpeg` before its first SOS (later
    /// definitions of the same class and destination replace earlier ones), or nil when the
    /// header cannot be walked (no SOI, a segment running past the end).
    public static func tables(in jpeg: [UInt8]) -> [Table]? {
        guard let h = headerSegments(jpeg), let sos = h.sos else { return nil }
        var out: [Table] = []
        for seg in h.segments where seg.marker == 0xC4 && seg.start < sos {
            var p = seg.start + 4
            let end = seg.start + 2 + seg.length
            while p + 17 <= end {
                let tc = jpeg[p] >> 4, th = jpeg[p] & 0x0F
                let bits = Array(jpeg[(p + 1)..<(p + 17)])
                let count = bits.reduce(0) { $0 + Int($1) }
                guard p + 17 + count <= end else { return nil }
                let t = Table(tableClass: tc, destination: th, bits: bits, values: Array(jpeg[(p + 17)..<(p + 17 + count)]))
                out.removeAll { $0.tableClass == tc && $0.destination == th }
                out.append(t)
                p += 17 + count
            }
        }
        return out
    }

    /// `jpeg` with the standard tables it lacks inserted, as one DHT segment right before the
    /// first SOS: every (class, destination) of Annex K.3 that no DHT before the SOS defines
    /// (all four for a camera frame without DHT; the missing ones when a DHT is empty or
    /// partial). `jpeg` itself when nothing is missing or its header cannot be walked (the
    /// decoder will then report it). The entropy-coded data is untouched, and libjpeg uses
    /// these same tables for undefined ones, so the pixels do not change.
    public static func withStandardTables(_ jpeg: [UInt8]) -> (jpeg: [UInt8], inserted: Bool) {
        guard let h = headerSegments(jpeg), let sos = h.sos, let defined = tables(in: jpeg) else { return (jpeg, false) }
        let missing = standard.filter { t in !defined.contains { $0.tableClass == t.tableClass && $0.destination == t.destination } }
        guard !missing.isEmpty else { return (jpeg, false) }
        var out = [UInt8]()
        out.reserveCapacity(jpeg.count + 432)
        out += jpeg[0..<sos]
        out += dhtSegment(missing)
        out += jpeg[sos...]
        return (out, true)
    }

    /// A header segment: its marker, where its FF is, and its length field.
    struct Segment { var marker: UInt8; var start: Int; var length: Int }

    /// The marker segments from SOI up to and including the first SOS (whose position is `sos`),
    /// or nil when `jpeg` does not start with SOI or a length runs past the end.
    static func headerSegments(_ b: [UInt8]) -> (segments: [Segment], sos: Int?)? {
        let n = b.count
        guard n >= 4, b[0] == 0xFF, b[1] == 0xD8 else { return nil }
        var segs: [Segment] = []
        var p = 2
        while p < n {
            guard b[p] == 0xFF else { p += 1; continue }      // extraneous bytes: skip
            var q = p
            while q < n && b[q] == 0xFF { q += 1 }
            guard q < n else { return nil }
            let m = b[q]
            let at = q - 1
            if m == 0xD8 || m == 0x01 || (m >= 0xD0 && m <= 0xD7) || m == 0x00 { p = q + 1; continue }
            if m == 0xD9 { return (segs, nil) }
            guard q + 2 < n else { return nil }
            let length = Int(b[q + 1]) << 8 | Int(b[q + 2])
            guard length >= 2, q + 1 + length <= n else { return nil }
            segs.append(Segment(marker: m, start: at, length: length))
            if m == 0xDA { return (segs, at) }
            p = q + 1 + length
        }
        return (segs, nil)
    }
}
