import Foundation
import JSON
import Localization
import Media

/// The `strings dump|format|lint` commands (DESIGN.md "Command line").
public enum StringsCommands {
    /// `strings dump FILE`: the parsed table as JSON on stdout (`.strings` → `{"key": "value"}` in
    /// file order; `.stringsdict` or any XML plist → the plist as JSON, `<data>` as base64,
    /// `<date>` as its text).
    /// - Throws: `AppError.inputMissing` (exit 66), `AppError.badData` with
    ///   `FILE:LINE:COL: error: …` (exit 65).
    public static func dump(_ args: ParsedArguments, _ console: Console, inputs: LocalizationInputs = .current()) throws -> ExitCode {
        guard let path = args.positionals.first?.text else { throw AppError.missingArgument(command: "strings dump", name: "FILE") }
        guard let bytes = inputs.readFile(path) else { throw AppError.inputProblem(path) }
        do {
            let json: String
            if path.hasSuffix(".xcstrings") {
                let catalog = try StringCatalog.parse(bytes, file: path)
                var langs: [(key: String, value: PlistValue)] = []
                for lang in catalog.languageOrder {
                    guard let l = catalog.languages[lang] else { continue }
                    langs.append((lang, .dict(l.strings.map { ($0.key, .string($0.value)) } + l.plurals)))
                }
                json = JSONText.value(.dict(langs), indent: 0)
                for d in catalog.diagnostics { console.err(d.description + "\n") }
            } else if path.hasSuffix(".stringsdict") || path.hasSuffix(".plist") {
                json = JSONText.value(try XMLPlist.parse(bytes, file: path), indent: 0)
            } else {
                let t = try StringsParser.parse(bytes, file: path)
                json = JSONText.value(.dict(t.order.map { ($0, .string(t.values[$0] ?? "")) }), indent: 0)
                for d in t.duplicates {
                    console.err("\(path):\(d.line):\(d.column): warning: duplicate key '\(d.key)'; the later value wins\n")
                }
            }
            console.out(json + "\n")
            return .ok
        } catch let e as StringsFileError {
            throw AppError.badData(e.description)
        }
    }

    /// `strings format --locale TAG [--strings DIR]... KEY [ARG...]`: the localized text with
    /// each ARG converted to the type its specifier wants (int for `%d`-like and plural
    /// variables, double for `%f`-like, string for `%@ %s`).
    /// - Throws: `AppError.invalidValue` (exit 64) for an ARG that is not a number where one is
    ///   needed, `AppError.missingArgument` when too few ARGs are given.
    public static func format(_ args: ParsedArguments, _ console: Console, inputs: LocalizationInputs = .current()) throws -> ExitCode {
        guard let key = args.positionals.first?.text else { throw AppError.missingArgument(command: "strings format", name: "KEY") }
        let builtIn = try AppResources.requireStringTables(inputs: inputs)
        let localizer = Localizer.standard(locale: args.value("--locale"), stringsDirectories: args.all("--strings"), builtInPath: builtIn,
                                           inputs: inputs)
        for d in localizer.diagnostics where d.keyPath == key || d.keyPath?.hasPrefix(key + "/") == true || d.keyPath == nil {
            console.err(d.description + "\n")
        }
        guard let (_, text) = localizer.lookup(key) else {
            console.err("\(ErrorReport.program): warning: no text for '\(key)' in \(localizer.chain.joined(separator: ", ")); printing the key\n")
            console.out(key + "\n")
            return .ok
        }
        let types = text.signature.types
        let raw = args.positionals.dropFirst().map(\.text)
        var typed: [FormatArgument] = []
        for (i, value) in raw.enumerated() {
            switch types[i + 1] ?? .string {
            case .int:
                guard let n = Int(value) else { throw AppError.invalidValue(option: "ARG \(i + 1)", value: value, expects: "a whole number") }
                typed.append(.int(n))
            case .double:
                guard let d = Double(value) else { throw AppError.invalidValue(option: "ARG \(i + 1)", value: value, expects: "a number") }
                typed.append(.double(d))
            case .string:
                typed.append(.string(value))
            }
        }
        if let needed = types.keys.max(), needed > raw.count {
            throw AppError.missingArgument(command: "strings format",
                                           name: "ARG \(raw.count + 1) (\(types[raw.count + 1]?.rawValue ?? "string")) for '\(key)'")
        }
        console.out(localizer.text(key, typed) + "\n")
        return .ok
    }

    /// `strings lint DIR... [--base en] [--format text|json]`: see `StringsLinter`. Exit 65 when
    /// any error is found, 0 with warnings only.
    ///
    /// A `.strings`/`.stringsdict` FILE inside an `xx.lproj` folder is linted alone, as that
    /// language (its `.lproj` with only that file); any other file is refused with what lint
    /// wants (exit 64); a folder holding no tables is an error (66), never a pass.
    /// - Throws: `AppError.stringTablesMissing` (66) when no folder given has the base language
    ///   and the built-in tables cannot be found (nothing to check the others against).
    public static func lint(_ args: ParsedArguments, _ console: Console, inputs given: LocalizationInputs = .current()) throws -> ExitCode {
        var dirs = args.positionals.map(\.text)
        var inputs = given
        var alone: [String: String] = [:]   // an .lproj folder → the one file of it to lint
        for (i, d) in dirs.enumerated() where !inputs.directoryExists(d) {
            if d.hasSuffix(".xcstrings"), inputs.readFile(d) != nil { continue }
            guard inputs.readFile(d) != nil else { throw AppError.inputProblem(d) }
            let parent = LocalizationPaths.parent(of: d)
            let name = String(d.split(separator: "/").last ?? "")
            guard name.hasSuffix(".strings") || name.hasSuffix(".stringsdict"), parent.hasSuffix(".lproj") else {
                throw AppError.lintNeedsFolder(path: d, why: "is a file; lint wants a folder of xx.lproj folders, an xx.lproj folder, a .xcstrings catalog, or a .strings/.stringsdict file inside an xx.lproj folder (which names its language)")
            }
            dirs[i] = parent
            alone[parent] = name
        }
        if !alone.isEmpty {
            let list = given.listDirectory
            let only = alone
            inputs.listDirectory = { p in only[p].map { [$0] } ?? list(p) }
        }
        for d in dirs where !d.hasSuffix(".xcstrings") && !d.hasSuffix(".lproj") {
            let names = inputs.listDirectory(d) ?? []
            if !names.contains(where: { $0.hasSuffix(".lproj") || $0 == StringsFolder.catalogName }) {
                throw AppError.noStringTables(folder: d)
            }
        }
        let base = args.value("--base") ?? "en"
        if !dirs.contains(where: { Self.hasLanguage(base, in: $0, inputs: inputs) }) {
            // Nothing to check the folders against without the built-in base tables.
            _ = try AppResources.requireStringTables(inputs: inputs)
        }
        var linted = dirs
        var overridesOnly = false
        // Folders other than the built-in one are overrides, layered over the built-in tables as
        // the app layers `--strings` folders (a translator's `mytexts/de.lproj` with only the keys
        // they change, or a partial `mytexts/en.lproj` that changes an English text): checked
        // against the built-in English merged with the `en` tables given (`StringsLinter`), with
        // no warning for the built-in keys they leave out (those fall back by design).
        // (Folders compared with symbolic links and `.`/`..` resolved.)
        func real(_ p: String) -> String { URL(fileURLWithPath: p).resolvingSymlinksInPath().standardizedFileURL.path }
        var builtInKeys = Set<String>()
        if let builtIn = LocalizationPaths.resolve(stringsDirectories: [], inputs: inputs).builtIn,
           !dirs.contains(where: { real($0) == real(builtIn) }) {
            let ownBase = dirs.contains(where: { Self.hasLanguage(base, in: $0, inputs: inputs) })
            linted = [builtIn] + dirs
            overridesOnly = true
            builtInKeys = Set(StringsFolder.load(builtIn, inputs: inputs, languages: [LocaleResolver.matchKey(base)]).languages.values.flatMap(\.keys))
            if args.value("--format") != "json" {
                console.out(ownBase
                    ? "note: checking against the built-in \(builtIn)/\(base).lproj with the '\(base)' tables given layered over it\n"
                    : "note: no '\(base)' tables in the folders given; checking them against the built-in \(builtIn)/\(base).lproj\n")
            }
        }
        var report = StringsLinter.lint(directories: linted, base: base, inputs: inputs)
        if overridesOnly {
            report.diagnostics.removeAll { $0.severity == .warning && $0.message.hasPrefix("missing key") && builtInKeys.contains($0.keyPath ?? "") }
        }
        if args.value("--format") == "json" {
            var items: [PlistValue] = []
            for d in report.diagnostics {
                var e: [(key: String, value: PlistValue)] = [("severity", .string(d.severity.rawValue)), ("file", .string(d.file))]
                if let l = d.line { e.append(("line", .integer(l))) }
                if let c = d.column { e.append(("column", .integer(c))) }
                if let k = d.keyPath { e.append(("key", .string(k))) }
                e.append(("message", .string(d.message)))
                items.append(.dict(e))
            }
            let doc = PlistValue.dict([("errors", .integer(report.errorCount)), ("warnings", .integer(report.warningCount)),
                                       ("diagnostics", .array(items))])
            console.out(JSONText.value(doc, indent: 0) + "\n")
        } else {
            for d in report.diagnostics { console.out(d.description + "\n") }
            console.out("\(report.errorCount) error(s), \(report.warningCount) warning(s)\n")
        }
        return report.errorCount > 0 ? .dataError : .ok
    }
}

extension StringsCommands {
    /// `strings convert FILE.xcstrings --to DIR` or `strings convert DIR --to FILE.xcstrings`
    /// (see `Commands.stringsConvert`).
    /// - Throws: `AppError.missingValue` without `--to` (64), `inputMissing` (66), `badData`
    ///   when the source has errors (65), `cannotCreateOutput` when a target exists or cannot be
    ///   written (73).
    public static func convert(_ args: ParsedArguments, _ console: Console, inputs: LocalizationInputs = .current(),
                               write: (String, String) throws -> Void = StringsCommands.writeNewFile) throws -> ExitCode {
        guard let source = args.positionals.first?.text else { throw AppError.missingArgument(command: "strings convert", name: "SOURCE") }
        guard let target = args.value("--to") else { throw AppError.missingValue(option: "--to", expects: "a folder, or a FILE.xcstrings") }
        if source.hasSuffix(".xcstrings") {
            guard let bytes = inputs.readFile(source) else { throw AppError.inputMissing(path: source) }
            let catalog: StringCatalog
            do { catalog = try StringCatalog.parse(bytes, file: source) } catch let e as StringsFileError { throw AppError.badData(e.description) }
            let (_, modelDiags) = catalog.tables()
            let diags = catalog.diagnostics + modelDiags
            let errors = diags.filter { $0.severity == .error }
            guard errors.isEmpty else {
                throw AppError.badData(errors.map(\.description).joined(separator: "\n") + "\n\(errors.count) error(s); nothing written")
            }
            for d in diags { console.err(d.description + "\n") }
            var files: [(path: String, text: String)] = []
            for lang in catalog.languageOrder {
                guard let l = catalog.languages[lang] else { continue }
                let dir = target + "/" + lang + ".lproj"
                if !l.strings.isEmpty { files.append((dir + "/Localizable.strings", StringsWriter.strings(l.strings))) }
                if !l.plurals.isEmpty { files.append((dir + "/Localizable.stringsdict", StringsWriter.xmlPlist(.dict(l.plurals)))) }
            }
            // All or nothing as far as existing files go: check every target before writing one.
            if let existing = files.first(where: { inputs.readFile($0.path) != nil || inputs.directoryExists($0.path) }) {
                throw AppError.cannotCreateOutput(path: existing.path, reason: "it already exists (not replaced)")
            }
            for f in files { try write(f.path, f.text) }
            console.out("wrote \(files.count) file(s) for \(catalog.languageOrder.count) language(s) in \(target)\n")
            return .ok
        }
        guard inputs.directoryExists(source) else { throw AppError.inputMissing(path: source) }
        guard target.hasSuffix(".xcstrings") else {
            throw AppError.invalidValue(option: "--to", value: target, expects: "a FILE.xcstrings when converting a folder")
        }
        let folder = StringsFolder.load(source, inputs: inputs)
        let errors = folder.diagnostics.filter { $0.severity == .error }
        guard errors.isEmpty else {
            throw AppError.badData(errors.map(\.description).joined(separator: "\n") + "\n\(errors.count) error(s); nothing written")
        }
        for d in folder.diagnostics { console.err(d.description + "\n") }
        guard !folder.languages.isEmpty else { throw AppError.inputMissing(path: source + "/*.lproj") }
        try write(target, StringsWriter.catalog(sourceLanguage: args.value("--base") ?? "en", tables: folder.languages))
        let keys = Set(folder.languages.values.flatMap(\.keys)).count
        console.out("wrote \(target): \(keys) key(s) in \(folder.languages.count) language(s)\n")
        return .ok
    }

    /// Writes `text` to a new file at `path` (0644), creating its folders; never replaces a file.
    @Sendable public static func writeNewFile(_ path: String, _ text: String) throws {
        let fm = FileManager.default
        if fm.fileExists(atPath: path) { throw AppError.cannotCreateOutput(path: path, reason: "it already exists (not replaced)") }
        let dir = OutputFolder.parentDirectory(path)
        do {
            if !dir.isEmpty { try fm.createDirectory(atPath: dir, withIntermediateDirectories: true) }
        } catch {
            throw AppError.cannotCreateOutput(path: dir, reason: "\(error.localizedDescription)")
        }
        guard fm.createFile(atPath: path, contents: Data(text.utf8)) else {
            throw AppError.cannotCreateOutput(path: path, reason: "cannot write the file")
        }
    }

    /// Whether `dir` is, or holds, a `<lang>.lproj` folder, or a catalog with that language.
    static func hasLanguage(_ lang: String, in dir: String, inputs: LocalizationInputs) -> Bool {
        let want = LocaleResolver.matchKey(lang) + ".lproj"
        let catalogPath = dir.hasSuffix(".xcstrings") ? dir : dir + "/" + StringsFolder.catalogName
        if let bytes = inputs.readFile(catalogPath), let c = try? StringCatalog.parse(bytes, file: catalogPath),
           c.languageOrder.contains(where: { LocaleResolver.matchKey($0) == LocaleResolver.matchKey(lang) }) {
            return true
        }
        if dir.hasSuffix(".lproj") {
            return LocaleResolver.matchKey(String(dir.split(separator: "/").last ?? "")) == want
        }
        return (inputs.listDirectory(dir) ?? []).contains { LocaleResolver.matchKey($0) == want }
    }
}

/// `strings dump` and `strings lint --format json`: a property-list value as JSON, written by the
/// one writer (`JSONWriter`, pretty) in the table's own order (`.asGiven`: a `.strings` file's
/// order is part of what it says). Dates as their text, data as base64, reals as JSON numbers.
enum JSONText {
    static func value(_ v: PlistValue, indent: Int) -> String {
        JSONWriter.text(json(v), keys: .asGiven, layout: .pretty)
    }

    static func json(_ v: PlistValue) -> JSONValue {
        switch v {
        case .string(let s), .date(let s): return .string(s)
        case .integer(let i): return .int(i)
        case .real(let d): return .double(d)
        case .bool(let b): return .bool(b)
        case .data(let d): return .string(Data(d).base64EncodedString())
        case .array(let a): return .array(a.map(json))
        case .dict(let e): return .object(e.map { JSONMember($0.key, json($0.value)) })
        }
    }
}
