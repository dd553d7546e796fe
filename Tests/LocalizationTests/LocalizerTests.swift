import Foundation
import Testing
import TestSupport
@testable import Localization

/// An in-memory file system for `LocalizationInputs`.
func memoryInputs(_ files: [String: String], env: [String: String] = [:], exe: String? = nil) -> LocalizationInputs {
    let data = files.mapValues { Array($0.utf8) }
    var dirs = Set<String>()
    for path in files.keys {
        var p = path
        while let slash = p.lastIndex(of: "/"), slash != p.startIndex { p = String(p[..<slash]); dirs.insert(p) }
    }
    let allDirs = dirs
    return LocalizationInputs(
        environment: env, executablePath: exe,
        directoryExists: { allDirs.contains($0) },
        listDirectory: { dir in
            guard allDirs.contains(dir) else { return nil }
            let prefix = dir + "/"
            return Array(Set((Array(allDirs) + Array(data.keys)).filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count).split(separator: "/")[0]) }))
        },
        readFile: { data[$0] })
}

private let count = stringsdict("files", "%#@n@", [("n", [plural, valueType("d"), ("one", "%d file"), ("other", "%d files")])])

@Suite struct LocaleResolverTests {
    @Test func fromEnvironment() {
        #expect(LocaleResolver.resolve(explicit: "pl", environment: ["LANG": "fr_FR.UTF-8"]) == "pl")
        #expect(LocaleResolver.resolve(explicit: nil, environment: ["LC_ALL": "de_DE.UTF-8@euro", "LANG": "fr"]) == "de_DE")
        #expect(LocaleResolver.resolve(explicit: nil, environment: ["LC_ALL": "C", "LC_MESSAGES": "POSIX", "LANG": "fr_CA.UTF-8"]) == "fr_CA")
        #expect(LocaleResolver.resolve(explicit: nil, environment: ["LC_ALL": "", "LC_MESSAGES": "C.UTF-8"]) == "en")
        #expect(LocaleResolver.resolve(explicit: "fr-CA", environment: [:]) == "fr_CA")
    }

    @Test func chain() {
        #expect(LocaleResolver.fallbackChain("fr_CA") == ["fr_CA", "fr", "en"])
        #expect(LocaleResolver.fallbackChain("zh_Hans_CN") == ["zh_Hans_CN", "zh_Hans", "zh", "en"])
        #expect(LocaleResolver.fallbackChain("en_GB") == ["en_GB", "en"])
        // Joined by hand since issue #28: one part, the base itself, and a hyphenated tag.
        #expect(LocaleResolver.fallbackChain("de") == ["de", "en"])
        #expect(LocaleResolver.fallbackChain("en") == ["en"])
        #expect(LocaleResolver.fallbackChain("sr-Latn-RS") == ["sr_Latn_RS", "sr_Latn", "sr", "en"])
    }
}

@Suite struct LocalizationPathsTests {
    @Test func builtInFromExecutable() {
        let inputs = memoryInputs(["/root/Localizations/en.lproj/Localizable.strings": ""], exe: "/root/.build/debug/selfie-capture")
        #expect(LocalizationPaths.resolve(stringsDirectories: [], inputs: inputs).builtIn == "/root/Localizations")
    }

    @Test func explicitThenEnvironment() {
        let inputs = memoryInputs(["/root/Localizations/en.lproj/Localizable.strings": "", "/env/L/en.lproj/Localizable.strings": ""],
                                  env: ["SELFIE_CAPTURE_LOCALIZATIONS": "/env/L"], exe: "/root/.build/debug/selfie-capture")
        #expect(LocalizationPaths.resolve(explicitBuiltIn: "/x/L", stringsDirectories: [], inputs: inputs).builtIn == "/x/L")
        #expect(LocalizationPaths.resolve(stringsDirectories: [], inputs: inputs).builtIn == "/env/L")
    }

    @Test func overridesOrder() {
        let inputs = memoryInputs(["/cfg/selfie-capture/Localizations/de.lproj/Localizable.strings": "",
                                   "/home/u/.config/selfie-capture/Localizations/x.lproj/Localizable.strings": ""],
                                  env: ["XDG_CONFIG_HOME": "/cfg", "HOME": "/home/u"])
        #expect(LocalizationPaths.resolve(stringsDirectories: ["/a", "/b"], inputs: inputs).overrides == ["/cfg/selfie-capture/Localizations", "/a", "/b"])
        var noXDG = inputs
        noXDG.environment = ["HOME": "/home/u"]
        #expect(LocalizationPaths.resolve(stringsDirectories: [], inputs: noXDG).overrides == ["/home/u/.config/selfie-capture/Localizations"])
    }
}

@Suite struct LocalizerTests {
    static let files: [String: String] = [
        "/b/en.lproj/Localizable.strings": "\"hello\" = \"Hello\";\n\"saved\" = \"Saved to %@\";\n\"two\" = \"%@ has %d\";\n\"only_en\" = \"English only\";",
        "/b/en.lproj/Localizable.stringsdict": count,
        "/b/fr.lproj/Localizable.strings": "\"hello\" = \"Bonjour\";\n\"saved\" = \"Enregistré dans %@ et %@\";\n\"two\" = \"%d chez %@\";",
        "/b/fr.lproj/Localizable.stringsdict": stringsdict("files", "%#@n@", [("n", [plural, valueType("d"), ("one", "%d fichier"), ("other", "%d fichiers")])]),
        "/o1/fr_CA.lproj/Localizable.strings": "\"hello\" = \"Allô\";",
        "/o2/fr.lproj/Localizable.strings": "\"hello\" = \"Salut\";",
        "/o2/pl.lproj/Localizable.stringsdict": stringsdict("files", "%#@n@", [("n", [plural, valueType("d"), ("one", "%d plik"), ("few", "%d pliki"), ("many", "%d plików")])]),
        "/o2/xx.lproj/Localizable.strings": "\"hello\" = \"Xx\";",
    ]

    func localizer(_ locale: String, _ folders: [String] = ["/b", "/o1", "/o2"]) -> Localizer {
        Localizer(locale: locale, folders: folders, inputs: memoryInputs(Self.files))
    }

    @Test func chainAndLayers() {
        #expect(localizer("fr_CA").text("hello") == "Allô")           // fr_CA.lproj in an override
        #expect(localizer("fr").text("hello") == "Salut")             // a later layer wins per key
        #expect(localizer("fr", ["/b"]).text("hello") == "Bonjour")
        #expect(localizer("fr_CA").text("only_en") == "English only") // fr_CA → fr → en
        #expect(localizer("xx").text("hello") == "Xx")                // a new language dropped in an override
        #expect(localizer("de").text("hello") == "Hello")
        #expect(localizer("fr").text("no_such_key") == "no_such_key")
    }

    @Test func plurals() {
        #expect(localizer("fr").text("files", [.int(0)]) == "0 fichier")
        #expect(localizer("fr_CA").text("files", [.int(2)]) == "2 fichiers")
        #expect(localizer("en").text("files", [.int(1)]) == "1 file")
        // The pl entry lacks `other`: its one/few/many cover every integer (issue #15).
        #expect(localizer("pl").text("files", [.int(22)]) == "22 pliki")
        #expect(localizer("pl").text("files", [.int(25)]) == "25 plików")
        #expect(localizer("pl").diagnostics.isEmpty)
    }

    /// FMT-01/02: translations whose specifiers do not match the base are rejected at load.
    @Test func mismatchedTranslationsFallBack() {
        let l = localizer("fr")
        #expect(l.text("saved", [.string("/tmp/x")]) == "Saved to /tmp/x")
        #expect(l.text("two", [.string("Ann"), .int(3)]) == "Ann has 3")
        #expect(l.diagnostics.contains { $0.keyPath == "saved" && $0.message.hasPrefix("uses argument 2 but the base text takes 1 argument(s)") })
        #expect(l.diagnostics.contains { $0.keyPath == "two" && $0.message.hasPrefix("argument 1 is int but string in the base text") })
    }

    /// Never crashes: wrong caller arguments give the raw text.
    @Test func wrongArgumentsNeverCrash() {
        #expect(localizer("en").text("saved") == "Saved to %@")
        #expect(localizer("en").text("files", [.string("x")]) == "%#@n@")
    }

    /// The project's own tables hold every key of KEYS.md, in English and French, with
    /// matching specifiers and no diagnostics.
    @Test func projectTablesCoverKeys() throws {
        let root = TestSupport.projectRoot().path
        let keysDoc = try String(contentsOfFile: root + "/Localizations/KEYS.md", encoding: .utf8)
        var keys = Set<String>()
        for line in keysDoc.split(separator: "\n") where line.hasPrefix("| selfie_capture_") {
            let cell = line.split(separator: "|")[0].trimmingCharacters(in: .whitespaces)
            if let k = cell.split(separator: " ").first { keys.insert(String(k)) }
        }
        keys.remove("selfie_capture_hint_no_face")
        for hint in ["no_face", "multiple_faces", "get_closer", "get_further", "move_left", "move_right", "move_up", "move_down",
                     "turn_head_less", "level_head", "too_dark", "too_bright", "too_blurry", "open_eyes", "hold_still"] {
            keys.insert("selfie_capture_hint_" + hint)
        }
        #expect(keys.count == 109)   // KEYS.md rows (1 for a run ended by SIGTERM or SIGHUP, 4 for issue #25: the challenge's three instructions and its failure, 1 status-line latency (#16), 7 for issue #18 A (plain keys, failed screen words and advice, waiting and opening a video) less the 2 they replaced, 9 for the `?` keys help (#18), 12 announcements (#17), 1 waiting for the source and 1 rejected string files (#14), 10 for issue #19 (footer keys, status line, result folder and files, final stderr lines) less the 2 footers they replaced, 5 quality hints (#11), 2 for the loading screen's model times, 3 for the failed screen's attempts, 3 restart messages, 1 face lost, 1 fewer stills)
        for lang in ["en", "fr"] {
            let l = Localizer(locale: lang, folders: [root + "/Localizations"], inputs: .current())
            #expect(l.diagnostics.isEmpty, "\(l.diagnostics)")
            for k in keys {
                let hit = l.lookup(k)
                #expect(hit?.language == lang, "\(lang): \(k) missing")
            }
        }
        let fr = Localizer(locale: "fr", folders: [root + "/Localizations"], inputs: .current())
        #expect(fr.text("selfie_capture_recording_duration", [.int(1)]) == "L’enregistrement durera 1 seconde")
        #expect(fr.text("selfie_capture_result_frames", [.int(0)]) == "Aucune image enregistrée")
        #expect(fr.text("selfie_capture_result_duration", [.double(3.04)]) == "Durée\u{A0}: 3,0 s")
        let en = Localizer(locale: "en", folders: [root + "/Localizations"], inputs: .current())
        #expect(en.text("selfie_capture_countdown", [.int(3)]) == "Recording in 3 seconds")
        #expect(en.text("selfie_capture_too_small", [.int(80), .int(24)]) == "Enlarge the window to at least 80×24")
    }
}
