import Foundation
import Testing
import TestSupport
@testable import Localization

/// A one-entry stringsdict: `format` and variables (name → [key: value]).
func stringsdict(_ key: String, _ format: String, _ vars: [(String, [(String, String)])]) -> String {
    var s = "<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n<dict><key>\(key)</key><dict><key>NSStringLocalizedFormatKey</key><string>\(format)</string>\n"
    for (name, fields) in vars {
        s += "<key>\(name)</key><dict>"
        for (k, v) in fields { s += "<key>\(k)</key><string>\(v)</string>" }
        s += "</dict>\n"
    }
    return s + "</dict></dict></plist>\n"
}
let plural = ("NSStringFormatSpecTypeKey", "NSStringPluralRuleType")
func valueType(_ t: String) -> (String, String) { ("NSStringFormatValueTypeKey", t) }

private func load(_ text: String) throws -> StringsdictTable { try StringsdictModel.parse(Array(text.utf8), file: "T.stringsdict") }
private func corpus(_ name: String) -> String? { TestSupport.shared("corpus/strings/" + name) }
private func loadCorpus(_ name: String) throws -> StringsdictTable {
    try StringsdictModel.parse(Array(try Data(contentsOf: URL(fileURLWithPath: corpus(name)!))), file: (name as NSString).lastPathComponent)
}

@Suite struct XMLPlistTests {
    @Test func valuesEntitiesCDATA() throws {
        let xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0"><dict>
          <!-- comment -->
          <key>s</key><string>a &lt;b&gt; &amp; &quot;c&quot; &apos;d&apos; &#233;&#x1F600;<![CDATA[<raw> & ]]></string>
          <key>i</key><integer>-42</integer><key>r</key><real>2.5</real>
          <key>t</key><true/><key>f</key><false/><key>e</key><string/>
          <key>a</key><array><string>x</string><integer>1</integer></array>
          <key>d</key><data>aGk=</data>
        </dict></plist>
        """
        let v = try XMLPlist.parse(xml)
        #expect(v["s"] == .string("a <b> & \"c\" 'd' é😀<raw> & "))
        #expect(v["i"] == .integer(-42))
        #expect(v["r"] == .real(2.5))
        #expect(v["t"] == .bool(true) && v["f"] == .bool(false) && v["e"] == .string(""))
        #expect(v["a"] == .array([.string("x"), .integer(1)]))
        #expect(v["d"] == .data(Array("hi".utf8)))
    }

    @Test func positionedErrors() {
        func err(_ s: String) -> String? { do { _ = try XMLPlist.parse(s, file: "X.plist"); return nil } catch { return "\(error)" } }
        #expect(err("<plist><dict><key>a</key></dict></plist>") == "X.plist:1:26: error: expected a value after <key>a</key>")
        #expect(err("<plist><dict>\n<key>a</key><strin>x</strin></dict></plist>") == "X.plist:2:13: error: unknown element <strin>")
        #expect(err("<plist><dict><key>a</key><string>x</dict></plist>") == "X.plist:1:35: error: expected </string>, found </dict")
        #expect(err("<plist><dict><key>a</key><string>&bogus;</string></dict></plist>") == "X.plist:1:34: error: unknown entity '&bogus;'")
        #expect(err("<plist><dict>") == "X.plist:1:14: error: unterminated <dict>")
        let deep = String(repeating: "<array>", count: 300) + String(repeating: "</array>", count: 300)
        #expect(err(deep)?.contains("nesting deeper than 256 levels") == true)
    }
}

@Suite struct StringsdictModelTests {
    /// SD-07/PL-07: an explicit `zero` wins for 0 in every language; SD-09: variants may omit the count.
    @Test func zeroWinsAndOptionalCount() throws {
        let t = try load(stringsdict("k", "%#@n@", [("n", [plural, valueType("d"), ("zero", "none"), ("one", "one item"), ("few", "%d sztuki"), ("many", "%d sztuk"), ("other", "%d items")])]))
        let e = try #require(t.entries["k"])
        #expect(try TextFormatter.format(e, [.int(0)], locale: "ru") == "none")
        #expect(try TextFormatter.format(e, [.int(0)], locale: "en") == "none")
        #expect(try TextFormatter.format(e, [.int(1)], locale: "en") == "one item")
        #expect(try TextFormatter.format(e, [.int(22)], locale: "pl") == "22 sztuki")
        #expect(try TextFormatter.format(e, [.int(25)], locale: "pl") == "25 sztuk")
        // A category the entry lacks falls back to `other` (PL-02): ru 2 → few is absent.
        let t2 = try load(stringsdict("k", "%#@n@", [("n", [plural, valueType("d"), ("one", "%d день"), ("other", "%d дней")])]))
        #expect(try TextFormatter.format(#require(t2.entries["k"]), [.int(2)], locale: "ru") == "2 дней")
    }

    /// A missing `other` keeps the entry (issue #15): the categories present are used; a
    /// variable with no category at all is an error.
    @Test func missingOther() throws {
        let t = try load(stringsdict("k", "%#@n@", [("n", [plural, valueType("d"), ("one", "%d")])]))
        #expect(t.diagnostics.isEmpty)
        #expect(try TextFormatter.format(#require(t.entries["k"]), [.int(1)], locale: "en") == "1")
        let none = try load(stringsdict("k", "%#@n@", [("n", [plural, valueType("d")])]))
        #expect(none.entries["k"] == nil)
        #expect(none.diagnostics.map(\.description) == ["T.stringsdict: error: k/n: no plural category (expected some of zero, one, two, few, many, other)"])
    }

    /// SD-01: `%1#@count@` (position without `$`); multi-line variants kept verbatim.
    @Test func positionWithoutDollar() throws {
        let t = try load(stringsdict("k", "%1#@count@", [("count", [plural, valueType("d"), ("one", "ein\n\n  Passwort"), ("other", "%d\nPasswörter")])]))
        let e = try #require(t.entries["k"])
        #expect(try TextFormatter.format(e, [.int(1)], locale: "de") == "ein\n\n  Passwort")
        #expect(try TextFormatter.format(e, [.int(3)], locale: "de") == "3\nPasswörter")
    }

    /// SD-02: nested variables, a cycle and a too deep chain.
    @Test func nestingAndCycles() throws {
        let nested = try load(stringsdict("k", "%1$#@a@", [
            ("a", [plural, valueType("d"), ("one", "one file in %2$#@b@"), ("other", "%1$d files in %2$#@b@")]),
            ("b", [plural, valueType("d"), ("one", "one folder"), ("other", "%2$d folders")])]))
        let e = try #require(nested.entries["k"])
        #expect(try TextFormatter.format(e, [.int(3), .int(1)], locale: "en") == "3 files in one folder")
        #expect(try TextFormatter.format(e, [.int(1), .int(4)], locale: "en") == "one file in 4 folders")
        let cycle = try load(stringsdict("k", "%#@a@", [
            ("a", [plural, valueType("d"), ("other", "%#@b@")]), ("b", [plural, valueType("d"), ("other", "%#@a@")])]))
        #expect(cycle.entries["k"] == nil)
        #expect(cycle.diagnostics.contains { $0.message == "variable cycle: a → b → a" && $0.keyPath == "k/b/other" })
        var vars: [(String, [(String, String)])] = []
        for i in 0..<10 { vars.append(("v\(i)", [plural, valueType("d"), ("other", i < 9 ? "%#@v\(i + 1)@" : "end")])) }
        let deep = try load(stringsdict("k", "%#@v0@", vars))
        #expect(deep.entries["k"] == nil)
        #expect(deep.diagnostics.contains { $0.message == "variables nested deeper than 8" })
    }

    /// SD-04: missing spec/value type keys and a malformed reference are reported by key path.
    @Test func missingTypeKeys() throws {
        let t = try load(stringsdict("k", "%#@${count}@ %#@n@", [("n", [("one", "x"), ("other", "y")])]))
        #expect(t.entries["k"] == nil)
        let msgs = t.diagnostics.map(\.description)
        #expect(msgs.contains("T.stringsdict: error: k/n: missing NSStringFormatSpecTypeKey (expected NSStringPluralRuleType)"))
        let t2 = try load(stringsdict("k", "%#@${count}@ %#@n@", [("n", [plural, ("one", "x"), ("other", "y")])]))
        #expect(t2.diagnostics.map(\.description).contains("T.stringsdict: warning: k/n: missing NSStringFormatValueTypeKey; the argument type is taken from the variants"))
        #expect(t2.diagnostics.map(\.description).contains("T.stringsdict: error: k/NSStringLocalizedFormatKey: undefined variable '${count}' in %#@${count}@ (defined: n)"))
    }

    /// SD-05: value type `li` while a variant formats the count with `%@`.
    @Test func valueTypeAgainstVariants() throws {
        let t = try load(stringsdict("k", "%#@n@", [("n", [plural, valueType("li"), ("one", "%@ thing"), ("other", "%li things")])]))
        #expect(t.entries["k"] == nil)
        #expect(t.diagnostics.contains { $0.severity == .error && $0.message.contains("argument 1 is int") && $0.message.contains("n/one '%@'") })
    }

    /// SD-06: `%#@value@` with variants `%1$@ … %2$d`: the count is argument 2.
    @Test func argumentsInsideVariants() throws {
        let t = try load(stringsdict("k", "%#@value@", [("value", [plural, valueType("d"), ("one", "%1$@ has %2$d item"), ("other", "%1$@ has %2$d items")])]))
        let e = try #require(t.entries["k"])
        #expect(StringsdictModel.signature(of: e).types == [1: .string, 2: .int])
        #expect(try TextFormatter.format(e, [.string("Ann"), .int(1)], locale: "en") == "Ann has 1 item")
        #expect(try TextFormatter.format(e, [.string("Ann"), .int(5)], locale: "en") == "Ann has 5 items")
    }

    /// NetNewsWire zh-Hans: the format key names `today_count` but the variable is `today.count`.
    @Test(.enabled(if: corpus("Ranchero-Software__NetNewsWire/Widget__Resources__zh-Hans.lproj__Localizable.stringsdict") != nil, "corpus absent"))
    func misnamedVariable() throws {
        let t = try loadCorpus("Ranchero-Software__NetNewsWire/Widget__Resources__zh-Hans.lproj__Localizable.stringsdict")
        #expect(t.entries["today.count.%lld"] == nil)
        #expect(t.diagnostics.contains { $0.keyPath == "today.count.%lld/NSStringLocalizedFormatKey" && $0.message == "undefined variable 'today_count' in %#@today_count@ (defined: today.count)" })
    }

    /// SwiftGen fixtures: nested (SD-02), and the structural error files.
    @Test(.enabled(if: corpus("SwiftGen__SwiftGen") != nil, "corpus absent"))
    func swiftGenFixtures() throws {
        let p = "SwiftGen__SwiftGen/Sources__TestUtils__Fixtures__Resources__Strings__"
        let nested = try loadCorpus(p + "LocPluralNested.stringsdict")
        #expect(nested.diagnostics.filter { $0.severity == .error }.isEmpty)
        let deep = try #require(nested.entries["nested.formatkey-in-variable-deep"])
        #expect(try TextFormatter.format(deep, [.int(2), .int(1), .int(5)], locale: "en") == "2 first levels have one second level and has 5 third levels")
        let geese = try #require(nested.entries["nested.formatkey-in-variable"])
        #expect(try TextFormatter.format(geese, [.int(3), .int(1)], locale: "en") == "3 geese landed on their shared field")
        let missing = try loadCorpus(p + "LocPluralErrorMissingVariable.stringsdict")
        #expect(missing.entries.isEmpty && missing.diagnostics.contains { $0.message.hasPrefix("undefined variable") })
        let invalid = try loadCorpus(p + "LocPluralErrorInvalidVariableValue.stringsdict")
        #expect(invalid.entries.isEmpty && invalid.diagnostics.contains { $0.message.contains("which is not a number") })
        let placeholders = try loadCorpus(p + "LocPluralErrorPlaceholders.stringsdict")
        #expect(placeholders.entries.isEmpty && placeholders.diagnostics.contains { $0.message.contains("argument 2 is string") })
        let both = try loadCorpus(p + "LocPluralErrorBothTypeKeys.stringsdict")
        #expect(both.entries["competition.event.number-of-matches"] != nil)
        #expect(both.entries["competition.tab.favorite-teams"] == nil)
        #expect(both.diagnostics.contains { $0.keyPath == "competition.tab.favorite-teams" && $0.message == "missing NSStringLocalizedFormatKey" })
    }

    /// DuckDuckGo de: `%1#@count@`, nested `%2$#@accounts@` inside a variant, all entries load.
    @Test(.enabled(if: corpus("duckduckgo__iOS/DuckDuckGo__de.lproj__Localizable.stringsdict") != nil, "corpus absent"))
    func duckDuckGo() throws {
        let t = try loadCorpus("duckduckgo__iOS/DuckDuckGo__de.lproj__Localizable.stringsdict")
        #expect(t.diagnostics.filter { $0.severity == .error }.isEmpty, "\(t.diagnostics)")
        let e = try #require(t.entries["autofill.number.of.passwords"])
        #expect(try TextFormatter.format(e, [.int(1)], locale: "de") == "1 Passwort")
        #expect(try TextFormatter.format(e, [.int(7)], locale: "de") == "7 Passwörter")
    }
}
