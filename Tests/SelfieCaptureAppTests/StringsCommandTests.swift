import Foundation
import Testing
import SelfieCaptureApp
import TestSupport

/// A fresh temporary folder with `files` (relative path → content).
private func tempTree(_ files: [String: String]) throws -> String { try TestSupport.tempTree(files, prefix: "strings-cli") }

private func runStrings(_ args: [String]) -> (code: Int32, out: String, err: String) {
    run(["strings"] + args, handlers: CommandRegistry.handlers)
}

@Suite struct StringsDumpTests {
    @Test func dumpStringsAsJSON() throws {
        let dir = try tempTree(["a.strings": "/* c */\n\"b\" = \"x\\ny\";\n\"a\" = \"é \\\"q\\\"\";\nkey;\n"])
        let r = runStrings(["dump", dir + "/a.strings"])
        #expect(r.code == 0)
        #expect(r.out == "{\n  \"b\" : \"x\\ny\",\n  \"a\" : \"é \\\"q\\\"\",\n  \"key\" : \"key\"\n}\n")
    }

    @Test func dumpStringsdictAsJSON() throws {
        let dir = try tempTree(["p.stringsdict": "<plist><dict><key>k</key><dict><key>n</key><integer>3</integer><key>t</key><true/><key>a</key><array/></dict></dict></plist>"])
        let r = runStrings(["dump", dir + "/p.stringsdict"])
        #expect(r.code == 0)
        #expect(r.out == "{\n  \"k\" : {\n    \"n\" : 3,\n    \"t\" : true,\n    \"a\" : [\n\n    ]\n  }\n}\n")
    }

    /// Malformed → exit 65 with `FILE:LINE:COL: error:` on stderr and nothing on stdout.
    @Test func malformedExits65() throws {
        let dir = try tempTree(["bad.strings": "\"a\" = \"1\";\n\"b\" = \"2\"\n\"c\" = \"3\";\n"])
        let r = runStrings(["dump", dir + "/bad.strings"])
        #expect(r.code == 65)
        #expect(r.err == "\(dir)/bad.strings:2:10: error: expected ';' after value, found '\"' at 3:1\n")
        #expect(r.out.isEmpty)
    }

    @Test func missingFileExits66() {
        let r = runStrings(["dump", "/nonexistent/x.strings"])
        #expect(r.code == 66)
        #expect(r.err == "selfie-capture: no such file or directory: /nonexistent/x.strings\n")
    }

    @Test(.enabled(if: TestSupport.shared("corpus/strings") != nil, "corpus absent"))
    func corpusBrokenFile() throws {
        let path = try #require(TestSupport.shared("corpus/strings/bitstadium__QuincyKit/client__iOS__Quincy.bundle__de.lproj__QuincyAlternate.BROKEN-macroman.strings"))
        let r = runStrings(["dump", path])
        #expect(r.code == 65)
        #expect(r.err.hasPrefix(path + ":16:62: error: invalid UTF-8 at byte offset 468"))
    }
}

@Suite struct StringsFormatTests {
    /// The built-in tables are found from the test executable (walking up to Localizations/).
    @Test(arguments: [
        (["--locale", "fr", "selfie_capture_countdown", "1"], "Enregistrement dans 1 seconde\n"),
        (["--locale", "fr_CA", "selfie_capture_countdown", "3"], "Enregistrement dans 3 secondes\n"),
        (["--locale", "en", "selfie_capture_result_frames", "0"], "No frames recorded\n"),
        (["--locale", "en", "selfie_capture_result_duration", "2.46"], "Duration: 2.5 s\n"),
        (["--locale", "fr", "selfie_capture_result_duration", "2.46"], "Durée\u{A0}: 2,5 s\n"),
        (["--locale", "fr", "selfie_capture_result_saved", "/tmp/out"], "Enregistré dans /tmp/out\n"),
        (["--locale", "de", "selfie_capture_start"], "Start\n"),
    ])
    func builtIn(args: [String], expected: String) {
        let r = runStrings(["format"] + args)
        #expect(r.code == 0, "\(r.err)")
        #expect(r.out == expected)
    }

    /// `--strings DIR` layers: a Polish override with all categories; later folders win.
    @Test func overrides() throws {
        let pl = "<plist><dict><key>selfie_capture_countdown</key><dict><key>NSStringLocalizedFormatKey</key><string>%#@s@</string><key>s</key><dict><key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string><key>NSStringFormatValueTypeKey</key><string>d</string><key>one</key><string>Nagrywanie za %d sekundę</string><key>few</key><string>Nagrywanie za %d sekundy</string><key>many</key><string>Nagrywanie za %d sekund</string><key>other</key><string>Nagrywanie za %d sekundy</string></dict></dict></dict></plist>"
        let a = try tempTree(["pl.lproj/Localizable.stringsdict": pl, "fr.lproj/Localizable.strings": "\"selfie_capture_start\" = \"Go A\";"])
        let b = try tempTree(["fr.lproj/Localizable.strings": "\"selfie_capture_start\" = \"Go B\";"])
        #expect(runStrings(["format", "--locale", "pl", "--strings", a, "selfie_capture_countdown", "22"]).out == "Nagrywanie za 22 sekundy\n")
        #expect(runStrings(["format", "--locale", "pl", "--strings", a, "selfie_capture_countdown", "25"]).out == "Nagrywanie za 25 sekund\n")
        #expect(runStrings(["format", "--locale", "fr", "--strings", a, "--strings", b, "selfie_capture_start"]).out == "Go B\n")
        #expect(runStrings(["format", "--locale", "fr", "--strings", b, "--strings", a, "selfie_capture_start"]).out == "Go A\n")
    }

    /// A translation with a bad specifier is rejected (stderr says why) and the base text is used.
    @Test func badTranslationFallsBack() throws {
        let dir = try tempTree(["fr.lproj/Localizable.strings": "\"selfie_capture_result_saved\" = \"%d fichiers\";"])
        let r = runStrings(["format", "--locale", "fr", "--strings", dir, "selfie_capture_result_saved", "/x"])
        #expect(r.code == 0)
        #expect(r.out == "Enregistré dans /x\n")
        #expect(r.err.contains("selfie_capture_result_saved: argument 1 is int but string in the base text"))
    }

    @Test func argumentErrors() {
        let r = runStrings(["format", "--locale", "en", "selfie_capture_countdown", "three"])
        #expect(r.code == 64)
        #expect(r.err == "selfie-capture: invalid value 'three' for 'ARG 1': expected a whole number\n")
        let m = runStrings(["format", "--locale", "en", "selfie_capture_too_small", "80"])
        #expect(m.code == 64)
        #expect(m.err.contains("'strings format' needs ARG 2 (int) for 'selfie_capture_too_small'"))
        let k = runStrings(["format", "--locale", "en", "no_such_key"])
        #expect(k.code == 0 && k.out == "no_such_key\n")
    }
}

@Suite struct StringsLintTests {
    static let en = "\"a\" = \"Hello %@\";\n\"b\" = \"%d items\";\n\"c\" = \"C\";\n"

    @Test func cleanProjectTables() {
        let r = runStrings(["lint", TestSupport.projectRoot().path + "/Localizations"])
        #expect(r.code == 0)
        #expect(r.out == "0 error(s), 0 warning(s)\n")
    }

    /// A translator's override folder (only the keys they change, no `en.lproj`) is checked
    /// against the built-in English tables; the keys it leaves out are not reported.
    @Test func overrideFolderIsCheckedAgainstTheBuiltInTables() throws {
        let dir = try tempTree(["de.lproj/Localizable.strings":
            "\"selfie_capture_continue\" = \"Weiter\";\n\"selfie_capture_contnue\" = \"Weiter\";\n\"selfie_capture_restarted\" = \"Neu gestartet: %d\";\n"])
        let r = runStrings(["lint", dir, "--base", "en"])
        #expect(r.code == 65)
        #expect(r.out.hasPrefix("note: no 'en' tables in the folders given; checking them against the built-in "))
        // Key-level diagnostics carry the value's line and column (issue #29).
        #expect(r.out.contains("de.lproj/Localizable.strings:2:28: warning: selfie_capture_contnue: key not in 'en' (never used)"), "\(r.out)")
        #expect(r.out.contains("de.lproj/Localizable.strings:3:30: error: selfie_capture_restarted: argument 1 is int but string in the base text"), "\(r.out)")
        #expect(!r.out.contains("missing key"))
        #expect(r.out.hasSuffix("1 error(s), 1 warning(s)\n"))
    }

    @Test func reportsProblems() throws {
        let ru = "<plist><dict><key>n</key><dict><key>NSStringLocalizedFormatKey</key><string>%#@v@</string><key>v</key><dict><key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string><key>NSStringFormatValueTypeKey</key><string>d</string><key>one</key><string>%d день</string><key>two</key><string>%d дня</string><key>other</key><string>%d дней</string></dict></dict></dict></plist>"
        let dir = try tempTree([
            "en.lproj/Localizable.strings": Self.en,
            "en.lproj/Localizable.stringsdict": ru.replacingOccurrences(of: "<key>two</key><string>%d дня</string>", with: ""),
            "fr.lproj/Localizable.strings": "\"a\" = \"%d bonjour\";\n\"b\" = \"100% daily\";\n\"x\" = \"extra\";\n\"x\" = \"again\";\n",
            "ru.lproj/Localizable.stringsdict": ru,
        ])
        let r = runStrings(["lint", dir])
        #expect(r.code == 65)
        let lines = r.out.split(separator: "\n").map(String.init)
        let fr = dir + "/fr.lproj/Localizable.strings"
        let ruf = dir + "/ru.lproj/Localizable.stringsdict"
        for expected in [
            "\(fr):4:1: warning: x: duplicate key; this later value wins",
            "\(fr):2:7: warning: b: '% daily' reads as the specifier '% d' followed by a word",
            "\(fr): warning: c: missing key (present in 'en'; its text is shown)",
            "\(fr):4:7: warning: x: key not in 'en' (never used)",
            "\(fr):1:7: error: a: argument 1 is int but string in the base text (the 'en' text is used instead)",
            "\(ruf): warning: n/v: missing plural categories for 'ru': few, many (the 'other' text is shown instead)",
            "\(ruf): warning: n/v: plural categories never used by 'ru': two",
        ] {
            #expect(lines.contains { $0.hasPrefix(expected) || $0.contains(expected) }, "missing: \(expected)\n\(r.out)")
        }
        #expect(lines.last == "1 error(s), 10 warning(s)")
    }

    @Test func jsonFormatAndWarningsOnly() throws {
        let dir = try tempTree(["en.lproj/Localizable.strings": Self.en, "de.lproj/Localizable.strings": "\"a\" = \"Hallo\";\n\"b\" = \"%d Dinge\";\n\"c\" = \"C\";\n"])
        let r = runStrings(["lint", dir, "--format", "json"])
        #expect(r.code == 0)
        let obj = try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any]
        #expect(obj?["errors"] as? Int == 0)
        #expect(obj?["warnings"] as? Int == 1)
        let d = (obj?["diagnostics"] as? [[String: Any]])?.first
        #expect(d?["key"] as? String == "a")
        #expect(d?["message"] as? String == "does not use argument(s) 1 of the 'en' text")
    }

    @Test func parseErrorsAndMissingDir() throws {
        let dir = try tempTree(["en.lproj/Localizable.strings": "\"a\" = \"x\";;\n"])
        let r = runStrings(["lint", dir])
        #expect(r.code == 65)
        #expect(r.out.contains("\n" + dir + "/en.lproj/Localizable.strings:1:11: error: expected a key"))
        #expect(runStrings(["lint", "/nonexistent"]).code == 66)
    }
}

/// `strings convert` and the other commands on String Catalogs and binary property lists.
@Suite struct StringsCatalogCommandTests {
    static let catalog = """
    {
      "sourceLanguage" : "en",
      "strings" : {
        "files" : { "localizations" : {
          "en" : { "variations" : { "plural" : {
            "one" : { "stringUnit" : { "state" : "translated", "value" : "%lld file" } },
            "other" : { "stringUnit" : { "state" : "translated", "value" : "%lld files" } } } } },
          "fr" : { "variations" : { "plural" : {
            "one" : { "stringUnit" : { "state" : "translated", "value" : "%lld fichier" } },
            "other" : { "stringUnit" : { "state" : "needs_review", "value" : "%lld fichiers" } } } } } } },
        "hello" : { "localizations" : {
          "en" : { "stringUnit" : { "state" : "translated", "value" : "Hello %@" } },
          "fr" : { "stringUnit" : { "state" : "translated", "value" : "Bonjour %@" } } } }
      },
      "version" : "1.0"
    }
    """

    @Test func convertBothWays() throws {
        let dir = try tempTree(["Localizable.xcstrings": Self.catalog])
        let r = runStrings(["convert", dir + "/Localizable.xcstrings", "--to", dir + "/out"])
        #expect(r.code == 0, "\(r.err)")
        #expect(r.out == "wrote 4 file(s) for 2 language(s) in \(dir)/out\n")
        #expect(r.err.contains("files/fr/plural/other: state 'needs_review'"))
        for f in ["en.lproj/Localizable.strings", "en.lproj/Localizable.stringsdict", "fr.lproj/Localizable.strings", "fr.lproj/Localizable.stringsdict"] {
            #expect(FileManager.default.fileExists(atPath: dir + "/out/" + f), "\(f)")
        }
        // The written folder formats like the catalog.
        for (source, expected) in [(dir, "2 fichiers"), (dir + "/out", "2 fichiers")] {
            let f = runStrings(["format", "--locale", "fr", "--strings", source, "files", "2"])
            #expect(f.out == expected + "\n", "\(source): \(f.err)")
        }
        // Existing files are not replaced.
        let again = runStrings(["convert", dir + "/Localizable.xcstrings", "--to", dir + "/out"])
        #expect(again.code == 73)
        #expect(again.err.contains("already exists"))
        // Back to a catalog, which lints clean and dumps the same texts.
        let back = runStrings(["convert", dir + "/out", "--to", dir + "/back.xcstrings"])
        #expect(back.code == 0, "\(back.err)")
        let lint = runStrings(["lint", dir + "/back.xcstrings"])
        #expect(lint.code == 0 && lint.out.hasSuffix("0 error(s), 1 warning(s)\n"), "\(lint.out)")   // fr lacks `many` (CLDR 42: 1000000)
        let d1 = runStrings(["dump", dir + "/back.xcstrings"])
        #expect(d1.code == 0)
        #expect(d1.out.contains("\"hello\" : \"Bonjour %@\""))
        #expect(d1.out.contains("\"NSStringLocalizedFormatKey\" : \"%#@count@\""))
    }

    @Test func convertErrors() throws {
        let dir = try tempTree(["Localizable.xcstrings": Self.catalog, "bad.xcstrings": "{ \"strings\" : { \"a\" : 1 } }"])
        #expect(runStrings(["convert", dir + "/Localizable.xcstrings"]).code == 64)
        #expect(runStrings(["convert", dir + "/none.xcstrings", "--to", dir + "/o"]).code == 66)
        let bad = runStrings(["convert", dir + "/bad.xcstrings", "--to", dir + "/o"])
        #expect(bad.code == 65)
        #expect(bad.err.contains("bad.xcstrings:1:23: error: a: must be an object, found a number"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/o"))
        #expect(runStrings(["convert", dir, "--to", dir + "/x.json"]).code == 64)
        let help = run(["strings", "convert", "--help"], handlers: CommandRegistry.handlers)
        #expect(help.code == 0 && help.out.contains("FILE.xcstrings --to DIR"))
    }

    /// A translator's catalog with only `de` is checked against the built-in English, as an
    /// override folder is.
    @Test func lintTranslationOnlyCatalog() throws {
        let cat = #"{"sourceLanguage":"en","strings":{"selfie_capture_continue":{"localizations":{"de":{"stringUnit":{"state":"translated","value":"Weiter"}}}},"selfie_capture_restarted":{"localizations":{"de":{"stringUnit":{"state":"new","value":"Neu: %d"}}}}},"version":"1.0"}"#
        let dir = try tempTree(["Localizable.xcstrings": cat])
        let r = runStrings(["lint", dir])
        #expect(r.code == 65)
        #expect(r.out.hasPrefix("note: no 'en' tables in the folders given; checking them against the built-in "))
        #expect(r.out.contains("Localizable.xcstrings (de): error: selfie_capture_restarted: argument 1 is int but string in the base text"))
        #expect(r.out.contains("Localizable.xcstrings:1:"), "the 'new' state warning is positioned")
        #expect(r.out.hasSuffix("1 error(s), 1 warning(s)\n"), "\(r.out)")
    }

    /// A binary `.strings` (as Foundation writes it) is dumped and used like a text one.
    @Test func binaryStrings() throws {
        let data = try PropertyListSerialization.data(fromPropertyList: ["selfie_capture_continue": "Weiter"], format: .binary, options: 0)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strings-bin-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir + "/de.lproj", withIntermediateDirectories: true)
        try data.write(to: URL(fileURLWithPath: dir + "/de.lproj/Localizable.strings"))
        let d = runStrings(["dump", dir + "/de.lproj/Localizable.strings"])
        #expect(d.code == 0 && d.out == "{\n  \"selfie_capture_continue\" : \"Weiter\"\n}\n")
        let f = runStrings(["format", "--locale", "de", "--strings", dir, "selfie_capture_continue"])
        #expect(f.out == "Weiter\n")
        var broken = Array(data)
        broken[broken.count - 32 + 7] = 0   // object reference size 0
        try Data(broken).write(to: URL(fileURLWithPath: dir + "/b.strings"))
        let b = runStrings(["dump", dir + "/b.strings"])
        #expect(b.code == 65)
        #expect(b.err == "\(dir)/b.strings: error: binary property list: at byte offset \(broken.count - 25): expected an object reference size of 1 to 8 bytes, found 0\n")
    }
}
