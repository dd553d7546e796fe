import Foundation

/// Typography roles (the seeds' branding): each maps to terminal attributes.
public enum TypographyRole: String, Sendable, CaseIterable, Codable {
    /// Screen titles (default bold).
    case headline
    /// Section titles, buttons (default bold).
    case title
    /// Running text (default normal).
    case body
    /// Small print: key help, captions (default dim).
    case label
}

/// The replaceable pictograms of the instructions screen.
public enum Pictogram: String, Sendable, CaseIterable, Codable {
    case faceVisible, neutralExpression, goodLight
}

/// Colours and typography of the screens. `--theme light|dark|auto|FILE`; `NO_COLOR` turns
/// every colour into the terminal default (and the preview into a gray ASCII ramp).
public struct Theme: Sendable, Equatable {
    /// Accent: buttons, progress, the oval outline when the face is valid.
    public var primary: Color
    /// Second accent: warnings, the oval outline when the face is not valid.
    public var secondary: Color
    /// Behind cards and buttons.
    public var cardBackground: Color
    /// Mixed over the preview outside the oval (dimming).
    public var overlayBackground: Color
    /// Running text.
    public var text: Color
    /// Behind everything (every built-in theme paints it; `default` in a theme file keeps the terminal's own).
    public var background: Color
    /// Attributes per typography role.
    public var typography: [TypographyRole: Attributes]
    /// Pictogram art lines (each pictogram 3 rows × 5 cells by default; replaceable from files).
    public var pictograms: [Pictogram: [String]]
    /// True when `NO_COLOR` is set: no colours anywhere.
    public var noColor: Bool
    /// True for a theme fitted to 8/16 colours (`fittedToANSI`): buttons and the oval's mark
    /// are reverse video, and bold text in a base colour counts as its bright partner.
    public var lowColor = false
    /// What the terminal's default foreground and background are taken to be where the theme
    /// uses them (`fittedToANSI`: xterm's black on white, or white on black); nil: unknown, and
    /// pairs with a default colour are left out of `contrastPairs`.
    public var assumedForeground: RGB?
    public var assumedBackground: RGB?

    public static let defaultTypography: [TypographyRole: Attributes] = [.headline: .bold, .title: .bold, .body: [], .label: .dim]

    public static let defaultPictograms: [Pictogram: [String]] = [
        .faceVisible: ["╭───╮", "│◉ ◉│", "╰─◡─╯"],
        .neutralExpression: ["╭───╮", "│• •│", "╰─━─╯"],
        .goodLight: ["╲ │ ╱", "─ ☀ ─", "╱ │ ╲"],
    ]

    public static let asciiPictograms: [Pictogram: [String]] = [
        .faceVisible: [".---.", "|o o|", "'-u-'"],
        .neutralExpression: [".---.", "|. .|", "'---'"],
        .goodLight: ["\\ | /", "- O -", "/ | \\"],
    ]

    public init(primary: Color, secondary: Color, cardBackground: Color, overlayBackground: Color, text: Color,
                background: Color, typography: [TypographyRole: Attributes] = Theme.defaultTypography,
                pictograms: [Pictogram: [String]] = Theme.defaultPictograms, noColor: Bool = false) {
        self.primary = primary; self.secondary = secondary; self.cardBackground = cardBackground
        self.overlayBackground = overlayBackground; self.text = text; self.background = background
        self.typography = typography; self.pictograms = pictograms; self.noColor = noColor
    }

    /// Typography of the built-in themes: as `defaultTypography` but labels (key help, the
    /// recording's duration) are not dim: a terminal draws dim text at a colour of its own
    /// choosing (xterm: halfway to the background), which took "The recording will last 1
    /// second" below 3:1 on the light theme (issue #17; WCAG 2.1 SC 1.4.3 asks 4.5:1).
    public static let builtInTypography: [TypographyRole: Attributes] = [.headline: .bold, .title: .bold, .body: [], .label: []]

    /// Dark: light text on a near-black background it paints itself (#121212), so it reads the
    /// same whatever the terminal's own colours (issue #17: with the terminal's background kept,
    /// xterm's default white made the text and accents vanish). Every text pair ≥ 4.5:1, the
    /// oval and progress bar ≥ 3:1 (`Theme.contrastPairs`, tested).
    public static let dark = Theme(primary: .rgb(RGB(0x4F, 0xC3, 0xF7)), secondary: .rgb(RGB(0xFF, 0xB7, 0x4D)),
                                   cardBackground: .rgb(RGB(0x26, 0x32, 0x38)), overlayBackground: .rgb(RGB(0, 0, 0)),
                                   text: .rgb(RGB(0xE8, 0xE8, 0xE8)), background: .rgb(RGB(0x12, 0x12, 0x12)),
                                   typography: builtInTypography)
    /// Light default: dark text on white (secondary #BF360C: #D84315 gave 4.44:1 on white).
    public static let light = Theme(primary: .rgb(RGB(0x15, 0x65, 0xC0)), secondary: .rgb(RGB(0xBF, 0x36, 0x0C)),
                                    cardBackground: .rgb(RGB(0xE3, 0xEA, 0xF2)), overlayBackground: .rgb(RGB(0xFF, 0xFF, 0xFF)),
                                    text: .rgb(RGB(0x21, 0x21, 0x21)), background: .rgb(RGB(0xFF, 0xFF, 0xFF)),
                                    typography: builtInTypography)
    /// High contrast (`--theme high-contrast`): white text on black, yellow accent (19.6:1),
    /// pink for "not yet" (9.8:1), bold titles and hints.
    public static let highContrast = Theme(primary: .rgb(RGB(0xFF, 0xFF, 0x00)), secondary: .rgb(RGB(0xFF, 0x80, 0xFF)),
                                           cardBackground: .rgb(RGB(0x80, 0x80, 0x80)), overlayBackground: .rgb(RGB(0, 0, 0)),
                                           text: .rgb(RGB(0xFF, 0xFF, 0xFF)), background: .rgb(RGB(0, 0, 0)),
                                           typography: [.headline: .bold, .title: .bold, .body: [], .label: []])

    /// The built-in themes by `--theme` name.
    public static let builtIn: [(name: String, theme: Theme)] = [("light", .light), ("dark", .dark), ("high-contrast", .highContrast)]

    /// The same theme without colours (`NO_COLOR`, https://no-color.org).
    public func withoutColor() -> Theme {
        var t = self
        t.primary = .terminalDefault; t.secondary = .terminalDefault; t.cardBackground = .terminalDefault
        t.overlayBackground = .terminalDefault; t.text = .terminalDefault; t.background = .terminalDefault
        t.noColor = true
        return t
    }

    /// The style for `role` text in colour `fg` (default `text`) over the background.
    public func style(_ role: TypographyRole, fg: Color? = nil, bg: Color? = nil) -> Style {
        Style(fg: fg ?? text, bg: bg ?? background, attrs: typography[role] ?? [])
    }

    /// A button: reversed when there is no colour, else text on the primary colour.
    public func buttonStyle() -> Style {
        noColor ? Style(attrs: [.reverse, .bold]) : lowColor ? Style(fg: text, bg: background, attrs: [.reverse, .bold]) : Style(fg: background == .terminalDefault ? .rgb(RGB(0, 0, 0)) : background,
                                                           bg: primary, attrs: typography[.title] ?? .bold)
    }
}

/// `--theme` values.
public enum ThemeChoice: Equatable, Sendable {
    case light, dark, highContrast, auto
    /// A JSON theme file.
    case file(String)

    /// Parses `light`, `dark`, `auto` or anything else as a file path.
    public init(argument: String) {
        switch argument {
        case "light": self = .light
        case "dark": self = .dark
        case "high-contrast": self = .highContrast
        case "auto": self = .auto
        default: self = .file(argument)
        }
    }
}

extension ThemeLoader {
    /// Warnings for a theme file whose colours fall short of WCAG 2.1 (issue #17): the theme is
    /// still used; each line names the file, the pair and its ratio, e.g.
    /// `t.json: warning: text on background (#777777 on #ffffff) has contrast 4.48:1, below 4.5:1 (WCAG 2.1 SC 1.4.3)`.
    public static func contrastWarnings(_ theme: Theme, file: String) -> [String] {
        theme.contrastShortfalls().map { "\(file): warning: \($0)" }
    }
}

/// Errors reading a theme or layout file: the file and the field at fault.
public enum ThemeError: Error, Equatable, Sendable, CustomStringConvertible {
    case unreadable(file: String, reason: String)
    case malformedJSON(file: String, reason: String)
    case badField(file: String, field: String, message: String)

    public var description: String {
        switch self {
        case .unreadable(let f, let r): return "\(f): error: cannot read: \(r)"
        case .malformedJSON(let f, let r): return "\(f): error: not valid JSON: \(r)"
        case .badField(let f, let field, let m): return "\(f): error: field '\(field)': \(m)"
        }
    }
}

/// Builds the theme from `--theme`, the environment and theme files.
public enum ThemeLoader {
    /// Light or dark from `COLORFGBG` (`fg;bg` or `fg;x;bg`): a background colour index of 7 or
    /// 9…15 is light (rxvt/xterm convention), anything else dark; absent or unparsable → dark.
    public static func isLightBackground(colorfgbg: String?) -> Bool {
        guard let v = colorfgbg, let last = v.split(separator: ";").last, let bg = Int(last) else { return false }
        return bg == 7 || (9...15).contains(bg)
    }

    private struct File: Decodable {
        var base: String?
        var colors: [String: String]?
        var typography: [String: [String]]?
        var pictograms: [String: String]?
    }

    /// The theme for `choice`. A file is JSON:
    /// `{"base": "light|dark", "colors": {"primary": "#RRGGBB", "secondary", "cardBackground",
    /// "overlayBackground", "text", "background"}, "typography": {"headline": ["bold"], …},
    /// "pictograms": {"faceVisible": "path/to/art.txt", …}}` — every key optional; pictogram
    /// paths are relative to the theme file. `NO_COLOR` (non-empty) removes all colours.
    /// - Throws: `ThemeError` naming the file and the field.
    /// `backgroundRGB`: the terminal's background colour when the start-up probe got it (OSC 11);
    /// `auto` then goes by it, else by `COLORFGBG` (`BackgroundGuess.decide`).
    public static func load(_ choice: ThemeChoice, environment: [String: String], backgroundRGB: RGB? = nil) throws -> Theme {
        let guess = BackgroundGuess.decide(backgroundRGB: backgroundRGB, colorfgbg: environment["COLORFGBG"])
        let autoLight = guess.kind == .light
        var theme: Theme
        switch choice {
        case .light: theme = .light
        case .dark: theme = .dark
        case .highContrast: theme = .highContrast
        case .auto: theme = guess.theme
        case .file(let path):
            let data: Data
            do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
                throw ThemeError.unreadable(file: path, reason: (error as NSError).localizedDescription)
            }
            theme = try parse(data, file: path, autoLight: autoLight)
        }
        if let nc = environment["NO_COLOR"], !nc.isEmpty { theme = theme.withoutColor() }
        return theme
    }

    /// Parses theme JSON `data` (see `load`); `file` names it in errors and anchors pictogram paths.
    public static func parse(_ data: Data, file: String, autoLight: Bool = false) throws -> Theme {
        let f: File
        do { f = try JSONDecoder().decode(File.self, from: data) } catch let DecodingError.typeMismatch(_, ctx) {
            throw ThemeError.badField(file: file, field: ctx.codingPath.map(\.stringValue).joined(separator: "."), message: "wrong type")
        } catch {
            throw ThemeError.malformedJSON(file: file, reason: String(describing: error))
        }
        var theme: Theme
        switch f.base {
        case nil, "auto": theme = autoLight ? .light : .dark
        case "light": theme = .light
        case "dark": theme = .dark
        case "high-contrast": theme = .highContrast
        case let other?: throw ThemeError.badField(file: file, field: "base", message: "'\(other)' is not light, dark, high-contrast or auto")
        }
        for (key, value) in (f.colors ?? [:]).sorted(by: { $0.key < $1.key }) {
            let color: Color
            if value == "default" { color = .terminalDefault } else {
                guard let rgb = RGB(hex: value) else {
                    throw ThemeError.badField(file: file, field: "colors.\(key)", message: "'\(value)' is not #RRGGBB or default")
                }
                color = .rgb(rgb)
            }
            switch key {
            case "primary": theme.primary = color
            case "secondary": theme.secondary = color
            case "cardBackground": theme.cardBackground = color
            case "overlayBackground": theme.overlayBackground = color
            case "text": theme.text = color
            case "background": theme.background = color
            default: throw ThemeError.badField(file: file, field: "colors.\(key)", message: "unknown colour (primary, secondary, cardBackground, overlayBackground, text, background)")
            }
        }
        for (key, names) in (f.typography ?? [:]).sorted(by: { $0.key < $1.key }) {
            guard let role = TypographyRole(rawValue: key) else {
                throw ThemeError.badField(file: file, field: "typography.\(key)", message: "unknown role (headline, title, body, label)")
            }
            var attrs: Attributes = []
            for n in names {
                switch n {
                case "bold": attrs.insert(.bold)
                case "normal": break
                case "dim": attrs.insert(.dim)
                case "underline": attrs.insert(.underline)
                case "italic": attrs.insert(.italic)
                case "reverse": attrs.insert(.reverse)
                default: throw ThemeError.badField(file: file, field: "typography.\(key)", message: "unknown attribute '\(n)' (bold, normal, dim, underline, italic, reverse)")
                }
            }
            theme.typography[role] = attrs
        }
        let dir = URL(fileURLWithPath: file).deletingLastPathComponent()
        for (key, path) in (f.pictograms ?? [:]).sorted(by: { $0.key < $1.key }) {
            guard let p = Pictogram(rawValue: key) else {
                throw ThemeError.badField(file: file, field: "pictograms.\(key)", message: "unknown pictogram (faceVisible, neutralExpression, goodLight)")
            }
            let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : dir.appendingPathComponent(path)
            guard let text = try? String(contentsOf: url, encoding: .utf8) else {
                throw ThemeError.badField(file: file, field: "pictograms.\(key)", message: "cannot read '\(url.path)'")
            }
            var lines = text.components(separatedBy: "\n")
            while lines.last == "" { lines.removeLast() }
            theme.pictograms[p] = lines
        }
        return theme
    }
}
