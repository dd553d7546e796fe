/// Checks folders of `xx.lproj/` string tables against a base language.
/// The base language's tables of the folders are layered as the app layers `--strings` folders:
/// a later folder's base table adds its keys to the earlier ones' (a partial `en.lproj` override
/// over the built-in English), and a key in both keeps the earlier folder's text.
///
/// Reports (error = the text cannot be used as written; warning = it works but is suspect):
/// - parse errors of `.strings`/`.stringsdict` files (error), duplicate keys (warning);
/// - `.stringsdict` structure (errors/warnings from `StringsdictModel`);
/// - keys missing from a translation (warning: the base text is shown) or absent from the base
///   (warning: never used);
/// - specifiers: a translation using an argument the base does not have, or with another type
///   (error, FMT-01/02/10); using fewer arguments than the base (warning, FMT-07); a `%` that
///   starts no specifier (warning, FMT-05); a specifier directly followed by letters, such as
///   `100% daily` (warning suggesting `%%`, FMT-08/09);
/// - plural categories: categories the language needs (per ICU; for whole-number value types only
///   the ones integers reach, PL-06) that a variable lacks (warning, PL-02), and categories the
///   language never uses (warning; `zero` is exempt since Apple uses it for 0 everywhere);
/// - a variable without `other`: an error when a category its value type reaches (integer
///   types: the categories integers reach in CLDR 42, e.g. pl one/few/many; `%f`-like: all the
///   language's categories) is missing too, else a warning.
public enum StringsLinter {
    /// The result of a lint run.
    public struct Report: Sendable {
        public var diagnostics: [Diagnostic] = []
        public var errorCount: Int { diagnostics.filter { $0.severity == .error }.count }
        public var warningCount: Int { diagnostics.filter { $0.severity == .warning }.count }
    }

    struct Table {
        var file: String
        var texts: [String: LocalizedText] = [:]
        /// Every key defined (including stringsdict entries rejected by the model).
        var keys: [String] = []
        /// Where each key is defined: its file (a `.strings` or the `.stringsdict` beside it) and,
        /// for a `.strings` value, its line and column (issue #29: diagnostics blame the right
        /// file at the right place).
        var sources: [String: Source] = [:]
        struct Source { var file: String; var line: Int?; var column: Int? }

        /// A diagnostic about `key` (its path `keyPath` inside the entry), at its definition.
        func diagnostic(_ severity: Diagnostic.Severity, key: String, keyPath: String? = nil, message: String) -> Diagnostic {
            let src = sources[key] ?? Source(file: file)
            return Diagnostic(severity, file: src.file, line: src.line, column: src.column, keyPath: keyPath ?? key, message: message)
        }
    }

    /// Lints each folder of `directories` (each holding `xx.lproj/` folders and/or a
    /// `Localizable.xcstrings`; a path ending in `.lproj` or `.xcstrings` is linted alone). The base tables come from the same folder, else from the first
    /// earlier folder that has them.
    public static func lint(directories: [String], base: String = "en", inputs: LocalizationInputs) -> Report {
        var report = Report()
        var baseTables: [String: Table] = [:]   // table name → base table
        for dir in directories {
            var langs: [(lang: String, path: String)] = []
            var perLang: [String: [String: Table]] = [:]
            let catalogPath = dir.hasSuffix(".xcstrings") ? dir
                : (inputs.listDirectory(dir)?.contains(StringsFolder.catalogName) == true ? dir + "/" + StringsFolder.catalogName : nil)
            if let catalogPath {
                perLang = loadCatalog(catalogPath, inputs: inputs, into: &report)
            }
            if dir.hasSuffix(".xcstrings") {
                langs = []
            } else if dir.hasSuffix(".lproj") {
                let name = LocalizationPaths.parent(of: dir) == "" ? dir : String(dir.split(separator: "/").last ?? "")
                langs = [(String(name.dropLast(6)), dir)]
            } else if let names = inputs.listDirectory(dir) {
                langs = names.sorted().filter { $0.hasSuffix(".lproj") }.map { (String($0.dropLast(6)), dir + "/" + $0) }
            } else {
                report.diagnostics.append(Diagnostic(.error, file: dir, message: "cannot read the folder"))
                continue
            }
            for (lang, path) in langs {
                perLang[lang, default: [:]].merge(loadTables(path, inputs: inputs, into: &report)) { _, new in new }
            }
            if let b = perLang.first(where: { LocaleResolver.matchKey($0.key) == LocaleResolver.matchKey(base) })?.value {
                // A later folder's base tables are layered over the earlier ones, as the app does
                // (a partial `en.lproj` override over the built-in English): keys from both; a key
                // in both keeps the earlier text, the reference `Localizer` checks translations by.
                for (name, t) in b {
                    guard var merged = baseTables[name] else { baseTables[name] = t; continue }
                    var known = Set(merged.keys)
                    for k in t.keys where known.insert(k).inserted { merged.keys.append(k); merged.texts[k] = t.texts[k] }
                    baseTables[name] = merged
                }
            }
            for (lang, tables) in perLang.sorted(by: { $0.key < $1.key }) {
                let isBase = LocaleResolver.matchKey(lang) == LocaleResolver.matchKey(base)
                for (name, table) in tables.sorted(by: { $0.key < $1.key }) {
                    checkTexts(table, lang: lang, into: &report)
                    guard !isBase, let bt = baseTables[name] else { continue }
                    compare(table, against: bt, lang: lang, base: base, into: &report)
                }
            }
        }
        report.diagnostics = inFileOrder(report.diagnostics)
        return report
    }

    /// `diagnostics` as a compiler lists them: grouped by file (files in the order they first
    /// appear), each file's positioned messages by line and column, then those without a
    /// position; equal places keep the order the checks found them in (a stable sort).
    static func inFileOrder(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        var fileRank: [String: Int] = [:]
        for d in diagnostics where fileRank[d.file] == nil { fileRank[d.file] = fileRank.count }
        return diagnostics.enumerated().sorted { a, b in
            let (x, y) = (a.element, b.element)
            if x.file != y.file { return fileRank[x.file]! < fileRank[y.file]! }
            let px = (x.line ?? Int.max, x.column ?? 0), py = (y.line ?? Int.max, y.column ?? 0)
            if px != py { return px < py }
            return a.offset < b.offset
        }.map(\.element)
    }

    /// A String Catalog's languages as `Localizable` tables (file named `PATH (LANG)`), with
    /// the catalog's own diagnostics (structure, states) and the plural model's.
    static func loadCatalog(_ path: String, inputs: LocalizationInputs, into report: inout Report) -> [String: [String: Table]] {
        guard let bytes = inputs.readFile(path) else {
            report.diagnostics.append(Diagnostic(.error, file: path, message: "cannot read the file"))
            return [:]
        }
        do {
            let catalog = try StringCatalog.parse(bytes, file: path)
            let (tables, diags) = catalog.tables()
            report.diagnostics += catalog.diagnostics + diags
            var out: [String: [String: Table]] = [:]
            for lang in catalog.languageOrder {
                guard let l = catalog.languages[lang] else { continue }
                var table = Table(file: "\(path) (\(lang))")
                table.texts = tables[lang] ?? [:]
                var seen = Set<String>()
                for k in l.strings.map(\.key) + l.plurals.map(\.key) where seen.insert(k).inserted { table.keys.append(k) }
                out[lang] = ["Localizable": table]
            }
            return out
        } catch let e as StringsFileError {
            report.diagnostics.append(Diagnostic(e))
            return [:]
        } catch { return [:] }
    }

    /// Loads every `*.strings` / `*.stringsdict` of an `.lproj` folder, grouped by table name.
    static func loadTables(_ path: String, inputs: LocalizationInputs, into report: inout Report) -> [String: Table] {
        var tables: [String: Table] = [:]
        let names = (inputs.listDirectory(path) ?? []).sorted()
        for name in names where name.hasSuffix(".strings") {
            let file = path + "/" + name
            let tname = String(name.dropLast(8))
            guard let bytes = inputs.readFile(file) else { continue }
            do {
                let t = try StringsParser.parse(bytes, file: file)
                var table = tables[tname] ?? Table(file: file)
                table.file = file
                for k in t.order {
                    table.texts[k] = .plain(t.values[k] ?? ""); table.keys.append(k)
                    table.sources[k] = .init(file: file, line: t.positions[k]?.line, column: t.positions[k]?.column)
                }
                for d in t.duplicates {
                    report.diagnostics.append(Diagnostic(.warning, file: file, line: d.line, column: d.column, keyPath: d.key,
                                                         message: "duplicate key; this later value wins"))
                }
                tables[tname] = table
            } catch let e as StringsFileError {
                report.diagnostics.append(Diagnostic(e))
            } catch {}
        }
        for name in names where name.hasSuffix(".stringsdict") {
            let file = path + "/" + name
            let tname = String(name.dropLast(12))
            guard let bytes = inputs.readFile(file) else { continue }
            do {
                let t = try StringsdictModel.parse(bytes, file: file)
                report.diagnostics += t.diagnostics
                var table = tables[tname] ?? Table(file: file)
                for k in t.order {
                    if let e = t.entries[k] { table.texts[k] = .plural(e) } else { table.texts[k] = nil }
                    if !table.keys.contains(k) { table.keys.append(k) }
                    table.sources[k] = .init(file: file)
                }
                tables[tname] = table
            } catch let e as StringsFileError {
                report.diagnostics.append(Diagnostic(e))
            } catch {}
        }
        return tables
    }

    static func checkTexts(_ table: Table, lang: String, into report: inout Report) {
        for key in table.keys {
            guard let text = table.texts[key] else { continue }
            var formats: [(String, String)] = []
            switch text {
            case .plain(let s): formats = [(key, s)]
            case .plural(let e):
                formats = [("\(key)/NSStringLocalizedFormatKey", e.format)]
                for (name, v) in e.variables.sorted(by: { $0.key < $1.key }) {
                    for c in PluralCategory.allCases { if let t = v.variants[c] { formats.append(("\(key)/\(name)/\(c.rawValue)", t)) } }
                    checkCategories(v, key: key, lang: lang, file: table.sources[key]?.file ?? table.file, into: &report)
                }
            }
            for (path, f) in formats {
                let tokens = FormatString.tokenize(f)
                for (i, t) in tokens.enumerated() {
                    switch t {
                    case .invalid(let s):
                        report.diagnostics.append(table.diagnostic(.warning, key: key, keyPath: path,
                                                                   message: "'\(s)' is not a format specifier and is printed as is; write '%%' for a percent sign"))
                    case .specifier(let s) where s.flags.contains(" ") && s.position == nil:
                        if i + 1 < tokens.count, case .literal(let next) = tokens[i + 1], next.first?.isLetter == true {
                            report.diagnostics.append(table.diagnostic(.warning, key: key, keyPath: path,
                                                                 message: "'\(s.text)\(next.prefix(while: \.isLetter))' reads as the specifier '\(s.text)' followed by a word; write '%%' for a percent sign"))
                        }
                    default: break
                    }
                }
            }
            let sig = text.signature
            for c in sig.conflicts where { if case .plain = text { return true }; return false }() {
                report.diagnostics.append(table.diagnostic(.error, key: key, message: c))
            }
        }
    }

    static func checkCategories(_ v: PluralVariable, key: String, lang: String, file: String, into report: inout Report) {
        let all = PluralRules.categories(locale: lang)
        let integer = (v.valueType?.type ?? .int) == .int
        let needed = integer ? PluralRules.integerCategories(locale: lang) : all
        let present = Set(v.variants.keys)
        let missing = needed.subtracting(present).subtracting([.other]).sorted { $0.order < $1.order }
        if !present.contains(.other) {
            // Without `other`, a category the value type can reach and the entry lacks has no
            // text at all: those numbers fall back to the next table (error). When every reachable
            // category is there, only the missing fallback is worth a warning.
            let unreachable = needed.subtracting(present).sorted { $0.order < $1.order }
            let kind = integer ? "whole numbers" : "numbers"
            if unreachable.isEmpty {
                report.diagnostics.append(Diagnostic(.warning, file: file, keyPath: "\(key)/\(v.name)",
                                                     message: "no 'other' category (the categories \(kind) reach in '\(lang)' are all there; add 'other' as the fallback for any other number)"))
            } else {
                report.diagnostics.append(Diagnostic(.error, file: file, keyPath: "\(key)/\(v.name)",
                                                     message: "no 'other' category and no text for \(unreachable.map(\.rawValue).joined(separator: ", ")), which \(kind) reach in '\(lang)': those numbers fall back to the base language"))
            }
        } else if !missing.isEmpty {
            report.diagnostics.append(Diagnostic(.warning, file: file, keyPath: "\(key)/\(v.name)",
                                                 message: "missing plural categories for '\(lang)': \(missing.map(\.rawValue).joined(separator: ", ")) (the 'other' text is shown instead)"))
        }
        let unused = present.subtracting(all).subtracting([.zero, .other]).sorted { $0.order < $1.order }
        if !unused.isEmpty {
            report.diagnostics.append(Diagnostic(.warning, file: file, keyPath: "\(key)/\(v.name)",
                                                 message: "plural categories never used by '\(lang)': \(unused.map(\.rawValue).joined(separator: ", "))"))
        }
    }

    static func compare(_ table: Table, against base: Table, lang: String, base baseLang: String, into report: inout Report) {
        let have = Set(table.keys)
        let baseKeys = Set(base.keys)
        for k in base.keys where !have.contains(k) {
            report.diagnostics.append(Diagnostic(.warning, file: table.file, keyPath: k, message: "missing key (present in '\(baseLang)'; its text is shown)"))
        }
        for k in table.keys where !baseKeys.contains(k) {
            report.diagnostics.append(table.diagnostic(.warning, key: k, message: "key not in '\(baseLang)' (never used)"))
        }
        for k in table.keys {
            guard let t = table.texts[k], let b = base.texts[k] else { continue }
            let bs = b.signature
            guard bs.conflicts.isEmpty else { continue }
            if let problem = Localizer.mismatch(t, against: bs.types) {
                report.diagnostics.append(table.diagnostic(.error, key: k, message: problem + " (the '\(baseLang)' text is used instead)"))
                continue
            }
            let used = Set(t.signature.types.keys)
            let unused = Set(bs.types.keys).subtracting(used).sorted()
            if !unused.isEmpty {
                report.diagnostics.append(table.diagnostic(.warning, key: k,
                                                           message: "does not use argument(s) \(unused.map(String.init).joined(separator: ", ")) of the '\(baseLang)' text"))
            }
        }
    }
}
