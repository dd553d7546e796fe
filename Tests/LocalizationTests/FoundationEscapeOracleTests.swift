import Foundation
import Testing
@testable import Localization

/// Issue #29: every quote and escape form of old-style property lists that Foundation accepts
/// reads the same in `StringsParser` as in Foundation on Linux (`PropertyListSerialization`,
/// swift-corelibs-foundation's CFOldStylePList), the oracle. A lone surrogate `\U` escape is the
/// one form read differently on purpose: Foundation makes it U+FFFD, the parser an error.
@Suite struct FoundationEscapeOracleTests {
    /// Foundation's reading of `text` (a dictionary of strings), or nil when it refuses it.
    static func foundation(_ text: String) -> [String: String]? {
        (try? PropertyListSerialization.propertyList(from: Data(text.utf8), options: [], format: nil)) as? [String: String]
    }

    static func scalars(_ s: String?) -> [UInt32] { s.map { $0.unicodeScalars.map(\.value) } ?? [] }

    func expectSame(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let oracle = Self.foundation(text)
        let ours = try? StringsParser.parse(text).values
        #expect(oracle != nil, "Foundation refuses \(text)", sourceLocation: sourceLocation)
        #expect(ours?.mapValues(Self.scalars) == oracle?.mapValues(Self.scalars), "\(text)", sourceLocation: sourceLocation)
    }

    /// Every octal escape, one to three digits, 0 to 0o777: NeXTSTEP bytes above 0x7F, 8 bits kept.
    @Test func everyOctalEscapeReadsAsFoundationDoes() {
        for v in 0...0o777 {
            let o = String(v, radix: 8)
            expectSame("\"k\" = \"a\\\(o)z\";")
            if o.count < 3 { expectSame("\"k\" = \"\\\(o)\";") }
        }
    }

    /// Single quotes, double quotes inside them, every escaped character, `\U` forms.
    @Test func quotesAndEscapesReadAsFoundationDoes() {
        var cases = [
            "'a' = 'b c';", "\"k\" = 'it\\'s';", "'q' = \"x\";", "\"s\" = 'd\"q';", "'o' = 'a\"b\\\"c';",
            "\"k\" = \"\\U00e9\\U20AC\\U1\\U41z\";", "\"k\" = \"\\UD83D\\UDE00\";", "{ 'a' = 'b'; \"c\" = \"d\"; }",
            "\"k\" = \"x\\\ny\";", "k = v;", "k;", "'k';", "\"k\" = \"\";", "'' = '';",
        ]
        for c in UInt8(0x21)...UInt8(0x7E) where !(c >= UInt8(ascii: "0") && c <= UInt8(ascii: "7")) && c != UInt8(ascii: "U") {
            cases.append("\"k\" = \"\\\(Character(Unicode.Scalar(c)))\";")
            cases.append("\"k\" = '\\\(Character(Unicode.Scalar(c)))';")
        }
        for c in cases { expectSame(c) }
    }

    @Test func loneSurrogatesAreErrorsWithTheirOwnWording() {
        let low = #expect(throws: StringsFileError.self) { try StringsParser.parse("\"k\" = \"\\UDC00\";") }
        #expect(low?.message.contains("lone low surrogate \\UDC00") == true, "\(low?.message ?? "")")
        let high = #expect(throws: StringsFileError.self) { try StringsParser.parse("\"k\" = \"\\UD800x\";") }
        #expect(high?.message.contains("a high surrogate must be followed by a low one") == true, "\(high?.message ?? "")")
    }

    /// A string that runs to the end of the file after a typographic ” on its first line says so.
    @Test func runawayCurlyQuoteAtEndOfFileGetsANote() {
        let e = #expect(throws: StringsFileError.self) { try StringsParser.parse("\"a\" = \"b\";\n\"k\" = \"Hello”;\n") }
        #expect(e?.line == 2 && e?.column == 7, "\(String(describing: e))")
        #expect(e?.message.contains("typographic quote ” (U+201D) at 2:13") == true, "\(e?.message ?? "")")
    }
}
