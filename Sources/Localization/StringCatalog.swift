/// A String Catalog (`.xcstrings`, Xcode 15+: JSON), read into exactly what a `.strings` and a
/// `.stringsdict` file would hold per language, so the rest of the engine (model checks,
/// plural selection, lint) is the same, and `strings convert` writes those files as they are.
///
/// Read (Xcode's catalog format, version 1.0): `sourceLanguage`; `strings` → KEY →
/// `localizations` → LANG →
/// - `stringUnit` {`state`, `value`}: a plain text (`.strings`);
/// - `stringUnit` + `substitutions` → NAME → {`argNum`, `formatSpecifier`, `variations` →
///   `plural` → CATEGORY → `stringUnit`}: a `.stringsdict` entry whose format is the value and
///   whose variables are the substitutions; `%arg` in a variant is the substitution's own
///   number (written `%` + formatSpecifier, or `%N$…` after another unpositioned specifier);
///   when an `argNum` differs from the place of its `%#@NAME@` in the value, every argument of
///   the value is given its explicit position;
/// - `variations` → `plural` → CATEGORY: an entry `%#@count@` whose variable counts the first
///   number (`%d`, `%lld`, `%f`…) of the `other` variant (argument 1 when there is none);
/// - `variations` → `device`: the `other` device (the default; a terminal is no Apple device),
///   itself a `stringUnit` or a plural variation; without `other` the language has no text.
/// A key with no localization in the source language has the key itself as its source text
/// (Xcode's rule) when the catalog has any source-language unit (an app's catalog, not one of
/// translations only); such texts are left out when the catalog is a layer (see `tables`). Every unit with a value is used whatever its `state`; `new`,
/// `needs_review` and `stale` states, and a `stale` `extractionState`, are warnings.
/// Structure errors are diagnostics at `file:line:col` with the key path; only malformed JSON,
/// or a root that is not an object, throws.
public struct StringCatalog: Sendable {
    /// What one language holds: the two files' contents.
    public struct Language: Sendable {
        /// Plain texts in catalog order (a `.strings` file).
        public var strings: [(key: String, value: String)] = []
        /// Plural entries in catalog order (a `.stringsdict` file's root dictionary).
        public var plurals: [(key: String, value: PlistValue)] = []
        /// Where each key's localization starts (byte offset in the UTF-8 text).
        public var offsets: [String: Int] = [:]
        /// Source-language texts that are the key itself (no unit in the catalog).
        public var synthesized: Set<String> = []
        public init() {}
    }

    public var file: String
    public var sourceLanguage: String
    /// Languages in catalog order (first appearance).
    public var languageOrder: [String] = []
    public var languages: [String: Language] = [:]
    /// Problems found while reading (not the `.stringsdict` model checks: see `tables()`).
    public var diagnostics: [Diagnostic] = []
    /// Line starts of the UTF-8 text, for positions.
    var lines = LineIndex(text: [])

    static let formatKey = "NSStringLocalizedFormatKey"

    /// Parses a catalog's bytes.
    /// - Throws: `StringsFileError` for malformed JSON or a root that is not an object.
    public static func parse(_ bytes: [UInt8], file: String) throws -> StringCatalog {
        let (root, text) = try JSONReader.parse(bytes, file: file)
        var reader = CatalogReader(file: file, text: text)
        return try reader.read(root)
    }

    /// Per language, the texts as the localizer uses them (plural entries checked by
    /// `StringsdictModel`; an entry with an error is left out), and the model's diagnostics
    /// positioned at the key's localization.
    ///
    /// `keysAsSourceText: false` leaves out the source-language texts that are only the key
    /// (a catalog used as an override layer must not hide the lower layers' texts with keys;
    /// a missing key shows the key anyway).
    public func tables(languages wanted: Set<String>? = nil, keysAsSourceText: Bool = true) -> (tables: [String: [String: LocalizedText]], diagnostics: [Diagnostic]) {
        var out: [String: [String: LocalizedText]] = [:]
        var diags: [Diagnostic] = []
        for lang in languageOrder {
            if let wanted, !wanted.contains(LocaleResolver.matchKey(lang)) { continue }
            guard let l = languages[lang] else { continue }
            var table: [String: LocalizedText] = [:]
            for (k, v) in l.strings where keysAsSourceText || !l.synthesized.contains(k) { table[k] = .plain(v) }
            if !l.plurals.isEmpty {
                let model = StringsdictModel.load(.dict(l.plurals), file: file)
                for (k, e) in model.entries { table[k] = .plural(e) }
                for var d in model.diagnostics {
                    if let path = d.keyPath, let key = l.plurals.map(\.key).filter({ path == $0 || path.hasPrefix($0 + "/") }).max(by: { $0.count < $1.count }) {
                        d.keyPath = key + "/" + lang + path.dropFirst(key.count)
                        if let o = l.offsets[key] { (d.line, d.column) = lines.position(o) }
                    }
                    diags.append(d)
                }
            }
            out[lang] = table
        }
        return (out, diags)
    }
}

struct CatalogReader {
    let file: String
    let text: [UInt8]
    var catalog: StringCatalog

    init(file: String, text: [UInt8]) {
        self.file = file; self.text = text
        catalog = StringCatalog(file: file, sourceLanguage: "en")
        catalog.lines = LineIndex(text: text)
    }

    func position(_ offset: Int) -> (line: Int, column: Int) { catalog.lines.position(offset) }

    mutating func report(_ severity: Diagnostic.Severity, _ node: JSONNode, _ path: String, _ message: String) {
        let (line, col) = position(node.offset)
        catalog.diagnostics.append(Diagnostic(severity, file: file, line: line, column: col, keyPath: path, message: message))
    }

    mutating func read(_ root: JSONNode) throws -> StringCatalog {
        guard root.members != nil else {
            let (line, col) = position(root.offset)
            throw StringsFileError(file: file, line: line, column: col, reason: .expected("an object at the root of a String Catalog", found: root.typeName))
        }
        if let s = root["sourceLanguage"] {
            if let lang = s.string, !lang.isEmpty { catalog.sourceLanguage = lang } else { report(.error, s, "sourceLanguage", "must be a language tag such as \"en\", found \(s.typeName)") }
        } else {
            report(.warning, root, "sourceLanguage", "missing; taken as \"en\"")
        }
        guard let strings = root["strings"] else { report(.error, root, "strings", "missing (the catalog's texts)"); return catalog }
        guard let entries = strings.members else { report(.error, strings, "strings", "must be an object, found \(strings.typeName)"); return catalog }
        var anySource = false
        var keyTexts: [(String, Int)] = []
        for (key, _, entry) in entries {
            guard entry.members != nil else { report(.error, entry, key, "must be an object, found \(entry.typeName)"); continue }
            if entry["extractionState"]?.string == "stale" {
                report(.warning, entry, key, "stale: Xcode no longer finds this key in the source code (its texts are still used)")
            }
            var hasSource = false
            if let locs = entry["localizations"] {
                guard let members = locs.members else { report(.error, locs, "\(key)/localizations", "must be an object, found \(locs.typeName)"); continue }
                for (lang, _, loc) in members {
                    let path = "\(key)/\(lang)"
                    guard let text = localization(loc, path: path, substitutions: loc["substitutions"]) else { continue }
                    add(lang, key, text, at: loc.offset)
                    if LocaleResolver.matchKey(lang) == LocaleResolver.matchKey(catalog.sourceLanguage) { hasSource = true }
                }
            }
            if hasSource { anySource = true } else { keyTexts.append((key, entry.offset)) }
        }
        // Xcode's rule (the key is the source text) holds for an app's catalog, one with source
        // units; a catalog of translations only gets no source texts made of keys.
        if anySource {
            for (key, offset) in keyTexts {
                add(catalog.sourceLanguage, key, .plain(key), at: offset)
                catalog.languages[catalog.sourceLanguage]!.synthesized.insert(key)
            }
        }
        return catalog
    }

    enum Text { case plain(String), plural(PlistValue) }

    mutating func add(_ lang: String, _ key: String, _ text: Text, at offset: Int) {
        if catalog.languages[lang] == nil { catalog.languages[lang] = StringCatalog.Language(); catalog.languageOrder.append(lang) }
        switch text {
        case .plain(let s): catalog.languages[lang]!.strings.append((key, s))
        case .plural(let p): catalog.languages[lang]!.plurals.append((key, p))
        }
        catalog.languages[lang]!.offsets[key] = offset
    }

    /// A `stringUnit`'s value, with its state checked.
    mutating func unitValue(_ node: JSONNode, path: String) -> String? {
        guard let unit = node["stringUnit"] else { return nil }
        guard unit.members != nil else { report(.error, unit, path, "stringUnit must be an object, found \(unit.typeName)"); return nil }
        if let state = unit["state"] {
            switch state.string {
            case "translated"?: break
            case "new"?: report(.warning, state, path, "state 'new': not translated yet (the value is used)")
            case "needs_review"?: report(.warning, state, path, "state 'needs_review' (the value is used)")
            case "stale"?: report(.warning, state, path, "state 'stale': Xcode no longer finds this key in the source code (the value is used)")
            default: report(.warning, state, path, "unknown state \(state.string.map { "'\($0)'" } ?? state.typeName) (expected translated, new, needs_review or stale)")
            }
        }
        guard let v = unit["value"] else { report(.error, unit, path, "stringUnit has no value"); return nil }
        guard let s = v.string else { report(.error, v, path, "value must be a string, found \(v.typeName)"); return nil }
        return s
    }

    /// One localization (or the `other` device's node).
    mutating func localization(_ loc: JSONNode, path: String, substitutions: JSONNode?) -> Text? {
        guard loc.members != nil else { report(.error, loc, path, "must be an object, found \(loc.typeName)"); return nil }
        if loc["stringUnit"] != nil {
            guard let value = unitValue(loc, path: path) else { return nil }
            guard let subs = substitutions else { return .plain(value) }
            return substituted(value, subs, at: loc, path: path)
        }
        guard let variations = loc["variations"] else {
            report(.error, loc, path, "has neither a stringUnit nor variations")
            return nil
        }
        if let plural = variations["plural"] {
            guard let variants = pluralVariants(plural, path: path + "/plural") else { return nil }
            return topLevelPlural(variants)
        }
        if let device = variations["device"] {
            guard let other = device["other"] else {
                report(.warning, device, path, "device variations without 'other' (the default device): no text in this language")
                return nil
            }
            return localization(other, path: path + "/device/other", substitutions: other["substitutions"] ?? substitutions)
        }
        report(.error, variations, path, "unsupported variations (expected plural or device)")
        return nil
    }

    /// CATEGORY → text of a `plural` variation.
    mutating func pluralVariants(_ plural: JSONNode, path: String) -> [(String, String)]? {
        guard let members = plural.members else { report(.error, plural, path, "must be an object, found \(plural.typeName)"); return nil }
        var out: [(String, String)] = []
        for (cat, _, node) in members {
            guard PluralCategory(rawValue: cat) != nil else {
                report(.warning, node, "\(path)/\(cat)", "unknown plural category (expected zero, one, two, few, many, other); ignored")
                continue
            }
            guard node["stringUnit"] != nil else { report(.error, node, "\(path)/\(cat)", "has no stringUnit"); continue }
            if let v = unitValue(node, path: "\(path)/\(cat)") { out.append((cat, v)) }
        }
        if out.isEmpty { report(.error, plural, path, "no plural category with a value"); return nil }
        return out
    }

    /// `variations.plural` without substitutions: `%#@count@` counting the first number.
    func topLevelPlural(_ variants: [(String, String)]) -> Text {
        let reference = variants.first { $0.0 == "other" }?.1 ?? variants[0].1
        var index = 1
        var valueType = "lld"
        for (t, k) in FormatString.assignIndexes(FormatString.tokenize(reference), first: 1) {
            if case .specifier(let s) = t, s.type != .string {
                index = k
                valueType = (s.precision.map { ".\($0)" } ?? "") + s.length + String(s.conversion)
                break
            }
        }
        var fields: [(key: String, value: PlistValue)] = [("NSStringFormatSpecTypeKey", .string("NSStringPluralRuleType")),
                                                          ("NSStringFormatValueTypeKey", .string(valueType))]
        for (cat, text) in variants {
            fields.append((cat, .string(index == 1 ? text : CatalogFormat.explicitPositions(text, variables: [:]))))
        }
        let format = index == 1 ? "%#@count@" : "%\(index)$#@count@"
        return .plural(.dict([(StringCatalog.formatKey, .string(format)), ("count", .dict(fields))]))
    }

    /// A value with `%#@NAME@` references and its substitutions.
    mutating func substituted(_ value: String, _ subs: JSONNode, at loc: JSONNode, path: String) -> Text? {
        guard let members = subs.members else { report(.error, subs, path + "/substitutions", "must be an object, found \(subs.typeName)"); return nil }
        var argNums: [String: Int] = [:]
        var variables: [(key: String, value: PlistValue)] = []
        var models: [String: PluralVariable] = [:]
        var ok = true
        for (name, _, sub) in members {
            let spath = "\(path)/substitutions/\(name)"
            guard sub.members != nil else { report(.error, sub, spath, "must be an object, found \(sub.typeName)"); ok = false; continue }
            var argNum: Int?
            if let a = sub["argNum"] {
                if case .number(let n) = a.kind, let v = Int(n), v >= 1 { argNum = v } else { report(.error, a, spath, "argNum must be a whole number from 1, found \(a.typeName)"); ok = false }
            }
            var spec: String?
            if let f = sub["formatSpecifier"] {
                if let s = f.string, !s.isEmpty { spec = s.hasPrefix("%") ? String(s.dropFirst()) : s } else { report(.error, f, spath, "formatSpecifier must be a string such as \"lld\""); ok = false }
            }
            guard let plural = sub["variations"]?["plural"] else {
                report(.error, sub, spath, "has no variations.plural (only plural substitutions are supported)"); ok = false; continue
            }
            guard let variants = pluralVariants(plural, path: spath + "/plural") else { ok = false; continue }
            var fields: [(key: String, value: PlistValue)] = [("NSStringFormatSpecTypeKey", .string("NSStringPluralRuleType"))]
            if let spec { fields.append(("NSStringFormatValueTypeKey", .string(spec))) }
            for (cat, text) in variants {
                guard let replaced = CatalogFormat.replacingArg(text, spec: spec, argNum: argNum) else {
                    report(.error, plural, "\(spath)/plural/\(cat)", "uses %arg but the substitution has no formatSpecifier"); ok = false; continue
                }
                fields.append((cat, .string(replaced)))
            }
            if let argNum { argNums[name] = argNum }
            variables.append((name, .dict(fields)))
            var model = PluralVariable(name: name, valueType: nil, variants: [:])
            if let spec, case .specifier(let sp)? = FormatString.tokenize("%" + spec).first { model.valueType = sp }
            for case (let cat, .string(let text)) in fields { if let c = PluralCategory(rawValue: cat) { model.variants[c] = text } }
            models[name] = model
        }
        guard ok else { return nil }
        // Keep the value as written when every reference already takes its argNum in this
        // engine (its place, or the count its variants name: `StringsdictModel.argumentIndex`).
        let needs = CatalogFormat.needsPositions(value, variables: argNums) { name, position, sequential in
            models[name].map { StringsdictModel.argumentIndex(of: $0, position: position, sequential: sequential) } ?? (position ?? sequential)
        }
        let format = needs ? CatalogFormat.explicitPositions(value, variables: argNums) : value
        return .plural(.dict([(StringCatalog.formatKey, .string(format))] + variables))
    }
}

/// Line and column of byte offsets in a UTF-8 text, in O(log lines + line length) each (a
/// catalog can hold thousands of positioned warnings).
struct LineIndex: Sendable {
    let text: [UInt8]
    var starts: [Int] = [0]

    init(text: [UInt8]) {
        self.text = text
        var i = 0
        while i < text.count {
            if text[i] == 0x0A { starts.append(i + 1) } else if text[i] == 0x0D, !(i + 1 < text.count && text[i + 1] == 0x0A) { starts.append(i + 1) }
            i += 1
        }
    }

    /// 1-based line and column (in scalars) of `offset`, as `TextPosition.lineColumn` counts.
    func position(_ offset: Int) -> (line: Int, column: Int) {
        var lo = 0, hi = starts.count - 1
        while lo < hi { let mid = (lo + hi + 1) / 2; if starts[mid] <= offset { lo = mid } else { hi = mid - 1 } }
        var col = 1
        var i = starts[lo]
        while i < min(offset, text.count) { if text[i] & 0xC0 != 0x80 && text[i] != 0x0D { col += 1 }; i += 1 }
        return (lo + 1, col)
    }
}

/// Format-string rewrites between catalogs and `.stringsdict` files.
enum CatalogFormat {
    /// `%arg` (the substitution's own number) as a specifier: `%` + `spec` when no unpositioned
    /// specifier comes before it in `text`, else `%N$` + `spec`. Nil when `%arg` is used and
    /// `spec` is nil. `%%arg` is a literal.
    static func replacingArg(_ text: String, spec: String?, argNum: Int?) -> String? {
        let u = Array(text.utf8)
        var out: [UInt8] = []
        var i = 0
        var unpositionedBefore = false
        while i < u.count {
            if u[i] != UInt8(ascii: "%") { out.append(u[i]); i += 1; continue }
            if i + 1 < u.count && u[i + 1] == UInt8(ascii: "%") { out += [u[i], u[i]]; i += 2; continue }
            if i + 3 < u.count && u[i + 1] == UInt8(ascii: "a") && u[i + 2] == UInt8(ascii: "r") && u[i + 3] == UInt8(ascii: "g") {
                guard let spec else { return nil }
                let head = unpositionedBefore ? "%\(argNum ?? 1)$" : "%"
                out += Array((head + spec).utf8)
                unpositionedBefore = true
                i += 4
                continue
            }
            // Another specifier: is it unpositioned?
            var k = i + 1
            while k < u.count, u[k] >= 0x30 && u[k] <= 0x39 { k += 1 }
            if !(k > i + 1 && k < u.count && (u[k] == UInt8(ascii: "$") || u[k] == UInt8(ascii: "#"))) { unpositionedBefore = true }
            out.append(u[i]); i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether a variable's `argNum` differs from the argument its reference takes in `format`
    /// (`engineIndex(name, position, sequential)`; by default its position, else its place).
    static func needsPositions(_ format: String, variables: [String: Int],
                               engineIndex: (String, Int?, Int) -> Int = { $1 ?? $2 }) -> Bool {
        var next = 1
        for t in FormatString.tokenize(format) {
            switch t {
            case .specifier(let s): if s.position == nil { next += 1 }
            case .variable(let name, let position, _):
                let index = engineIndex(name, position, next)
                if position == nil { next += 1 }
                if let a = variables[name], a != index { return true }
            default: break
            }
        }
        return false
    }

    /// `format` with every argument's position written out: unpositioned specifiers get their
    /// place in order, variables their `argNum` (else their place).
    static func explicitPositions(_ format: String, variables: [String: Int]) -> String {
        let tokens = FormatString.tokenize(format)
        let indexed = FormatString.assignIndexes(tokens, first: 1)
        var k = 0
        var out = ""
        for t in tokens {
            switch t {
            case .literal(let s): out += s.replacingPercent()
            case .invalid(let s): out += s
            case .specifier(let s):
                let index = indexed[k].index; k += 1
                out += s.position == nil ? "%\(index)$" + s.text.dropFirst() : s.text
            case .variable(let name, _, _):
                let index = variables[name] ?? indexed[k].index; k += 1
                out += "%\(index)$#@\(name)@"
            }
        }
        return out
    }
}

extension String {
    /// `%` doubled, for literal text put back into a format.
    func replacingPercent() -> String {
        guard contains("%") else { return self }
        return split(separator: "%", omittingEmptySubsequences: false).joined(separator: "%%")
    }
}
