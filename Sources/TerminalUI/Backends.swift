import CaptureModel
import Localization

/// Input from the terminal.
public enum InputEvent: Sendable, Equatable {
    case key(Key)
    /// The terminal changed size (curses `KEY_RESIZE`).
    case resized(Size)
    /// The terminal is gone: its line hung up (an SSH connection or a terminal window closed),
    /// so its ioctls fail with EIO. What SIGHUP says, for when no SIGHUP reached this process
    /// (it was not in the terminal's foreground process group, or a wrapper took the signal).
    case hangup
}

/// Where screens go. The runtime loop (one thread) owns it:
///
/// ```
/// loop {
///     poll([camera fd, backend.inputFD].compactMap { $0 }, timeout: until the next frame/tick)
///     while let input = backend.readInput(timeoutMs: 0) {   // drain keys
///         switch input { case .key(let k): feed(.keyPressed(k)); case .resized: feed(.terminalResized) }
///     }
///     … feed tick / frames, carry out effects …
///     backend.draw(Screens.render(view, context: RenderContext(size: backend.size, …,
///                  colorMode: backend.colorMode, glyphs: backend.glyphs)))
/// }
/// backend.end()
/// ```
public protocol TerminalBackend: AnyObject {
    /// Current size in cells.
    var size: Size { get }
    /// Colours the backend can show.
    var colorMode: ColorMode { get }
    /// Glyph set (ASCII when the locale cannot show UTF-8).
    var glyphs: Glyphs { get }
    /// A descriptor to poll for input, if the backend reads keys.
    var inputFD: Int32? { get }
    /// Shows a rendered screen.
    func draw(_ screen: RenderedScreen)
    /// The next input, waiting at most `timeoutMs` (0 = do not wait); nil when none.
    func readInput(timeoutMs: Int) -> InputEvent?
    /// Restores the terminal. Safe to call twice.
    func end()
    /// Bytes written to the terminal so far, when the backend counts them (curses); nil else.
    var bytesWritten: UInt64? { get }
    /// Rings the terminal bell once (`--sound`); backends without a terminal do nothing.
    func bell()
    /// Ctrl-Z or SIGTSTP: leave the screen (curses), stop the process until `fg`, come back.
    func suspend()
    /// Whether a drawn screen is seen (false for the null backend: the runtime decodes no
    /// preview pixels for it).
    var showsScreens: Bool { get }
    /// The last `draw` left the preview's picture out (a pixel mode waiting for the terminal
    /// to take the previous one), so it does not count as a preview frame shown.
    var lastDrawSkippedPreview: Bool { get }
}

extension TerminalBackend {
    public var showsScreens: Bool { true }
    public var lastDrawSkippedPreview: Bool { false }
    public var bytesWritten: UInt64? { nil }
    public func bell() {}
    /// Without a screen to leave: stop until continued, as SIGTSTP's default action does.
    public func suspend() { SignalGuard.stopAsTerminalStop() }
}

/// Draws nothing and reads nothing (scripted runs, `--renderer null`).
public final class NullBackend: TerminalBackend {
    public let size: Size
    public init(size: Size = Size(cols: 80, rows: 24)) { self.size = size }
    public var colorMode: ColorMode { .none }
    public var glyphs: Glyphs { .unicode }
    public var inputFD: Int32? { nil }
    public var showsScreens: Bool { false }
    public func draw(_ screen: RenderedScreen) {}
    public func readInput(timeoutMs: Int) -> InputEvent? { nil }
    public func end() {}
}

/// No escape codes: prints each screen's text when the screen changes and each status (hint,
/// countdown, progress) change as one line. For screen readers, logs and `TERM=dumb`.
public final class PlainBackend: TerminalBackend {
    public let size: Size
    private let write: (String) -> Void
    private var lastLines: [String]?
    private var lastStatus: String?

    /// Glyph set: ASCII when the locale's codeset is not UTF-8 (`LocaleText.degraded`, issue
    /// #27), as the curses backend does.
    public let glyphs: Glyphs

    /// - Parameters:
    ///   - glyphs: `.asciiOnly` in a non-UTF-8 locale (`PlainBackend.localeGlyphs()`).
    ///   - write: receives whole lines, each ending in `\n` (e.g. to stdout, in the locale's
    ///     codeset: `Console.screen`).
    public init(size: Size = Size(cols: 80, rows: 24), glyphs: Glyphs = .unicode, write: @escaping (String) -> Void) {
        self.size = size; self.glyphs = glyphs; self.write = write
    }

    /// Chooses the locale as the curses path does (`CursesTerminal.ensureUTF8Locale`: C becomes
    /// C.UTF-8, another codeset is kept and sets `LocaleText.degraded`) and returns the glyphs
    /// that locale can show.
    public static func localeGlyphs() -> Glyphs {
        CursesTerminal.ensureUTF8Locale() ? .unicode : .asciiOnly
    }
    public var colorMode: ColorMode { .none }
    public var inputFD: Int32? { nil }

    public func draw(_ screen: RenderedScreen) {
        if screen.lines != lastLines {
            lastLines = screen.lines
            lastStatus = nil
            write(screen.lines.joined(separator: "\n") + "\n")
        }
        if let s = screen.status, s != lastStatus {
            write(s + "\n")
        }
        lastStatus = screen.status
    }
    public func readInput(timeoutMs: Int) -> InputEvent? { nil }
    public func end() {}
}

/// `--renderer` values.
public enum RendererChoice: String, Sendable, CaseIterable {
    case curses, plain, null

    /// The renderer to use: the requested one, else plain when stdout is not a terminal or
    /// `TERM` is unset, empty or `dumb`, else curses (issue #6 "plain").
    public static func resolve(requested: RendererChoice?, stdoutIsTTY: Bool, term: String?) -> RendererChoice {
        if let r = requested { return r }
        guard stdoutIsTTY, let t = term, !t.isEmpty, t != "dumb" else { return .plain }
        return .curses
    }
}

extension RenderContext {
    /// A context sized and capable as `backend` is now.
    public init(backend: TerminalBackend, strings: any Localizing, theme: Theme, layout: Layout = Layout()) {
        self.init(size: backend.size, strings: strings, theme: theme, layout: layout,
                  colorMode: theme.noColor ? .none : backend.colorMode, glyphs: backend.glyphs)
    }
}
