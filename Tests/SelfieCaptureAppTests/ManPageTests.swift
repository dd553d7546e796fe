import Testing
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
}
