import Foundation
import Testing
import TestSupport
@testable import Localization

/// What Foundation reads from a `.strings` file (nil when it refuses it).
private func oracle(_ bytes: [UInt8]) -> [String: String]? {
    (try? PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)) as? [String: String]
}

private func failure(_ text: String, file: String = "T.strings") -> StringsFileError? {
    do { _ = try StringsParser.parse(text, file: file); return nil } catch let e as StringsFileError { return e } catch { return nil }
}

/// Rows of ../shared/corpus/bug-reports.md that had no test naming them (issue #14): each test
/// is named by its row and asserts the row's "expected right behaviour" column. The oracle for
/// what a `.strings` file holds is Foundation's PropertyListSerialization; `memoryInputs` (in
/// LocalizerTests) stands in for the file system.
@Suite struct BugReportRowTests {
    /// STR-03: the doubled `;` with keys added after it: the file fails loudly (an error at the
    /// second `;`, and the localizer reports it), and no key of it is used, neither the ones
    /// before nor the ones after (tool output reflects all keys or fails).
    @Test("STR-03: a doubled ';' fails loudly; no key of the file is half-used")
    func str03() throws {
        let de = "\"first_text\" = \"Erster\";;\n\"second_text\" = \"Zweiter\";\n\"new_key\" = \"Neu\";\n"
        let e = try #require(failure(de))
        #expect(e.line == 1 && e.column == 25)
        let inputs = memoryInputs(["/b/en.lproj/Localizable.strings": "\"first_text\" = \"First\";\n\"second_text\" = \"Second\";\n\"new_key\" = \"New\";\n",
                                   "/o/de.lproj/Localizable.strings": de])
        let l = Localizer(locale: "de", folders: ["/b", "/o"], inputs: inputs)
        #expect(l.diagnostics.map(\.description) == ["/o/de.lproj/Localizable.strings:1:25: error: expected a key (a quoted string or an unquoted word), found ';' (a doubled ';' after an entry?)"])
        #expect(["first_text", "second_text", "new_key"].map { l.text($0, []) } == ["First", "Second", "New"])
        if let path = TestSupport.shared("corpus/strings/lla01__radar-double-semicolon-in-localizable-strings/InvalidStringsFileDemo__de.lproj__Localizable.BROKEN-double-semicolon.strings") {
            #expect(throws: StringsFileError.self) { try StringsParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: path))), file: "f") }
        }
    }

    /// STR-11: no spaces around `=`, several spaces, a comment after the `;` on the same line:
    /// every entry is read, as Foundation reads them.
    @Test("STR-11: grammar, not line regexes: '=' spacing and trailing comments")
    func str11() throws {
        let text = "\"a\"=\"1\";\n\"b\"     =     \"2\";\n\"c\" = \"3\"; // after\n\"d\" = \"4\"; /* after */ \"e\"\t=\t\"5\";\nf=g;\n"
        let ours = try StringsParser.parse(text).values
        #expect(ours == ["a": "1", "b": "2", "c": "3", "d": "4", "e": "5", "f": "g"])
        if let theirs = oracle(Array(text.utf8)) { #expect(ours == theirs) }
    }

    /// STR-15: the BOM is trusted over any other hint: a UTF-16 table (LE and BE, with BOM)
    /// reads as Foundation reads it, whatever a build setting would have said; the corpus's
    /// genstrings-style UTF-16 file too.
    @Test("STR-15: a UTF-16 table with BOM is read as UTF-16")
    func str15() throws {
        let text = "/* genstrings */\n\"k\" = \"Möchten Sie 😀?\";\n\"%d items\" = \"%d Dinge\";\n"
        for (bom, unit): ([UInt8], (UInt16) -> [UInt8]) in [([0xFF, 0xFE], { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }),
                                                            ([0xFE, 0xFF], { [UInt8($0 >> 8), UInt8($0 & 0xFF)] })] {
            let bytes = bom + text.utf16.flatMap(unit)
            let t = try StringsParser.parse(bytes, file: "T.strings")
            #expect(t.values == ["k": "Möchten Sie 😀?", "%d items": "%d Dinge"])
            #expect(t.encoding == (bom[0] == 0xFF ? .utf16LE : .utf16BE))
            if let theirs = oracle(bytes) { #expect(t.values == theirs) }
        }
        if let path = TestSupport.shared("corpus/strings/bitstadium__QuincyKit/client__iOS__Quincy.bundle__de.lproj__QuincyAlternate.fixed-utf16.strings") {
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            let t = try StringsParser.parse(bytes, file: "q")
            #expect(t.encoding == .utf16LE)
            #expect(t.values["CrashSendReportAlways"] == "Immer senden")
            if let theirs = oracle(bytes) { #expect(t.values == theirs) }
        }
    }

    /// FMT-09: "de forma 100% digital": `% d` is a specifier (space flag, as printf), and lint
    /// suggests `%%`.
    @Test("FMT-09: '100% digital' reads as '% d'; lint suggests '%%'")
    func fmt09() {
        let tokens = FormatString.tokenize("de forma 100% digital")
        #expect(tokens.contains { if case .specifier(let s) = $0 { return s.text == "% d" && s.type == .int } else { return false } })
        let inputs = memoryInputs(["/l/en.lproj/Localizable.strings": "\"k\" = \"in a fully digital way\";\n",
                                   "/l/pt.lproj/Localizable.strings": "\"k\" = \"de forma 100% digital\";\n"])
        let report = StringsLinter.lint(directories: ["/l"], inputs: inputs)
        #expect(report.diagnostics.contains {
            $0.keyPath == "k" && $0.message.hasPrefix("'% digital' reads as the specifier '% d' followed by a word; write '%%' for a percent sign")
        }, "\(report.diagnostics)")
    }

    /// PL-02: the category comes from the number, not from what the file provides (ru 2 → few);
    /// a missing `few` falls back to `other`, and lint flags the missing categories.
    @Test("PL-02: ru with only one/other: 2 → few → falls back to other; lint flags few, many")
    func pl02() throws {
        let ru = stringsdict("n", "%#@d@", [("d", [plural, valueType("d"), ("one", "%d день"), ("other", "%d дней")])])
        #expect(PluralRules.category(locale: "ru", number: 2) == .few)
        let e = try #require(try StringsdictModel.parse(Array(ru.utf8), file: "ru").entries["n"])
        #expect(try TextFormatter.format(e, [.int(2)], locale: "ru") == "2 дней")
        #expect(try TextFormatter.format(e, [.int(21)], locale: "ru") == "21 день")
        let inputs = memoryInputs(["/l/en.lproj/Localizable.stringsdict": stringsdict("n", "%#@d@", [("d", [plural, valueType("d"), ("one", "%d day"), ("other", "%d days")])]),
                                   "/l/ru.lproj/Localizable.stringsdict": ru])
        let report = StringsLinter.lint(directories: ["/l"], inputs: inputs)
        #expect(report.diagnostics.contains { $0.keyPath == "n/d" && $0.message.hasPrefix("missing plural categories for 'ru': few, many") },
                "\(report.diagnostics)")
    }

    /// PL-03: rules pinned to CLDR 42 (ICU 72) and checked on its samples where hand-written
    /// tables went wrong: Hebrew without the dropped `many`, Maltese with its dual, Polish edges.
    @Test("PL-03: CLDR 42 he (no many), mt (two), pl edges")
    func pl03() {
        #expect(PluralRules.icuVersion.hasPrefix("72."))
        #expect(PluralRules.categories(locale: "he") == [.one, .two, .other])
        for (n, c) in [(1, PluralCategory.one), (2, .two), (0, .other), (3, .other), (10, .other), (20, .other), (100, .other)] {
            #expect(PluralRules.category(locale: "he", number: Double(n)) == c, "he \(n)")
        }
        #expect(PluralRules.categories(locale: "mt") == [.one, .two, .few, .many, .other])
        for (n, c) in [(1, PluralCategory.one), (2, .two), (0, .few), (3, .few), (10, .few), (103, .few), (11, .many), (19, .many), (111, .many), (20, .other), (100, .other)] {
            #expect(PluralRules.category(locale: "mt", number: Double(n)) == c, "mt \(n)")
        }
        for (n, c) in [(0, PluralCategory.many), (1, .one), (4, .few), (5, .many), (12, .many), (14, .many), (22, .few), (101, .many), (102, .few), (112, .many)] {
            #expect(PluralRules.category(locale: "pl", number: Double(n)) == c, "pl \(n)")
        }
    }
}
