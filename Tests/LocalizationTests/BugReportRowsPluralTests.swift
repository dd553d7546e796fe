import Testing
@testable import Localization

/// SD-08 of ../shared/corpus/bug-reports.md (issue #29: a row without a test carrying its id).
@Suite struct BugReportRowsPluralTests {
    /// SD-08: Apple's rules over CLDR: an explicit `zero` wins for 0 even where CLDR has no
    /// `zero` category (German); otherwise the CLDR category; a missing category's number uses
    /// `other`; with `other` missing too, the number falls back to the base language's table.
    @Test("SD-08: explicit zero wins, then the CLDR category, then other, then the base table")
    func sd08() {
        let inputs = memoryInputs([
            "/L/en.lproj/Localizable.stringsdict": stringsdict("n", "%#@v@", [("v", [plural, valueType("d"), ("one", "en one"), ("other", "en %d")])]),
            // German: CLDR has only one/other; the file adds zero.
            "/L/de.lproj/Localizable.stringsdict": stringsdict("n", "%#@v@", [("v", [plural, valueType("d"), ("zero", "keine"), ("one", "eins"), ("other", "%d Stück")])]),
            // Polish without `other` and without `many` (element-x style, one gap more).
            "/L/pl.lproj/Localizable.stringsdict": stringsdict("n", "%#@v@", [("v", [plural, valueType("d"), ("one", "jeden"), ("few", "%d kilka")])]),
            // French without `one`: 1 uses `other`.
            "/L/fr.lproj/Localizable.stringsdict": stringsdict("n", "%#@v@", [("v", [plural, valueType("d"), ("other", "%d fois")])]),
        ])
        let de = Localizer(locale: "de", folders: ["/L"], inputs: inputs)
        #expect(de.text("n", [.int(0)]) == "keine", "explicit zero wins for 0")
        #expect(de.text("n", [.int(1)]) == "eins")
        #expect(de.text("n", [.int(5)]) == "5 Stück")
        let fr = Localizer(locale: "fr", folders: ["/L"], inputs: inputs)
        #expect(fr.text("n", [.int(1)]) == "1 fois", "missing CLDR category: other")
        let pl = Localizer(locale: "pl", folders: ["/L"], inputs: inputs)
        #expect(pl.text("n", [.int(1)]) == "jeden")
        #expect(pl.text("n", [.int(3)]) == "3 kilka")
        #expect(pl.text("n", [.int(5)]) == "en 5", "many missing and no other: the base table")
    }
}
