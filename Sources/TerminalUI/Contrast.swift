import Foundation

/// WCAG 2.1 contrast (issue #17): relative luminance, contrast ratio, the colour pairs of a theme
/// and the light/dark decision for `--theme auto`.
public enum Contrast {
    /// Smallest ratio for text: 4.5:1 (WCAG 2.1 SC 1.4.3, Contrast (Minimum), level AA).
    public static let text = 4.5
    /// Smallest ratio for graphical objects and user-interface components: 3:1 (WCAG 2.1
    /// SC 1.4.11, Non-text Contrast): the oval and the progress bar.
    public static let nonText = 3.0

    /// Relative luminance 0…1 of an sRGB colour (WCAG 2.1, "relative luminance"):
    /// L = 0.2126 R + 0.7152 G + 0.0722 B of the linearised channels, each
    /// c/12.92 when c ≤ 0.03928, else ((c + 0.055)/1.055)^2.4, with c = channel/255.
    public static func luminance(_ c: RGB) -> Double {
        func lin(_ v: UInt8) -> Double {
            let s = Double(v) / 255
            return s <= 0.03928 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b)
    }

    /// Contrast ratio 1…21 of two colours: (L1 + 0.05) / (L2 + 0.05), L1 the lighter (WCAG 2.1,
    /// "contrast ratio").
    public static func ratio(_ a: RGB, _ b: RGB) -> Double {
        let la = luminance(a), lb = luminance(b)
        return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
    }

    /// The luminance above which black text contrasts more than white text: where
    /// (L + 0.05)/0.05 = 1.05/(L + 0.05), L = √0.0525 − 0.05 ≈ 0.179. A background above it is
    /// "light" (a dark-text theme reads better on it), below it "dark".
    public static let lightBackgroundLuminance = (0.0525).squareRoot() - 0.05
}

/// One colour pair of a theme that WCAG asks about.
public struct ContrastPair: Sendable, Equatable, CustomStringConvertible {
    /// What is drawn, e.g. "text on background".
    public var name: String
    public var foreground: RGB
    public var background: RGB
    /// The ratio it must reach: `Contrast.text` or `Contrast.nonText`.
    public var minimum: Double
    /// The success criterion the minimum comes from.
    public var criterion: String
    public var ratio: Double { Contrast.ratio(foreground, background) }
    public var passes: Bool { ratio >= minimum }

    public var description: String {
        String(format: "%@ (%@ on %@) has contrast %.2f:1, below %.1f:1 (%@)", name, foreground.hex, background.hex,
               ratio, minimum, criterion)
    }
}

extension RGB {
    /// `#rrggbb`.
    public var hex: String { String(format: "#%02x%02x%02x", r, g, b) }
}

extension Theme {
    /// Every pair WCAG asks about, for the colours this theme fixes (a pair with the terminal's
    /// default colour on either side is left out: its contrast is the terminal's, unknown here):
    /// - text (4.5:1, SC 1.4.3): running text, titles (`primary`), hints and warnings
    ///   (`secondary`), each on `background`; a button's text on `primary`;
    /// - non-text (3:1, SC 1.4.11): the oval's outline in both states (`primary`, `secondary`)
    ///   against the dimmed outside of the oval (`overlayBackground`) and against `background`;
    ///   the progress bar's fill (`primary`) against its track (`cardBackground`).
    public func contrastPairs() -> [ContrastPair] {
        // A default colour counts as `assumedForeground`/`assumedBackground` when the theme says
        // what they are (`fittedToANSI`); in a low-colour theme bold text in a base ANSI colour
        // counts as its bright partner (`ANSIPalette.shownBold`, xterm's boldColors).
        func rgb(_ c: Color, asBackground: Bool) -> RGB? {
            if case .rgb(let v) = c { return v }
            return asBackground ? assumedBackground : assumedForeground
        }
        var out: [ContrastPair] = []
        func add(_ name: String, _ fg: Color, _ bg: Color, _ min: Double, bold: Bool = false, reverse: Bool = false) {
            guard var f = rgb(fg, asBackground: false), var b = rgb(bg, asBackground: true) else { return }
            // Bold brightens a base colour, not the terminal's default foreground.
            if bold && lowColor, fg != .terminalDefault { f = ANSIPalette.shownBold(f) }
            // Reverse video: the cell is filled with the foreground colour and the letters take
            // the background colour.
            if reverse { swap(&f, &b) }
            out.append(ContrastPair(name: name, foreground: f, background: b, minimum: min,
                                    criterion: min == Contrast.text ? "WCAG 2.1 SC 1.4.3" : "WCAG 2.1 SC 1.4.11"))
        }
        func isBold(_ r: TypographyRole) -> Bool { typography[r]?.contains(.bold) ?? false }
        add("text on background", text, background, Contrast.text, bold: isBold(.body))
        add("primary (titles) on background", primary, background, Contrast.text, bold: isBold(.headline))
        add("secondary (hints, warnings) on background", secondary, background, Contrast.text, bold: isBold(.title))
        let button = buttonStyle()
        if button.attrs.contains(.reverse) {
            add("button text (reverse video)", button.fg, button.bg, Contrast.text, bold: button.attrs.contains(.bold), reverse: true)
        } else {
            add("button text on primary", button.fg, primary, Contrast.text)
        }
        add("oval outline, valid (primary) on overlayBackground", primary, overlayBackground, Contrast.nonText)
        add("oval outline, not valid (secondary) on overlayBackground", secondary, overlayBackground, Contrast.nonText)
        add("progress bar (primary) on its track (cardBackground)", primary, cardBackground, Contrast.nonText)
        return out
    }

    /// The pairs below their minimum (empty for the built-in themes).
    public func contrastShortfalls() -> [ContrastPair] { contrastPairs().filter { !$0.passes } }
}

/// What `--theme auto` knows of the terminal's background.
public enum BackgroundKind: String, Sendable, Equatable {
    case light, dark, unknown
}

/// The light/dark decision for `--theme auto` and where it came from.
public struct BackgroundGuess: Sendable, Equatable {
    public var kind: BackgroundKind
    /// "OSC 11" (the terminal's answer), "COLORFGBG", or "none".
    public var source: String
    /// The background's relative luminance when the terminal gave its colour.
    public var luminance: Double?

    /// Decides from the terminal's background colour (its OSC 11 answer, parsed by the start-up
    /// terminal probe) first, then `COLORFGBG` (`fg;bg` or `fg;x;bg`, the rxvt/xterm convention:
    /// a background index of 7 or 9…15 is light, 0…6 and 8 dark). With the colour, light when
    /// its relative luminance is above `Contrast.lightBackgroundLuminance` (≈ 0.179, where black
    /// and white text contrast equally). Neither: unknown.
    public static func decide(backgroundRGB: RGB?, colorfgbg: String?) -> BackgroundGuess {
        if let c = backgroundRGB {
            let l = Contrast.luminance(c)
            return BackgroundGuess(kind: l > Contrast.lightBackgroundLuminance ? .light : .dark, source: "OSC 11", luminance: l)
        }
        if let v = colorfgbg, let last = v.split(separator: ";").last, let bg = Int(last), (0...15).contains(bg) {
            return BackgroundGuess(kind: bg == 7 || bg >= 9 ? .light : .dark, source: "COLORFGBG", luminance: nil)
        }
        return BackgroundGuess(kind: .unknown, source: "none", luminance: nil)
    }

    /// The built-in theme for this background: light on light; dark on dark and when unknown
    /// (the dark theme paints its own background, so it reads the same on any terminal).
    public var theme: Theme { kind == .light ? .light : .dark }
}
