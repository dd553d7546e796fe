/// A localized text: a plain `.strings` value or a `.stringsdict` plural entry.
public enum LocalizedText: Sendable, Equatable {
    case plain(String)
    case plural(StringsdictEntry)

    /// The argument types it consumes (1-based index → type) and internal conflicts.
    public var signature: (types: [Int: FormatArgumentType], conflicts: [String]) {
        switch self {
        case .plain(let s): return TextFormatter.signature(of: s)
        case .plural(let e): return StringsdictModel.signature(of: e)
        }
    }
}

/// One folder's tables: language (as the `.lproj` name is spelled) → key → text.
public struct StringsFolder: Sendable {
    public var path: String
    public var languages: [String: [String: LocalizedText]] = [:]
    /// The file each text came from, per language and key (the catalog, or the `.strings` /
    /// `.stringsdict` of the `.lproj`), so a text refused later is reported against its file.
    public var sources: [String: [String: String]] = [:]
    /// Where each text's value starts in its source file, per language and key, when that file
    /// is an old-style `.strings` file (1-based line and column; none for property lists and
    /// catalogs), so a text refused later is reported as `file:line:col:`, as `strings lint` does.
    public var positions: [String: [String: StringsTable.Position]] = [:]
    public var diagnostics: [Diagnostic] = []

    /// The String Catalog a folder may hold (every language in one file).
    public static let catalogName = "Localizable.xcstrings"

    /// Loads `path/Localizable.xcstrings` (every language in it), then every
    /// `xx.lproj/Localizable.strings` and `Localizable.stringsdict` of `path` over it, per key
    /// (a missing folder is empty). A `.stringsdict` entry wins over a `.strings` value of the
    /// same key, as in Apple's bundles. Parse errors become diagnostics; a file with a parse
    /// error contributes nothing. Text, XML and binary property lists are all read.
    public static func load(_ path: String, inputs: LocalizationInputs, languages wanted: Set<String>? = nil) -> StringsFolder {
        var folder = StringsFolder(path: path)
        guard let names = inputs.listDirectory(path) else { return folder }
        if names.contains(catalogName), let bytes = inputs.readFile(path + "/" + catalogName) {
            let file = path + "/" + catalogName
            do {
                let catalog = try StringCatalog.parse(bytes, file: file)
                let (tables, diags) = catalog.tables(languages: wanted, keysAsSourceText: false)
                folder.diagnostics += catalog.diagnostics.filter { $0.severity == .error } + diags
                for (lang, t) in tables {
                    folder.languages[lang, default: [:]].merge(t) { _, new in new }
                    for k in t.keys { folder.sources[lang, default: [:]][k] = file }
                }
            } catch let e as StringsFileError {
                folder.diagnostics.append(Diagnostic(e))
            } catch {}
        }
        for name in names.sorted() where name.hasSuffix(".lproj") {
            let lang = String(name.dropLast(6))
            if let wanted, !wanted.contains(LocaleResolver.matchKey(lang)) { continue }
            let dir = path + "/" + name
            var table: [String: LocalizedText] = [:]
            var source: [String: String] = [:]
            var position: [String: StringsTable.Position] = [:]
            let stringsPath = dir + "/Localizable.strings"
            if let bytes = inputs.readFile(stringsPath) {
                do {
                    let t = try StringsParser.parse(bytes, file: stringsPath)
                    for (k, v) in t.values { table[k] = .plain(v); source[k] = stringsPath }
                    position = t.positions
                    for d in t.duplicates {
                        folder.diagnostics.append(Diagnostic(.warning, file: stringsPath, line: d.line, column: d.column, keyPath: d.key,
                                                             message: "duplicate key; this later value wins"))
                    }
                } catch let e as StringsFileError {
                    folder.diagnostics.append(Diagnostic(e))
                } catch {}
            }
            let dictPath = dir + "/Localizable.stringsdict"
            if let bytes = inputs.readFile(dictPath) {
                do {
                    let t = try StringsdictModel.parse(bytes, file: dictPath)
                    for (k, e) in t.entries { table[k] = .plural(e); source[k] = dictPath; position[k] = nil }
                    folder.diagnostics += t.diagnostics
                } catch let e as StringsFileError {
                    folder.diagnostics.append(Diagnostic(e))
                } catch {}
            }
            folder.languages[lang, default: [:]].merge(table) { _, new in new }
            folder.sources[lang, default: [:]].merge(source) { _, new in new }
            for k in source.keys { folder.positions[lang, default: [:]][k] = position[k] }
        }
        return folder
    }
}

/// The localization engine the app uses: layered string tables, a locale fallback chain,
/// plural selection and typed formatting. Conforms to `Localizing`.
///
/// Layers (lowest first): the built-in `Localizations/`, `$XDG_CONFIG_HOME/selfie-capture/
/// Localizations`, then each `--strings DIR`; each layer overrides the ones below per key. A
/// layer is `xx.lproj/` folders and/or a `Localizable.xcstrings` catalog (`StringsFolder`).
/// Lookup tries each language of `LocaleResolver.fallbackChain` (`fr_CA → fr → en`). The
/// pseudo-locale `en-XA` (`PseudoLocale`) shows every base text accented, bracketed and longer.
/// A text whose specifiers (count or types) do not match the base language's (from the lowest
/// layer that has the key in the base language) is rejected when loaded (FMT-01/02/10), with a
/// diagnostic, and the next layer/language is used. `text(_:_:)` never crashes: a missing key
/// returns the key; arguments that do not fit any candidate return the first candidate's raw text.
public struct Localizer: Localizing, Sendable {
    /// The resolved locale tag (`fr_CA`).
    public let locale: String
    /// The base language texts are checked against (`en`).
    public let base: String
    /// Languages tried in order.
    public let chain: [String]
    /// Problems found while loading (parse errors, rejected translations, structure).
    public let diagnostics: [Diagnostic]
    /// Merged tables per language of the chain (index-aligned with `chain`).
    let tables: [[String: LocalizedText]]

    /// Loads the tables of `folders` (lowest layer first) for `locale`.
    /// - Parameters:
    ///   - locale: a tag such as `fr_CA` or `pl` (see `LocaleResolver.resolve` to get it from the
    ///     command line and environment).
    ///   - folders: layer folders, each holding `xx.lproj/` (`LocalizationPaths.layers`).
    ///   - base: the language the code's arguments follow (default `en`).
    ///   - inputs: file-system access (`LocalizationInputs.current()` in the app).
    public init(locale: String, folders: [String], base: String = "en", inputs: LocalizationInputs) {
        let loc = LocaleResolver.normalize(locale) ?? base
        self.locale = loc
        self.base = base
        let chain = LocaleResolver.fallbackChain(loc, base: base)
        self.chain = chain
        let wanted = Set(chain.map(LocaleResolver.matchKey))
        let loaded = folders.map { StringsFolder.load($0, inputs: inputs, languages: wanted) }
        var diags = loaded.flatMap(\.diagnostics)
        func tableOf(_ f: StringsFolder, _ lang: String) -> [String: LocalizedText]? {
            let key = LocaleResolver.matchKey(lang)
            return f.languages.first { LocaleResolver.matchKey($0.key) == key }?.value
        }
        func sourceOf(_ f: StringsFolder, _ lang: String, _ k: String) -> String {
            let key = LocaleResolver.matchKey(lang)
            return f.sources.first { LocaleResolver.matchKey($0.key) == key }?.value[k] ?? f.path + "/" + lang + ".lproj"
        }
        func positionOf(_ f: StringsFolder, _ lang: String, _ k: String) -> StringsTable.Position? {
            let key = LocaleResolver.matchKey(lang)
            return f.positions.first { LocaleResolver.matchKey($0.key) == key }?.value[k]
        }
        // Reference signatures: the lowest layer that has the key in the base language. Each
        // base text's signature is worked out once (the chain's base language reuses it).
        var reference: [String: [Int: FormatArgumentType]] = [:]
        var baseSignatures: [[String: (types: [Int: FormatArgumentType], conflicts: [String])]] = []
        for f in loaded {
            var sigs: [String: (types: [Int: FormatArgumentType], conflicts: [String])] = [:]
            for (k, v) in tableOf(f, base) ?? [:] {
                let sig = v.signature
                sigs[k] = sig
                if reference[k] == nil, sig.conflicts.isEmpty { reference[k] = sig.types }
            }
            baseSignatures.append(sigs)
        }
        let baseKey = LocaleResolver.matchKey(base)
        var tables: [[String: LocalizedText]] = []
        for lang in chain {
            var merged: [String: LocalizedText] = [:]
            let isBase = LocaleResolver.matchKey(lang) == baseKey
            for (fi, f) in loaded.enumerated() {
                guard let t = tableOf(f, lang) else { continue }
                var refused: [Diagnostic] = []
                for (k, v) in t {
                    let sig = (isBase ? baseSignatures[fi][k] : nil) ?? v.signature
                    if let problem = Localizer.mismatch(signature: sig, against: reference[k]) {
                        let at = positionOf(f, lang, k)
                        refused.append(Diagnostic(.error, file: sourceOf(f, lang, k), line: at?.line, column: at?.column, keyPath: k,
                                                  message: problem + "; the text is ignored and a fallback is used"))
                        continue
                    }
                    merged[k] = v
                }
                // In file and line order (the table is a dictionary: its order changes from run
                // to run), as `strings lint` lists them.
                diags += refused.sorted {
                    ($0.file, $0.line ?? Int.max, $0.column ?? 0, $0.keyPath ?? "") < ($1.file, $1.line ?? Int.max, $1.column ?? 0, $1.keyPath ?? "")
                }
            }
            tables.append(merged)
        }
        // The pseudo-locale (`en-XA`): every base text not translated for it, transformed.
        if PseudoLocale.isPseudo(loc), tables.count >= 2 {
            for (k, v) in tables[tables.count - 1] where tables[0][k] == nil { tables[0][k] = PseudoLocale.transform(v) }
        }
        self.tables = tables
        self.diagnostics = diags
    }

    /// The app's standard setup: locale from `--locale` or the environment, built-in tables
    /// found from the executable (or `builtInPath`/`$SELFIE_CAPTURE_LOCALIZATIONS`), the XDG
    /// override folder, then `stringsDirectories`.
    public static func standard(locale explicit: String?, stringsDirectories: [String] = [], builtInPath: String? = nil,
                                inputs: LocalizationInputs = .current()) -> Localizer {
        let loc = LocaleResolver.resolve(explicit: explicit, environment: inputs.environment)
        let paths = LocalizationPaths.resolve(explicitBuiltIn: builtInPath, stringsDirectories: stringsDirectories, inputs: inputs)
        return Localizer(locale: loc, folders: paths.layers, inputs: inputs)
    }

    /// Why `text` does not fit the base signature, or nil when it does (fewer arguments is fine).
    static func mismatch(_ text: LocalizedText, against reference: [Int: FormatArgumentType]?) -> String? {
        mismatch(signature: text.signature, against: reference)
    }

    /// The same for a text's `signature` already worked out.
    static func mismatch(signature sig: (types: [Int: FormatArgumentType], conflicts: [String]),
                         against reference: [Int: FormatArgumentType]?) -> String? {
        if let c = sig.conflicts.first { return c }
        guard let reference else { return nil }
        for (index, type) in sig.types.sorted(by: { $0.key < $1.key }) {
            guard let r = reference[index] else {
                return "uses argument \(index) but the base text takes \(reference.count) argument(s)"
            }
            if r != type && !(r == .int && type == .double) {
                return "argument \(index) is \(type.rawValue) but \(r.rawValue) in the base text"
            }
        }
        return nil
    }

    /// The text for `key` in the first language of the chain that has it, formatted with `args`.
    public func text(_ key: String, _ args: [FormatArgument]) -> String {
        var firstRaw: String?
        for (lang, table) in zip(chain, tables) {
            guard let t = table[key] else { continue }
            do {
                switch t {
                case .plain(let s):
                    if firstRaw == nil { firstRaw = s }
                    return try TextFormatter.format(s, args, locale: lang)
                case .plural(let e):
                    if firstRaw == nil { firstRaw = e.format }
                    return try TextFormatter.format(e, args, locale: lang)
                }
            } catch {
                continue
            }
        }
        return firstRaw ?? key
    }

    /// The text stored for `key` in the first language of the chain that has it (unformatted).
    public func lookup(_ key: String) -> (language: String, text: LocalizedText)? {
        for (lang, table) in zip(chain, tables) { if let t = table[key] { return (lang, t) } }
        return nil
    }
}
