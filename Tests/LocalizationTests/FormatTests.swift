import Testing
@testable import Localization

private func fmt(_ f: String, _ a: [FormatArgument]) throws -> String { try TextFormatter.format(f, a) }

@Suite struct FormatScannerTests {
    @Test func specifiers() {
        let t = FormatString.tokenize("%@ %s %d %i %u %ld %lld %lu %llu %f %.2f %% %2$@ %1$#@n@ %#@m@ %1#@c@")
        let specs = t.compactMap { if case .specifier(let s) = $0 { return s.text } else { return nil } }
        #expect(specs == ["%@", "%s", "%d", "%i", "%u", "%ld", "%lld", "%lu", "%llu", "%f", "%.2f", "%2$@"])
        let vars = t.compactMap { if case .variable(let n, let p, _) = $0 { return "\(n):\(p ?? 0)" } else { return nil } }
        #expect(vars == ["n:1", "m:0", "c:1"])
    }

    /// FMT-03: `%#@name@` is a variable reference, never an object specifier.
    @Test func variableIsNotObject() {
        #expect(FormatString.tokenize("%#@files@") == [.variable(name: "files", position: nil, text: "%#@files@")])
        #expect(FormatString.tokenize("%8$3.2#@f8@") == [.variable(name: "f8", position: 8, text: "%8$3.2#@f8@")])
    }

    /// FMT-05: a lone `%` before a non-conversion character is invalid and printed literally.
    @Test func lonePercent() throws {
        #expect(FormatString.tokenize("100%bonus") == [.literal("100"), .invalid("%"), .literal("bonus")])
        #expect(try fmt("100%bonus %@", [.string("x")]) == "100%bonus x")
        #expect(try fmt("50%", []) == "50%")
        #expect(try fmt("%0$d", []) == "%0$d")
    }

    /// FMT-08/09: `% d` is a real specifier (space flag), as printf says.
    @Test func spaceFlag() {
        #expect(FormatString.tokenize("100% daily").contains { if case .specifier(let s) = $0 { return s.text == "% d" } else { return false } })
    }
}

@Suite struct TextFormatterTests {
    @Test func rendering() throws {
        #expect(try fmt("%d%%", [.int(42)]) == "42%")
        #expect(try fmt("%@ and %s", [.string("a"), .string("b")]) == "a and b")
        #expect(try fmt("%2$@ %1$@", [.string("a"), .string("b")]) == "b a")
        #expect(try fmt("%lld|%llu|%ld|%lu|%i|%u", [.int(-5), .int(6), .int(7), .int(8), .int(9), .int(10)]) == "-5|6|7|8|9|10")
        #expect(try fmt("%.1f s", [.double(2.46)]) == "2.5 s")
        #expect(try fmt("%f", [.double(1.5)]) == "1.500000")
        #expect(try fmt("%.2f", [.int(3)]) == "3.00")
        #expect(try fmt("%05d|%-4d|%x", [.int(42), .int(7), .int(255)]) == "00042|7   |ff")
        #expect(try fmt("%d×%d", [.int(80), .int(24)]) == "80×24")
        #expect(try fmt("%999999d", [.int(1)]).count == TextFormatter.maxWidth)
        // Decimal separator from the locale (CLDR: fr and pl use a comma, en and ja a point).
        #expect(try TextFormatter.format("%.1f s|%d", [.double(2.46), .int(1000)], locale: "fr") == "2,5 s|1000")
        #expect(try TextFormatter.format("%.2f", [.double(0.5)], locale: "pl") == "0,50")
        #expect(try TextFormatter.format("%.1f", [.double(2.46)], locale: "ja") == "2.5")
    }

    /// The locale's separator is asked of Foundation only when a number with a fraction is
    /// written (issue #28: the first screen's texts opened an ICU number formatter for nothing),
    /// and the answer stays CLDR's: `de-CH` writes `.` (de writes `,`), `nl` writes `,`.
    @Test func separatorOnlyForFractions() throws {
        #expect(try TextFormatter.format("%d and %@", [.int(3), .string("x")], locale: "de-CH") == "3 and x")
        #expect(!TextFormatter.separatorLookedUp(for: "de-CH"))
        #expect(try TextFormatter.format("%.1f", [.double(1.26)], locale: "de-CH") == "1.3")
        #expect(TextFormatter.separatorLookedUp(for: "de-CH"))
        let entry = StringsdictEntry(key: "k", format: "%#@n@ at %.1f",
                                     variables: ["n": PluralVariable(name: "n", valueType: nil, variants: [.one: "%d file", .other: "%d files"])])
        #expect(try TextFormatter.format(entry, [.int(2), .double(0.5)], locale: "nl") == "2 files at 0,5")
        #expect(try TextFormatter.format(entry, [.int(2), .double(0.5)], locale: "nl") == "2 files at 0,5")   // cached
    }

    /// Typed arguments: a mismatch or a missing argument throws instead of reading garbage.
    @Test func typeChecks() {
        #expect(throws: FormatError.typeMismatch(index: 1, expected: .int, got: .string)) { try fmt("%d", [.string("x")]) }
        #expect(throws: FormatError.typeMismatch(index: 1, expected: .string, got: .int)) { try fmt("%@", [.int(1)]) }
        #expect(throws: FormatError.missingArgument(index: 2)) { try fmt("%@ %@", [.string("x")]) }
        #expect(throws: FormatError.missingArgument(index: 3)) { try fmt("%3$d", [.int(1)]) }
    }

    @Test func signatures() {
        #expect(TextFormatter.signature(of: "%@ has %d").types == [1: .string, 2: .int])
        #expect(TextFormatter.signature(of: "%2$d %1$@").types == [1: .string, 2: .int])
        #expect(TextFormatter.signature(of: "%1$@ %1$d").conflicts.count == 1)
    }
}
