/// The one JSON writer (issue #26): compact or pretty, keys sorted or as given, RFC 8259 text.
///
/// - Keys: `.sorted` (the default; by their UTF-8 bytes, i.e. by code point) for documents
///   (result.json, manifest.json); `.asGiven` for the line streams whose member order is their
///   documented contract (the event stream's `{"event", "t_ms", …}`, the analysis log's
///   `{"frame", "t_ms", …}`) and for String Catalogs (Xcode's order, made by the caller).
/// - Layout: `.compact` (no space at all: JSON Lines) or `.pretty` (Foundation's
///   `.prettyPrinted`, which Xcode also writes: two spaces a level, `"key" : value`, an empty
///   array or object as `[` newline, blank line, `]` at the closing indent).
/// - Numbers (`number`): an `int` as its digits; a `double` that is whole and below 10¹⁵ in
///   magnitude as an integer (`30`, not `30.0`: JSON has one number type), any other finite
///   double as Swift's shortest text that reads back to the same double (`0.1`, `1e-05`,
///   `1e+20`: valid JSON numbers), NaN and ±infinity as `null`.
/// - Strings (`string`): `"` and `\` escaped, `\n` `\r` `\t` short, the other controls
///   U+0000–U+001F as `\u00xx` (RFC 8259 §7), and U+2028/U+2029 as `\u2028`/`\u2029` (valid
///   JSON, but line ends to JavaScript); `/` and all other characters as they are (UTF-8).
public enum JSONWriter {
    /// The order object members are written in.
    public enum KeyOrder: Sendable { case sorted, asGiven }
    /// Where white space goes.
    public enum Layout: Sendable { case compact, pretty }

    /// `value` as JSON text (no trailing newline).
    public static func text(_ value: JSONValue, keys: KeyOrder = .sorted, layout: Layout = .compact) -> String {
        var out = ""
        write(value, keys: keys, layout: layout, indent: 0, into: &out)
        return out
    }

    /// Appends `value` to `out`; `indent` is the current depth (pretty layout).
    public static func write(_ value: JSONValue, keys: KeyOrder = .sorted, layout: Layout = .compact, indent: Int = 0,
                             into out: inout String) {
        switch value {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .double(let d): out += number(d)
        case .string(let s): appendString(s, into: &out)
        case .array(let items):
            out += "["
            for (k, item) in items.enumerated() {
                separate(k, layout: layout, indent: indent, into: &out)
                write(item, keys: keys, layout: layout, indent: indent + 1, into: &out)
            }
            close("]", empty: items.isEmpty, layout: layout, indent: indent, into: &out)
        case .object(let given):
            let members = keys == .sorted ? given.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) } : given
            out += "{"
            for (k, m) in members.enumerated() {
                separate(k, layout: layout, indent: indent, into: &out)
                appendString(m.key, into: &out)
                out += layout == .pretty ? " : " : ":"
                write(m.value, keys: keys, layout: layout, indent: indent + 1, into: &out)
            }
            close("}", empty: members.isEmpty, layout: layout, indent: indent, into: &out)
        }
    }

    /// Before element `k` of a container: a comma after the first, and (pretty) a line break and
    /// the element's indent.
    private static func separate(_ k: Int, layout: Layout, indent: Int, into out: inout String) {
        if k > 0 { out += "," }
        if layout == .pretty { out += "\n" + String(repeating: "  ", count: indent + 1) }
    }

    /// A container's end: (pretty) a line break, a blank line when it is empty, the indent.
    private static func close(_ bracket: String, empty: Bool, layout: Layout, indent: Int, into out: inout String) {
        if layout == .pretty { out += (empty ? "\n\n" : "\n") + String(repeating: "  ", count: indent) }
        out += bracket
    }

    /// A double as a JSON number: whole values below 10¹⁵ as integers, other finite values as
    /// Swift's shortest round-trip text, NaN and ±infinity as `null` (JSON has no word for them).
    public static func number(_ d: Double) -> String {
        guard d.isFinite else { return "null" }
        if d == d.rounded() && abs(d) < 1e15 { return String(Int(d)) }
        return d.description
    }

    /// `s` as a JSON string literal, quotes included.
    public static func string(_ s: String) -> String {
        var out = ""
        appendString(s, into: &out)
        return out
    }

    static func appendString(_ s: String, into out: inout String) {
        out += "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where u.value < 0x20 || u.value == 0x2028 || u.value == 0x2029:
                let h = String(u.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - h.count) + h
            default: out.unicodeScalars.append(u)
            }
        }
        out += "\""
    }
}
