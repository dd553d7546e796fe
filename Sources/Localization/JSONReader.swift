/// A JSON value with the byte offset where it starts (in the UTF-8 text), so structure errors in
/// a String Catalog can be reported as `file:line:col`. Objects keep file order.
public struct JSONNode: Sendable {
    public indirect enum Kind: Sendable {
        case string(String)
        /// The number's text as written (`1`, `-2.5e3`).
        case number(String)
        case bool(Bool)
        case null
        case array([JSONNode])
        /// Members in file order; `keyOffset` is where the key's opening quote is.
        case object([(key: String, keyOffset: Int, value: JSONNode)])
    }

    public var offset: Int
    public var kind: Kind

    /// The value of member `key` (the last one if repeated), when this is an object.
    public subscript(key: String) -> JSONNode? {
        guard case .object(let members) = kind else { return nil }
        return members.last { $0.key == key }?.value
    }

    public var string: String? { if case .string(let s) = kind { return s }; return nil }
    public var members: [(key: String, keyOffset: Int, value: JSONNode)]? { if case .object(let m) = kind { return m }; return nil }

    /// A name of the kind for messages.
    public var typeName: String {
        switch kind {
        case .string: return "a string"
        case .number: return "a number"
        case .bool: return "a boolean"
        case .null: return "null"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

/// A strict RFC 8259 JSON reader in pure Swift (for `.xcstrings`): UTF-8 (a UTF-8 BOM is
/// skipped; other encodings by BOM through `TextDecoding`), no trailing commas or comments,
/// `\uXXXX` escapes with surrogate pairs (a lone surrogate is an error), nesting limited to
/// `maxDepth`. Errors are `StringsFileError` `.expected` at their line and column.
public enum JSONReader {
    /// Deepest nesting of arrays/objects accepted (stack safety for hostile files).
    public static let maxDepth = 256

    /// Parses a JSON document; also returns the decoded UTF-8 bytes (for `TextPosition`).
    /// - Throws: `StringsFileError` with line and column.
    public static func parse(_ bytes: [UInt8], file: String) throws -> (root: JSONNode, text: [UInt8]) {
        let (utf8, _) = try TextDecoding.utf8(bytes, file: file)
        let root = try utf8.withUnsafeBufferPointer { buf -> JSONNode in
            var r = Reader(buf: buf, file: file)
            r.skipSpace()
            let v = try r.value(depth: 0)
            r.skipSpace()
            if r.i < buf.count { throw r.error("end of file after the JSON value", at: r.i) }
            return v
        }
        return (root, utf8)
    }

    struct Reader {
        let buf: UnsafeBufferPointer<UInt8>
        let file: String
        var i = 0

        init(buf: UnsafeBufferPointer<UInt8>, file: String) { self.buf = buf; self.file = file }

        func error(_ what: String, at offset: Int) -> StringsFileError {
            let (line, col) = TextPosition.lineColumn(buf, offset)
            var p = StringsParser.Parser(buf: buf, file: file)
            p.i = offset
            return StringsFileError(file: file, line: line, column: col, reason: .expected(what, found: p.found(at: offset)))
        }

        mutating func skipSpace() {
            while i < buf.count, buf[i] == 0x20 || buf[i] == 0x09 || buf[i] == 0x0A || buf[i] == 0x0D { i += 1 }
        }

        mutating func literal(_ word: StaticString) -> Bool {
            let n = word.utf8CodeUnitCount
            guard i + n <= buf.count else { return false }
            for k in 0..<n where buf[i + k] != word.utf8Start[k] { return false }
            i += n
            return true
        }

        mutating func value(depth: Int) throws -> JSONNode {
            guard i < buf.count else { throw error("a JSON value", at: i) }
            let start = i
            switch buf[i] {
            case UInt8(ascii: "{"):
                guard depth < JSONReader.maxDepth else { throw error("nesting of at most \(JSONReader.maxDepth) levels", at: i) }
                i += 1
                var members: [(key: String, keyOffset: Int, value: JSONNode)] = []
                skipSpace()
                if i < buf.count && buf[i] == UInt8(ascii: "}") { i += 1; return JSONNode(offset: start, kind: .object(members)) }
                while true {
                    skipSpace()
                    guard i < buf.count, buf[i] == UInt8(ascii: "\"") else { throw error("a member name in double quotes", at: i) }
                    let keyOffset = i
                    let key = try string()
                    skipSpace()
                    guard i < buf.count, buf[i] == UInt8(ascii: ":") else { throw error("':' after the member name", at: i) }
                    i += 1
                    skipSpace()
                    members.append((key, keyOffset, try value(depth: depth + 1)))
                    skipSpace()
                    guard i < buf.count else { throw error("',' or '}'", at: i) }
                    if buf[i] == UInt8(ascii: ",") { i += 1; continue }
                    if buf[i] == UInt8(ascii: "}") { i += 1; return JSONNode(offset: start, kind: .object(members)) }
                    throw error("',' or '}'", at: i)
                }
            case UInt8(ascii: "["):
                guard depth < JSONReader.maxDepth else { throw error("nesting of at most \(JSONReader.maxDepth) levels", at: i) }
                i += 1
                var items: [JSONNode] = []
                skipSpace()
                if i < buf.count && buf[i] == UInt8(ascii: "]") { i += 1; return JSONNode(offset: start, kind: .array(items)) }
                while true {
                    skipSpace()
                    items.append(try value(depth: depth + 1))
                    skipSpace()
                    guard i < buf.count else { throw error("',' or ']'", at: i) }
                    if buf[i] == UInt8(ascii: ",") { i += 1; continue }
                    if buf[i] == UInt8(ascii: "]") { i += 1; return JSONNode(offset: start, kind: .array(items)) }
                    throw error("',' or ']'", at: i)
                }
            case UInt8(ascii: "\""):
                return JSONNode(offset: start, kind: .string(try string()))
            case UInt8(ascii: "t"):
                if literal("true") { return JSONNode(offset: start, kind: .bool(true)) }
            case UInt8(ascii: "f"):
                if literal("false") { return JSONNode(offset: start, kind: .bool(false)) }
            case UInt8(ascii: "n"):
                if literal("null") { return JSONNode(offset: start, kind: .null) }
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                return JSONNode(offset: start, kind: .number(try number()))
            default: break
            }
            throw error("a JSON value (object, array, string, number, true, false or null)", at: start)
        }

        mutating func number() throws -> String {
            let start = i
            func digits() -> Int { let s = i; while i < buf.count, buf[i] >= 0x30 && buf[i] <= 0x39 { i += 1 }; return i - s }
            if buf[i] == UInt8(ascii: "-") { i += 1 }
            guard i < buf.count, buf[i] >= 0x30 && buf[i] <= 0x39 else { throw error("a digit", at: i) }
            if buf[i] == UInt8(ascii: "0") { i += 1 } else { _ = digits() }
            if i < buf.count, buf[i] == UInt8(ascii: ".") {
                i += 1
                guard digits() > 0 else { throw error("a digit after '.'", at: i) }
            }
            if i < buf.count, buf[i] == UInt8(ascii: "e") || buf[i] == UInt8(ascii: "E") {
                i += 1
                if i < buf.count, buf[i] == UInt8(ascii: "+") || buf[i] == UInt8(ascii: "-") { i += 1 }
                guard digits() > 0 else { throw error("a digit in the exponent", at: i) }
            }
            return String(decoding: UnsafeBufferPointer(rebasing: buf[start..<i]), as: UTF8.self)
        }

        /// A string starting at `i` (on the opening quote).
        mutating func string() throws -> String {
            let open = i
            i += 1
            var out: [UInt8] = []
            while true {
                guard i < buf.count else { throw error("'\"' to close the string that starts here", at: open) }
                let b = buf[i]
                if b == UInt8(ascii: "\"") { i += 1; return String(decoding: out, as: UTF8.self) }
                if b < 0x20 { throw error("no control character inside a string (write \\n, \\t or \\u00XX)", at: i) }
                if b != UInt8(ascii: "\\") { out.append(b); i += 1; continue }
                let esc = i
                i += 1
                guard i < buf.count else { throw error("an escape after '\\'", at: i) }
                let e = buf[i]
                i += 1
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var u = try hex4()
                    if u >= 0xD800 && u <= 0xDBFF {
                        guard i + 1 < buf.count, buf[i] == UInt8(ascii: "\\"), buf[i + 1] == UInt8(ascii: "u") else {
                            throw error("a low surrogate \\uDC00-\\uDFFF after the high surrogate", at: esc)
                        }
                        i += 2
                        let lo = try hex4()
                        guard lo >= 0xDC00 && lo <= 0xDFFF else { throw error("a low surrogate \\uDC00-\\uDFFF after the high surrogate", at: esc) }
                        u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00)
                    } else if u >= 0xDC00 && u <= 0xDFFF {
                        throw error("no lone low surrogate", at: esc)
                    }
                    TextDecoding.appendUTF8(&out, u)
                default:
                    throw error("one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX", at: esc)
                }
            }
        }

        mutating func hex4() throws -> UInt32 {
            var v: UInt32 = 0
            for _ in 0..<4 {
                guard i < buf.count, let d = hexValue(buf[i]) else { throw error("4 hex digits after \\u", at: i) }
                v = v * 16 + d
                i += 1
            }
            return v
        }
    }
}
