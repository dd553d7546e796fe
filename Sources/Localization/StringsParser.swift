/// A parsed `.strings` table: key → value, with the file order and the duplicate keys found.
public struct StringsTable: Sendable, Equatable {
    /// A key defined more than once; the last definition wins (as Apple's reader does).
    public struct Duplicate: Sendable, Equatable {
        public var key: String
        /// Where the later definition starts (1-based).
        public var line: Int
        public var column: Int
    }

    /// Key → value (last definition wins).
    public var values: [String: String] = [:]
    /// Keys in order of first appearance.
    public var order: [String] = []
    /// Keys defined again later in the file, in file order.
    public var duplicates: [Duplicate] = []
    /// The encoding the file was read in.
    public var encoding: TextEncoding = .utf8
    /// Where each key's (last) value starts, 1-based line and column in scalars, for diagnostics
    /// about the value (a wrong specifier). Old-style `.strings` only; empty for property lists.
    public var positions: [String: Position] = [:]
    /// A 1-based line and column (in scalars).
    public struct Position: Sendable, Equatable {
        public var line: Int
        public var column: Int
        public init(line: Int, column: Int) { self.line = line; self.column = column }
    }

    public init() {}

    /// The value for `key`, or nil.
    public subscript(key: String) -> String? { values[key] }

    mutating func set(_ key: String, _ value: String) -> Bool {
        if values.updateValue(value, forKey: key) == nil { order.append(key); return true }
        return false
    }
}

/// A pure-Swift reader of Apple's `.strings` files (the old-style property-list "strings file"
/// grammar: `key = value;` pairs without braces).
///
/// Grammar (from CoreFoundation's `CFOldStylePList.c`, made strict where CF silently stops):
/// - encodings by BOM, else strict UTF-8 (`TextDecoding`);
/// - whitespace (space, tab, LF, CR, VT, FF, U+2028, U+2029), `/* … */` and `// …` comments
///   between any tokens;
/// - tokens are quoted (`"…"`, escapes below) or unquoted (ASCII letters, digits, `_ . - $ : /`);
/// - `key = value;` or `key;` (value = key); a doubled `;` or any stray character is an error at
///   its position, a missing `;` where it belongs (just after the value; the next token is named);
/// - escapes: `\n \t \r \" \\ \' \a \b \f \v`, 1–3 octal digits, `\U` + 1–4 hex digits (UTF-16
///   code unit; a high+low surrogate pair combines, a lone surrogate is an error); any other
///   `\x` gives `x` (so a backslash-newline keeps the newline).
///   An octal escape is one NeXTSTEP byte, as CF reads it (`NeXTSTEPEncoding`; 8 bits kept).
/// - strings may be quoted with `'…'` as well as `"…"` (CF accepts both).
/// - The pairs may be enclosed in `{ … }` (an old-style plist dictionary), nothing after `}`.
/// - A file whose first non-blank character is `<` is read as an XML property list whose root is
///   a dictionary of strings (`XMLPlist`); a `bplist00` file is read by `BinaryPlist` (same
///   rule: a dictionary of strings).
public enum StringsParser {
    /// Parses a `.strings` file's bytes.
    /// - Parameter file: the name used in error messages.
    /// - Throws: `StringsFileError` with line and column.
    public static func parse(_ bytes: [UInt8], file: String) throws -> StringsTable {
        if BinaryPlist.isBinary(bytes) {
            var table = try XMLPlist.stringsTable(from: BinaryPlist.parse(bytes, file: file), file: file, binary: true)
            table.encoding = .binary
            return table
        }
        let (utf8, encoding) = try TextDecoding.utf8(bytes, file: file)
        var table = try utf8.withUnsafeBufferPointer { buf -> StringsTable in
            var p = Parser(buf: buf, file: file)
            p.skipBlank()
            if p.i < buf.count && buf[p.i] == UInt8(ascii: "<") {
                var r = XMLPlist.Reader(buf: buf, file: file)
                return try XMLPlist.stringsTable(from: r.document(), file: file, binary: false)
            }
            p.i = 0
            return try p.parseTable()
        }
        table.encoding = encoding
        return table
    }

    /// Parses text already in memory (tests, tools).
    public static func parse(_ text: String, file: String = "<string>") throws -> StringsTable {
        try parse(Array(text.utf8), file: file)
    }

    struct Parser {
        let buf: UnsafeBufferPointer<UInt8>
        let file: String
        var i = 0
        var scratch: [UInt8] = []
        /// A cursor for `position(of:)`: offsets are asked in increasing order, so the whole
        /// file is scanned once (not once per value).
        var cursor = (offset: 0, line: 1, column: 1)

        init(buf: UnsafeBufferPointer<UInt8>, file: String) {
            self.buf = buf; self.file = file
        }

        func error(_ reason: StringsFileError.Reason, at offset: Int) -> StringsFileError {
            let (line, col) = TextPosition.lineColumn(buf, offset)
            return StringsFileError(file: file, line: line, column: col, reason: reason)
        }

        /// Line and column of byte `offset` (≥ every offset asked before), as `TextPosition`.
        mutating func position(of offset: Int) -> StringsTable.Position {
            var (k, line, col) = cursor
            let end = min(offset, buf.count)
            while k < end {
                let b = buf[k]
                if b == 0x0A {
                    line += 1; col = 1
                } else if b == 0x0D {
                    if !(k + 1 < buf.count && buf[k + 1] == 0x0A) { line += 1; col = 1 }
                } else if b & 0xC0 != 0x80 {
                    col += 1
                }
                k += 1
            }
            cursor = (k, line, col)
            return .init(line: line, column: col)
        }

        /// Skips whitespace only (no comments), used to sniff XML.
        mutating func skipBlank() {
            while i < buf.count, buf[i] == 0x20 || buf[i] == 0x09 || buf[i] == 0x0A || buf[i] == 0x0D { i += 1 }
        }

        /// Skips whitespace and comments.
        mutating func skipTrivia() throws {
            let n = buf.count
            while i < n {
                let b = buf[i]
                switch b {
                case 0x20, 0x09, 0x0A, 0x0D, 0x0B, 0x0C:
                    i += 1
                case 0xE2 where i + 2 < n && buf[i + 1] == 0x80 && (buf[i + 2] == 0xA8 || buf[i + 2] == 0xA9):
                    i += 3
                case UInt8(ascii: "/") where i + 1 < n && buf[i + 1] == UInt8(ascii: "*"):
                    let start = i
                    i += 2
                    while true {
                        guard i + 1 < n else { throw error(.unterminatedComment, at: start) }
                        if buf[i] == UInt8(ascii: "*") && buf[i + 1] == UInt8(ascii: "/") { i += 2; break }
                        i += 1
                    }
                case UInt8(ascii: "/") where i + 1 < n && buf[i + 1] == UInt8(ascii: "/"):
                    i += 2
                    while i < n && buf[i] != 0x0A && buf[i] != 0x0D { i += 1 }
                default:
                    return
                }
            }
        }

        /// A description of what is at `offset` for error messages.
        func found(at offset: Int) -> String {
            guard offset < buf.count else { return "end of file" }
            let b = buf[offset]
            if b < 0x80 {
                switch b {
                case 0x0A, 0x0D: return "end of line"
                case 0x20...0x7E: return "'\(Character(Unicode.Scalar(b)))'"
                default: return "control character U+\(hex4(UInt16(b)))"
                }
            }
            // Decode the scalar for the message.
            var end = offset + 1
            while end < buf.count && buf[end] & 0xC0 == 0x80 && end - offset < 4 { end += 1 }
            let s = String(decoding: UnsafeBufferPointer(rebasing: buf[offset..<end]), as: UTF8.self)
            let code = s.unicodeScalars.first.map { String($0.value, radix: 16, uppercase: true) } ?? "?"
            return "'\(s)' (U+\(String(repeating: "0", count: max(0, 4 - code.count)) + code))"
        }

        @inline(__always)
        static func isUnquoted(_ b: UInt8) -> Bool {
            switch b {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "$"),
                 UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "."), UInt8(ascii: "-"):
                return true
            default: return false
            }
        }

        /// A quoted or unquoted token; `what` names it for the error message.
        mutating func token(_ what: String) throws -> (String, quotedStart: Int?) {
            guard i < buf.count else { throw error(.expected(what, found: "end of file"), at: i) }
            let b = buf[i]
            if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
                // CF reads single-quoted strings too ('…', where '"' is an ordinary character).
                let start = i
                return (try quoted(), start)
            }
            if Self.isUnquoted(b) {
                let start = i
                while i < buf.count && Self.isUnquoted(buf[i]) { i += 1 }
                return (String(decoding: UnsafeBufferPointer(rebasing: buf[start..<i]), as: UTF8.self), nil)
            }
            throw error(.expected(what, found: found(at: i)), at: i)
        }

        /// A quoted string starting at `i` (on the opening quote).
        mutating func quoted() throws -> String {
            let open = i
            let close = buf[i]   // the opening quote closes it: '"' or "'"
            i += 1
            let start = i
            let n = buf.count
            // Fast path: no escapes.
            while i < n {
                let b = buf[i]
                if b == close {
                    let s = String(decoding: UnsafeBufferPointer(rebasing: buf[start..<i]), as: UTF8.self)
                    i += 1
                    return s
                }
                if b == UInt8(ascii: "\\") { break }
                i += 1
            }
            guard i < n else { throw unterminated(open) }
            scratch.removeAll(keepingCapacity: true)
            scratch.append(contentsOf: UnsafeBufferPointer(rebasing: buf[start..<i]))
            while i < n {
                let b = buf[i]
                if b == close {
                    i += 1
                    return String(decoding: scratch, as: UTF8.self)
                }
                if b != UInt8(ascii: "\\") { scratch.append(b); i += 1; continue }
                let escStart = i
                i += 1
                guard i < n else { break }
                let e = buf[i]
                i += 1
                switch e {
                case UInt8(ascii: "n"): scratch.append(0x0A)
                case UInt8(ascii: "t"): scratch.append(0x09)
                case UInt8(ascii: "r"): scratch.append(0x0D)
                case UInt8(ascii: "a"): scratch.append(0x07)
                case UInt8(ascii: "b"): scratch.append(0x08)
                case UInt8(ascii: "f"): scratch.append(0x0C)
                case UInt8(ascii: "v"): scratch.append(0x0B)
                case UInt8(ascii: "0")...UInt8(ascii: "7"):
                    var v = UInt32(e - UInt8(ascii: "0"))
                    var digits = 1
                    while digits < 3 && i < n && buf[i] >= UInt8(ascii: "0") && buf[i] <= UInt8(ascii: "7") {
                        v = v * 8 + UInt32(buf[i] - UInt8(ascii: "0")); i += 1; digits += 1
                    }
                    // One NeXTSTEP byte, as CF reads it (the value is kept to 8 bits).
                    TextDecoding.appendUTF8(&scratch, NeXTSTEPEncoding.scalar(UInt8(truncatingIfNeeded: v)))
                case UInt8(ascii: "U"):
                    let u = try hexUnit(escapeAt: escStart)
                    if u >= 0xD800 && u <= 0xDBFF {
                        // Must be followed by \U + low surrogate.
                        guard i + 1 < n, buf[i] == UInt8(ascii: "\\"), buf[i + 1] == UInt8(ascii: "U") else {
                            throw error(.loneSurrogate(UInt16(u)), at: escStart)
                        }
                        let second = i
                        i += 2
                        let lo = try hexUnit(escapeAt: second)
                        guard lo >= 0xDC00 && lo <= 0xDFFF else { throw error(.loneSurrogate(UInt16(u)), at: escStart) }
                        TextDecoding.appendUTF8(&scratch, 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00))
                    } else if u >= 0xDC00 && u <= 0xDFFF {
                        throw error(.loneSurrogate(UInt16(u)), at: escStart)
                    } else {
                        TextDecoding.appendUTF8(&scratch, u)
                    }
                default:
                    // `\"`, `\\`, `\'` and any other character: the character itself (whole scalar).
                    scratch.append(e)
                    while i < n && buf[i] & 0xC0 == 0x80 { scratch.append(buf[i]); i += 1 }
                }
            }
            throw unterminated(open)
        }

        /// The error for a string opened at `open` that the file ends inside; when its first
        /// line holds a typographic closing quote, the error says that only ASCII quotes close.
        func unterminated(_ open: Int) -> StringsFileError {
            var k = open + 1
            while k < buf.count, buf[k] != 0x0A, buf[k] != 0x0D {
                if buf[k] == 0xE2 && k + 2 < buf.count && buf[k + 1] == 0x80 && (buf[k + 2] == 0x9D || buf[k + 2] == 0x9C) {
                    let (line, column) = TextPosition.lineColumn(buf, k)
                    return error(.unterminatedStringAfterTypographicQuote(line: line, column: column), at: open)
                }
                k += 1
            }
            return error(.unterminatedString, at: open)
        }

        /// 1–4 hex digits after `\U` (i is past the `U`).
        mutating func hexUnit(escapeAt: Int) throws -> UInt32 {
            var v: UInt32 = 0
            var digits = 0
            while digits < 4 && i < buf.count, let d = hexValue(buf[i]) {
                v = v * 16 + d; i += 1; digits += 1
            }
            guard digits > 0 else {
                throw error(.expected("1 to 4 hex digits after '\\U'", found: found(at: i)), at: i)
            }
            return v
        }

        mutating func parseTable() throws -> StringsTable {
            var table = StringsTable()
            table.values.reserveCapacity(buf.count / 40)
            let n = buf.count
            // An old-style plist dictionary `{ key = value; … }` is accepted too (CF reads it).
            try skipTrivia()
            var braced = false
            if i < n && buf[i] == UInt8(ascii: "{") { braced = true; i += 1 }
            while true {
                try skipTrivia()
                if braced {
                    guard i < n else { throw error(.expected("'}' to close the dictionary", found: "end of file"), at: i) }
                    if buf[i] == UInt8(ascii: "}") {
                        i += 1
                        try skipTrivia()
                        if i < n { throw error(.expected("end of file after '}'", found: found(at: i)), at: i) }
                        break
                    }
                }
                if i >= n { break }
                let keyStart = i
                if buf[i] == UInt8(ascii: ";") {
                    throw error(.expected("a key (a quoted string or an unquoted word)", found: "';' (a doubled ';' after an entry?)"), at: i)
                }
                let (key, _) = try token("a key (a quoted string or an unquoted word)")
                try skipTrivia()
                var value = key
                var valueStart = keyStart
                if i < n && buf[i] == UInt8(ascii: ";") {
                    i += 1
                } else {
                    guard i < n, buf[i] == UInt8(ascii: "=") else {
                        throw error(.expected("'=' or ';' after key", found: found(at: i)), at: i)
                    }
                    i += 1
                    try skipTrivia()
                    valueStart = i
                    let (v, quotedStart) = try token("a value after '='")
                    value = v
                    let valueEnd = i
                    try skipTrivia()
                    guard i < n, buf[i] == UInt8(ascii: ";") else {
                        if let q = quotedStart, let smart = runawayQuote(from: q) {
                            throw error(.expected("';' after value", found: "a string that runs on past a typographic quote ” (U+201D) here; only ASCII '\"' closes a string"), at: smart)
                        }
                        // Reported where the `;` belongs (right after the value, STR-16), naming
                        // the token found next and where it is when that is elsewhere.
                        let (line, col) = TextPosition.lineColumn(buf, i)
                        let next = found(at: i) + (i == valueEnd || i >= n ? "" : " at \(line):\(col)")
                        throw error(.expected("';' after value", found: next), at: valueEnd)
                    }
                    i += 1
                }
                let keyAt = position(of: keyStart)
                if !table.set(key, value) {
                    table.duplicates.append(.init(key: key, line: keyAt.line, column: keyAt.column))
                }
                table.positions[key] = position(of: valueStart)
            }
            return table
        }

        /// When a quoted value that started at `start` spans a line break and a U+201D/U+201C
        /// appears on its first line, the offset of that typographic quote (DateTools#112).
        func runawayQuote(from start: Int) -> Int? {
            var k = start + 1
            var candidate: Int?
            while k < i {
                let b = buf[k]
                if b == 0x0A || b == 0x0D { return candidate }
                if b == 0xE2 && k + 2 < i && buf[k + 1] == 0x80 && (buf[k + 2] == 0x9D || buf[k + 2] == 0x9C) { candidate = k }
                k += 1
            }
            return nil
        }
    }
}

@inline(__always)
func hexValue(_ b: UInt8) -> UInt32? {
    switch b {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(b - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(b - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(b - UInt8(ascii: "A") + 10)
    default: return nil
    }
}
