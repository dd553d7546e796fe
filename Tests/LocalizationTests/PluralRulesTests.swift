import Testing
@testable import Localization

/// CLDR 42 plural samples (common/supplemental/plurals.xml, `@integer`/`@decimal`), checked against
/// ICU 72 through `PluralRules`. A decimal sample is written with its visible fraction digits.
@Suite struct PluralRulesTests {
    typealias C = PluralCategory
    /// (locale, category, integer samples, decimal samples as (value, fraction digits)).
    static let samples: [(String, C, [Int], [(Double, Int)])] = [
        ("en", .one, [1], []),
        ("en", .other, [0, 2, 3, 16, 100, 1000, 10000, 100000, 1000000], [(0.0, 1), (1.0, 1), (1.5, 1)]),
        ("fr", .one, [0, 1], [(0.0, 1), (1.5, 1)]),
        ("fr", .many, [1000000], []),
        ("fr", .other, [2, 3, 17, 100, 1000, 10000, 100000], [(2.0, 1), (3.5, 1)]),
        ("pl", .one, [1], []),
        ("pl", .few, [2, 3, 4, 22, 23, 24, 32, 34, 42, 52, 62, 102, 1002], []),
        ("pl", .many, [0, 5, 6, 11, 12, 13, 14, 19, 20, 21, 25, 100, 1000, 10000, 100000, 1000000], []),
        ("pl", .other, [], [(0.0, 1), (1.5, 1), (10.0, 1), (100.0, 1)]),
        ("ru", .one, [1, 21, 31, 41, 51, 61, 71, 81, 101, 1001], []),
        ("ru", .few, [2, 3, 4, 22, 23, 24, 32, 33, 34, 42, 52, 62, 102, 1002], []),
        ("ru", .many, [0, 5, 6, 11, 12, 13, 14, 19, 100, 111, 1000, 10000], []),
        ("ru", .other, [], [(0.0, 1), (1.5, 1), (10.0, 1), (100.0, 1)]),
        ("ar", .zero, [0], []),
        ("ar", .one, [1], []),
        ("ar", .two, [2], []),
        ("ar", .few, [3, 4, 10, 103, 110, 1003], []),
        ("ar", .many, [11, 12, 26, 111, 1011], []),
        ("ar", .other, [100, 101, 102, 200, 202, 300, 1000, 10000], [(0.1, 1), (1.5, 1)]),
        ("cy", .zero, [0], []),
        ("cy", .one, [1], []),
        ("cy", .two, [2], []),
        ("cy", .few, [3], []),
        ("cy", .many, [6], []),
        ("cy", .other, [4, 5, 7, 8, 20, 100, 1000], [(0.1, 1), (1.5, 1)]),
        ("ja", .other, [0, 1, 2, 15, 100, 1000], [(0.0, 1), (1.5, 1)]),
        ("lv", .zero, [0, 10, 11, 19, 20, 30, 40, 50, 60, 100, 1000], [(0.0, 1), (10.0, 1)]),
        ("lv", .one, [1, 21, 31, 41, 51, 61, 71, 81, 101, 1001], [(0.1, 1), (1.0, 1), (1.1, 1), (2.1, 1)]),
        ("lv", .other, [2, 9, 22, 29, 102, 1002], [(0.2, 1), (0.9, 1), (1.2, 1), (10.2, 1)]),
        ("ga", .one, [1], []),
        ("ga", .two, [2], []),
        ("ga", .few, [3, 4, 5, 6], []),
        ("ga", .many, [7, 8, 9, 10], []),
        ("ga", .other, [0, 11, 12, 25, 100, 1000], [(0.0, 1), (1.5, 1)]),
    ]

    @Test(arguments: samples.indices)
    func cldrSamples(row: Int) {
        let (locale, expected, ints, decimals) = Self.samples[row]
        for n in ints {
            #expect(PluralRules.category(locale: locale, number: Double(n)) == expected, "\(locale) \(n)")
        }
        for (d, v) in decimals {
            #expect(PluralRules.category(locale: locale, number: d, fractionDigits: v) == expected, "\(locale) \(d) v=\(v)")
        }
    }

    @Test func categorySets() {
        #expect(PluralRules.categories(locale: "en") == [.one, .other])
        #expect(PluralRules.categories(locale: "fr") == [.one, .many, .other])
        #expect(PluralRules.categories(locale: "pl") == [.one, .few, .many, .other])
        #expect(PluralRules.categories(locale: "ar") == Set(PluralCategory.allCases))
        #expect(PluralRules.categories(locale: "ja") == [.other])
        #expect(PluralRules.icuVersion.hasPrefix("72."))
    }

    /// PL-06: categories integer arguments can reach (no `other` for pl/ru integers, `many`
    /// only for cs decimals).
    @Test func integerCategories() {
        #expect(PluralRules.integerCategories(locale: "pl") == [.one, .few, .many])
        #expect(PluralRules.integerCategories(locale: "ru") == [.one, .few, .many])
        #expect(PluralRules.integerCategories(locale: "cs") == [.one, .few, .other])
        #expect(PluralRules.integerCategories(locale: "en") == [.one, .other])
    }
}
