/// The kind of value a format specifier consumes.
public enum FormatArgumentType: String, Sendable, Equatable, Codable {
    /// `%d %i %u %x %X %o` with any length modifier (`l`, `ll`, `q`, `h`, `z`, …).
    case int
    /// `%f %F %e %E %g %G %a %A`.
    case double
    /// `%@ %s`.
    case string

    /// The type of a typed argument.
    public init(_ arg: FormatArgument) {
        switch arg {
        case .int: self = .int
        case .double: self = .double
        case .string: self = .string
        }
    }
}

/// One printf-style conversion, as written: `%[N$][flags][width][.precision][length]conversion`.
public struct FormatSpecifier: Sendable, Equatable {
    /// Explicit 1-based argument position (`%2$@`), or nil for the next one in order.
    public var position: Int?
    /// Flags among `- + space # 0 '`.
    public var flags: String
    public var width: Int?
    public var precision: Int?
    /// Length modifier: "", "h", "hh", "l", "ll", "q", "L", "z", "j", "t".
    public var length: String
    /// The conversion character (`d`, `f`, `@`, …).
    public var conversion: Character
    /// The specifier exactly as written, e.g. `%1$.2f`.
    public var text: String

    /// The argument type this specifier consumes.
    public var type: FormatArgumentType {
        switch conversion {
        case "d", "i", "u", "x", "X", "o", "D", "U", "O": return .int
        case "f", "F", "e", "E", "g", "G", "a", "A": return .double
        default: return .string
        }
    }
}

/// A piece of a format string.
public enum FormatToken: Sendable, Equatable {
    /// Text printed as is (`%%` already turned into `%`).
    case literal(String)
    /// A conversion that consumes an argument.
    case specifier(FormatSpecifier)
    /// A `.stringsdict` variable reference `%#@name@`, `%1$#@name@` or `%1#@name@`.
    case variable(name: String, position: Int?, text: String)
    /// A `%` that does not start a supported specifier (FMT-05): printed literally, flagged by lint.
    case invalid(String)
}

/// A scanner for the printf subset the app formats itself (never handing a translated format to
/// C varargs): `%@ %s %d %i %u %x %X %o %f %F %e %E %g %G` with flags, width, precision, length
/// modifiers (`%ld %lld %lu %llu …`), positions `%N$…`, `%%`, and the `.stringsdict` variable
/// references `%#@name@`, `%N$#@name@`, `%N#@name@`. Anything else after `%` (`%c`, `%p`, `%n`,
/// `%*d`, `%0$d`, a lone `%` at the end) is an `invalid` token.
public enum FormatString {
    /// The tokens of `format`, in order. Adjacent literal text is merged.
    public static func tokenize(_ format: String) -> [FormatToken] {
        var tokens: [FormatToken] = []
        var literal: [UInt8] = []
        let u = Array(format.utf8)
        let n = u.count
        var i = 0
        func flush() {
            if !literal.isEmpty { tokens.append(.literal(String(decoding: literal, as: UTF8.self))); literal.removeAll() }
        }
        func text(_ a: Int, _ b: Int) -> String { String(decoding: u[a..<b], as: UTF8.self) }
        func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
        func number(_ j: inout Int) -> Int? {
            var v = 0
            var any = false
            while j < n, isDigit(u[j]) {
                v = v &* 10 &+ Int(u[j] - 0x30); j += 1; any = true
                if v > 1_000_000 { v = 1_000_000 }
            }
            return any ? v : nil
        }
        while i < n {
            let b = u[i]
            if b != UInt8(ascii: "%") { literal.append(b); i += 1; continue }
            let start = i
            var j = i + 1
            if j < n && u[j] == UInt8(ascii: "%") { literal.append(b); i = j + 1; continue }
            // Optional position N$ (or N#@ for variables).
            var position: Int?
            var k = j
            if let p = number(&k), k < n {
                if u[k] == UInt8(ascii: "$") { position = p; j = k + 1 }
                else if u[k] == UInt8(ascii: "#"), k + 1 < n, u[k + 1] == UInt8(ascii: "@") { position = p; j = k }
            }
            if position == 0 { flush(); tokens.append(.invalid(text(start, j))); i = j; continue }
            // Flags.
            var flags = ""
            while j < n, let f = [UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: " "), UInt8(ascii: "0"), UInt8(ascii: "'")].first(where: { $0 == u[j] }) {
                flags.append(Character(Unicode.Scalar(f))); j += 1
            }
            // `#` is a flag unless it starts a variable reference.
            if j + 1 < n, u[j] == UInt8(ascii: "#"), u[j + 1] == UInt8(ascii: "@") {
                if let v = variable(u, &j, start: start, position: position) { flush(); tokens.append(v); i = j; continue }
                flush(); tokens.append(.invalid(text(start, min(j + 2, n)))); i = min(j + 2, n); continue
            }
            while j < n, u[j] == UInt8(ascii: "#") || [UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: " "), UInt8(ascii: "0")].contains(u[j]) {
                flags.append(Character(Unicode.Scalar(u[j]))); j += 1
            }
            let width = number(&j)
            var precision: Int?
            if j < n, u[j] == UInt8(ascii: ".") {
                j += 1
                precision = number(&j) ?? 0
            }
            // Width/precision between the position and a variable (`%8$3.2#@f8@`) are ignored.
            if j + 1 < n, u[j] == UInt8(ascii: "#"), u[j + 1] == UInt8(ascii: "@") {
                if let v = variable(u, &j, start: start, position: position) { flush(); tokens.append(v); i = j; continue }
                flush(); tokens.append(.invalid(text(start, min(j + 2, n)))); i = min(j + 2, n); continue
            }
            var length = ""
            while j < n, length.count < 2,
                  [UInt8(ascii: "h"), UInt8(ascii: "l"), UInt8(ascii: "q"), UInt8(ascii: "L"), UInt8(ascii: "z"), UInt8(ascii: "j"), UInt8(ascii: "t")].contains(u[j]) {
                length.append(Character(Unicode.Scalar(u[j]))); j += 1
            }
            guard j < n else { flush(); tokens.append(.invalid(text(start, n))); i = n; continue }
            let c = u[j]
            let ok: Bool
            switch c {
            case UInt8(ascii: "d"), UInt8(ascii: "i"), UInt8(ascii: "u"), UInt8(ascii: "x"), UInt8(ascii: "X"), UInt8(ascii: "o"),
                 UInt8(ascii: "D"), UInt8(ascii: "U"), UInt8(ascii: "O"),
                 UInt8(ascii: "f"), UInt8(ascii: "F"), UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "g"), UInt8(ascii: "G"),
                 UInt8(ascii: "a"), UInt8(ascii: "A"), UInt8(ascii: "@"), UInt8(ascii: "s"):
                ok = true
            default: ok = false
            }
            if !ok {
                // Not a conversion: only the `%` and what was consumed as flags/width are invalid.
                flush(); tokens.append(.invalid(text(start, j))); i = j; continue
            }
            j += 1
            flush()
            tokens.append(.specifier(FormatSpecifier(position: position, flags: flags, width: width, precision: precision,
                                                     length: length, conversion: Character(Unicode.Scalar(c)), text: text(start, j))))
            i = j
        }
        flush()
        return tokens
    }

    /// Reads `#@name@` at `j` (on the `#`).
    private static func variable(_ u: [UInt8], _ j: inout Int, start: Int, position: Int?) -> FormatToken? {
        var k = j + 2
        let nameStart = k
        while k < u.count, u[k] != UInt8(ascii: "@") {
            // A name never spans whitespace or another `%`.
            if u[k] == 0x20 || u[k] == 0x0A || u[k] == UInt8(ascii: "%") { return nil }
            k += 1
        }
        guard k < u.count, k > nameStart else { return nil }
        let name = String(decoding: u[nameStart..<k], as: UTF8.self)
        j = k + 1
        return .variable(name: name, position: position, text: String(decoding: u[start..<j], as: UTF8.self))
    }

    /// The argument each specifier and variable uses: explicit positions as written; unpositioned
    /// ones take `first`, `first + 1`, … in order (so inside a `.stringsdict` variant the first
    /// unpositioned specifier is the variable's own argument).
    public static func assignIndexes(_ tokens: [FormatToken], first: Int) -> [(token: FormatToken, index: Int)] {
        var next = first
        var out: [(FormatToken, Int)] = []
        for t in tokens {
            switch t {
            case .specifier(let s):
                if let p = s.position { out.append((t, p)) } else { out.append((t, next)); next += 1 }
            case .variable(_, let p, _):
                if let p { out.append((t, p)) } else { out.append((t, next)); next += 1 }
            default: break
            }
        }
        return out
    }
}
