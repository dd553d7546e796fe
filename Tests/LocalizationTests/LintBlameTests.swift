import Testing
@testable import Localization

/// Issue #29 "Translators": `strings lint` blames the file that holds the key, and a key-level
/// error in a `.strings` file carries the value's line and column.
@Suite struct LintBlameTests {
    static let files: [String: String] = [
        "/L/en.lproj/Localizable.strings": "\"speed\" = \"%.1f km/h\";\n\"hello\" = \"Hello\";\n",
        "/L/en.lproj/Localizable.stringsdict": stringsdict("n", "%#@n@", [("n", [plural, ("NSStringFormatValueTypeKey", "d"), ("one", "one"), ("other", "%d")])]),
        // de: the wrong specifier on line 3 (value at column 11), a plural without `other`.
        "/L/de.lproj/Localizable.strings": "/* de */\n\"hello\" = \"Hallo\";\n\"speed\" = \"%d km/h\";\n",
        "/L/de.lproj/Localizable.stringsdict": stringsdict("n", "%#@n@", [("n", [plural, ("NSStringFormatValueTypeKey", "d"), ("one", "eins")])]),
    ]

    @Test func stringsdictErrorsBlameTheStringsdict() {
        let r = StringsLinter.lint(directories: ["/L"], inputs: memoryInputs(Self.files))
        let plural = r.diagnostics.filter { $0.keyPath == "n/n" }
        #expect(!plural.isEmpty, "\(r.diagnostics)")
        #expect(plural.allSatisfy { $0.file == "/L/de.lproj/Localizable.stringsdict" }, "\(plural)")
    }

    @Test func wrongSpecifierCarriesLineAndColumn() {
        let r = StringsLinter.lint(directories: ["/L"], inputs: memoryInputs(Self.files))
        let speed = r.diagnostics.first { $0.keyPath == "speed" && $0.severity == .error }
        #expect(speed?.file == "/L/de.lproj/Localizable.strings" && speed?.line == 3 && speed?.column == 11, "\(r.diagnostics)")
        #expect(speed?.description.hasPrefix("/L/de.lproj/Localizable.strings:3:11: error:") == true, "\(speed?.description ?? "nil")")
    }

    /// Messages come per file in line order, as a compiler lists them, whichever check found
    /// them: here a wrong specifier on line 2 (found when compared with English) and a duplicate
    /// key on line 4 (found when the file is read, first), then the positionless ones.
    @Test func messagesArePerFileInLineOrder() {
        let files = [
            "/M/en.lproj/Localizable.strings": "\"speed\" = \"%.1f km/h\";\n\"hello\" = \"Hello\";\n\"bye\" = \"Bye\";\n",
            "/M/de.lproj/Localizable.strings": "/* de */\n\"speed\" = \"%@ km/h\";\n\"hello\" = \"Hallo\";\n\"hello\" = \"Hallo!\";\n",
        ]
        let r = StringsLinter.lint(directories: ["/M"], inputs: memoryInputs(files))
        let de = r.diagnostics.filter { $0.file == "/M/de.lproj/Localizable.strings" }
        let lines = de.map { $0.line }
        #expect(lines.compactMap { $0 } == [2, 4], "\(de)")
        #expect(de.count == 3 && de.first?.line == 2 && de.last?.line == nil, "positioned first, in line order: \(de.map(\.description))")
        #expect(de.contains { $0.keyPath == "bye" && $0.line == nil }, "the missing key is listed, without a line: \(de)")
    }

    /// The parser records where each value starts (the last definition's, for a duplicate).
    @Test func parserRecordsValuePositions() throws {
        let t = try StringsParser.parse("\"a\" = \"x\";\n  b = y;\n\"a\" =\n  \"z\";\nc;\n")
        #expect(t.positions["a"] == .init(line: 4, column: 3))
        #expect(t.positions["b"] == .init(line: 2, column: 7))
        #expect(t.positions["c"] == .init(line: 5, column: 1))
    }
}
