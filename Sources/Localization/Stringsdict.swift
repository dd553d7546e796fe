/// A problem found in a string file, for lint and for the loader's log.
public struct Diagnostic: Sendable, Equatable, CustomStringConvertible, Codable {
    public enum Severity: String, Sendable, Codable { case error, warning }
    public var severity: Severity
    /// File name or path as given.
    public var file: String
    /// 1-based position when known.
    public var line: Int?
    public var column: Int?
    /// Key path inside the file (`key`, `key/variable/one`) when known.
    public var keyPath: String?
    public var message: String

    public init(_ severity: Severity, file: String, line: Int? = nil, column: Int? = nil, keyPath: String? = nil, message: String) {
        self.severity = severity; self.file = file; self.line = line; self.column = column; self.keyPath = keyPath; self.message = message
    }

    /// `file:line:col: error: keyPath: message` (position and key path only when known).
    public var description: String {
        var s = file
        if let line { s += ":\(line)"; if let column { s += ":\(column)" } }
        s += ": \(severity.rawValue): "
        if let keyPath { s += "\(keyPath): " }
        return s + message
    }

    /// A positioned parse error as a diagnostic.
    public init(_ error: StringsFileError) {
        self.init(.error, file: error.file, line: error.isBinary ? nil : error.line, column: error.isBinary ? nil : error.column,
                  message: error.message)
    }
}

/// One plural variable of a `.stringsdict` entry (`NSStringFormatSpecTypeKey` =
/// `NSStringPluralRuleType`).
public struct PluralVariable: Sendable, Equatable {
    public var name: String
    /// `NSStringFormatValueTypeKey` parsed as a specifier (`d`, `ld`, `f`…), nil when absent.
    public var valueType: FormatSpecifier?
    /// Text per CLDR category (at least one). `other` may be missing: a number whose category
    /// is missing then has no text here (`TextFormatter` throws `missingCategory`, and the
    /// localizer falls back to the next table of the chain).
    public var variants: [PluralCategory: String]
}

/// One `.stringsdict` entry: its `NSStringLocalizedFormatKey` and variables.
public struct StringsdictEntry: Sendable, Equatable {
    public var key: String
    /// The format with `%#@name@` references.
    public var format: String
    public var variables: [String: PluralVariable]
}

/// A loaded `.stringsdict`: the usable entries, and the problems found. An entry with an error is
/// left out (the loader falls back to the base language for it).
public struct StringsdictTable: Sendable, Equatable {
    public var entries: [String: StringsdictEntry] = [:]
    /// Keys in file order (including rejected ones).
    public var order: [String] = []
    public var diagnostics: [Diagnostic] = []
    public init() {}
}

/// The `.stringsdict` model on top of `XMLPlist`.
///
/// Checks (keys and rules from Apple's "Stringsdict File Format" documentation): every top-level
/// value is a dict with a string `NSStringLocalizedFormatKey`; every other key of it is a variable
/// dict with `NSStringFormatSpecTypeKey` = `NSStringPluralRuleType` (other rule types are not
/// supported: error), `NSStringFormatValueTypeKey` (missing: warning, `%` prefix: warning) and
/// category strings among zero/one/two/few/many/other, at least one; `other` may be missing
/// (element-x `pl`: one/few/many cover every integer; `StringsLinter` judges it per language).
/// References
/// (`%#@name@`) must name a defined variable; nesting is limited to `maxDepth` and cycles are
/// errors (SD-02). The value type and the specifiers of every variant that use the variable's
/// argument must agree (SD-05); variants may omit the count (SD-09).
public enum StringsdictModel {
    /// Deepest chain of variables referenced inside variants (a longer chain is one error). The
    /// check visits each variable once, so it is linear in the entry's size (issue #14).
    public static let maxDepth = 8
    static let formatKey = "NSStringLocalizedFormatKey"
    static let specKey = "NSStringFormatSpecTypeKey"
    static let valueKey = "NSStringFormatValueTypeKey"

    /// Parses and checks a `.stringsdict` file.
    /// - Throws: `StringsFileError` when the XML itself is malformed or the root is not a dict.
    public static func parse(_ bytes: [UInt8], file: String) throws -> StringsdictTable {
        let plist = try XMLPlist.parse(bytes, file: file)
        guard case .dict = plist else {
            throw StringsFileError(file: file, line: 1, column: 1, reason: .xml("the root of a .stringsdict must be a dict, found \(plist.typeName)"))
        }
        return load(plist, file: file)
    }

    /// Builds the model from a parsed plist (root dict).
    public static func load(_ plist: PlistValue, file: String) -> StringsdictTable {
        var table = StringsdictTable()
        guard case .dict(let top) = plist else {
            table.diagnostics.append(Diagnostic(.error, file: file, message: "the root must be a dict, found \(plist.typeName)"))
            return table
        }
        for (key, value) in top {
            table.order.append(key)
            var diags: [Diagnostic] = []
            if let entry = entry(key, value, file: file, diags: &diags), !diags.contains(where: { $0.severity == .error }) {
                table.entries[key] = entry
            }
            table.diagnostics += diags
        }
        return table
    }

    static func entry(_ key: String, _ value: PlistValue, file: String, diags: inout [Diagnostic]) -> StringsdictEntry? {
        func err(_ path: String, _ m: String) { diags.append(Diagnostic(.error, file: file, keyPath: path, message: m)) }
        func warn(_ path: String, _ m: String) { diags.append(Diagnostic(.warning, file: file, keyPath: path, message: m)) }
        guard case .dict(let fields) = value else { err(key, "entry must be a dict, found \(value.typeName)"); return nil }
        guard let formatValue = value[formatKey] else { err(key, "missing \(formatKey)"); return nil }
        guard let format = formatValue.stringValue else { err("\(key)/\(formatKey)", "must be a string, found \(formatValue.typeName)"); return nil }
        var variables: [String: PluralVariable] = [:]
        for (name, v) in fields where name != formatKey {
            let path = "\(key)/\(name)"
            if name.hasPrefix("NSString") {
                warn(path, "'\(name)' is not supported (only NSStringPluralRuleType variables); ignored")
                continue
            }
            guard case .dict(let vf) = v else { err(path, "variable must be a dict, found \(v.typeName)"); continue }
            guard let spec = v[specKey]?.stringValue else { err(path, "missing \(specKey) (expected NSStringPluralRuleType)"); continue }
            guard spec == "NSStringPluralRuleType" else {
                err("\(path)/\(specKey)", "unsupported rule type '\(spec)'; only NSStringPluralRuleType is supported")
                continue
            }
            var valueType: FormatSpecifier?
            if let vt = v[valueKey] {
                if let s = vt.stringValue {
                    let spelled = s.hasPrefix("%") ? s : "%" + s
                    if s.hasPrefix("%") { warn("\(path)/\(valueKey)", "value type '\(s)' should not start with '%'") }
                    if case .specifier(let sp)? = FormatString.tokenize(spelled).first, FormatString.tokenize(spelled).count == 1, sp.position == nil {
                        valueType = sp
                    } else {
                        err("\(path)/\(valueKey)", "'\(s)' is not a format specifier (expected e.g. d, ld, lld, f)")
                        continue
                    }
                } else {
                    err("\(path)/\(valueKey)", "must be a string, found \(vt.typeName)"); continue
                }
            } else {
                warn(path, "missing \(valueKey); the argument type is taken from the variants")
            }
            var variants: [PluralCategory: String] = [:]
            for (ck, cv) in vf where ck != specKey && ck != valueKey {
                guard let cat = PluralCategory(rawValue: ck) else { warn("\(path)/\(ck)", "unknown key (expected zero, one, two, few, many, other)"); continue }
                guard let s = cv.stringValue else { err("\(path)/\(ck)", "must be a string, found \(cv.typeName)"); continue }
                variants[cat] = s
            }
            // A variable without `other` is kept: numbers of the categories it has use them, the
            // others fall back to the next table of the chain (lint judges it per language).
            if variants.isEmpty { err(path, "no plural category (expected some of zero, one, two, few, many, other)") }
            variables[name] = PluralVariable(name: name, valueType: valueType, variants: variants)
        }
        let entry = StringsdictEntry(key: key, format: format, variables: variables)
        // References, cycles, depth. Each variable's variants are checked once (`height` is the
        // memo: levels of variables from it down, itself included), so nesting costs linear time
        // rather than categories^depth paths, and each problem is reported once. Recursion stops
        // past `maxDepth`; a chain that goes past it is one error, at the first place found.
        var used = Set<String>()
        var height: [String: Int] = [:]
        var tooDeep: String?
        func walk(_ text: String, path: String, chain: [String]) -> Int {
            var deepest = 0
            for t in FormatString.tokenize(text) {
                guard case .variable(let name, _, let spelled) = t else { continue }
                guard let v = variables[name] else {
                    if fields.contains(where: { $0.key == name }) { continue } // rejected above, already reported
                    let defined = variables.keys.sorted()
                    err(path, "undefined variable '\(name)' in \(spelled)" + (defined.isEmpty ? "" : " (defined: \(defined.joined(separator: ", ")))"))
                    continue
                }
                if chain.contains(name) { err(path, "variable cycle: \((chain + [name]).joined(separator: " → "))"); continue }
                used.insert(name)
                var h = 1
                if let known = height[name] {
                    h = known
                } else if chain.count < maxDepth {
                    for (cat, vt) in v.variants.sorted(by: { $0.key.order < $1.key.order }) {
                        h = max(h, 1 + walk(vt, path: "\(key)/\(name)/\(cat.rawValue)", chain: chain + [name]))
                    }
                    height[name] = h
                }
                if chain.count + h > maxDepth && tooDeep == nil { tooDeep = path }
                deepest = max(deepest, h)
            }
            return deepest
        }
        _ = walk(format, path: "\(key)/\(formatKey)", chain: [])
        if let tooDeep { err(tooDeep, "variables nested deeper than \(maxDepth)") }
        // (Past the depth limit some variables were not visited: no "never referenced" for them.)
        for name in variables.keys.sorted() where !used.contains(name) && tooDeep == nil {
            warn("\(key)/\(name)", "variable is never referenced from \(formatKey)")
        }
        if diags.contains(where: { $0.severity == .error }) { return nil }
        // Types.
        let sig = signature(of: entry)
        for c in sig.conflicts { err(key, c) }
        return entry
    }

    /// The argument types an entry consumes (1-based index → type), and type conflicts found.
    public static func signature(of entry: StringsdictEntry) -> (types: [Int: FormatArgumentType], conflicts: [String]) {
        var types: [Int: (FormatArgumentType, String)] = [:]
        var conflicts: [String] = []
        var walked = Set<String>()   // memo: a variable's variants are walked once per argument index
        func record(_ index: Int, _ type: FormatArgumentType, _ what: String) {
            if let (t, w) = types[index] {
                if t != type { conflicts.append("argument \(index) is \(t.rawValue) in \(w) but \(type.rawValue) in \(what)") }
            } else {
                types[index] = (type, what)
            }
        }
        func walk(_ text: String, first: Int, where path: String, depth: Int) {
            guard depth <= maxDepth else { return }
            for (t, index) in FormatString.assignIndexes(FormatString.tokenize(text), first: first) {
                switch t {
                case .specifier(let s):
                    record(index, s.type, "\(path) '\(s.text)'")
                case .variable(let name, let position, _):
                    guard let v = entry.variables[name] else { continue }
                    let index = argumentIndex(of: v, position: position, sequential: index)
                    guard walked.insert("\(index) \(name)").inserted else { continue }
                    if let vt = v.valueType {
                        if vt.type == .string { conflicts.append("variable '\(name)' has value type '\(vt.text.dropFirst())', which is not a number") }
                        record(index, vt.type, "\(name)/\(valueKey)")
                    }
                    for cat in PluralCategory.allCases {
                        if let vtext = v.variants[cat] { walk(vtext, first: index, where: "\(name)/\(cat.rawValue)", depth: depth + 1) }
                    }
                    if v.valueType == nil && types[index] == nil { types[index] = (.int, "\(name)") }
                default: break
                }
            }
        }
        walk(entry.format, first: 1, where: formatKey, depth: 0)
        return (types.mapValues(\.0), conflicts)
    }
}

extension StringsdictModel {
    /// The argument a variable counts: its explicit position; else, when its variants use
    /// positioned specifiers of its value type that all name one argument, that argument
    /// (R.swift#716: `%#@value@` with variants `%1$@ … %2$d`); else the next argument in order.
    public static func argumentIndex(of v: PluralVariable, position: Int?, sequential: Int) -> Int {
        if let position { return position }
        let wanted = v.valueType?.type ?? .int
        var found: Int?
        for text in v.variants.values {
            for t in FormatString.tokenize(text) {
                guard case .specifier(let s) = t, let p = s.position, s.type == wanted else { continue }
                if let f = found, f != p { return sequential }
                found = p
            }
        }
        return found ?? sequential
    }
}

extension PluralCategory {
    /// CLDR order: zero, one, two, few, many, other.
    var order: Int { PluralCategory.allCases.firstIndex(of: self) ?? 0 }
}
