import JSON

/// Writes string tables back out: `.strings` text, XML property lists (`.stringsdict`) and
/// String Catalogs (`.xcstrings`). Each writer's output reads back, with this engine's readers
/// and with Foundation's `PropertyListSerialization`, to the table it was given.
public enum StringsWriter {
    /// A UTF-8 `.strings` file: `"key" = "value";` per line, in the order given. `\` and `"`
    /// are escaped, and so are LF, CR and tab (`\n`, `\r`, `\t`) and the other C0 controls
    /// (`\U00XX`); everything else is written as is.
    public static func strings(_ entries: [(key: String, value: String)]) -> String {
        var out = ""
        for (k, v) in entries { out += "\"\(escape(k))\" = \"\(escape(v))\";\n" }
        return out
    }

    static func escape(_ s: String) -> String {
        var out = ""
        for u in s.unicodeScalars {
            switch u {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where u.value < 0x20 || u.value == 0x7F: out += "\\U" + hex4(UInt16(u.value))
            default: out.unicodeScalars.append(u)
            }
        }
        return out
    }

    /// An XML property list (Apple's DTD, tab-indented as Xcode writes it). `&`, `<`, `>` are
    /// escaped, and CR as `&#13;` so no reader can normalise it away.
    public static func xmlPlist(_ value: PlistValue) -> String {
        var out = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">

        """
        xml(value, indent: 0, into: &out)
        return out + "</plist>\n"
    }

    static func xml(_ v: PlistValue, indent: Int, into out: inout String) {
        let pad = String(repeating: "\t", count: indent)
        switch v {
        case .string(let s): out += "\(pad)<string>\(xmlEscape(s))</string>\n"
        case .integer(let i): out += "\(pad)<integer>\(i)</integer>\n"
        case .real(let d): out += "\(pad)<real>\(d)</real>\n"
        case .bool(let b): out += "\(pad)<\(b ? "true" : "false")/>\n"
        case .date(let s): out += "\(pad)<date>\(xmlEscape(s))</date>\n"
        case .data(let d): out += "\(pad)<data>\(base64(d))</data>\n"
        case .array(let a):
            out += "\(pad)<array>\n"
            for e in a { xml(e, indent: indent + 1, into: &out) }
            out += "\(pad)</array>\n"
        case .dict(let entries):
            out += "\(pad)<dict>\n"
            for (k, e) in entries {
                out += "\(pad)\t<key>\(xmlEscape(k))</key>\n"
                xml(e, indent: indent + 1, into: &out)
            }
            out += "\(pad)</dict>\n"
        }
    }

    static func xmlEscape(_ s: String) -> String {
        var out = ""
        for u in s.unicodeScalars {
            switch u {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\r": out += "&#13;"
            default: out.unicodeScalars.append(u)
            }
        }
        return out
    }

    static func base64(_ d: [UInt8]) -> String {
        let table = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var out: [UInt8] = []
        var i = 0
        while i < d.count {
            let b0 = UInt32(d[i]), b1 = i + 1 < d.count ? UInt32(d[i + 1]) : 0, b2 = i + 2 < d.count ? UInt32(d[i + 2]) : 0
            let v = b0 << 16 | b1 << 8 | b2
            out.append(table[Int(v >> 18 & 63)]); out.append(table[Int(v >> 12 & 63)])
            out.append(i + 1 < d.count ? table[Int(v >> 6 & 63)] : UInt8(ascii: "="))
            out.append(i + 2 < d.count ? table[Int(v & 63)] : UInt8(ascii: "="))
            i += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The `.stringsdict` root of plural entries.
    public static func stringsdictPlist(_ entries: [(key: String, entry: StringsdictEntry)]) -> PlistValue {
        .dict(entries.map { key, e in
            var fields: [(key: String, value: PlistValue)] = [(StringCatalog.formatKey, .string(e.format))]
            for (name, v) in e.variables.sorted(by: { $0.key < $1.key }) {
                var vf: [(key: String, value: PlistValue)] = [("NSStringFormatSpecTypeKey", .string("NSStringPluralRuleType"))]
                if let t = v.valueType { vf.append(("NSStringFormatValueTypeKey", .string(String(t.text.dropFirst())))) }
                for c in PluralCategory.allCases { if let s = v.variants[c] { vf.append((c.rawValue, .string(s))) } }
                fields.append((name, .dict(vf)))
            }
            return (key, .dict(fields))
        })
    }

    /// A String Catalog holding `tables` (language → key → text), keys and languages sorted as
    /// Xcode sorts them, every unit `translated`. Plain texts are `stringUnit`s; a plural entry
    /// is its format as the `stringUnit` plus one substitution per variable (`argNum` where the
    /// variable is referenced, `formatSpecifier` = its value type, and the variable's own
    /// unpositioned specifier written `%arg`).
    public static func catalog(sourceLanguage: String, tables: [String: [String: LocalizedText]]) -> String {
        var keys = Set<String>()
        for t in tables.values { keys.formUnion(t.keys) }
        var strings: [JSONMember] = []
        for key in keys.sorted() {
            var locs: [JSONMember] = []
            for lang in tables.keys.sorted() {
                guard let text = tables[lang]?[key] else { continue }
                locs.append(JSONMember(lang, localization(text)))
            }
            strings.append(JSONMember(key, ["localizations": .object(locs)]))
        }
        let root: JSONValue = ["sourceLanguage": .string(sourceLanguage), "strings": .object(strings), "version": "1.0"]
        // Xcode's layout (`"key" : value`, two-space indent) is Foundation's pretty layout; the
        // order is the one made here (Xcode's).
        return JSONWriter.text(root, keys: .asGiven, layout: .pretty) + "\n"
    }

    static func unit(_ value: String) -> JSONValue { ["stringUnit": ["state": "translated", "value": .string(value)]] }

    static func localization(_ text: LocalizedText) -> JSONValue {
        switch text {
        case .plain(let s): return unit(s)
        case .plural(let e):
            // The argument each variable counts, as the formatter finds it.
            var argNums: [String: Int] = [:]
            func walk(_ text: String, first: Int, depth: Int) {
                guard depth <= StringsdictModel.maxDepth else { return }
                for (t, index) in FormatString.assignIndexes(FormatString.tokenize(text), first: first) {
                    guard case .variable(let name, let position, _) = t, let v = e.variables[name], argNums[name] == nil else { continue }
                    let a = StringsdictModel.argumentIndex(of: v, position: position, sequential: index)
                    argNums[name] = a
                    for c in PluralCategory.allCases { if let s = v.variants[c] { walk(s, first: a, depth: depth + 1) } }
                }
            }
            walk(e.format, first: 1, depth: 0)
            var subs: [JSONMember] = []
            for (name, v) in e.variables.sorted(by: { $0.key < $1.key }) {
                var fields: [JSONMember] = []
                if let a = argNums[name] { fields.append(JSONMember("argNum", .int(a))) }
                if let t = v.valueType { fields.append(JSONMember("formatSpecifier", .string(String(t.text.dropFirst())))) }
                var plural: [JSONMember] = []
                for c in PluralCategory.allCases {
                    guard let s = v.variants[c] else { continue }
                    plural.append(JSONMember(c.rawValue, unit(v.valueType.map { withArg(s, valueType: $0) } ?? s)))
                }
                fields.append(JSONMember("variations", ["plural": .object(plural)]))
                subs.append(JSONMember(name, .object(fields)))
            }
            var u = unit(e.format)
            u.set("substitutions", .object(subs))
            return u
        }
    }

    /// The first specifier of `text`, when it is unpositioned and spelled as the value type
    /// (`%d` for `d`), written `%arg`; `%arg` already in the text would be ambiguous, so such a
    /// text is left as is.
    static func withArg(_ text: String, valueType: FormatSpecifier) -> String {
        guard !text.contains("%arg") else { return text }
        let tokens = FormatString.tokenize(text)
        guard let first = tokens.firstIndex(where: { if case .literal = $0 { return false }; if case .invalid = $0 { return false }; return true }),
              case .specifier(let s) = tokens[first], s.position == nil, s.text == valueType.text else { return text }
        var out = ""
        for (k, t) in tokens.enumerated() {
            switch t {
            case .literal(let l): out += l.replacingPercent()
            case .invalid(let x): out += x
            case .specifier(let sp): out += k == first ? "%arg" : sp.text
            case .variable(_, _, let x): out += x
            }
        }
        return out
    }
}
