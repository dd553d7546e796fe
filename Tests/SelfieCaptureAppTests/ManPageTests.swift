import Testing
import CaptureFlow
@testable import SelfieCaptureApp

/// The man page and completions are generated from the option specs (issue #18): roff escaping
/// per groff(7), and every option of every command present.
@Suite struct ManPageTests {
    @Test func roffEscaping() {
        // A backslash is `\e`; a hyphen `\-`; a line starting with a control character is guarded.
        #expect(ManPage.escape(#"a\b"#) == #"a\eb"#)
        #expect(ManPage.escape("--source") == #"\-\-source"#)
        #expect(ManPage.escape(".avi files\n'quoted' text") == "\\&.avi files\n\\&'quoted' text")
        #expect(ManPage.escape("mid .dot and 'quote'") == "mid .dot and 'quote'")
    }

    @Test func everyOptionOfEveryCommandIsDocumented() {
        let page = ManPage.render()
        #expect(page.hasPrefix(".\\\" Generated") && page.contains(".TH SELFIE\\-CAPTURE 1"))
        for c in Commands.all + Commands.stringsSubcommands {
            for o in c.options { #expect(page.contains("\\fB" + ManPage.escape(o.name) + "\\fR"), "\(c.name) \(o.name)") }
            if c.name != "strings" { #expect(page.contains(ManPage.escape(c.usage)), "\(c.name) usage") }
        }
        // No line of the source starts with a control character except the macros themselves.
        for line in page.split(separator: "\n") where line.hasPrefix("'") { Issue.record("unguarded line: \(line)") }
        let bash = Completions.bash(), zsh = Completions.zsh()
        for o in Commands.capture.options {
            #expect(bash.contains("\"capture|" + o.name + "\")"), "bash \(o.name)")
            #expect(zsh.contains("'" + o.name + "[") || zsh.contains("'*" + o.name + "["), "zsh \(o.name)")
        }
    }

    /// Issue #29: the man page has the interactive keys, the key-script grammar, every event
    /// name, the reset/stty sane advice, and FILES under the prefix it is installed to.
    @Test func manPageHasKeysScriptsEventsTerminalAdviceAndTheRealPrefix() {
        let page = ManPage.render(prefix: "/usr/local")
        for section in [".SH KEYS", ".SH \"KEY SCRIPTS\"", ".SH EVENTS", ".SH TERMINAL"] { #expect(page.contains(section), "\(section)") }
        for key in [".B s\n", ".B ?\n", ".B Ctrl\\-Z\n", ".B Esc, Backspace\n", ".B i\n", ".B q, Ctrl\\-C\n"] { #expect(page.contains(key), "\(key)") }
        #expect(page.contains("wait\\-for EVENT") && page.contains("wait 1.5s"))
        for e in EventName.allCases { #expect(page.contains(ManPage.escape(e.rawValue)), "\(e.rawValue)") }
        #expect(page.contains("\\(aqreset\\(aq") || page.contains("'reset'"))
        #expect(page.contains("stty sane"))
        #expect(page.contains("/usr/local/share/selfie\\-capture/Localizations") && !page.contains("PREFIX/"))
    }

    /// Issue #29: `--locale` completes to the built-in locales and en-XA (the scripts add the
    /// installed and user folders at completion time); `verify` completes folders only.
    @Test func completionsOfferLocalesAndVerifyFolders() {
        let bash = Completions.bash(), zsh = Completions.zsh()
        #expect(Completions.builtInLocales().starts(with: ["en-XA"]))
        #expect(Set(Completions.builtInLocales()).isSuperset(of: ["en-XA", "en", "fr"]), "\(Completions.builtInLocales())")
        #expect(bash.contains("\"|--locale\"|\"capture|--locale\") _selfie_capture_locales; return ;;"))
        #expect(bash.contains("\"strings format|--locale\") _selfie_capture_locales; return ;;"))
        #expect(bash.contains("verify) _selfie_capture_files -d ;;"))
        #expect(zsh.contains(":TAG:_selfie_capture_locales") && zsh.contains("_selfie_capture_locales() {"))
    }
}

