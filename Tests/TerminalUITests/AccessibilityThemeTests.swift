import Testing
import Foundation
import CaptureModel
import TestSupport
@testable import TerminalUI

/// Issue #17: WCAG contrast of the themes, the oval's state by more than colour, `--theme auto`'s
/// background decision, `--reduced-motion`.
@Suite struct ContrastTests {
    @Test func wcagFormula() {
        // Values from the WCAG 2.1 definitions: white 1, black 0, white on black 21:1.
        #expect(Contrast.luminance(RGB(255, 255, 255)) == 1)
        #expect(Contrast.luminance(RGB(0, 0, 0)) == 0)
        #expect(abs(Contrast.ratio(RGB(255, 255, 255), RGB(0, 0, 0)) - 21) < 1e-9)
        #expect(Contrast.ratio(RGB(0, 0, 0), RGB(255, 255, 255)) == Contrast.ratio(RGB(255, 255, 255), RGB(0, 0, 0)))
        // #777777 on white: 4.48:1, the classic just-below-AA grey (WebAIM contrast checker).
        #expect(abs(Contrast.ratio(RGB(0x77, 0x77, 0x77), RGB(255, 255, 255)) - 4.48) < 0.005)
        // #767676 on white: 4.54:1, the lightest grey that passes.
        #expect(abs(Contrast.ratio(RGB(0x76, 0x76, 0x76), RGB(255, 255, 255)) - 4.54) < 0.005)
        // Pure red on white: 4.0:1.
        #expect(abs(Contrast.ratio(RGB(255, 0, 0), RGB(255, 255, 255)) - 4.0) < 0.005)
    }

    @Test func everyBuiltInThemeMeetsAA() {
        #expect(Theme.builtIn.map(\.name) == ["light", "dark", "high-contrast"])
        for (name, theme) in Theme.builtIn {
            let pairs = theme.contrastPairs()
            // Every colour is fixed, so every pair is checked (none left to the terminal).
            #expect(pairs.count == 7, "\(name)")
            for p in pairs {
                #expect(p.passes, "\(name): \(p)")
                #expect(p.ratio >= (p.name.contains("oval") || p.name.contains("progress") ? 3.0 : 4.5))
            }
            // The oval's two states are two colours (the old dark palette had one, #3C58E8, for both).
            #expect(theme.primary != theme.secondary, "\(name)")
            // No dim text: its colour would be the terminal's choice, unchecked.
            #expect(!theme.typography.values.contains { $0.contains(.dim) }, "\(name)")
        }
    }

    /// In a 256-colour terminal (TERM=xterm-256color) each colour is drawn as its palette entry:
    /// the pairs still pass (xterm under Xvfb drew #1565C0 as #005faf, 6.45:1 on white).
    @Test func everyBuiltInThemeMeetsAAIn256Colours() {
        func drawn(_ c: RGB) -> RGB {
            let i = ColorQuantizer.palette256(c)
            if i >= 232 { let v = UInt8(8 + 10 * (i - 232)); return RGB(v, v, v) }
            let levels: [UInt8] = [0, 95, 135, 175, 215, 255]
            let n = i - 16
            return RGB(levels[n / 36], levels[n / 6 % 6], levels[n % 6])
        }
        for (name, theme) in Theme.builtIn {
            for p in theme.contrastPairs() {
                let r = Contrast.ratio(drawn(p.foreground), drawn(p.background))
                #expect(r >= p.minimum, "\(name) in 256 colours: \(p.name) \(r):1")
            }
        }
    }

    @Test func themeFileBelowContrastIsAcceptedWithAWarning() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("a11y-theme-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("pale.json")
        try Data(##"{"base": "light", "colors": {"text": "#999999"}}"##.utf8).write(to: file)
        let theme = try ThemeLoader.load(.file(file.path), environment: [:])
        #expect(theme.text == .rgb(RGB(0x99, 0x99, 0x99)))
        let warnings = ThemeLoader.contrastWarnings(theme, file: file.path)
        #expect(warnings.count == 1)
        // #999999 on white: 2.85:1.
        #expect(warnings.first == "\(file.path): warning: text on background (#999999 on #ffffff) has contrast 2.85:1, below 4.5:1 (WCAG 2.1 SC 1.4.3)")
        #expect(ThemeLoader.contrastWarnings(.light, file: "x").isEmpty)
    }

    @Test func highContrastByName() throws {
        #expect(ThemeChoice(argument: "high-contrast") == .highContrast)
        #expect(try ThemeLoader.load(.highContrast, environment: [:]) == .highContrast)
    }
}

@Suite struct BackgroundDecisionTests {
    @Test func osc11ColourFirstThenColorfgbg() {
        let white = BackgroundGuess.decide(backgroundRGB: RGB(255, 255, 255), colorfgbg: "15;0")
        #expect(white.kind == .light && white.source == "OSC 11" && white.luminance == 1)
        #expect(BackgroundGuess.decide(backgroundRGB: RGB(0, 0, 0), colorfgbg: "0;15").kind == .dark)
        // Around the crossover (L ≈ 0.179): mid grey #808080 (L 0.216) is light, #707070 (0.162) dark.
        #expect(BackgroundGuess.decide(backgroundRGB: RGB(0x80, 0x80, 0x80), colorfgbg: nil).kind == .light)
        #expect(BackgroundGuess.decide(backgroundRGB: RGB(0x70, 0x70, 0x70), colorfgbg: nil).kind == .dark)
        // Solarized light base3 #FDF6E3 and dark base03 #002B36.
        #expect(BackgroundGuess.decide(backgroundRGB: RGB(0xFD, 0xF6, 0xE3), colorfgbg: nil).kind == .light)
        #expect(BackgroundGuess.decide(backgroundRGB: RGB(0x00, 0x2B, 0x36), colorfgbg: nil).kind == .dark)
        // The crossover is where black and white text contrast the same.
        let l = Contrast.lightBackgroundLuminance
        #expect(abs((l + 0.05) / 0.05 - 1.05 / (l + 0.05)) < 1e-9)
    }

    @Test func colorfgbgThenUnknown() throws {
        for (v, kind) in [("0;15", BackgroundKind.light), ("0;7", .light), ("15;0", .dark), ("7;8", .dark),
                          ("default;default;15", .light), ("x", .unknown), ("15;99", .unknown)] {
            let g = BackgroundGuess.decide(backgroundRGB: nil, colorfgbg: v)
            #expect(g.kind == kind, "\(v)")
        }
        let none = BackgroundGuess.decide(backgroundRGB: nil, colorfgbg: nil)
        #expect(none.kind == .unknown && none.source == "none")
        // Unknown: the dark theme, which paints its own background, so it reads on any terminal.
        #expect(none.theme == .dark)
        if case .rgb = Theme.dark.background {} else { Issue.record("the dark theme must paint its background") }
        #expect(try ThemeLoader.load(.auto, environment: [:], backgroundRGB: RGB(255, 255, 255)) == .light)
        #expect(try ThemeLoader.load(.auto, environment: ["COLORFGBG": "0;15"], backgroundRGB: RGB(0, 0, 0)) == .dark)
    }
}

@Suite struct OvalStateTests {
    static func render(valid: Bool, theme: Theme, colorMode: ColorMode, glyphs: Glyphs) -> RenderedScreen {
        let ctx = RenderContext(size: Size(cols: 80, rows: 24), strings: ProjectStrings.en, theme: theme, colorMode: colorMode, glyphs: glyphs)
        return Screens.render(PhaseFixture.capture(.positioning, hint: valid ? .holdStill : .moveLeft, valid: valid), context: ctx)
    }

    /// The oval's state differs by characters, not only colours: the text alone (what a
    /// monochrome terminal or a colour-blind person sees) tells valid from not valid.
    @Test func validAndInvalidDifferByMoreThanColour() {
        var cases: [(String, Theme, ColorMode, Glyphs)] = Theme.builtIn.map { ($0.name, $0.theme, .direct, .unicode) }
        cases.append(("NO_COLOR", Theme.dark.withoutColor(), .none, .unicode))
        cases.append(("TERM=vt100 (no colour, ASCII)", Theme.dark, .none, .asciiOnly))
        for (name, theme, mode, glyphs) in cases {
            let valid = Self.render(valid: true, theme: theme, colorMode: mode, glyphs: glyphs)
            let invalid = Self.render(valid: false, theme: theme, colorMode: mode, glyphs: glyphs)
            // Compare the preview area only (the hint line's words differ anyway).
            let rows = 2..<20
            let v = valid.canvas.textRows()[rows].joined(separator: "\n")
            let i = invalid.canvas.textRows()[rows].joined(separator: "\n")
            #expect(v != i, "\(name): the oval looks the same in both states but for colour")
            let (okMark, badMark) = glyphs.ascii ? ("OK", " X ") : ("\u{2713}", "\u{2717}")
            #expect(v.contains(okMark) && !v.contains(badMark), "\(name)")
            #expect(i.contains(badMark) && !i.contains(okMark), "\(name)")
        }
    }
}

@Suite struct ReducedMotionTests {
    static func loading(elapsedMs: Int, reduced: Bool, stage: LoadingStage = .model) -> [String] {
        var ctx = RenderContext(size: Size(cols: 80, rows: 24), strings: ProjectStrings.en, theme: .dark)
        ctx.reducedMotion = reduced
        return Screens.render(.loading(LoadingViewState(stage: stage, elapsedMs: elapsedMs)), context: ctx).canvas.textRows()
    }

    @Test func loadingScreenIsStatic() {
        // Without --reduced-motion the seconds run; with it the screen does not change over time.
        #expect(Self.loading(elapsedMs: 300, reduced: false) != Self.loading(elapsedMs: 2700, reduced: false))
        let a = Self.loading(elapsedMs: 300, reduced: true), b = Self.loading(elapsedMs: 2700, reduced: true)
        #expect(a == b)
        // … and shows a progress line with its stage.
        #expect(a.contains { $0.contains("1/2") && $0.contains("█") })
        #expect(Self.loading(elapsedMs: 0, reduced: true, stage: .camera).contains { $0.contains("2/2") })
        #expect(!a.joined().contains(" s"))
    }
}

/// Issue #27: the themes at 8 and 16 colours, checked as xterm shows them (its default palette,
/// bold base colours drawn bright, default colours black on white or white on black).
@Suite struct LowColorThemeTests {
    static let base = Array(ANSIPalette.xterm.prefix(8))

    @Test func everyBuiltInThemeMeetsAAIn8And16Colours() {
        for (name, theme) in Theme.builtIn {
            let t = theme.fittedToANSI()
            let pairs = t.contrastPairs()
            #expect(pairs.count == 7, "\(name): every pair checked, defaults included")
            for p in pairs { #expect(p.passes, "\(name) at 8/16 colours: \(p)") }
            // Only the eight base colours or the terminal's default: the same at TERM=xterm (8) and 16.
            for c in [t.primary, t.secondary, t.cardBackground, t.overlayBackground, t.text, t.background] {
                if case .rgb(let v) = c { #expect(Self.base.contains(v), "\(name): \(v) is not a base ANSI colour") }
            }
            #expect(t.primary != t.secondary, "\(name): the oval's two states differ")
        }
    }

    /// The issue's xterm: the old quantisation drew the light theme's bold titles in bright cyan
    /// on grey90 (#00FFFF on #E5E5E5, 1.0:1) and the button white on #00CDCD (2.0:1).
    @Test func lightThemeUsesDefaultColoursAndReverseVideoNotCyan() {
        let t = Theme.light.fittedToANSI()
        #expect(t.text == .terminalDefault && t.background == .terminalDefault && t.primary == .terminalDefault)
        #expect(t.buttonStyle().attrs.contains(.reverse))
        // The hints' colour is the one base colour that stays ≥ 4.5:1 on white when bold: blue,
        // drawn #5C5CFF (4.75:1, WCAG formula).
        #expect(t.secondary == .rgb(RGB(0, 0, 0xEE)))
        let hint = t.contrastPairs().first { $0.name.hasPrefix("secondary") }
        #expect(hint?.foreground == RGB(0x5C, 0x5C, 0xFF))
        #expect(abs((hint?.ratio ?? 0) - 4.75) < 0.01)
        // The old mapping, for the record: nearest-colour cyan for #1565C0's titles fails.
        #expect(Contrast.ratio(ANSIPalette.shownBold(ColorQuantizer.ansi16[6]), ColorQuantizer.ansi16[7]) < 1.1)
    }

    /// The keys help gets the fitted theme too: at 16 colours with the light theme its bold
    /// title is in the terminal's default colours (before, the quantised light theme drew it
    /// bold black on ANSI white, which xterm shows #7F7F7F on #E5E5E5, 3.2:1), and every cell
    /// uses base colours or the defaults.
    @Test func keysHelpAt16ColoursUsesTheFittedTheme() {
        let c = RenderContext(size: Size(cols: 80, rows: 24), strings: StubStrings(locale: "en"), theme: .light, colorMode: .ansi16)
        let screen = KeysHelp.render(screen: .capture, context: c)
        let fitted = Theme.light.fittedToANSI()
        var titleCells = 0
        for y in 0..<24 { for x in 0..<80 {
            let cell = screen.canvas[x, y]
            for col in [cell.style.fg, cell.style.bg] { if case .rgb(let v) = col { #expect(Self.base.contains(v), "\(v) at \(x),\(y)") } }
            if cell.style.attrs.contains(.bold), cell.text?.isLetter == true {
                titleCells += 1
                #expect(cell.style.fg == fitted.text && cell.style.bg == fitted.background, "bold letter at \(x),\(y): \(cell.style)")
            }
        } }
        #expect(titleCells > 0)
    }

    /// The screens get the fitted theme at 16 colours: the capture screen's title is drawn in the
    /// default colour and the preview is a grey ramp of shades of ANSI white over black.
    @Test func captureScreenAt16ColoursIsGreyRampAndDefaultText() {
        var px = [UInt8]()
        for i in 0..<(64 * 48) {
            let v = UInt8(i % 64 * 4)
            px += [v, v, v]
        }
        let img = PreviewImage(width: 64, height: 48, rgb: px)
        var s = CaptureViewState(image: img)
        s.isValid = true
        let c = RenderContext(size: Size(cols: 80, rows: 24), strings: StubStrings(locale: "en"), theme: .light, colorMode: .ansi16)
        let screen = Screens.render(.capture(s), context: c)
        var colours = Set<Color>()
        var shades = Set<Character>()
        for y in 0..<24 { for x in 0..<80 {
            let cell = screen.canvas[x, y]
            colours.insert(cell.style.fg); colours.insert(cell.style.bg)
            if let ch = cell.text, "░▒▓█".contains(ch) { shades.insert(ch) }
        } }
        for col in colours { if case .rgb(let v) = col { #expect(Self.base.contains(v), "\(v) is not a base ANSI colour") } }
        #expect(shades.count >= 3, "grey ramp levels drawn: \(shades)")
        #expect(!colours.contains(.rgb(RGB(0, 0xCD, 0xCD))), "no cyan")
    }
}
