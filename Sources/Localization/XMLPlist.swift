/// A property-list value as read from an XML plist. Dictionaries keep file order.
public indirect enum PlistValue: Sendable, Equatable {
    case string(String)
    case integer(Int)
    case real(Double)
    case bool(Bool)
    /// `<date>` text as written (ISO 8601).
    case date(String)
    /// `<data>` decoded from base64.
    case data([UInt8])
    case array([PlistValue])
    /// Key/value pairs in file order; a repeated key keeps only its last value (in place of the first).
    case dict([(key: String, value: PlistValue)])

    public static func == (a: PlistValue, b: PlistValue) -> Bool {
        switch (a, b) {
        case (.string(let x), .string(let y)): return x == y
        case (.integer(let x), .integer(let y)): return x == y
        case (.real(let x), .real(let y)): return x == y || (x.isNaN && y.isNaN)
        case (.bool(let x), .bool(let y)): return x == y
        case (.date(let x), .date(let y)): return x == y
        case (.data(let x), .data(let y)): return x == y
        case (.array(let x), .array(let y)): return x == y
        case (.dict(let x), .dict(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    /// The value for `key` when this is a dictionary.
    public subscript(key: String) -> PlistValue? {
        guard case .dict(let entries) = self else { return nil }
        return entries.last { $0.key == key }?.value
    }

    /// The string payload, if this is a string.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// A short name of the value's type for messages ("string", "dict", …).
    public var typeName: String {
        switch self {
        case .string: return "string"
        case .integer: return "integer"
        case .real: return "real"
        case .bool: return "boolean"
        case .date: return "date"
        case .data: return "data"
        case .array: return "array"
        case .dict: return "dict"
        }
    }
}

/// A pure-Swift reader for the XML property-list subset string files use: `plist`, `dict`, `key`,
/// `string`, `integer`, `real`, `true`, `false`, `array`, `date`, `data`; the XML declaration,
/// DOCTYPE, comments, processing instructions, CDATA sections, the five predefined entities and
/// numeric character references (`&#NN;`, `&#xHH;`). Text is kept verbatim (no line-ending
/// normalisation beyond what the file holds). Nesting is limited to `maxDepth` levels.
public enum XMLPlist {
    /// Deepest nesting of arrays/dicts accepted (stack safety for hostile files).
    public static let maxDepth = 256

    /// Parses an XML plist file's bytes (any BOM-declared encoding; see `TextDecoding`), or a
    /// binary one (`bplist00`, read by `BinaryPlist`).
    /// - Throws: `StringsFileError` with line and column (byte offset for a binary file).
    public static func parse(_ bytes: [UInt8], file: String) throws -> PlistValue {
        if BinaryPlist.isBinary(bytes) { return try BinaryPlist.parse(bytes, file: file) }
        let (utf8, _) = try TextDecoding.utf8(bytes, file: file)
        return try utf8.withUnsafeBufferPointer { buf in
            var r = Reader(buf: buf, file: file)
            return try r.document()
        }
    }

    /// Parses text already in memory.
    public static func parse(_ text: String, file: String = "<string>") throws -> PlistValue {
        try parse(Array(text.utf8), file: file)
    }

    /// A property list whose root is a dictionary of strings, as a `.strings` table.
    static func stringsTable(from root: PlistValue, file: String, binary: Bool) throws -> StringsTable {
        func fail(_ m: String) -> StringsFileError {
            // The structure error of a binary file has no single byte to point at: offset 0.
            StringsFileError(file: file, line: 1, column: 1, reason: binary ? .binary(byteOffset: 0, expected: m) : .xml(m))
        }
        guard case .dict(let entries) = root else {
            throw fail(binary ? "a dict at the root of a .strings property list, found \(root.typeName)"
                              : "the root of a .strings property list must be a dict, found \(root.typeName)")
        }
        var table = StringsTable()
        for (k, v) in entries {
            guard let s = v.stringValue else {
                throw fail(binary ? "a string as the value of '\(k)', found \(v.typeName)" : "value of '\(k)' must be a string, found \(v.typeName)")
            }
            _ = table.set(k, s)
        }
        return table
    }

    struct Reader {
        let buf: UnsafeBufferPointer<UInt8>
        let file: String
        var i = 0
        var depth = 0

        init(buf: UnsafeBufferPointer<UInt8>, file: String) { self.buf = buf; self.file = file }

        func error(_ message: String, at offset: Int) -> StringsFileError {
            let (line, col) = TextPosition.lineColumn(buf, offset)
            return StringsFileError(file: file, line: line, column: col, reason: .xml(message))
        }

        @inline(__always) func peek(_ s: StaticString) -> Bool {
            let len = s.utf8CodeUnitCount
            guard i + len <= buf.count else { return false }
            let p = s.utf8Start
            for k in 0..<len where buf[i + k] != p[k] { return false }
            return true
        }

        @inline(__always) static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

        mutating func skipSpace() { while i < buf.count && Self.isSpace(buf[i]) { i += 1 } }

        /// Skips `<!-- … -->` at `i`.
        mutating func skipComment() throws {
            let start = i
            i += 4
            while i + 2 < buf.count {
                if buf[i] == UInt8(ascii: "-") && buf[i + 1] == UInt8(ascii: "-") && buf[i + 2] == UInt8(ascii: ">") { i += 3; return }
                i += 1
            }
            throw error("unterminated comment '<!--'", at: start)
        }

        /// Skips whitespace, comments and processing instructions; and DOCTYPE when `prolog`.
        mutating func skipMisc(prolog: Bool) throws {
            while true {
                skipSpace()
                if peek("<!--") { try skipComment(); continue }
                if peek("<?") {
                    let start = i
                    while i + 1 < buf.count && !(buf[i] == UInt8(ascii: "?") && buf[i + 1] == UInt8(ascii: ">")) { i += 1 }
                    guard i + 1 < buf.count else { throw error("unterminated processing instruction '<?'", at: start) }
                    i += 2
                    continue
                }
                if prolog && peek("<!DOCTYPE") {
                    let start = i
                    var bracket = 0
                    while i < buf.count {
                        let b = buf[i]
                        if b == UInt8(ascii: "[") { bracket += 1 }
                        else if b == UInt8(ascii: "]") { bracket -= 1 }
                        else if b == UInt8(ascii: ">") && bracket <= 0 { break }
                        i += 1
                    }
                    guard i < buf.count else { throw error("unterminated DOCTYPE", at: start) }
                    i += 1
                    continue
                }
                return
            }
        }

        mutating func document() throws -> PlistValue {
            try skipMisc(prolog: true)
            guard i < buf.count else { throw error("expected a property list, found end of file", at: i) }
            let tagStart = i
            let (name, selfClosing) = try openTag()
            let value: PlistValue
            if name == "plist" {
                guard !selfClosing else { throw error("empty <plist/>", at: tagStart) }
                try skipMisc(prolog: false)
                let vStart = i
                let (inner, innerClosed) = try openTag()
                value = try self.value(inner, selfClosing: innerClosed, at: vStart)
                try skipMisc(prolog: false)
                try closeTag("plist")
            } else {
                value = try self.value(name, selfClosing: selfClosing, at: tagStart)
            }
            try skipMisc(prolog: false)
            if i < buf.count { throw error("unexpected content after the property list", at: i) }
            return value
        }

        /// Reads `<name attrs…>` or `<name/>` at `i`.
        mutating func openTag() throws -> (String, Bool) {
            guard i < buf.count, buf[i] == UInt8(ascii: "<") else {
                throw error("expected an element", at: i)
            }
            if i + 1 < buf.count && buf[i + 1] == UInt8(ascii: "/") {
                throw error("unexpected closing tag", at: i)
            }
            let lt = i
            i += 1
            let nameStart = i
            while i < buf.count, !Self.isSpace(buf[i]), buf[i] != UInt8(ascii: ">"), buf[i] != UInt8(ascii: "/") { i += 1 }
            let name = String(decoding: UnsafeBufferPointer(rebasing: buf[nameStart..<i]), as: UTF8.self)
            if name.isEmpty { throw error("expected an element name", at: lt) }
            var quote: UInt8 = 0
            while i < buf.count {
                let b = buf[i]
                if quote != 0 { if b == quote { quote = 0 }; i += 1; continue }
                if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") { quote = b; i += 1; continue }
                if b == UInt8(ascii: ">") { i += 1; return (name, false) }
                if b == UInt8(ascii: "/") && i + 1 < buf.count && buf[i + 1] == UInt8(ascii: ">") { i += 2; return (name, true) }
                i += 1
            }
            throw error("unterminated tag <\(name)", at: lt)
        }

        /// Reads `</name>` at `i` (after optional whitespace).
        mutating func closeTag(_ name: String) throws {
            skipSpace()
            let start = i
            guard peek("</") else { throw error("expected </\(name)>", at: i) }
            i += 2
            let nameStart = i
            while i < buf.count, buf[i] != UInt8(ascii: ">"), !Self.isSpace(buf[i]) { i += 1 }
            let got = String(decoding: UnsafeBufferPointer(rebasing: buf[nameStart..<i]), as: UTF8.self)
            skipSpace()
            guard got == name, i < buf.count, buf[i] == UInt8(ascii: ">") else {
                throw error("expected </\(name)>, found </\(got)", at: start)
            }
            i += 1
        }

        /// Character data up to the next `</`, with entities and CDATA; comments skipped.
        mutating func text(in name: String) throws -> String {
            var out = [UInt8]()
            let n = buf.count
            while i < n {
                let b = buf[i]
                if b == UInt8(ascii: "<") {
                    if peek("<![CDATA[") {
                        let start = i
                        i += 9
                        while i + 2 < n && !(buf[i] == UInt8(ascii: "]") && buf[i + 1] == UInt8(ascii: "]") && buf[i + 2] == UInt8(ascii: ">")) {
                            out.append(buf[i]); i += 1
                        }
                        guard i + 2 < n else { throw error("unterminated CDATA section", at: start) }
                        i += 3
                        continue
                    }
                    if peek("<!--") { try skipComment(); continue }
                    if peek("</") { break }
                    throw error("unexpected element inside <\(name)>", at: i)
                }
                if b == UInt8(ascii: "&") {
                    try entity(into: &out)
                    continue
                }
                out.append(b)
                i += 1
            }
            guard i < n else { throw error("unterminated <\(name)>", at: i) }
            try closeTag(name)
            return String(decoding: out, as: UTF8.self)
        }

        mutating func entity(into out: inout [UInt8]) throws {
            let start = i
            i += 1
            let nameStart = i
            while i < buf.count && buf[i] != UInt8(ascii: ";") && i - nameStart < 12 { i += 1 }
            guard i < buf.count, buf[i] == UInt8(ascii: ";") else { throw error("malformed entity reference (expected ';')", at: start) }
            let name = Array(buf[nameStart..<i])
            i += 1
            switch name {
            case Array("lt".utf8): out.append(UInt8(ascii: "<"))
            case Array("gt".utf8): out.append(UInt8(ascii: ">"))
            case Array("amp".utf8): out.append(UInt8(ascii: "&"))
            case Array("quot".utf8): out.append(UInt8(ascii: "\""))
            case Array("apos".utf8): out.append(UInt8(ascii: "'"))
            default:
                guard name.first == UInt8(ascii: "#"), name.count >= 2 else {
                    throw error("unknown entity '&\(String(decoding: name, as: UTF8.self));'", at: start)
                }
                var v: UInt32 = 0
                let hex = name[1] == UInt8(ascii: "x") || name[1] == UInt8(ascii: "X")
                let digits = name.dropFirst(hex ? 2 : 1)
                guard !digits.isEmpty else { throw error("empty character reference", at: start) }
                for d in digits {
                    guard let dv = hexValue(d), hex || dv < 10 else { throw error("bad character reference", at: start) }
                    v = v &* (hex ? 16 : 10) &+ dv
                    if v > 0x10FFFF { throw error("character reference out of range", at: start) }
                }
                guard v != 0, !(0xD800...0xDFFF).contains(v) else { throw error("character reference to an invalid code point", at: start) }
                TextDecoding.appendUTF8(&out, v)
            }
        }

        mutating func value(_ name: String, selfClosing: Bool, at start: Int) throws -> PlistValue {
            switch name {
            case "true", "false":
                if !selfClosing { try closeTag(name) }
                return .bool(name == "true")
            case "string":
                return .string(selfClosing ? "" : try text(in: name))
            case "dict":
                if selfClosing { return .dict([]) }
                return try dict(at: start)
            case "array":
                if selfClosing { return .array([]) }
                return try array(at: start)
            case "integer":
                let t = selfClosing ? "" : try text(in: name)
                guard let v = Self.integer(t) else { throw error("invalid integer '\(t)'", at: start) }
                return .integer(v)
            case "real":
                let t = (selfClosing ? "" : try text(in: name)).trimmingSpaces
                guard let v = Double(t) else { throw error("invalid real '\(t)'", at: start) }
                return .real(v)
            case "date":
                return .date((selfClosing ? "" : try text(in: name)).trimmingSpaces)
            case "data":
                let t = selfClosing ? "" : try text(in: name)
                guard let d = Self.base64(t) else { throw error("invalid base64 in <data>", at: start) }
                return .data(d)
            default:
                throw error("unknown element <\(name)>", at: start)
            }
        }

        mutating func dict(at start: Int) throws -> PlistValue {
            depth += 1
            defer { depth -= 1 }
            if depth > XMLPlist.maxDepth {
                let (l, c) = TextPosition.lineColumn(buf, start)
                throw StringsFileError(file: file, line: l, column: c, reason: .tooDeep(limit: XMLPlist.maxDepth))
            }
            var entries: [(key: String, value: PlistValue)] = []
            var index: [String: Int] = [:]
            while true {
                try skipMisc(prolog: false)
                if peek("</") { try closeTag("dict"); return .dict(entries) }
                guard i < buf.count, buf[i] == UInt8(ascii: "<") else {
                    throw error(i < buf.count ? "unexpected text inside <dict>" : "unterminated <dict>", at: i)
                }
                let keyStart = i
                let (kname, kclosed) = try openTag()
                guard kname == "key" else { throw error("expected <key> in <dict>, found <\(kname)>", at: keyStart) }
                let key = kclosed ? "" : try text(in: "key")
                try skipMisc(prolog: false)
                guard i < buf.count, buf[i] == UInt8(ascii: "<"), !peek("</") else {
                    throw error("expected a value after <key>\(key)</key>", at: i)
                }
                let vStart = i
                let (vname, vclosed) = try openTag()
                let v = try value(vname, selfClosing: vclosed, at: vStart)
                if let at = index[key] { entries[at].value = v } else { index[key] = entries.count; entries.append((key, v)) }
            }
        }

        mutating func array(at start: Int) throws -> PlistValue {
            depth += 1
            defer { depth -= 1 }
            if depth > XMLPlist.maxDepth {
                let (l, c) = TextPosition.lineColumn(buf, start)
                throw StringsFileError(file: file, line: l, column: c, reason: .tooDeep(limit: XMLPlist.maxDepth))
            }
            var items: [PlistValue] = []
            while true {
                try skipMisc(prolog: false)
                if peek("</") { try closeTag("array"); return .array(items) }
                guard i < buf.count, buf[i] == UInt8(ascii: "<") else {
                    throw error(i < buf.count ? "unexpected text inside <array>" : "unterminated <array>", at: i)
                }
                let vStart = i
                let (vname, vclosed) = try openTag()
                items.append(try value(vname, selfClosing: vclosed, at: vStart))
            }
        }

        static func integer(_ text: String) -> Int? {
            var t = Substring(text.trimmingSpaces)
            var negative = false
            if t.first == "-" { negative = true; t = t.dropFirst() } else if t.first == "+" { t = t.dropFirst() }
            let v: Int?
            if t.hasPrefix("0x") || t.hasPrefix("0X") { v = Int(t.dropFirst(2), radix: 16) } else { v = Int(t) }
            guard let u = v else { return nil }
            return negative ? -u : u
        }

        static func base64(_ text: String) -> [UInt8]? {
            var out = [UInt8]()
            var acc: UInt32 = 0, bits = 0, pad = 0
            for b in text.utf8 {
                let v: UInt32
                switch b {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"): v = UInt32(b - 65)
                case UInt8(ascii: "a")...UInt8(ascii: "z"): v = UInt32(b - 97 + 26)
                case UInt8(ascii: "0")...UInt8(ascii: "9"): v = UInt32(b - 48 + 52)
                case UInt8(ascii: "+"): v = 62
                case UInt8(ascii: "/"): v = 63
                case UInt8(ascii: "="): pad += 1; continue
                case 0x20, 0x09, 0x0A, 0x0D: continue
                default: return nil
                }
                if pad > 0 { return nil }
                acc = (acc << 6) | v; bits += 6
                if bits >= 8 { bits -= 8; out.append(UInt8((acc >> UInt32(bits)) & 0xFF)) }
            }
            return out
        }
    }
}

extension String {
    /// Without leading and trailing ASCII whitespace.
    var trimmingSpaces: String {
        let u = Array(utf8)
        var s = 0, e = u.count
        while s < e, u[s] == 0x20 || u[s] == 0x09 || u[s] == 0x0A || u[s] == 0x0D { s += 1 }
        while e > s, u[e - 1] == 0x20 || u[e - 1] == 0x09 || u[e - 1] == 0x0A || u[e - 1] == 0x0D { e -= 1 }
        return String(decoding: u[s..<e], as: UTF8.self)
    }
}
