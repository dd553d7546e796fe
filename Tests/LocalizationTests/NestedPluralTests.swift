import Foundation
import Testing
@testable import Localization

/// A one-entry stringsdict whose variables `v0 … v(levels-1)` nest: every category of `vi`
/// (zero, one, two, few, many, other) names its category and refers to `v(i+1)`, which counts
/// argument i+2; the last variable's texts are plain. `categories^levels` paths, `levels`
/// variables (issue #14: such a file took 13–16 s to validate at 8 levels).
func nestedStringsdict(levels: Int) -> String {
    var vars: [(String, [(String, String)])] = []
    for i in 0..<levels {
        var fields = [plural, valueType("d")]
        for c in PluralCategory.allCases {
            fields.append((c.rawValue, i + 1 < levels ? "\(c.rawValue)\(i) %\(i + 2)$#@v\(i + 1)@" : "\(c.rawValue)\(i)"))
        }
        vars.append(("v\(i)", fields))
    }
    return stringsdict("k", "%1$#@v0@", vars)
}

private func load(_ text: String) throws -> StringsdictTable { try StringsdictModel.parse(Array(text.utf8), file: "N.stringsdict") }

/// Nested plural variables are checked once each (issue #14 "nested plural checks cost linear
/// time"); the speed is in `make bench` (Benchmarks/l10n-nesting.sh), not here.
@Suite struct NestedPluralTests {
    /// 8 levels (the deepest allowed, `StringsdictModel.maxDepth`): valid, no diagnostic, and the
    /// text picks each level's category (Apple: explicit `zero` for 0; CLDR en: one for 1, else other).
    @Test func eightLevelsLoadAndFormat() throws {
        let t = try load(nestedStringsdict(levels: 8))
        #expect(t.diagnostics.isEmpty, "\(t.diagnostics)")
        let e = try #require(t.entries["k"])
        #expect(StringsdictModel.signature(of: e).types == Dictionary(uniqueKeysWithValues: (1...8).map { ($0, FormatArgumentType.int) }))
        let args: [FormatArgument] = [0, 1, 2, 5, 1, 0, 21, 1].map { .int($0) }
        #expect(try TextFormatter.format(e, args, locale: "en") == "zero0 one1 other2 other3 one4 zero5 other6 one7")
    }

    /// 10 levels: one error, once, where the chain passes 8 (the variants of the 8th variable,
    /// v7, refer to a 9th), and no other diagnostic (v8 and v9 are not "never referenced").
    @Test func tenLevelsOneDiagnostic() throws {
        let t = try load(nestedStringsdict(levels: 10))
        #expect(t.entries["k"] == nil)
        #expect(t.diagnostics.map(\.description) == ["N.stringsdict: error: k/v7/zero: variables nested deeper than 8"])
    }

    /// A problem inside a variable reached by many paths is reported once: an undefined variable
    /// and a cycle below 6 × 6 paths.
    @Test func eachDiagnosticOnce() throws {
        var vars: [(String, [(String, String)])] = []
        for (name, next) in [("a", "b"), ("b", "c")] {
            vars.append((name, [plural, valueType("d")] + PluralCategory.allCases.map { ($0.rawValue, "%#@\(next)@") }))
        }
        vars.append(("c", [plural, valueType("d"), ("one", "%#@nope@"), ("other", "%#@a@")]))
        let t = try load(stringsdict("k", "%#@a@", vars))
        #expect(t.entries["k"] == nil)
        #expect(t.diagnostics.map(\.description) == [
            "N.stringsdict: error: k/c/one: undefined variable 'nope' in %#@nope@ (defined: a, b, c)",
            "N.stringsdict: error: k/c/other: variable cycle: a → b → c → a",
        ])
    }

    /// A DAG where one variable is reached first shallow and then deep: the depth is judged by
    /// the deepest chain (9 levels here), not by the first visit.
    @Test func depthByDeepestChain() throws {
        // format → s → x ; format → d0 → … → d6 → x : x is at level 2 and at level 8; x → y is 9.
        var vars: [(String, [(String, String)])] = [("s", [plural, valueType("d"), ("other", "%#@x@")])]
        for i in 0..<7 { vars.append(("d\(i)", [plural, valueType("d"), ("other", i < 6 ? "%#@d\(i + 1)@" : "%#@x@")])) }
        vars.append(("x", [plural, valueType("d"), ("other", "%#@y@")]))
        vars.append(("y", [plural, valueType("d"), ("other", "end")]))
        let t = try load(stringsdict("k", "%#@s@ %#@d0@", vars))
        #expect(t.entries["k"] == nil)
        #expect(t.diagnostics.filter { $0.severity == .error }.map(\.message) == ["variables nested deeper than 8"])
    }
}
