import Testing
@testable import Localization

/// Parses `text` (UTF-8) and returns the table, or records the error.
private func table(_ text: String) throws -> [String: String] { try StringsParser.parse(text, file: "T.strings").values }

/// The positioned error for `text`.
private func failure(_ bytes: [UInt8]) -> StringsFileError? {
    do { _ = try StringsParser.parse(bytes, file: "T.strings"); return nil } catch let e as StringsFileError { return e } catch { return nil }
}
private func failure(_ text: String) -> StringsFileError? { failure(Array(text.utf8)) }

@Suite struct StringsParserTests {
    @Test func basicsAndShorthand() throws {
        #expect(try table("\"a\" = \"b\";\n\"c\";\nd = e;") == ["a": "b", "c": "c", "d": "e"])
        #expect(try table("") == [:])
        #expect(try table("  \n\t\r\n") == [:])
        #expect(try table("/* only a comment */") == [:])
    }

    /// STR-09: quotes and semicolons inside comments do not count (IB headers).
    @Test func commentsAreSkipped() throws {
        let text = "/* Class = \"UILabel\"; text = \"Hi\"; ObjectID = \"x\"; */\n\"x.text\" = \"Hi\"; // trailing \"q\";\n// \"y\" = \"z\";\n"
        #expect(try table(text) == ["x.text": "Hi"])
    }

    /// STR-10/11: any whitespace, newlines and comments between all tokens; no spaces needed.
    @Test func whitespaceBetweenTokens() throws {
        #expect(try table("\"a\"=\"1\";\"b\"   =   \"2\"   ;\r\n\"c\"\n=\n/*x*/\"3\"\n;") == ["a": "1", "b": "2", "c": "3"])
    }

    /// STR-12: unquoted tokens use letters, digits and `_ . - $ : /`.
    @Test func unquotedTokens() throws {
        #expect(try table("CFBundleName = My_App.v-2$:/x;") == ["CFBundleName": "My_App.v-2$:/x"])
        #expect(failure("key = two words;")?.description == "T.strings:1:10: error: expected ';' after value, found 'w' at 1:11")
    }

    /// STR-13 and STR-06: escapes as the old-style plist grammar.
    @Test func escapes() throws {
        let t = try table(#""k" = "a\nb\tc\rd\"e\\f\'g\?h\a\b\f\v|\101\60\0061|\U00f1|\UD83D\UDE00|\U41";"#)
        #expect(t["k"] == "a\nb\tc\rd\"e\\f'g?h\u{07}\u{08}\u{0C}\u{0B}|A0\u{06}1|ñ|😀|A")
    }

    /// STR-06: a lone surrogate is an error with position, never a crash.
    @Test func loneSurrogate() {
        #expect(failure("\"k\" = \"x\\UD83D y\";")?.description == "T.strings:1:9: error: lone surrogate \\UD83D in escape (a high surrogate must be followed by a low one)")
        #expect(failure("\"k\" = \"\\UDE00\";")?.reason == .loneSurrogate(0xDE00))
    }

    /// Backslash-newline keeps the newline (home-assistant cy-GB); raw newlines stay in values.
    @Test func multilineValues() throws {
        #expect(try table("\"k\" = \"a\\\nb\nc\";") == ["k": "a\nb\nc"])
    }

    /// Duplicate keys: the last wins and the duplicate is reported with its position.
    @Test func duplicates() throws {
        let t = try StringsParser.parse("\"a\" = \"1\";\n\"b\" = \"2\";\n\"a\" = \"3\";", file: "T.strings")
        #expect(t.values == ["a": "3", "b": "2"])
        #expect(t.order == ["a", "b"])
        #expect(t.duplicates == [.init(key: "a", line: 3, column: 1)])
    }

    /// STR-16: missing `;` after the value of line 20 → `file:20:12: error: expected ';' after
    /// value, found '"' at 21:1` (where the `;` belongs, the next token named).
    @Test("STR-16: a missing ';' is reported where it belongs, with the next token")
    func missingSemicolonPositioned() {
        let text = (1...19).map { "\"k\($0)\" = \"v\";" }.joined(separator: "\n") + "\n\"k20\" = \"v\"\n\"k21\" = \"v\";\n"
        #expect(failure(text)?.description == "T.strings:20:12: error: expected ';' after value, found '\"' at 21:1")
        let text2 = (1...19).map { "\"k\($0)\" = \"v\";" }.joined(separator: "\n") + "\n\"k20\" = \"v\" \"k21\" = \"v\";\n"
        #expect(failure(text2)?.line == 20)
        #expect(failure(text2)?.column == 12)
        #expect(failure(text2)?.reason == .expected("';' after value", found: "'\"' at 20:13"))
        #expect(failure("a = b /* c */ d = e;")?.description == "T.strings:1:6: error: expected ';' after value, found 'd' at 1:15")
        #expect(failure("a = \"b\"x;")?.description == "T.strings:1:8: error: expected ';' after value, found 'x'")
        #expect(failure("a = b\n")?.description == "T.strings:1:6: error: expected ';' after value, found end of file")
    }

    /// STR-02/03: a doubled `;` is an error at the second `;`, not a silent truncation.
    @Test func doubledSemicolon() {
        let e = failure("\"a\" = \"1\";;\n\"b\" = \"2\";")
        #expect(e?.line == 1 && e?.column == 11)
        #expect(e?.message.contains("doubled ';'") == true)
    }

    /// STR-08: a stray character between entries is an error wherever it sits.
    @Test func strayCharacter() {
        #expect(failure("\"a\" = \"1\";\n\\\n\"b\" = \"2\";")?.description == "T.strings:2:1: error: expected a key (a quoted string or an unquoted word), found '\\'")
        #expect(failure("\"a\" = \"1\";\n\"b\" = \"2\";\n\\")?.line == 3)
        #expect(failure("\"a\" = \"1\" = \"2\";")?.description == "T.strings:1:10: error: expected ';' after value, found '=' at 1:11")
    }

    /// STR-01: raw quotes inside a value → error at the character after the early-closed string.
    @Test func unescapedQuotes() {
        let e = failure("\"k\" = \"say \"hi\" now\";")
        #expect(e?.description == "T.strings:1:13: error: expected ';' after value, found 'h'")
    }

    /// STR-07: a value closed with U+201D runs away; the error points at the typographic quote.
    @Test func smartQuoteRunaway() {
        let e = failure("\"a\" = \"x”;\n\"b\" = \"y”;\n")
        #expect(e?.line == 1 && e?.column == 9)
        #expect(e?.message.contains("U+201D") == true)
    }

    @Test func unterminated() {
        #expect(failure("\"a\" = \"abc")?.description == "T.strings:1:7: error: unterminated quoted string (no closing '\"')")
        #expect(failure("\"a\" = \"b\"; /* open")?.reason == .unterminatedComment)
        #expect(failure("\"a\" = ")?.reason == .expected("a value after '='", found: "end of file"))
        #expect(failure("\"a\" = \"b\"")?.reason == .expected("';' after value", found: "end of file"))
    }

    /// STR-04: Mac Roman bytes without BOM → encoding error with byte offset.
    @Test func strictUTF8() {
        let bytes = Array("\"k\" = \"M".utf8) + [0x9A] + Array("chten\";".utf8)
        #expect(failure(bytes)?.reason == .invalidUTF8(byteOffset: 8))
        #expect(failure(bytes)?.description.hasPrefix("T.strings:1:9: error: invalid UTF-8 at byte offset 8") == true)
        #expect(failure([0xC0, 0x80])?.reason == .invalidUTF8(byteOffset: 0)) // overlong
        #expect(failure([0xED, 0xA0, 0x80])?.reason == .invalidUTF8(byteOffset: 0)) // surrogate
        #expect(failure(Array("\"a\"=\"".utf8) + [0xE2, 0x82])?.reason == .invalidUTF8(byteOffset: 5)) // truncated
    }

    /// STR-14/15: encodings by BOM (and UTF-16 without BOM by its NUL pattern).
    @Test func encodings() throws {
        let text = "\"k\" = \"é😀\";"
        let le = Array(text.utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let be = Array(text.utf16).flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        for (bytes, enc) in [([0xFF, 0xFE] + le, TextEncoding.utf16LE), ([0xFE, 0xFF] + be, .utf16BE),
                             ([0xEF, 0xBB, 0xBF] + Array(text.utf8), .utf8BOM), (le, .utf16LE), (be, .utf16BE), (Array(text.utf8), .utf8)] {
            let t = try StringsParser.parse(bytes, file: "T.strings")
            #expect(t.values == ["k": "é😀"])
            #expect(t.encoding == enc)
        }
        // A lone surrogate in raw UTF-16 is an encoding error with its byte offset.
        #expect(failure([0xFF, 0xFE, 0x22, 0x00, 0x00, 0xD8, 0x22, 0x00])?.reason == .invalidUTF16(byteOffset: 4, detail: "high surrogate U+D800 not followed by a low surrogate"))
        #expect(failure([0xFF, 0xFE, 0x22])?.reason == .invalidUTF16(byteOffset: 2, detail: "odd number of bytes"))
    }

    /// A BOM in the middle of a file (colloquy#1308) is a stray character at its position.
    @Test func embeddedBOM() {
        #expect(failure("\"a\" = \"1\";\n\u{FEFF}\"b\" = \"2\";")?.description == "T.strings:2:1: error: expected a key (a quoted string or an unquoted word), found '\u{FEFF}' (U+FEFF)")
    }

    /// An old-style plist dictionary in braces is accepted; content after `}` is an error.
    @Test func bracedDictionary() throws {
        #expect(try table("/* c */ {\n  a = b;\n  \"c\" = \"d\";\n}\n") == ["a": "b", "c": "d"])
        #expect(failure("{ a = b; } x")?.description == "T.strings:1:12: error: expected end of file after '}', found 'x'")
        #expect(failure("{ a = b;")?.reason == .expected("'}' to close the dictionary", found: "end of file"))
    }

    /// `.strings` in XML-plist form is accepted (Apple accepts it too).
    @Test func xmlStrings() throws {
        let xml = "<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><dict><key>a</key><string>x &amp; y</string></dict></plist>"
        #expect(try table(xml) == ["a": "x & y"])
    }
}
