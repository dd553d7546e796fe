import Foundation
import Testing
import TestSupport
@testable import Localization

/// Plural entries without `other` (issue #15): the categories present are used as CLDR selects
/// them; a number whose category is missing falls back to the next table (English here).
@Suite struct PluralWithoutOtherTests {
    typealias C = PluralCategory
    static let numbers: [Double] = [0, 1, 2, 3, 5, 11, 12, 21, 22, 25, 100, 101, 102, 1.5]
    /// CLDR 42 categories (common/supplemental/plurals.xml) of `numbers`, in order; 1.5 is
    /// written with one fraction digit (v = 1).
    static let cldr: [String: [C]] = [
        "pl": [.many, .one, .few, .few, .many, .many, .many, .many, .few, .many, .many, .many, .few, .other],
        "ru": [.many, .one, .few, .few, .many, .many, .many, .one, .few, .many, .many, .one, .few, .other],
        "cs": [.other, .one, .few, .few, .other, .other, .other, .other, .other, .other, .other, .other, .other, .many],
        "ar": [.zero, .one, .two, .few, .few, .many, .many, .many, .many, .many, .other, .other, .other, .other],
    ]
    /// What each language's entry has: every category but `other`.
    static let present: [String: [C]] = [
        "pl": [.one, .few, .many], "ru": [.one, .few, .many], "cs": [.one, .few, .many], "ar": [.zero, .one, .two, .few, .many],
    ]

    static func files(valueType: String = "d") -> [String: String] {
        var f = ["/L/en.lproj/Localizable.stringsdict":
                    stringsdict("n", "%#@n@", [("n", [plural, PluralWithoutOtherTests.vt(valueType), ("one", "en:one"), ("other", "en:other")])])]
        for (lang, cats) in present {
            f["/L/\(lang).lproj/Localizable.stringsdict"] =
                stringsdict("n", "%#@n@", [("n", [plural, vt(valueType)] + cats.map { ($0.rawValue, "\(lang):\($0.rawValue)") })])
        }
        return f
    }
    static func vt(_ t: String) -> (String, String) { ("NSStringFormatValueTypeKey", t) }

    /// The hard-coded CLDR table agrees with ICU (the oracle of `PluralRulesTests`).
    @Test(arguments: ["pl", "ru", "cs", "ar"])
    func tableIsCLDR(lang: String) {
        for (n, expected) in zip(Self.numbers, Self.cldr[lang]!) {
            let v: Int? = n == n.rounded() ? nil : 1
            #expect(PluralRules.category(locale: lang, number: n, fractionDigits: v) == expected, "\(lang) \(n)")
        }
    }

    /// Each number gets its category's text when the entry has it, else the English text.
    @Test(arguments: ["pl", "ru", "cs", "ar"])
    func selection(lang: String) {
        let l = Localizer(locale: lang, folders: ["/L"], inputs: memoryInputs(Self.files()))
        #expect(l.diagnostics.isEmpty, "\(l.diagnostics)")
        for (n, cat) in zip(Self.numbers, Self.cldr[lang]!) {
            let arg: FormatArgument = n == n.rounded() ? .int(Int(n)) : .double(n)
            let english = n == 1 ? "en:one" : "en:other"
            let expected = Self.present[lang]!.contains(cat) ? "\(lang):\(cat.rawValue)" : english
            #expect(l.text("n", [arg]) == expected, "\(lang) \(n) (\(cat))")
        }
    }

    /// The formatter says which category was missing.
    @Test func missingCategoryError() throws {
        let t = try StringsdictModel.parse(Array(Self.files()["/L/cs.lproj/Localizable.stringsdict"]!.utf8), file: "cs.stringsdict")
        #expect(t.diagnostics.isEmpty)
        let e = try #require(t.entries["n"])
        #expect(try TextFormatter.format(e, [.int(2)], locale: "cs") == "cs:few")
        #expect(throws: FormatError.missingCategory(variable: "n", category: .other)) { try TextFormatter.format(e, [.int(5)], locale: "cs") }
    }

    /// Lint: a warning when the categories the value type reaches are all there (pl, ru with
    /// `d`), an error when one is missing (cs integers reach `other`, ar 100 is `other`; with a
    /// `%f` value type decimals reach `other` in pl and ru too).
    @Test func lint() {
        func diagnostics(_ valueType: String) -> [String: [Diagnostic]] {
            let r = StringsLinter.lint(directories: ["/L"], inputs: memoryInputs(Self.files(valueType: valueType)))
            var out: [String: [Diagnostic]] = [:]
            for d in r.diagnostics where d.keyPath == "n/n" {
                out[String(d.file.split(separator: "/")[1].dropLast(6)), default: []].append(d)
            }
            return out
        }
        let ints = diagnostics("d")
        for lang in ["pl", "ru"] {
            #expect(ints[lang]?.map(\.severity) == [.warning], "\(lang): \(ints[lang] ?? [])")
            #expect(ints[lang]?.first?.message.hasPrefix("no 'other' category") == true)
        }
        #expect(ints["cs"]?.map(\.severity) == [.error])
        #expect(ints["cs"]?.first?.message.contains("no text for other, which whole numbers reach in 'cs'") == true)
        #expect(ints["ar"]?.map(\.severity) == [.error])
        let reals = diagnostics("f")
        for lang in ["pl", "ru", "cs", "ar"] {
            #expect(reals[lang]?.contains { $0.severity == .error && $0.message.contains("other") } == true, "\(lang)")
        }
    }

    /// element-x pl (the corpus case): every entry loads, and lint finds no error.
    @Test(.enabled(if: TestSupport.shared("corpus/strings/element-hq__element-x-ios") != nil, "corpus absent"))
    func elementXPolish() throws {
        let dir = TestSupport.shared("corpus/strings/element-hq__element-x-ios")!
        let file = dir + "/ElementX__Resources__Localizations__pl.lproj__Localizable.stringsdict"
        let t = try StringsdictModel.parse(Array(try Data(contentsOf: URL(fileURLWithPath: file))), file: "pl.stringsdict")
        #expect(!t.order.isEmpty)
        // Every entry without an error of its own loads (one entry of the file has a real type
        // conflict, `%1$@` for a `d` count, unrelated to `other`).
        let failed = Set(t.diagnostics.filter { $0.severity == .error }.compactMap { $0.keyPath?.split(separator: "/").first.map(String.init) })
        #expect(t.entries.count == t.order.count - failed.count)
        #expect(t.entries.count > t.order.count / 2)
        // Lint it as pl: warnings about the missing `other`, no error about it (value types are `d`).
        let inputs = memoryInputs(["/E/pl.lproj/Localizable.stringsdict": try String(contentsOfFile: file, encoding: .utf8)])
        let r = StringsLinter.lint(directories: ["/E"], inputs: inputs)
        #expect(!r.diagnostics.contains { $0.severity == .error && $0.message.contains("'other'") }, "\(r.diagnostics)")
        #expect(r.diagnostics.filter { $0.message.hasPrefix("no 'other' category") }.count == t.entries.count)
    }
}
