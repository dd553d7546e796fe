/// A command-line token and its index in `argv` (0 = program name), so errors can point at it.
public struct ArgToken: Equatable, Sendable {
    public var text: String
    public var index: Int
    public init(_ text: String, index: Int) { self.text = text; self.index = index }
}

/// What an option's value must be.
public enum ValueKind: Equatable, Sendable {
    /// No value: a flag.
    case flag
    /// Any text; the string names it in help (`PATH`, `TAG`).
    case text(String)
    /// A whole number in a closed range.
    case integer(ClosedRange<Int>)
    /// A decimal number in a closed range.
    case number(ClosedRange<Double>)
    /// One of fixed choices.
    case choice([String])
    /// A comma-separated list of choices (`--quality hd,sd`).
    case choiceList([String])

    /// How help and errors describe the expected value.
    public var expectation: String {
        switch self {
        case .flag: return "no value"
        case .text(let name): return name
        case .integer(let r): return "a whole number from \(r.lowerBound) to \(r.upperBound)"
        case .number(let r): return "a number from \(Self.fmt(r.lowerBound)) to \(Self.fmt(r.upperBound))"
        case .choice(let c): return "one of " + c.joined(separator: ", ")
        case .choiceList(let c): return "a comma-separated list of " + c.joined(separator: ", ")
        }
    }

    /// The placeholder shown after the option name in help.
    public var placeholder: String? {
        switch self {
        case .flag: return nil
        case .text(let n): return n
        case .integer: return "N"
        case .number: return "SECONDS"
        case .choice(let c): return c.joined(separator: "|")
        case .choiceList: return "LIST"
        }
    }

    private static func fmt(_ d: Double) -> String {
        d == d.rounded() ? String(Int(d)) : String(d)
    }
}

/// One long option of a command.
public struct OptionSpec: Sendable {
    public var name: String
    public var kind: ValueKind
    public var repeatable: Bool
    public var help: String
    public init(_ name: String, _ kind: ValueKind, repeatable: Bool = false, help: String) {
        self.name = name; self.kind = kind; self.repeatable = repeatable; self.help = help
    }
}

/// A command: its name, synopsis, options and positional arguments.
public struct CommandSpec: Sendable {
    public var name: String
    public var summary: String
    public var usage: String
    public var options: [OptionSpec]
    /// Positional argument names, in order; a trailing `...` means "any number more".
    public var positionals: [String]
    public var minPositionals: Int
    public var details: String
    public init(name: String, summary: String, usage: String, options: [OptionSpec], positionals: [String] = [],
                minPositionals: Int = 0, details: String = "") {
        self.name = name; self.summary = summary; self.usage = usage; self.options = options
        self.positionals = positionals; self.minPositionals = minPositionals; self.details = details
    }
    public func option(_ name: String) -> OptionSpec? { options.first { $0.name == name } }
}

/// The result of parsing one command's arguments.
public struct ParsedArguments: Equatable, Sendable {
    /// Option values in order given; flags map to `[""]` per occurrence.
    public var values: [String: [String]] = [:]
    public var positionals: [ArgToken] = []
    public var helpRequested = false

    public func flag(_ name: String) -> Bool { values[name] != nil }
    /// The last value given for an option.
    public func value(_ name: String) -> String? { values[name]?.last }
    public func all(_ name: String) -> [String] { values[name] ?? [] }
}

/// A hand-written parser: `--opt value`, `--opt=value`, `--` ends options, `-h`/`--help`.
public enum ArgumentParser {
    /// Parses `tokens` against `spec`.
    /// - Throws: `AppError.unknownOption` (with a suggestion within edit distance 3),
    ///   `.missingValue`, `.invalidValue`, `.unexpectedArgument`, `.missingArgument`.
    public static func parse(_ tokens: [ArgToken], spec: CommandSpec) throws -> ParsedArguments {
        var result = ParsedArguments()
        var i = 0
        var optionsEnded = false
        while i < tokens.count {
            let tok = tokens[i]
            i += 1
            if optionsEnded || !tok.text.hasPrefix("-") || tok.text == "-" {
                result.positionals.append(tok)
                continue
            }
            if tok.text == "--" { optionsEnded = true; continue }
            if tok.text == "-h" || tok.text == "--help" { result.helpRequested = true; continue }
            var name = tok.text
            var inlineValue: String?
            if let eq = tok.text.firstIndex(of: "=") {
                name = String(tok.text[..<eq])
                inlineValue = String(tok.text[tok.text.index(after: eq)...])
            }
            guard let opt = spec.option(name) else {
                throw AppError.unknownOption(name, suggestion: suggest(name, among: spec.options.map(\.name) + ["--help"]))
            }
            if opt.kind == .flag {
                if let v = inlineValue { throw AppError.invalidValue(option: name, value: v, expects: "no value") }
                result.values[name, default: []].append("")
                continue
            }
            let value: String
            if let v = inlineValue {
                value = v
            } else if i < tokens.count, !(tokens[i].text.hasPrefix("--") && tokens[i].text.count > 2) {
                value = tokens[i].text
                i += 1
            } else {
                throw AppError.missingValue(option: name, expects: opt.kind.expectation)
            }
            try validate(value, for: opt)
            if opt.repeatable {
                result.values[name, default: []].append(value)
            } else {
                result.values[name] = [value]
            }
        }
        if result.helpRequested { return result }
        let variadic = spec.positionals.last?.hasSuffix("...") ?? false
        if !variadic, result.positionals.count > spec.positionals.count {
            throw AppError.unexpectedArgument(result.positionals[spec.positionals.count].text)
        }
        if result.positionals.count < spec.minPositionals {
            throw AppError.missingArgument(command: spec.name, name: spec.positionals[result.positionals.count])
        }
        return result
    }

    /// Checks `value` against the option's kind.
    /// - Throws: `AppError.invalidValue`.
    public static func validate(_ value: String, for opt: OptionSpec) throws {
        let bad = AppError.invalidValue(option: opt.name, value: value, expects: opt.kind.expectation)
        switch opt.kind {
        case .flag: break
        case .text: if value.isEmpty { throw bad }
        case .integer(let r):
            guard let n = Int(value), r.contains(n) else { throw bad }
        case .number(let r):
            guard let d = Double(value), d.isFinite, r.contains(d) else { throw bad }
        case .choice(let c):
            guard c.contains(value) else { throw bad }
        case .choiceList(let c):
            let items = value.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard !items.isEmpty, items.allSatisfy({ c.contains($0) }) else { throw bad }
        }
    }

    /// The candidate closest to `word` by Levenshtein distance, if within 3 edits and less than
    /// half the word's length.
    public static func suggest(_ word: String, among candidates: [String]) -> String? {
        var best: (String, Int)?
        for c in candidates {
            let d = editDistance(word, c)
            guard d <= 3, d * 2 < max(word.count, 2) else { continue }
            if let b = best, b.1 <= d { continue }
            best = (c, d)
        }
        return best?.0
    }

    /// Levenshtein distance between two strings (in Characters).
    public static func editDistance(_ a: String, _ b: String) -> Int {
        let x = Array(a), y = Array(b)
        if x.isEmpty { return y.count }
        if y.isEmpty { return x.count }
        var prev = Array(0...y.count)
        var cur = [Int](repeating: 0, count: y.count + 1)
        for i in 1...x.count {
            cur[0] = i
            for j in 1...y.count {
                cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
            }
            swap(&prev, &cur)
        }
        return prev[y.count]
    }
}
