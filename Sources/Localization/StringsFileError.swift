/// A malformed string file, positioned for people: `file:line:col: error: message`.
///
/// `line` and `column` are 1-based; the column counts Unicode scalars from the start of the line
/// (a tab counts as one). For encoding errors `byteOffset` is the offset in the file's own bytes.
public struct StringsFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Equatable, Sendable {
        /// Bytes that are not valid UTF-8 (files without a BOM must be UTF-8); offset in the file.
        case invalidUTF8(byteOffset: Int)
        /// Bad UTF-16 (odd length, lone surrogate) in a file with a UTF-16 BOM; offset in the file.
        case invalidUTF16(byteOffset: Int, detail: String)
        /// A `\U` escape that produced a high surrogate with no low surrogate after it, or a lone
        /// low surrogate.
        case loneSurrogate(UInt16)
        /// A token was expected; `found` describes what is there (`';'`, `end of file`).
        case expected(String, found: String)
        /// A quoted string with no closing `"`.
        case unterminatedString
        /// A quoted string with no closing `"` whose first line holds a typographic quote
        /// (U+201D/U+201C) at `line`:`column`, which the writer probably meant to close it.
        case unterminatedStringAfterTypographicQuote(line: Int, column: Int)
        /// A `/*` comment with no `*/`.
        case unterminatedComment
        /// A binary property list (`bplist00`) that is malformed: the byte offset in the file and
        /// what was expected there (`BinaryPlist`).
        case binary(byteOffset: Int, expected: String)
        /// XML property-list syntax or structure error.
        case xml(String)
        /// Nesting deeper than the reader allows (protects the stack).
        case tooDeep(limit: Int)
    }

    /// The file name or path as given (used as the message prefix).
    public var file: String
    public var line: Int
    public var column: Int
    public var reason: Reason

    public init(file: String, line: Int, column: Int, reason: Reason) {
        self.file = file; self.line = line; self.column = column; self.reason = reason
    }

    /// The message after `error: `.
    public var message: String {
        switch reason {
        case .invalidUTF8(let off):
            return "invalid UTF-8 at byte offset \(off); files without a byte-order mark must be UTF-8 (re-save as UTF-8 or UTF-16 with BOM)"
        case .invalidUTF16(let off, let detail):
            return "invalid UTF-16 at byte offset \(off): \(detail)"
        case .loneSurrogate(let u) where u >= 0xDC00:
            return "lone low surrogate \\U\(hex4(u)) in escape (a low surrogate must follow a high one)"
        case .loneSurrogate(let u):
            return "lone surrogate \\U\(hex4(u)) in escape (a high surrogate must be followed by a low one)"
        case .expected(let what, let found):
            return "expected \(what), found \(found)"
        case .unterminatedString: return "unterminated quoted string (no closing '\"')"
        case .unterminatedStringAfterTypographicQuote(let line, let column):
            return "unterminated quoted string (no closing '\"'); note: the typographic quote ” (U+201D) at \(line):\(column) does not close it, only ASCII '\"' does"
        case .unterminatedComment: return "unterminated comment (no closing '*/')"
        case .binary(let off, let expected): return "binary property list: at byte offset \(off): expected \(expected)"
        case .xml(let m): return m
        case .tooDeep(let limit): return "nesting deeper than \(limit) levels"
        }
    }

    /// Whether the position is a byte offset (binary files) rather than a line and column.
    public var isBinary: Bool { if case .binary = reason { return true }; return false }

    /// `file:line:col: error: message`; `file: error: message` for binary files, whose message
    /// carries the byte offset.
    public var description: String { isBinary ? "\(file): error: \(message)" : "\(file):\(line):\(column): error: \(message)" }
}

func hex4(_ u: UInt16) -> String {
    let s = String(u, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - s.count)) + s
}

/// Line/column lookup in a UTF-8 buffer, computed only when an error is reported.
enum TextPosition {
    /// 1-based line and column (in scalars) of byte `offset` in `bytes`. LF, CRLF and lone CR end lines.
    static func lineColumn(_ bytes: UnsafeBufferPointer<UInt8>, _ offset: Int) -> (line: Int, column: Int) {
        var line = 1, col = 1, i = 0
        let end = min(offset, bytes.count)
        while i < end {
            let b = bytes[i]
            if b == 0x0A {
                line += 1; col = 1
            } else if b == 0x0D {
                if !(i + 1 < bytes.count && bytes[i + 1] == 0x0A) { line += 1; col = 1 }
            } else if b & 0xC0 != 0x80 {
                col += 1
            }
            i += 1
        }
        return (line, col)
    }
}
