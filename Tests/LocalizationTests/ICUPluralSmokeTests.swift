import Testing
import Localization

@Suite struct ICUPluralSmokeTests {
    /// ICU 72 (CLDR 42) categories: fr 0 and 1 → one, 1000000 → many; pl 22 → few, 25 → many.
    @Test(arguments: [
        ("fr", 0.0, PluralCategory.one), ("fr", 1, .one), ("fr", 1_000_000, .many),
        ("pl", 22, .few), ("pl", 25, .many),
    ])
    func category(locale: String, number: Double, expected: PluralCategory) {
        #expect(PluralRules.category(locale: locale, number: number) == expected)
    }
}
