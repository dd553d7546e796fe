/// Themes at 8 and 16 colours (issue #27): each theme mapped to the eight ANSI colours and the
/// terminal's defaults so that the same WCAG pairs as at 256 colours and truecolor
/// (`Theme.contrastPairs`) pass as the terminal shows them.
///
/// What a terminal shows at few colours is its palette, not our RGB: the nearest-colour
/// quantisation of the light theme gave bold titles in ANSI cyan, which xterm (boldColors on by
/// default) draws bright, #00FFFF on grey90, 1.0:1. The mapping therefore models xterm's
/// defaults (`ANSIPalette.xterm`): the eight base colours (#000000 #CD0000 #00CD00 #CDCD00
/// #0000EE #CD00CD #00CDCD #E5E5E5), bold text in a base colour drawn in its bright partner,
/// default colours black on white (a light background) or white on black (dark).
public enum ANSIPalette {
    /// xterm's default values of the 16 ANSI colours (XTerm-col.ad, xterm 379): 0–7 base, 8–15 bright.
    public static let xterm: [RGB] = ColorQuantizer.ansi16

    /// The colour xterm shows for `c` drawn bold: a base colour (0–7) becomes its bright partner
    /// (index + 8, xterm's `boldColors` resource, on by default); anything else is shown as is.
    public static func shownBold(_ c: RGB) -> RGB {
        if let i = xterm.prefix(8).firstIndex(of: c) { return xterm[i + 8] }
        return c
    }
}

extension Theme {
    /// The theme as a terminal with 8 or 16 colours can show it, every `contrastPairs` pair
    /// passing in xterm's default palette with bold brightened (`ANSIPalette`):
    /// - a light background (luminance above `Contrast.lightBackgroundLuminance`, or the
    ///   terminal's default): text, titles and background are the terminal's own default colours
    ///   (assumed black on white for the checks; whatever they are, they were chosen to be read
    ///   together), buttons and the oval's mark are reverse video, and the second accent is the
    ///   nearest base colour that stays ≥ 4.5:1 bold (xterm: only blue, #5C5CFF bold, 4.75:1);
    /// - a dark background: black behind, and each colour the nearest base colour that passes
    ///   its pairs (else the default foreground).
    /// Uses only the 8 base colours, so a `TERM=xterm` (colors#8) and an `xterm-16color` look the
    /// same. The theme without colour (`noColor`) is returned as is.
    public func fittedToANSI() -> Theme {
        guard !noColor, !lowColor else { return self }
        let base = Array(ANSIPalette.xterm.prefix(8))
        func rgbOf(_ c: Color) -> RGB? { if case .rgb(let v) = c { return v } else { return nil } }
        let light = rgbOf(background).map { Contrast.luminance($0) > Contrast.lightBackgroundLuminance } ?? true
        var t = self
        t.lowColor = true
        let defaultFg = light ? RGB(0, 0, 0) : RGB(0xE5, 0xE5, 0xE5)
        let defaultBg = light ? RGB(255, 255, 255) : RGB(0, 0, 0)
        t.assumedForeground = defaultFg
        t.assumedBackground = defaultBg
        // The colour among `candidates` nearest to `wanted` that satisfies `ok`; the default
        // foreground when none does.
        func pick(_ wanted: Color, _ ok: (RGB) -> Bool) -> Color {
            let w = rgbOf(wanted) ?? defaultFg
            let sorted = base.sorted { ColorQuantizer.dist($0, w) < ColorQuantizer.dist($1, w) }
            return sorted.first(where: ok).map { .rgb($0) } ?? .terminalDefault
        }
        let bg: RGB
        if light {
            t.background = .terminalDefault; t.overlayBackground = .terminalDefault
            t.text = .terminalDefault; t.primary = .terminalDefault
            bg = defaultBg
        } else {
            bg = RGB(0, 0, 0)
            t.background = background == .terminalDefault ? .terminalDefault : .rgb(bg)
            t.overlayBackground = t.background
            t.text = pick(text) { Contrast.ratio($0, bg) >= Contrast.text }
            t.primary = pick(primary) { Contrast.ratio(ANSIPalette.shownBold($0), bg) >= Contrast.text && Contrast.ratio($0, bg) >= Contrast.text }
        }
        let primaryShown = rgbOf(t.primary) ?? defaultFg
        t.secondary = pick(secondary) { c in
            Contrast.ratio(ANSIPalette.shownBold(c), bg) >= Contrast.text && Contrast.ratio(c, bg) >= Contrast.text && c != primaryShown
        }
        t.cardBackground = pick(cardBackground) { Contrast.ratio($0, primaryShown) >= Contrast.nonText && $0 != bg }
        return t
    }
}
