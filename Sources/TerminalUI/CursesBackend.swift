import CNcursesw
import CaptureModel
#if canImport(Glibc)
import Glibc
#endif

// Restore on signals and at exit: `SignalGuard` (SignalGuard.swift), the one home of signal
// handling. The backend hands it the restore bytes and the saved termios.

/// The curses screen backend: ncursesw on the alternate screen, wide characters, colour pairs
/// from a cache (all pairs come from it, so no fixed pair can be overwritten; when the pair
/// table is full the cache restarts and the whole screen is redrawn, PLATFORM-NOTES "alloc_pair
/// wrapped"), and only cells that changed since the last frame are sent.
public final class CursesBackend: TerminalBackend {
    private let terminal: CursesTerminal
    public let colorMode: ColorMode
    public let glyphs: Glyphs
    /// terminfo `colors` and `pairs` of the terminal type in use.
    public let terminfoColors: Int
    public let terminfoPairs: Int
    /// The terminal type curses was started with (may be `xterm-direct`, see `terminalType`).
    public let termType: String
    private let outFD: Int32
    private let inFD: Int32
    /// What the terminal shows now (the last cell sent at each position).
    private var previous: Canvas?
    /// The rectangle of the last picture drawn in the cells (sixel, iTerm2), if any.
    private var cellPictureRect: CellRect?

    /// The rows (`y`, count) curses must repaint in full when the picture in the cells goes or
    /// moves: sixel and iTerm2 pixels live in the terminal's cells, under placeholder spaces
    /// that curses sees as the same blank as the screen that follows (at 256 colours the
    /// placeholder's RGB 0,0,1 and a dark background are one colour pair), so it would send
    /// nothing there and the old pixels stayed (a new-user trial: strips of the last preview
    /// under the result screen's thumbnail in xterm vt340). kitty pictures are deleted by id
    /// instead. Nil when nothing needs repainting.
    static func rowsToRepaint(old: CellRect?, new: CellRect?, mode: PreviewMode?) -> (y: Int, count: Int)? {
        guard let old, let mode, mode != .kitty, old != new else { return nil }
        return (old.y, old.height)
    }
    /// Largest per-channel difference (0...255) under which an RGB colour counts as unchanged, so
    /// camera noise does not resend a preview cell; 0 disables it. Default 6.
    public var colorTolerance = 6
    private var pairCache: [Int: Int32] = [:]
    /// The last colours asked for and their pair: neighbouring cells mostly share their colours,
    /// so most cells skip the colour quantising and the table's hashing (issue #28: the lookup
    /// was a third of the first screen's draw). Forgotten with the table.
    private var lastPair: (fg: Color, bg: Color, pair: Int32)?
    private var nextPair: Int32 = 1
    private let maxPair: Int32
    private var savedStderr: Int32 = -1
    private var ended = false
    private var wbuf = [wchar_t](repeating: 0, count: 6)
    /// In a pixel preview mode, places each screen's picture after curses' refresh (issue #13).
    /// With kitty graphics, a fatal signal's restore bytes delete the image first, so no face
    /// stays on the screen after a crash either.
    public var picturePlacer: PicturePlacer? {
        didSet {
            guard let p = picturePlacer, p.mode == .kitty, !restoreBytes.isEmpty else { return }
            let delete = p.tmux ? TmuxPassthrough.wrap(KittyGraphics.deleteBytes) : KittyGraphics.deleteBytes
            SignalGuard.armTerminal(fd: restoreFD, bytes: delete + restoreBytes, saved: restoreTermios)
        }
    }
    /// The terminal restore bytes and termios handed to `SignalGuard` (kept to re-arm it).
    private var restoreBytes: [UInt8] = []
    private var restoreFD: Int32 = 1
    private var restoreTermios: termios?
    /// The last `draw` showed no new preview frame because the terminal had not drained the
    /// previous picture (the status line's preview fps counts shown frames only).
    public private(set) var lastDrawSkippedPreview = false
    /// Keys typed during the start-up probe (`TerminalProbe`), served before curses' input.
    private var queuedKeys: [Key] = []
    /// After a probe whose deadline passed, replies may still arrive: key input goes through a
    /// reply parser until the DA1 reply comes or `lateRepliesUntil` (monotonic ms) passes.
    private var lateReplies: TerminalProbe.Parser?
    private var lateRepliesUntil = 0

    /// A colour pair's key in `pairCache`: foreground in the high 32 bits, background in the low.
    /// An `Int` (64 bits), not a struct of two: a dictionary keyed by a type of our own costs the
    /// runtime's first look-up of its `Hashable` conformance (a scan of every conformance record
    /// of the static binary, ~0.1 ms of the first screen; issue #28), `Int`'s is looked up already.
    static func pairKey(fg: Int32, bg: Int32) -> Int { Int(fg) << 32 | Int(UInt32(bitPattern: bg)) }

    /// The terminal type to open: a direct-colour entry (`TerminfoColor.directType`) when
    /// `COLORTERM` announces truecolor or the TERM's terminfo has `RGB`/`Tc` (IMG-07; any TERM,
    /// not only `xterm*`), when such an entry exists; else `TERM`.
    /// - Parameter terminfoTruecolor: the terminfo flags' answer (nil: read them).
    public static func terminalType(term: String, environment: [String: String], terminfoTruecolor: Bool? = nil) -> String {
        guard ColorQuantizer.announcesTruecolor(environment) || (terminfoTruecolor ?? TerminfoColor.announcesTruecolor(term: term)),
              !term.contains("direct") else { return term }
        return TerminfoColor.directType(for: term) ?? term
    }

    /// Starts curses on `outputFD`/`inputFD`.
    /// - Parameters:
    ///   - term: terminal type (default `TERM`, else `xterm-256color`).
    ///   - quietStderr: when stderr is a terminal, send it to /dev/null while curses draws (libv4l2
    ///     and other libraries print there), restored by `end()`.
    ///   - colors: `--colors`: at most this many colours (`ansi16`, `palette256`), or `direct`
    ///     to send 24-bit colour even when `COLORTERM` does not announce it (an xterm-like
    ///     terminal is then opened as `xterm-direct`, or as `xterm-256color` for 256 colours when
    ///     its TERM announces fewer); nil = what the terminal reports.
    /// - Throws: `CursesError.cannotInitialise`.
    public init(term: String? = nil, outputFD: Int32 = 1, inputFD: Int32 = 0,
                environment: [String: String], quietStderr: Bool = true, colors: ColorMode? = nil) throws {
        let requested = term ?? environment["TERM"] ?? "xterm-256color"
        // A direct-colour terminfo entry reads colour numbers as RGB, so palette modes must not
        // open one; truecolor asked for on the command line opens one as COLORTERM would.
        var typeEnvironment = environment
        switch colors {
        case .direct?: typeEnvironment["COLORTERM"] = "truecolor"
        case .ansi16?, .palette256?, .none?: typeEnvironment["COLORTERM"] = nil
        case nil: break
        }
        // `--colors 16/256` keeps palette colours even when terminfo announces RGB/Tc.
        let paletteAsked = colors == .ansi16 || colors == .palette256 || colors == ColorMode.none
        var type = Self.terminalType(term: requested, environment: typeEnvironment, terminfoTruecolor: paletteAsked ? false : nil)
        // `--colors 256` in an xterm-like terminal announced with fewer colours (TERM=xterm has
        // 8, though xterm itself shows 256): open it as xterm-256color, as truecolor opens
        // xterm-direct.
        let xterm256 = ["/usr/share/terminfo/x/xterm-256color", "/lib/terminfo/x/xterm-256color", "/etc/terminfo/x/xterm-256color"]
        if colors == .palette256, type.hasPrefix("xterm"), !type.contains("256"), !type.contains("direct"),
           xterm256.contains(where: { access($0, R_OK) == 0 }) {
            type = "xterm-256color"
        }
        let utf8 = CursesTerminal.ensureUTF8Locale()
        var saved = termios()
        let haveTermios = tcgetattr(outputFD, &saved) == 0
        let t: CursesTerminal
        do { t = try CursesTerminal(term: type, outputFD: outputFD, inputFD: inputFD) } catch {
            guard type != requested else { throw error }
            t = try CursesTerminal(term: requested, outputFD: outputFD, inputFD: inputFD)
        }
        terminal = t
        termType = type
        outFD = outputFD
        inFD = inputFD
        raw(); noecho(); nonl()
        keypad(cnc_stdscr(), true)
        _ = set_escdelay(25)
        // Never postpone a refresh because keys are pending: the preview must keep moving while
        // a key is held (curses' typeahead check would skip the update).
        _ = typeahead(-1)
        _ = curs_set(0)
        if has_colors() {
            _ = start_color()
            _ = use_default_colors()
        }
        terminfoColors = Int(cnc_colors())
        terminfoPairs = Int(cnc_color_pairs())
        maxPair = Int32(max(0, min(terminfoPairs - 1, 65_535)))
        let detected = has_colors() ? ColorQuantizer.mode(terminfoColors: terminfoColors, environment: environment) : .none
        colorMode = Self.colorMode(detected: detected, requested: colors)
        // Start-up width check (TUI-02, TUI-03): a test character must take the cells the
        // width table says; else curses is narrow-linked or the locale is not the terminal's,
        // and the screen is drawn in ASCII with a one-line warning.
        var widthOK = true
        if utf8 {
            widthWarning = Self.widthCheck(advance: { t.advance(of: $0) },
                                           locale: setlocale(LC_CTYPE, nil).map { String(cString: $0) } ?? "?")
            widthOK = widthWarning == nil
        } else if let cs = nl_langinfo(nl_item(CODESET)) {
            widthWarning = nil
            nonUTF8Codeset = String(cString: cs)
        }
        glyphs = utf8 && widthOK ? .unicode : .asciiOnly

        // Restore sequence for signals and exit (SignalGuard): attributes off, screen cleared (no
        // face left on a terminal without an alternate screen), cursor shown, keypad-transmit
        // off (rmkx), alternate screen off. We set no mouse mode.
        var bytes: [UInt8] = []
        for cap in ["sgr0", "clear", "cnorm", "rmkx", "rmcup"] {
            if let p = tigetstr(cap), Int(bitPattern: p) != -1 {
                bytes += Array(String(cString: p).utf8)
            }
        }
        bytes += Array("\r\n".utf8)
        restoreBytes = bytes
        restoreFD = outputFD
        restoreTermios = haveTermios ? saved : nil
        SignalGuard.armTerminal(fd: outputFD, bytes: bytes, saved: haveTermios ? saved : nil)
        SignalGuard.install()

        if quietStderr && isatty(2) == 1 {
            savedStderr = dup(2)
            let devnull = open("/dev/null", O_WRONLY)
            if devnull >= 0 { dup2(devnull, 2); close(devnull) }
        }
    }

    /// The mode to draw in: `requested` (`--colors`) but never more than the opened terminal
    /// type can show (curses sends 24-bit colour only through a direct-colour entry, which
    /// `--colors truecolor` opens when it exists); no colour (NO_COLOR) stays none.
    public static func colorMode(detected: ColorMode, requested: ColorMode?) -> ColorMode {
        guard let r = requested else { return detected }
        let order: [ColorMode] = [.none, .ansi16, .palette256, .direct]
        return order[min(order.firstIndex(of: r) ?? 0, order.firstIndex(of: detected) ?? 0)]
    }

    /// Bytes sent to the terminal so far (every escape sequence curses wrote), nil when the
    /// per-thread write counter is unavailable.
    public var bytesWritten: UInt64? { terminal.bytesWritten.map { $0 + (picturePlacer?.bytesWritten ?? 0) } }

    public var size: Size { let s = terminal.size; return Size(cols: s.cols, rows: s.rows) }
    public var inputFD: Int32? { inFD }

    private func attrs(_ a: Attributes) -> attr_t {
        var r = cnc_a_normal()
        if a.contains(.bold) { r |= cnc_a_bold() }
        if a.contains(.dim) { r |= cnc_a_dim() }
        if a.contains(.underline) { r |= cnc_a_underline() }
        if a.contains(.reverse) { r |= cnc_a_reverse() }
        if a.contains(.italic) { r |= cnc_a_italic() }
        return r
    }

    /// The pair for `style`, or nil when the table is full (the caller restarts the frame).
    private func pair(for style: Style) -> Int32? {
        guard colorMode != .none else { return 0 }
        if let last = lastPair, last.fg == style.fg, last.bg == style.bg { return last.pair }
        guard let p = newPair(for: style) else { return nil }
        lastPair = (style.fg, style.bg, p)
        return p
    }

    /// `pair(for:)` without the one-entry memo.
    private func newPair(for style: Style) -> Int32? {
        let fg = Int32(ColorQuantizer.number(style.fg, mode: colorMode, colors: terminfoColors))
        let bg = Int32(ColorQuantizer.number(style.bg, mode: colorMode, colors: terminfoColors))
        if fg == -1 && bg == -1 { return 0 }
        let key = Self.pairKey(fg: fg, bg: bg)
        if let p = pairCache[key] { return p }
        guard nextPair <= maxPair else { return nil }
        let p = nextPair
        nextPair += 1
        _ = init_extended_pair(p, fg, bg)
        pairCache[key] = p
        return p
    }

    /// The test characters of the start-up width check and the cells each must take
    /// (`DisplayWidth`): a two-byte Latin letter (a narrow curses counts its bytes) and an East
    /// Asian Wide ideograph (a wrong locale gives it 1 cell or none).
    static let widthChecks: [(String, Int)] = [("\u{E9}", 1), ("\u{65E5}", 2)]

    /// The start-up width check: each test character's cells as curses advances (`advance`,
    /// `CursesTerminal.advance(of:)`) against `widthChecks`. Returns the one-line warning of the
    /// first that differs (the UI then draws in ASCII), nil when all take their cells.
    static func widthCheck(advance: (String) -> Int, locale: String) -> String? {
        for (text, expected) in widthChecks {
            let got = advance(text)
            if got != expected { return widthWarning(character: text, expected: expected, got: got, locale: locale) }
        }
        return nil
    }

    /// The one-line warning of a failed width check.
    static func widthWarning(character: String, expected: Int, got: Int, locale: String) -> String {
        "the terminal library puts '\(character)' in \(got) cell\(got == 1 ? "" : "s"), not \(expected) (locale \(locale)): curses is not ncursesw or the locale does not match the terminal; drawing in ASCII"
    }

    /// The failed width check's warning (TUI-02, TUI-03), nil when it passed; the runtime shows
    /// it on the first screens and on stderr after the screen ends.
    public private(set) var widthWarning: String?
    /// The locale's codeset when it is not UTF-8 (kept: `CursesTerminal.LocaleChoice`), else nil.
    public private(set) var nonUTF8Codeset: String?

    /// What a cell shows when the UI is not UTF-8: the character itself when the locale's
    /// codeset encodes it (é in ISO-8859-1: curses writes byte E9), else `asciiFallback`.
    static func shown(_ c: Character, encodable: (Character) -> Bool) -> Character {
        encodable(c) ? c : asciiFallback(c)
    }

    /// Text a non-UTF-8 terminal can show: ASCII as is, accents dropped, a few symbols mapped,
    /// anything else `?`.
    static func asciiFallback(_ c: Character) -> Character {
        if c.isASCII { return c }
        switch c {
        case "…": return "."
        case "·", "•", "─", "━": return "-"
        case "«", "»", "“", "”": return "\""
        case "’", "‘": return "'"
        case "×": return "x"
        case "│", "┃": return "|"
        case "▀", "█": return "#"
        case "░": return "-"
        default: break
        }
        // Base letter of a precomposed Latin letter (é → e) via the scalar's canonical decomposition.
        if let first = c.unicodeScalars.first, let base = Self.latinBase(first) { return base }
        return "?"
    }

    static func latinBase(_ s: Unicode.Scalar) -> Character? {
        let table: [ClosedRange<UInt32>: Character] = [
            0xC0...0xC5: "A", 0xC7...0xC7: "C", 0xC8...0xCB: "E", 0xCC...0xCF: "I", 0xD2...0xD6: "O", 0xD9...0xDC: "U",
            0xE0...0xE5: "a", 0xE7...0xE7: "c", 0xE8...0xEB: "e", 0xEC...0xEF: "i", 0xF2...0xF6: "o", 0xF9...0xFC: "u",
            0x152...0x152: "O", 0x153...0x153: "o", 0xFF...0xFF: "y", 0xD1...0xD1: "N", 0xF1...0xF1: "n",
        ]
        for (range, ch) in table where range.contains(s.value) { return ch }
        return nil
    }

    /// Sends the cells that changed since the last frame (all of them after a resize or a pair
    /// table restart) and refreshes.
    public func draw(_ screen: RenderedScreen) {
        guard !ended else { return }
        lastDrawSkippedPreview = false
        // A picture still being written: finish it before curses writes anything.
        if let p = picturePlacer, p.busy, !p.pump() { lastDrawSkippedPreview = true; return }
        let drained = picturePlacer?.drained() ?? true
        let canvas = screen.canvas
        var full = previous == nil || previous?.width != canvas.width || previous?.height != canvas.height
        if full { werase(cnc_stdscr()) }
        var shown = canvas.cells
        var attempt = 0
        outer: while attempt < 2 {
            attempt += 1
            for y in 0..<canvas.height {
                for x in 0..<canvas.width {
                    let cell = canvas[x, y]
                    if !full, let prev = previous {
                        let old = prev[x, y]
                        if old == cell || Self.similar(old, cell, tolerance: colorTolerance) {
                            shown[y * canvas.width + x] = old
                            continue
                        }
                    }
                    guard let ch = cell.text else { continue }
                    var p = pair(for: cell.style)
                    if p == nil {
                        if attempt == 1 {
                            // Pair table full: start over with an empty cache and repaint everything.
                            pairCache.removeAll(keepingCapacity: true)
                            lastPair = nil
                            nextPair = 1
                            full = true
                            continue outer
                        }
                        p = 0
                    }
                    let shown = glyphs.ascii ? Self.shown(ch, encodable: nonUTF8Codeset != nil ? CursesTerminal.encodable : { $0.isASCII }) : ch
                    var n = 0
                    for s in shown.unicodeScalars where n < 4 { wbuf[n] = wchar_t(bitPattern: s.value); n += 1 }
                    wbuf[n] = 0
                    _ = cnc_mvadd_cell(Int32(y), Int32(x), wbuf, attrs(cell.style.attrs), p ?? 0)
                }
            }
            break
        }
        var sent = canvas
        sent.replaceCells(shown)
        previous = sent
        if let rows = Self.rowsToRepaint(old: cellPictureRect, new: screen.picture?.rect, mode: picturePlacer?.mode) {
            _ = wredrawln(cnc_stdscr(), Int32(rows.y), Int32(rows.count))
        }
        cellPictureRect = picturePlacer?.mode == .kitty ? nil : screen.picture?.rect
        terminal.refresh()
        if let p = picturePlacer {
            if let picture = screen.picture {
                p.place(picture, force: full, drained: drained)
                lastDrawSkippedPreview = p.lastSkipped
            } else {
                p.clear()
            }
        }
    }

    /// Same glyph and attributes, and every RGB channel of both colours within `tolerance`.
    static func similar(_ a: Cell, _ b: Cell, tolerance: Int) -> Bool {
        guard tolerance > 0, a.text == b.text, a.style.attrs == b.style.attrs,
              case .rgb(let af) = a.style.fg, case .rgb(let bf) = b.style.fg,
              case .rgb(let ab) = a.style.bg, case .rgb(let bb) = b.style.bg else { return false }
        @inline(__always) func near(_ p: RGB, _ q: RGB) -> Bool {
            abs(Int(p.r) - Int(q.r)) <= tolerance && abs(Int(p.g) - Int(q.g)) <= tolerance && abs(Int(p.b) - Int(q.b)) <= tolerance
        }
        return near(af, bf) && near(ab, bb)
    }

    /// A picture is partly written (the rest goes out from `readInput` and `draw`).
    public var picturePending: Bool { picturePlacer?.busy ?? false }

    /// Repaints every cell at the next `draw` (and so places a picture again).
    public func forceRepaint() { previous = nil }

    /// Hands over what the start-up probe read that was not a reply (keys typed meanwhile) and,
    /// when its deadline passed before the DA1 reply, filters replies that arrive late out of
    /// the key input for `lateReplyMs` (default 3 s) or until the DA1 reply.
    public func takeProbeInput(_ bytes: [UInt8], deadlineExpired: Bool, lateReplyMs: Int = 3000) {
        queuedKeys += TerminalProbe.keys(from: bytes)
        if deadlineExpired {
            lateReplies = TerminalProbe.Parser()
            lateRepliesUntil = TTYProbeChannel.monotonicMs() + lateReplyMs
        }
    }

    /// One wide character from curses through the reply filter (late probe replies; the DA1
    /// answers that acknowledge pictures): the keys it lets through; nil when no filter runs.
    private func filtered(_ code: Int32) -> [Key]? {
        let acks = picturePlacer?.ackWithDA1 == true
        guard var parser = lateReplies ?? (acks ? TerminalProbe.Parser() : nil) else { return nil }
        let bytes = Unicode.Scalar(UInt32(bitPattern: code)).map { Array(String(Character($0)).utf8) } ?? []
        if !acks, TTYProbeChannel.monotonicMs() > lateRepliesUntil {
            // The window is over: what the filter held, then this character, are keys (the
            // character that arrived after the window must not be lost with the filter).
            lateReplies = nil
            parser.flush()
            return TerminalProbe.keys(from: parser.passthrough + bytes)
        }
        guard !bytes.isEmpty else { return [] }
        let before = parser.da1Replies
        parser.feed(bytes)
        if parser.da1Replies > before { picturePlacer?.acknowledge() }
        let keys = TerminalProbe.keys(from: parser.takePassthrough())
        lateReplies = parser.done && !acks ? nil : parser
        return keys
    }

    /// Reads one key or resize. Enter/Return → enter, Space → space, Esc → escape, Backspace/DEL
    /// → backspace, Ctrl-C → interrupt (raw mode), other printable keys → character; function
    /// keys are skipped.
    public func readInput(timeoutMs: Int) -> InputEvent? {
        guard !ended else { return nil }
        // The loop asks for input every turn: a picture the terminal could not take at once
        // goes on from here, as fast as the terminal drains it.
        if let p = picturePlacer, p.busy { p.pump() }
        // The size is also checked directly (one ioctl): ncurses only turns SIGWINCH into
        // KEY_RESIZE when it could install its handler, which a host process may have prevented.
        var ws = winsize()
        let sized = ioctl(outFD, UInt(TIOCGWINSZ), &ws)
        // A hung-up terminal: every read and ioctl fails with EIO at once, so without this the
        // loop would take "no key" forever, at half a core (seen on a closed tmux session).
        if sized != 0, errno == EIO { return .hangup }
        if sized == 0, ws.ws_row > 0, ws.ws_col > 0 {
            let now = size
            if Int(ws.ws_row) != now.rows || Int(ws.ws_col) != now.cols {
                _ = resizeterm(Int32(ws.ws_row), Int32(ws.ws_col))
                previous = nil
                // Drop the KEY_RESIZE ncurses may have queued for the same change.
                wtimeout(cnc_stdscr(), 0)
                var ch: wint_t = 0
                let r = wget_wch(cnc_stdscr(), &ch)
                let code = Int32(bitPattern: ch)
                if r == KEY_CODE_YES, code != cnc_key_resize() {
                    _ = ungetch(code)
                } else if r == cnc_ok() {
                    _ = unget_wch(wchar_t(bitPattern: ch))
                }
                return .resized(size)
            }
        }
        if !queuedKeys.isEmpty { return .key(queuedKeys.removeFirst()) }
        var wait = Int32(max(0, timeoutMs))
        while true {
            wtimeout(cnc_stdscr(), wait)
            var ch: wint_t = 0
            let r = wget_wch(cnc_stdscr(), &ch)
            if r == cnc_err() {
                // Input paused: an Esc held by the late-reply filter was the key.
                if var parser = lateReplies {
                    parser.flushLoneEscape()
                    queuedKeys += TerminalProbe.keys(from: parser.takePassthrough())
                    lateReplies = parser
                    if !queuedKeys.isEmpty { return .key(queuedKeys.removeFirst()) }
                }
                return nil
            }
            wait = 0
            let code = Int32(bitPattern: ch)
            if r != KEY_CODE_YES, let keys = filtered(code) {
                queuedKeys += keys
                if !queuedKeys.isEmpty { return .key(queuedKeys.removeFirst()) }
                continue
            }
            if r == KEY_CODE_YES {
                if code == cnc_key_resize() { previous = nil; return .resized(size) }
                if code == cnc_key_enter() { return .key(.enter) }
                if code == cnc_key_backspace() { return .key(.backspace) }
                continue
            }
            switch code {
            case 10, 13: return .key(.enter)
            case 32: return .key(.space)
            case 27: return .key(.escape)
            case 8, 127: return .key(.backspace)
            case 3: return .key(.interrupt)
            case 26: return .key(.suspend)   // Ctrl-Z (raw mode: no SIGTSTP from the tty)
            default:
                guard code > 32, let s = Unicode.Scalar(UInt32(code)) else { continue }
                return .key(.character(Character(s)))
            }
        }
    }

    /// One terminal bell (`--sound`, issue #17), sent through curses' own output (`beep(3X)`
    /// writes the terminal's `bel` and flushes), so it is not lost between screen updates; over
    /// SSH it rings the terminal the person sits at.
    public func bell() { _ = beep() }

    /// Leaves curses (screen cleared first, so no preview frame stays on a terminal without an
    /// alternate screen; alternate screen off, cursor shown, modes restored) and puts stderr back.
    public func end() {
        guard !ended else { return }
        ended = true
        SignalGuard.disarmTerminal()
        // No face left on screen: kitty's image deleted, the rectangle's pixels cleared.
        picturePlacer?.clear()
        clearScreen()
        _ = curs_set(1)
        terminal.end()
        if savedStderr >= 0 { dup2(savedStderr, 2); close(savedStderr); savedStderr = -1 }
    }

    /// Ctrl-Z (issue #18): clears the screen (no face left under the shell's prompt), leaves
    /// curses, stops the process as SIGTSTP's default action does (the shell's job control takes
    /// over), and when continued (`fg`, SIGCONT) re-enters curses and repaints from scratch.
    /// Returns once the process runs again; the caller draws the current screen.
    public func suspend() {
        guard !ended else { return }
        picturePlacer?.clear()
        clearScreen()
        SignalGuard.disarmTerminal()
        _ = curs_set(1)
        endwin()
        SignalGuard.stopAsTerminalStop()
        SignalGuard.rearmTerminal()
        _ = curs_set(0)
        _ = clearok(cnc_stdscr(), true)
        _ = wrefresh(cnc_stdscr())
        previous = nil
    }

    /// Blanks the whole screen now (default colours), e.g. before leaving curses.
    func clearScreen() {
        werase(cnc_stdscr())
        _ = wrefresh(cnc_stdscr())
        previous = nil
    }

    deinit { end() }
}
