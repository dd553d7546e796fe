import Foundation
import Synchronization

/// Why a text could not be formatted with the given arguments.
public enum FormatError: Error, Equatable, Sendable {
    /// A specifier or variable wants argument `index` (1-based) but fewer were given.
    case missingArgument(index: Int)
    /// Argument `index` has the wrong type for its specifier.
    case typeMismatch(index: Int, expected: FormatArgumentType, got: FormatArgumentType)
    /// A `%#@name@` with no such variable in the entry.
    case undefinedVariable(String)
    /// Variables nested deeper than `StringsdictModel.maxDepth` (or a cycle).
    case tooDeep
    /// Plural variable `variable` has no text for `category` and no `other` (the caller falls
    /// back to the next table of the chain).
    case missingCategory(variable: String, category: PluralCategory)
}

/// Formats texts with typed arguments. Numbers are written by Foundation's `String(format:)` with
/// a one-specifier format built here from a validated specifier and an argument of the matching
/// type, so a translated format never reaches C varargs. An `int` argument is accepted for a
/// `double` specifier (widened); every other mismatch throws. Integers are written without
/// grouping (as printf does); a `%f`-like conversion uses the locale's decimal separator when
/// it is `,` (CLDR, through Foundation's `Locale`: `fr` → `2,5`), else `.` (as Apple's
/// `localizedStringWithFormat` does for Latin digits).
public enum TextFormatter {
    /// `format` (a `.strings` value) with `args`; `locale` chooses the decimal separator
    /// (nil: `.`).
    /// - Throws: `FormatError`.
    public static func format(_ format: String, _ args: [FormatArgument], locale: String? = nil) throws -> String {
        try render(FormatString.tokenize(format), args, first: 1, entry: nil, locale: locale ?? "en", depth: 0,
                   separatorLocale: locale)
    }

    /// `,` when CLDR's decimal symbol for `locale` is a comma, else `.`. Asked of Foundation's
    /// `Locale` once per locale and process (it opens an ICU number formatter: ~1 ms, the first
    /// time, of the first screen; issue #28), and only when a number with a fraction is written.
    public static func decimalSeparator(for locale: String) -> String {
        if let known = separators.withLock({ $0[locale] }) { return known }
        let separator = Locale(identifier: locale).decimalSeparator == "," ? "," : "."
        separators.withLock { $0[locale] = separator }
        return separator
    }

    /// The separators found so far, by locale.
    private static let separators = Mutex<[String: String]>([:])
    /// Whether `Locale` was asked for `locale`'s separator in this process (tests: not for a text
    /// without a `%f`-like conversion).
    static func separatorLookedUp(for locale: String) -> Bool { separators.withLock { $0[locale] != nil } }

    /// The separator for `locale` (nil: `.`), looked up only when called.
    static func separator(_ locale: String?) -> String { locale.map(decimalSeparator(for:)) ?? "." }

    /// A `.stringsdict` entry with `args`, choosing plural variants for `locale`.
    /// - Throws: `FormatError`.
    public static func format(_ entry: StringsdictEntry, _ args: [FormatArgument], locale: String) throws -> String {
        try render(FormatString.tokenize(entry.format), args, first: 1, entry: entry, locale: locale, depth: 0,
                   separatorLocale: locale)
    }

    /// The variant Apple's rules pick for `number`: an explicit `zero` wins for 0 in every language
    /// (SD-07); else the CLDR category from ICU; a category the variable lacks falls back to
    /// `other` (SD-08). Nil for a string argument, or when neither the category nor `other` is
    /// there (`category(of:for:locale:)` says which category that was).
    public static func variant(of variable: PluralVariable, for arg: FormatArgument, locale: String) -> (PluralCategory, String)? {
        guard let cat = category(of: variable, for: arg, locale: locale) else { return nil }
        if let t = variable.variants[cat] { return (cat, t) }
        if let t = variable.variants[.other] { return (.other, t) }
        return nil
    }

    /// The category `arg` selects for `variable` (an explicit `zero` for 0, else CLDR's), or nil
    /// for a string argument.
    public static func category(of variable: PluralVariable, for arg: FormatArgument, locale: String) -> PluralCategory? {
        let number: Double
        var fractionDigits: Int?
        switch arg {
        case .int(let n): number = Double(n)
        case .double(let d):
            number = d
            if let p = variable.valueType?.precision, variable.valueType?.type == .double {
                fractionDigits = p
            } else if d.isFinite, d != d.rounded() {
                let s = "\(d)"
                if let dot = s.firstIndex(of: "."), !s.contains("e") { fractionDigits = s.distance(from: dot, to: s.endIndex) - 1 }
            }
        case .string: return nil
        }
        if number == 0, variable.variants[.zero] != nil { return .zero }
        return PluralRules.category(locale: locale, number: number, fractionDigits: fractionDigits)
    }

    static func render(_ tokens: [FormatToken], _ args: [FormatArgument], first: Int, entry: StringsdictEntry?,
                       locale: String, depth: Int, separatorLocale: String?) throws -> String {
        var out = ""
        var next = first
        for t in tokens {
            switch t {
            case .literal(let s): out += s
            case .invalid(let s): out += s
            case .specifier(let s):
                let index: Int
                if let p = s.position { index = p } else { index = next; next += 1 }
                guard index >= 1, index <= args.count else { throw FormatError.missingArgument(index: index) }
                out += try convert(s, args[index - 1], index: index, decimalSeparator: separator(separatorLocale))
            case .variable(let name, let position, _):
                guard let entry, let v = entry.variables[name] else { throw FormatError.undefinedVariable(name) }
                let index: Int
                if let p = position { index = p } else { index = StringsdictModel.argumentIndex(of: v, position: nil, sequential: next); next += 1 }
                guard depth < StringsdictModel.maxDepth else { throw FormatError.tooDeep }
                guard index >= 1, index <= args.count else { throw FormatError.missingArgument(index: index) }
                let arg = args[index - 1]
                guard let (_, text) = variant(of: v, for: arg, locale: locale) else {
                    if let cat = category(of: v, for: arg, locale: locale) { throw FormatError.missingCategory(variable: name, category: cat) }
                    throw FormatError.typeMismatch(index: index, expected: v.valueType?.type ?? .int, got: FormatArgumentType(arg))
                }
                out += try render(FormatString.tokenize(text), args, first: index, entry: entry, locale: locale, depth: depth + 1,
                                  separatorLocale: separatorLocale)
            }
        }
        return out
    }

    /// Largest width or precision honoured (larger ones are reduced to it).
    public static let maxWidth = 256

    /// One conversion of one typed argument.
    static func convert(_ s: FormatSpecifier, _ arg: FormatArgument, index: Int,
                        decimalSeparator: @autoclosure () -> String = ".") throws -> String {
        let cFlags = s.flags.filter { $0 != "'" }
        // Width and precision are capped at `maxWidth` so a hostile translation cannot ask for
        // megabytes of padding.
        let width = s.width.map { String(min($0, maxWidth)) } ?? ""
        let precision = s.precision.map { ".\(min($0, maxWidth))" } ?? ""
        switch (s.type, arg) {
        case (.int, .int(let n)) where cFlags.isEmpty && s.width == nil && s.precision == nil && "diD".contains(s.conversion):
            // What `%lld` writes, without Foundation's formatter (issue #28: the first screen's texts).
            return String(n)
        case (.int, .int(let n)):
            let conv: String
            switch s.conversion {
            case "D": conv = "d"
            case "U": conv = "u"
            case "O": conv = "o"
            default: conv = String(s.conversion)
            }
            return String(format: "%" + cFlags + width + precision + "ll" + conv, Int64(n))
        case (.double, .double(let d)):
            let text = String(format: "%" + cFlags + width + precision + String(s.conversion), d)
            let separator = decimalSeparator()
            return separator == "." ? text : text.replacingOccurrences(of: ".", with: separator)
        case (.double, .int(let n)):
            let text = String(format: "%" + cFlags + width + precision + String(s.conversion), Double(n))
            let separator = decimalSeparator()
            return separator == "." ? text : text.replacingOccurrences(of: ".", with: separator)
        case (.string, .string(let str)):
            var text = str
            if let p = s.precision, text.count > p { text = String(text.prefix(p)) }
            if let w = s.width.map({ min($0, maxWidth) }), text.count < w {
                let pad = String(repeating: " ", count: w - text.count)
                text = s.flags.contains("-") ? text + pad : pad + text
            }
            return text
        default:
            throw FormatError.typeMismatch(index: index, expected: s.type, got: FormatArgumentType(arg))
        }
    }

    /// The argument types a plain format consumes (1-based index → type) and conflicts (the
    /// same index used with two types).
    public static func signature(of format: String) -> (types: [Int: FormatArgumentType], conflicts: [String]) {
        var types: [Int: FormatArgumentType] = [:]
        var conflicts: [String] = []
        for (t, index) in FormatString.assignIndexes(FormatString.tokenize(format), first: 1) {
            guard case .specifier(let s) = t else { continue }
            if let old = types[index], old != s.type {
                conflicts.append("argument \(index) is \(old.rawValue) and \(s.type.rawValue) ('\(s.text)')")
            } else {
                types[index] = s.type
            }
        }
        return (types, conflicts)
    }
}
