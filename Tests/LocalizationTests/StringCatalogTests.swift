import Foundation
import Testing
@testable import Localization

/// A hand-written catalog covering plain units, a top-level plural, device variations (with a
/// nested plural), substitutions (one reordered by `argNum`, one with `%arg` after another
/// argument), states (`new`, `needs_review`, `stale`) and a key with no source localization.
let sampleCatalog = #"""
{
  "sourceLanguage" : "en",
  "strings" : {
    "hello" : {
      "localizations" : {
        "en" : { "stringUnit" : { "state" : "translated", "value" : "Hello \"you\"\n" } },
        "fr" : { "stringUnit" : { "state" : "needs_review", "value" : "Bonjour « toi » & <co>\n" } },
        "pl" : { "stringUnit" : { "state" : "new", "value" : "Cześć" } }
      }
    },
    "Key is the text" : {
      "extractionState" : "stale",
      "localizations" : {
        "fr" : { "stringUnit" : { "state" : "stale", "value" : "La clé est le texte" } }
      }
    },
    "files" : {
      "localizations" : {
        "en" : { "variations" : { "plural" : {
          "one" : { "stringUnit" : { "state" : "translated", "value" : "%lld file" } },
          "other" : { "stringUnit" : { "state" : "translated", "value" : "%lld files" } } } } },
        "pl" : { "variations" : { "plural" : {
          "one" : { "stringUnit" : { "state" : "translated", "value" : "%lld plik" } },
          "few" : { "stringUnit" : { "state" : "translated", "value" : "%lld pliki" } },
          "many" : { "stringUnit" : { "state" : "translated", "value" : "%lld plików" } } } } }
      }
    },
    "owner_files" : {
      "localizations" : {
        "en" : { "variations" : { "plural" : {
          "one" : { "stringUnit" : { "state" : "translated", "value" : "%@ has %lld file" } },
          "other" : { "stringUnit" : { "state" : "translated", "value" : "%@ has %lld files" } } } } }
      }
    },
    "tap" : {
      "localizations" : {
        "en" : { "variations" : { "device" : {
          "iphone" : { "stringUnit" : { "state" : "translated", "value" : "Tap here" } },
          "mac" : { "stringUnit" : { "state" : "translated", "value" : "Click here" } },
          "other" : { "stringUnit" : { "state" : "translated", "value" : "Press Enter %d times" } } } } },
        "fr" : { "variations" : { "device" : {
          "other" : { "variations" : { "plural" : {
            "one" : { "stringUnit" : { "state" : "translated", "value" : "Appuyez %d fois" } },
            "other" : { "stringUnit" : { "state" : "translated", "value" : "Appuyez %d fois !" } } } } } } } },
        "pl" : { "variations" : { "device" : {
          "iphone" : { "stringUnit" : { "state" : "translated", "value" : "Dotknij" } } } } }
      }
    },
    "folders_files" : {
      "localizations" : {
        "en" : {
          "stringUnit" : { "state" : "translated", "value" : "%#@folders@ hold %#@files@" },
          "substitutions" : {
            "files" : { "argNum" : 1, "formatSpecifier" : "lld", "variations" : { "plural" : {
              "one" : { "stringUnit" : { "state" : "translated", "value" : "%arg file" } },
              "other" : { "stringUnit" : { "state" : "translated", "value" : "%arg files" } } } } },
            "folders" : { "argNum" : 2, "formatSpecifier" : "lld", "variations" : { "plural" : {
              "one" : { "stringUnit" : { "state" : "translated", "value" : "one folder" } },
              "other" : { "stringUnit" : { "state" : "translated", "value" : "%arg folders" } } } } }
          }
        }
      }
    },
    "photos" : {
      "localizations" : {
        "en" : {
          "stringUnit" : { "state" : "translated", "value" : "%1$@ has %2$#@photo_count@" },
          "substitutions" : {
            "photo_count" : { "argNum" : 2, "formatSpecifier" : "lld", "variations" : { "plural" : {
              "one" : { "stringUnit" : { "state" : "translated", "value" : "%arg photo in %3$@" } },
              "other" : { "stringUnit" : { "state" : "translated", "value" : "%1$@: %arg photos in %3$@ (100%%)" } } } } }
          }
        }
      }
    }
  },
  "version" : "1.0"
}
"""#

private func catalog(_ text: String = sampleCatalog) throws -> StringCatalog {
    try StringCatalog.parse(Array(text.utf8), file: "L.xcstrings")
}

@Suite struct StringCatalogTests {
    @Test func plainAndStates() throws {
        let c = try catalog()
        #expect(c.sourceLanguage == "en")
        #expect(c.languageOrder == ["en", "fr", "pl"])
        let (tables, diags) = c.tables()
        #expect(diags.isEmpty, "\(diags)")
        #expect(tables["en"]?["hello"] == .plain("Hello \"you\"\n"))
        #expect(tables["fr"]?["hello"] == .plain("Bonjour « toi » & <co>\n"))
        // No `en` localization: the key is the English text.
        #expect(tables["en"]?["Key is the text"] == .plain("Key is the text"))
        #expect(tables["fr"]?["Key is the text"] == .plain("La clé est le texte"))
        // Warnings for the states and the stale key, each positioned.
        let warnings = c.diagnostics.filter { $0.severity == .warning }
        #expect(c.diagnostics.allSatisfy { $0.severity == .warning && $0.line != nil && $0.column != nil })
        #expect(warnings.contains { $0.keyPath == "hello/fr" && $0.message.hasPrefix("state 'needs_review'") && $0.line == 7 })
        #expect(warnings.contains { $0.keyPath == "hello/pl" && $0.message.hasPrefix("state 'new'") })
        #expect(warnings.contains { $0.keyPath == "Key is the text" && $0.message.hasPrefix("stale") })
        #expect(warnings.contains { $0.keyPath == "Key is the text/fr" && $0.message.hasPrefix("state 'stale'") })
        // pl's device variation has no `other` device: no text, and a warning.
        #expect(tables["pl"]?["tap"] == nil)
        #expect(warnings.contains { $0.keyPath == "tap/pl" && $0.message.contains("without 'other'") })
    }

    /// Formatted through the localizer (catalog in a `--strings` folder), every variation kind.
    @Test func formatting() throws {
        let inputs = memoryInputs(["/C/Localizable.xcstrings": sampleCatalog])
        let en = Localizer(locale: "en", folders: ["/C"], inputs: inputs)
        #expect(en.diagnostics.isEmpty, "\(en.diagnostics)")
        #expect(en.text("files", [.int(1)]) == "1 file")
        #expect(en.text("files", [.int(3)]) == "3 files")
        #expect(en.text("owner_files", [.string("Ann"), .int(1)]) == "Ann has 1 file")
        #expect(en.text("owner_files", [.string("Ann"), .int(4)]) == "Ann has 4 files")
        #expect(en.text("tap", [.int(2)]) == "Press Enter 2 times")
        #expect(en.text("folders_files", [.int(5), .int(1)]) == "one folder hold 5 files")
        #expect(en.text("folders_files", [.int(1), .int(3)]) == "3 folders hold 1 file")
        #expect(en.text("photos", [.string("Ann"), .int(1), .string("Rome")]) == "Ann has 1 photo in Rome")
        #expect(en.text("photos", [.string("Ann"), .int(2), .string("Rome")]) == "Ann has Ann: 2 photos in Rome (100%)")
        let fr = Localizer(locale: "fr", folders: ["/C"], inputs: inputs)
        #expect(fr.text("tap", [.int(1)]) == "Appuyez 1 fois")
        #expect(fr.text("tap", [.int(2)]) == "Appuyez 2 fois !")
        let pl = Localizer(locale: "pl", folders: ["/C"], inputs: inputs)
        #expect(pl.text("files", [.int(22)]) == "22 pliki")
        #expect(pl.text("files", [.int(25)]) == "25 plików")
        #expect(pl.text("tap", [.int(2)]) == "Press Enter 2 times")   // no `other` device in pl: English
    }

    /// A catalog with only `de` over built-in English: the keys it has no English for do not
    /// hide the built-in English texts (no key-as-text source entries in a layer).
    @Test func overrideCatalogKeepsLowerEnglish() throws {
        let cat = #"{"sourceLanguage":"en","strings":{"hello":{"localizations":{"de":{"stringUnit":{"state":"translated","value":"Hallo"}}}}},"version":"1.0"}"#
        let inputs = memoryInputs(["/B/en.lproj/Localizable.strings": "\"hello\" = \"Hello\";\n\"bye\" = \"Bye\";\n",
                                   "/O/Localizable.xcstrings": cat])
        #expect(Localizer(locale: "de", folders: ["/B", "/O"], inputs: inputs).text("hello") == "Hallo")
        #expect(Localizer(locale: "en", folders: ["/B", "/O"], inputs: inputs).text("hello") == "Hello")
        #expect(Localizer(locale: "de", folders: ["/B", "/O"], inputs: inputs).text("bye") == "Bye")
        // A catalog of translations only (no English unit at all) gets no English made of keys.
        #expect(try StringCatalog.parse(Array(cat.utf8), file: "c").languageOrder == ["de"])
    }

    /// Convert: the `.strings`/`.stringsdict` written per language read back (ours and
    /// Foundation's PropertyListSerialization) to the catalog's table.
    @Test func convertReadsBackTheSame() throws {
        let c = try catalog()
        let (tables, _) = c.tables()
        for lang in c.languageOrder {
            let l = c.languages[lang]!
            let stringsText = StringsWriter.strings(l.strings)
            let dictText = StringsWriter.xmlPlist(.dict(l.plurals))
            var back: [String: LocalizedText] = [:]
            if !l.strings.isEmpty {
                let t = try StringsParser.parse(stringsText, file: "\(lang).strings")
                for (k, v) in t.values { back[k] = .plain(v) }
                let theirs = try #require(try PropertyListSerialization.propertyList(from: Data(stringsText.utf8), options: [], format: nil) as? [String: String])
                #expect(theirs == t.values, "\(lang): Foundation reads the .strings differently")
            }
            if !l.plurals.isEmpty {
                let m = try StringsdictModel.parse(Array(dictText.utf8), file: "\(lang).stringsdict")
                #expect(m.diagnostics.isEmpty)
                for (k, e) in m.entries { back[k] = .plural(e) }
                let theirs = try PropertyListSerialization.propertyList(from: Data(dictText.utf8), options: [], format: nil)
                #expect(sameAsFoundation(try XMLPlist.parse(dictText), theirs), "\(lang): Foundation reads the .stringsdict differently")
                #expect(sameAsFoundation(.dict(l.plurals), theirs))
            }
            #expect(back == tables[lang], "\(lang)")
        }
    }

    /// The reverse: tables → catalog → tables, exactly (plural entries become substitutions).
    @Test func catalogWriterRoundTrip() throws {
        let en = "\"a\" = \"A %@\";\n\"pct\" = \"100%% sure\";\n\"multi\" = \"x\\ny\";\n"
        let fr = "\"a\" = \"Le A %@\";\n"
        let dict = stringsdict("n", "%#@files@ in %2$#@dirs@", [
            ("files", [plural, valueType("d"), ("one", "%d file"), ("other", "%d files")]),
            ("dirs", [plural, valueType("d"), ("one", "one dir"), ("other", "%2$d dirs")])])
        let frDict = stringsdict("n", "%#@files@ dans %2$#@dirs@", [
            ("files", [plural, valueType("d"), ("one", "%d fichier"), ("other", "%d fichiers")]),
            ("dirs", [plural, valueType("d"), ("other", "%2$d dossiers")])])
        let inputs = memoryInputs(["/D/en.lproj/Localizable.strings": en, "/D/en.lproj/Localizable.stringsdict": dict,
                                   "/D/fr.lproj/Localizable.strings": fr, "/D/fr.lproj/Localizable.stringsdict": frDict])
        let folder = StringsFolder.load("/D", inputs: inputs)
        #expect(folder.diagnostics.isEmpty)
        let json = StringsWriter.catalog(sourceLanguage: "en", tables: folder.languages)
        #expect(json.contains("\"value\" : \"%arg files\""))
        // Foundation's JSON reader agrees it is JSON with the shape Xcode reads.
        let obj = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(obj["sourceLanguage"] as? String == "en")
        let back = try StringCatalog.parse(Array(json.utf8), file: "x.xcstrings")
        #expect(back.diagnostics.isEmpty)
        let (tables, diags) = back.tables()
        #expect(diags.isEmpty)
        #expect(tables == folder.languages)
        // And through the catalog again: tables → catalog → the same catalog text.
        #expect(StringsWriter.catalog(sourceLanguage: "en", tables: tables) == json)
    }

    /// Structure errors are positioned diagnostics; malformed JSON throws at its position.
    @Test func errors() throws {
        #expect(throws: StringsFileError.self) { _ = try catalog("{ \"strings\" : { } ") }
        do { _ = try catalog("{\n  \"strings\" : {\n    \"a\" : { \"localizations\" : { \"en\" : { \"stringUnit\" : { \"value\" : \"x\", } } } }\n  }\n}") } catch let e as StringsFileError {
            #expect(e.line == 3 && e.column == 74, "\(e)")
            #expect(e.description.hasPrefix("L.xcstrings:3:74: error: expected a member name in double quotes, found '}'"))
        }
        #expect(throws: StringsFileError.self) { _ = try catalog("[1]") }
        #expect(throws: StringsFileError.self) { _ = try catalog("{\"a\": \"\\uD800\"}") }
        #expect(throws: StringsFileError.self) { _ = try catalog(String(repeating: "[", count: 300) + String(repeating: "]", count: 300)) }
        let bad = """
        {
          "sourceLanguage" : "en",
          "strings" : {
            "a" : { "localizations" : { "en" : { "stringUnit" : { "state" : "translated", "value" : 3 } } } },
            "b" : { "localizations" : { "en" : { "variations" : { "gender" : { } } } } },
            "c" : { "localizations" : { "en" : { "stringUnit" : { "value" : "%#@n@" },
                    "substitutions" : { "n" : { "argNum" : 1, "variations" : { "plural" : { "other" : { "stringUnit" : { "value" : "%arg" } } } } } } } } }
          }
        }
        """
        let c = try catalog(bad)
        let errors = c.diagnostics.filter { $0.severity == .error }
        #expect(errors.map(\.keyPath) == ["a/en", "b/en", "c/en/substitutions/n/plural/other"])
        #expect(errors[0].line == 4 && errors[0].message == "value must be a string, found a number")
        #expect(errors[1].message == "unsupported variations (expected plural or device)")
        #expect(errors[2].message.contains("no formatSpecifier"))
    }

    /// The `%arg` and position rewrites.
    @Test func formatRewrites() {
        #expect(CatalogFormat.replacingArg("%arg files", spec: "lld", argNum: 2) == "%lld files")
        #expect(CatalogFormat.replacingArg("%@: %arg", spec: "d", argNum: 2) == "%@: %2$d")
        #expect(CatalogFormat.replacingArg("%1$@: %arg", spec: "d", argNum: 2) == "%1$@: %d")
        #expect(CatalogFormat.replacingArg("100%%arg", spec: "d", argNum: 1) == "100%%arg")
        #expect(CatalogFormat.replacingArg("%arg", spec: nil, argNum: 1) == nil)
        #expect(CatalogFormat.needsPositions("%#@a@ %#@b@", variables: ["a": 2, "b": 1]))
        #expect(!CatalogFormat.needsPositions("%#@a@ %#@b@", variables: ["a": 1, "b": 2]))
        #expect(CatalogFormat.explicitPositions("%@ %#@a@ %% %#@b@", variables: ["a": 3, "b": 2]) == "%1$@ %3$#@a@ %% %2$#@b@")
    }
}

/// Every valid corpus table (`.strings` and `.stringsdict`, one language each) goes through a
/// catalog and back to the same texts: folder → `StringsWriter.catalog` → `StringCatalog` →
/// tables, and those tables → `.strings`/`.stringsdict` text → our readers.
@Suite struct CatalogCorpusRoundTripTests {
    static let files = CorpusFile.all.filter { !$0.isNegative && ($0.kind == "strings" || $0.kind == "stringsdict") }

    @Test(.enabled(if: !CorpusFile.all.isEmpty, "../shared/corpus/strings absent"), arguments: files)
    func roundTrip(file: CorpusFile) throws {
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: file.path)))
        let lang = "xx"
        let name = file.kind == "strings" ? "Localizable.strings" : "Localizable.stringsdict"
        let inputs = LocalizationInputs(environment: [:], executablePath: nil, directoryExists: { $0 == "/D" || $0 == "/D/\(lang).lproj" },
                                        listDirectory: { $0 == "/D" ? ["\(lang).lproj"] : $0 == "/D/\(lang).lproj" ? [name] : nil },
                                        readFile: { $0 == "/D/\(lang).lproj/\(name)" ? bytes : nil })
        let folder = StringsFolder.load("/D", inputs: inputs)
        guard let table = folder.languages[lang], !table.isEmpty else { return }
        let json = StringsWriter.catalog(sourceLanguage: lang, tables: folder.languages)
        let catalog = try StringCatalog.parse(Array(json.utf8), file: "c.xcstrings")
        #expect(catalog.diagnostics.isEmpty, "\(catalog.diagnostics.prefix(3))")
        let (tables, diags) = catalog.tables()
        // The plural model's warnings are the ones the folder had (e.g. an unreferenced variable).
        let before = Set(folder.diagnostics.map(\.message))
        #expect(diags.allSatisfy { before.contains($0.message) }, "\(diags.prefix(3))")
        let got = tables[lang] ?? [:]
        let differing = Set(got.keys).union(table.keys).filter { got[$0] != table[$0] }.sorted()
        #expect(differing.isEmpty, "catalog round trip differs: \(differing.prefix(5)) e.g. \(differing.first.map { "\(String(describing: table[$0])) → \(String(describing: got[$0]))" } ?? "")")
        // The catalog's language written as the two files reads back the same.
        let l = try #require(catalog.languages[lang])
        var back: [String: LocalizedText] = [:]
        for (k, v) in try StringsParser.parse(StringsWriter.strings(l.strings), file: "w.strings").values { back[k] = .plain(v) }
        if !l.plurals.isEmpty {
            for (k, e) in try StringsdictModel.parse(Array(StringsWriter.xmlPlist(.dict(l.plurals)).utf8), file: "w.stringsdict").entries { back[k] = .plural(e) }
        }
        #expect(Set(back.keys).union(table.keys).filter { back[$0] != table[$0] }.isEmpty, "written files differ")
    }
}
