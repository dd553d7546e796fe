import CaptureFlow
import Foundation
import Localization
import SelfieCaptureApp
import Testing
import TestSupport

/// A fresh temporary folder with `files` (relative path → content).
private func tree(_ files: [String: String]) throws -> String { try TestSupport.tempTree(files, prefix: "strings-override") }

/// `strings lint` on override folders with a partial `en.lproj` (issue #14): the other languages
/// are compared with the built-in English merged with the override, as the app layers them.
@Suite struct PartialEnglishOverrideLintTests {
    @Test func germanKeysAreCheckedAgainstBuiltInEnglishMergedWithTheOverride() throws {
        let dir = try tree([
            // Changes one English text, adds one key of its own.
            "en.lproj/Localizable.strings": "\"selfie_capture_continue\" = \"Go on\";\n\"mytexts_extra\" = \"Extra %d\";\n",
            "de.lproj/Localizable.strings": """
                "selfie_capture_continue" = "Weiter";
                "selfie_capture_start" = "Starten";
                "selfie_capture_failed_reason" = "Grund: %@";
                "mytexts_extra" = "Extra %d";
                "selfie_capture_restarted" = "Neu gestartet: %d";
                "selfie_capture_contnue" = "Weiter";

                """,
        ])
        let r = run(["strings", "lint", dir, "--base", "en"], handlers: CommandRegistry.handlers)
        let de = dir + "/de.lproj/Localizable.strings"
        #expect(r.out.hasPrefix("note: checking against the built-in "), "\(r.out)")
        // Built-in keys and the override's own key are known; only the misspelt one is not.
        #expect(r.out.contains("\(de):6:28: warning: selfie_capture_contnue: key not in 'en' (never used)"), "\(r.out)")
        for k in ["selfie_capture_continue", "selfie_capture_start", "selfie_capture_failed_reason", "mytexts_extra"] {
            #expect(!r.out.contains("\(k): key not in 'en'"), "\(k)\n\(r.out)")
        }
        // Specifiers are checked against the built-in English text (the localizer's reference).
        #expect(r.out.contains("\(de):5:30: error: selfie_capture_restarted: argument 1 is int but string in the base text"), "\(r.out)")
        // Built-in keys the override leaves out fall back by design: no "missing key".
        #expect(!r.out.contains("missing key"), "\(r.out)")
        #expect(r.out.hasSuffix("1 error(s), 1 warning(s)\n"), "\(r.out)")
        #expect(r.code == 65)
    }

    /// Without the error, a partial English override and a German one lint clean (exit 0).
    @Test func cleanOverrideLintsClean() throws {
        let dir = try tree([
            "en.lproj/Localizable.strings": "\"selfie_capture_continue\" = \"Go on\";\n",
            "de.lproj/Localizable.strings": "\"selfie_capture_continue\" = \"Weiter\";\n\"selfie_capture_failed_reason\" = \"Grund: %@\";\n",
        ])
        let r = run(["strings", "lint", dir], handlers: CommandRegistry.handlers)
        #expect(r.code == 0, "\(r.out)")
        #expect(r.out.hasSuffix("0 error(s), 0 warning(s)\n"), "\(r.out)")
    }

    /// The built-in folder itself is still linted alone (its own English is the base).
    @Test func builtInFolderAlone() {
        let r = run(["strings", "lint", TestSupport.projectRoot().path + "/Localizations/"], handlers: CommandRegistry.handlers)
        #expect(r.code == 0)
        #expect(r.out == "0 error(s), 0 warning(s)\n")
    }
}

