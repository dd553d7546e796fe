import Testing
@testable import Localization

/// The `en-XA` pseudo-locale (issue #15).
@Suite struct PseudoLocaleTests {
    /// The issue's example, letter for letter; every ASCII letter has an accented form.
    @Test func accentsBracketsAndLength() {
        #expect(PseudoLocale.text("Place your face in the oval") == "[Ṕļåçé ýöûŕ ƒåçé ïñ ţĥé öṽåļ one two]")
        #expect(PseudoLocale.accents.count == 52)
        #expect(Set(PseudoLocale.accents.values).count == 52)
        // About 40 % longer: within half a filler word of 1.4 × the text for texts of 10+ letters.
        for s in ["Hold still", "Move your head closer to the camera", "Recording will last 3 seconds, keep your face in the oval"] {
            let n = Double(s.count), got = Double(PseudoLocale.text(s).count)
            #expect(abs(got - 1.4 * n) <= 3.5, "\(s): \(got) vs \(1.4 * n)")
        }
        #expect(PseudoLocale.text("") == "[]")
        #expect(PseudoLocale.text("OK") == "[ÖĶ]")
    }

    /// Specifiers, variables and `%%` are kept verbatim.
    @Test func formatsKept() throws {
        let out = PseudoLocale.text("%1$@ has %2$d%% of %#@n@ (%.1f s)")
        #expect(out.hasPrefix("[%1$@ ĥåš %2$d%% öƒ %#@n@ (%.1f š)"))
        #expect(TextFormatter.signature(of: out).types == TextFormatter.signature(of: "%1$@ has %2$d%% of %#@n@ (%.1f s)").types)
        #expect(try TextFormatter.format(PseudoLocale.text("%d%% done"), [.int(5)]).hasPrefix("[5% ðöñé"))
    }

    /// Through the localizer: `--locale en-XA` takes the English tables, keeps plural selection
    /// and arguments, and a real en_XA table (if any) still wins.
    @Test func localizer() {
        let inputs = memoryInputs([
            "/L/en.lproj/Localizable.strings": "\"title\" = \"Place your face in the oval\";\n\"saved\" = \"Saved to %@\";\n",
            "/L/en.lproj/Localizable.stringsdict": stringsdict("sec", "%#@n@", [("n", [plural, valueType("d"), ("one", "%d second"), ("other", "%d seconds")])]),
            "/L/fr.lproj/Localizable.strings": "\"title\" = \"Placez votre visage\";\n",
            "/M/en_XA.lproj/Localizable.strings": "\"saved\" = \"[custom %@]\";\n",
        ])
        let l = Localizer(locale: LocaleResolver.resolve(explicit: "en-XA", environment: ["LANG": "fr_FR.UTF-8"]), folders: ["/L"], inputs: inputs)
        #expect(l.locale == "en_XA")
        #expect(l.diagnostics.isEmpty)
        #expect(l.text("title") == "[Ṕļåçé ýöûŕ ƒåçé ïñ ţĥé öṽåļ one two]")
        #expect(l.text("saved", [.string("/tmp/x")]) == "[Šåṽéð ţö /tmp/x]")
        #expect(l.text("sec", [.int(1)]) == "[1 šéçöñð one]")
        #expect(l.text("sec", [.int(3)]) == "[3 šéçöñðš one]")
        let custom = Localizer(locale: "en-XA", folders: ["/L", "/M"], inputs: inputs)
        #expect(custom.text("saved", [.string("x")]) == "[custom x]")
    }
}
