import Foundation
import Testing
import TestSupport
@testable import Localization

/// Rows of ../shared/corpus/bug-reports.md not already covered by name in the other suites
/// (STR-xx in StringsParserTests, SD-xx in StringsdictModelTests, PL-03 in PluralRulesTests).
@Suite struct BugReportTests {
    /// PL-01: full CLDR ru.
    @Test func pl01Russian() {
        let expected: [(Double, Int?, PluralCategory)] = [(1, nil, .one), (2, nil, .few), (5, nil, .many), (11, nil, .many), (12, nil, .many),
                                                          (21, nil, .one), (22, nil, .few), (25, nil, .many), (111, nil, .many), (1.5, 1, .other)]
        for (n, v, c) in expected { #expect(PluralRules.category(locale: "ru", number: n, fractionDigits: v) == c, "ru \(n)") }
    }

    /// PL-04: Polish 0…30 and 1.5.
    @Test func pl04Polish() {
        for n in 0...30 {
            let c: PluralCategory = n == 1 ? .one : ([2, 3, 4, 22, 23, 24].contains(n) ? .few : .many)
            #expect(PluralRules.category(locale: "pl", number: Double(n)) == c, "pl \(n)")
        }
        #expect(PluralRules.category(locale: "pl", number: 1.5, fractionDigits: 1) == .other)
    }

    /// FMT-01: a translation that reorders `%@` and `%d` without positions is rejected;
    /// with positions it is fine.
    @Test func fmt01Reorder() {
        let base: [Int: FormatArgumentType] = [1: .string, 2: .int]
        #expect(Localizer.mismatch(.plain("%d von %@"), against: base) == "argument 1 is int but string in the base text")
        #expect(Localizer.mismatch(.plain("%2$d von %1$@"), against: base) == nil)
    }

    /// FMT-02: two `%@` where the base has one → error; reusing needs `%1$@`.
    @Test func fmt02ExtraArgument() {
        #expect(Localizer.mismatch(.plain("%@ et %@"), against: [1: .string]) == "uses argument 2 but the base text takes 1 argument(s)")
        #expect(Localizer.mismatch(.plain("%1$@ et %1$@"), against: [1: .string]) == nil)
    }

    /// FMT-06: wrong argument count at run time → an error value, never a trap.
    @Test func fmt06CountMismatch() {
        #expect(throws: FormatError.missingArgument(index: 2)) { try TextFormatter.format("%@ %@", [.string("a")]) }
    }

    /// FMT-07: fewer placeholders than arguments is safe (extra arguments ignored).
    @Test func fmt07Fewer() throws {
        #expect(Localizer.mismatch(.plain("one item"), against: [1: .int]) == nil)
        #expect(try TextFormatter.format("one item", [.int(1)]) == "one item")
    }

    /// FMT-10: base `%0.2f`, German `%d` → mismatch reported.
    @Test func fmt10CrossLocale() {
        #expect(Localizer.mismatch(.plain("%d Euro"), against: TextFormatter.signature(of: "%0.2f EUR").types) == "argument 1 is int but double in the base text")
    }

    /// Broken corpus files: the error points at the right line and column (checked by reading
    /// each file: the second `;`, the stray `\`, the unescaped quote, the U+201D, the Mac Roman
    /// byte 0x9A, the mid-file BOM).
    @Test(.enabled(if: TestSupport.shared("corpus/strings") != nil, "corpus absent"), arguments: [
        ("lla01__radar-double-semicolon-in-localizable-strings/InvalidStringsFileDemo__de.lproj__Localizable.BROKEN-double-semicolon.strings", 7, 48),
        ("wordpress-mobile__release-toolkit/spec__test-data__translations__strings-with-escape-character-in-root-context.strings", 8, 1),
        ("sindresorhus__KeyboardShortcuts/Sources__KeyboardShortcuts__Localization__ar.lproj__Localizable.BROKEN-unescaped-quotes.strings", 5, 100),
        ("MatthewYork__DateTools/DateTools__DateTools.bundle__hr.lproj__DateTools.BROKEN-smart-quote-delimiters.strings", 2, 25),
        ("bitstadium__QuincyKit/client__iOS__Quincy.bundle__de.lproj__QuincyAlternate.BROKEN-macroman.strings", 16, 62),
        ("colloquy__colloquy/Languages__English.lproj__Localizable.BROKEN-embedded-BOMs.strings", 34, 1),
    ])
    func brokenPositions(file: String, line: Int, column: Int) throws {
        let path = try #require(TestSupport.shared("corpus/strings/" + file))
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
        do {
            _ = try StringsParser.parse(bytes, file: "f")
            Issue.record("parsed a broken file")
        } catch let e as StringsFileError {
            #expect(e.line == line && e.column == column, "\(e)")
        }
    }
}
