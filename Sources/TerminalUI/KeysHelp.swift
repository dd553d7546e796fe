import CaptureModel
import Localization

/// The `?` keys help (issue #18): a screen listing the keys and what they do on the screen it
/// was opened from, from the string tables (`selfie_capture_help_*`). Any key closes it (the
/// runtime consumes that key; Ctrl-C still quits). It replaces the whole screen, preview
/// included, and keeps the "Enlarge the window" screen when the window is below
/// `Screens.minimumSize`.
public enum KeysHelp {
    /// The help's lines for `screen`: Enter/Space, `s` (capture screen), Esc (only when
    /// `canGoBack`, i.e. `CaptureStateMachine.backGoesSomewhere`), q/Ctrl-C, `i` (capture
    /// screen), Ctrl-Z, `?`.
    public static func lines(screen: Screen, canGoBack: Bool, strings: any Localizing) -> [String] {
        var keys = ["selfie_capture_help_enter"]
        if screen == .capture { keys.append("selfie_capture_help_start") }
        if canGoBack { keys.append("selfie_capture_help_back") }
        keys.append("selfie_capture_help_quit")
        if screen == .capture { keys.append("selfie_capture_help_status") }
        keys += ["selfie_capture_help_suspend", "selfie_capture_help_help"]
        return keys.map { strings.text($0) }
    }

    /// Draws the help for `screen` at `c.size` (title, the key lines wrapped to the width and
    /// left-aligned in a centred block, "Press any key to close" on the bottom row).
    public static func render(screen: Screen, context: RenderContext) -> RenderedScreen {
        // The theme as 8/16 colours show it, as every screen (a new-user trial measured the
        // help's bold title at 3.2:1 in default xterm: the light theme quantised, not fitted).
        let c = Screens.shown(context)
        if c.size.cols < Screens.minimumSize.cols || c.size.rows < Screens.minimumSize.rows { return Screens.tooSmall(c) }
        var canvas = Screens.blank(c)
        let title = c.strings.text("selfie_capture_help_title")
        let close = c.strings.text("selfie_capture_help_close")
        let items = lines(screen: screen, canGoBack: c.canGoBack, strings: c.strings)
        let area = Screens.full(c)
        var wrapped: [String] = []
        for item in items { wrapped += DisplayWidth.wrap(item, width: area.width) }
        let blockWidth = wrapped.map { DisplayWidth.of($0) }.max() ?? 0
        let x = area.x + max(0, (area.width - blockWidth) / 2)
        let room = max(1, c.size.rows - 4)
        let shown = Array(wrapped.prefix(room))
        var y = max(0, (c.size.rows - shown.count - 4) / 2)
        canvas.putCentered(title, in: area, y: y, style: c.theme.style(.title))
        y += 2
        for line in shown {
            canvas.put(line, x: x, y: y, style: c.theme.style(.body), maxX: area.maxX)
            y += 1
        }
        canvas.putCentered(close, in: area, y: c.size.rows - 1, style: c.theme.style(.label, fg: c.theme.secondary))
        return RenderedScreen(canvas: canvas, lines: [title] + items + [close], status: nil)
    }
}
