/// The text encoding of a string file, decided from its first bytes.
public enum TextEncoding: String, Sendable, Equatable {
    case utf8, utf8BOM, utf16LE, utf16BE
    /// A binary property list (`bplist00`), whose strings carry their own encoding.
    case binary
}

/// Turns a string file's bytes into validated UTF-8 (no BOM), never guessing a legacy 8-bit
/// encoding.
///
/// Rules (the `.strings` conventions of Apple's tools, made strict):
/// - `EF BB BF` → UTF-8 (BOM dropped); `FF FE` → UTF-16LE; `FE FF` → UTF-16BE.
/// - No BOM but an even length with a NUL in the first code unit's high byte and not its low one
///   (e.g. `"\0` or `\0"`) → UTF-16 without BOM, little or big endian accordingly.
/// - Otherwise strict UTF-8: overlong forms, surrogates, bytes above U+10FFFF or truncated
///   sequences are `StringsFileError.Reason.invalidUTF8` with the byte offset (Mac Roman files
///   land here, QuincyKit#54).
public enum TextDecoding {
    /// The decoded UTF-8 bytes and the encoding found.
    /// - Throws: `StringsFileError` (`invalidUTF8`, `invalidUTF16`) positioned in the decoded text.
    public static func utf8(_ bytes: [UInt8], file: String) throws -> (bytes: [UInt8], encoding: TextEncoding) {
        let n = bytes.count
        if n >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF {
            let body = Array(bytes[3...])
            try validateUTF8(body, file: file, offsetBase: 3)
            return (body, .utf8BOM)
        }
        if n >= 2 && bytes[0] == 0xFF && bytes[1] == 0xFE {
            return (try transcodeUTF16(bytes, start: 2, littleEndian: true, file: file), .utf16LE)
        }
        if n >= 2 && bytes[0] == 0xFE && bytes[1] == 0xFF {
            return (try transcodeUTF16(bytes, start: 2, littleEndian: false, file: file), .utf16BE)
        }
        if n >= 2 && n % 2 == 0 {
            if bytes[0] != 0 && bytes[1] == 0 {
                return (try transcodeUTF16(bytes, start: 0, littleEndian: true, file: file), .utf16LE)
            }
            if bytes[0] == 0 && bytes[1] != 0 {
                return (try transcodeUTF16(bytes, start: 0, littleEndian: false, file: file), .utf16BE)
            }
        }
        try validateUTF8(bytes, file: file, offsetBase: 0)
        return (bytes, .utf8)
    }

    /// The offset of the first byte that breaks UTF-8, or nil when `bytes` is valid UTF-8.
    public static func firstInvalidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let n = bytes.count
        var i = 0
        while i < n {
            let b0 = bytes[i]
            if b0 < 0x80 { i += 1; continue }
            let len: Int
            var lo: UInt8 = 0x80, hi: UInt8 = 0xBF
            switch b0 {
            case 0xC2...0xDF: len = 2
            case 0xE0: len = 3; lo = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: len = 3
            case 0xED: len = 3; hi = 0x9F
            case 0xF0: len = 4; lo = 0x90
            case 0xF1...0xF3: len = 4
            case 0xF4: len = 4; hi = 0x8F
            default: return i
            }
            if i + len > n { return i }
            let b1 = bytes[i + 1]
            if b1 < lo || b1 > hi { return i }
            if len > 2 {
                for k in 2..<len where bytes[i + k] & 0xC0 != 0x80 { return i }
            }
            i += len
        }
        return nil
    }

    static func validateUTF8(_ bytes: [UInt8], file: String, offsetBase: Int) throws {
        try bytes.withUnsafeBufferPointer { buf in
            if let bad = firstInvalidUTF8(buf) {
                let (line, col) = TextPosition.lineColumn(buf, bad)
                throw StringsFileError(file: file, line: line, column: col,
                                       reason: .invalidUTF8(byteOffset: bad + offsetBase))
            }
        }
    }

    static func transcodeUTF16(_ bytes: [UInt8], start: Int, littleEndian: Bool, file: String) throws -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity((bytes.count - start) / 2 + 16)
        func fail(_ off: Int, _ detail: String) -> StringsFileError {
            let (line, col) = out.withUnsafeBufferPointer { TextPosition.lineColumn($0, $0.count) }
            return StringsFileError(file: file, line: line, column: col, reason: .invalidUTF16(byteOffset: off, detail: detail))
        }
        if (bytes.count - start) % 2 != 0 {
            // Decode what is there first so the position points at the end.
            let whole = try transcodeUTF16(Array(bytes[..<(bytes.count - 1)]), start: start, littleEndian: littleEndian, file: file)
            let (line, col) = whole.withUnsafeBufferPointer { TextPosition.lineColumn($0, $0.count) }
            throw StringsFileError(file: file, line: line, column: col,
                                   reason: .invalidUTF16(byteOffset: bytes.count - 1, detail: "odd number of bytes"))
        }
        var i = start
        let n = bytes.count
        @inline(__always) func unit(_ at: Int) -> UInt32 {
            littleEndian ? UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 : UInt32(bytes[at]) << 8 | UInt32(bytes[at + 1])
        }
        while i < n {
            var u = unit(i)
            if u < 0x80 {
                out.append(UInt8(u)); i += 2; continue
            }
            if u >= 0xD800 && u <= 0xDBFF {
                guard i + 2 < n else { throw fail(i, "high surrogate U+\(hex4(UInt16(u))) at end of file") }
                let lo = unit(i + 2)
                guard lo >= 0xDC00 && lo <= 0xDFFF else { throw fail(i, "high surrogate U+\(hex4(UInt16(u))) not followed by a low surrogate") }
                u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00)
                i += 4
            } else if u >= 0xDC00 && u <= 0xDFFF {
                throw fail(i, "lone low surrogate U+\(hex4(UInt16(u)))")
            } else {
                i += 2
            }
            appendUTF8(&out, u)
        }
        return out
    }

    @inline(__always)
    static func appendUTF8(_ out: inout [UInt8], _ u: UInt32) {
        if u < 0x80 {
            out.append(UInt8(u))
        } else if u < 0x800 {
            out.append(UInt8(0xC0 | (u >> 6))); out.append(UInt8(0x80 | (u & 0x3F)))
        } else if u < 0x10000 {
            out.append(UInt8(0xE0 | (u >> 12))); out.append(UInt8(0x80 | ((u >> 6) & 0x3F)))
            out.append(UInt8(0x80 | (u & 0x3F)))
        } else {
            out.append(UInt8(0xF0 | (u >> 18))); out.append(UInt8(0x80 | ((u >> 12) & 0x3F)))
            out.append(UInt8(0x80 | ((u >> 6) & 0x3F))); out.append(UInt8(0x80 | (u & 0x3F)))
        }
    }
}
