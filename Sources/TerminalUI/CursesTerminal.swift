import CNcursesw
#if canImport(Glibc)
import Glibc
#endif

/// Errors from the curses backend.
public enum CursesError: Error, Equatable, Sendable {
    /// `newterm` failed (unknown TERM, or no terminal on the descriptors).
    case cannotInitialise(term: String)
}

/// An ncursesw screen on a pair of file descriptors (`newterm`), wide-character API.
/// `end()` (or deinit) restores the terminal.
public final class CursesTerminal {
    private let screen: OpaquePointer
    private let outFile: UnsafeMutablePointer<FILE>
    private let inFile: UnsafeMutablePointer<FILE>
    private var ended = false
    private let writeCounter = ThreadWriteCounter()
    /// Bytes curses has written to the terminal in `refresh` so far (escape sequences
    /// included), or nil when the kernel's per-thread counters cannot be read.
    public private(set) var bytesWritten: UInt64?

    /// Starts curses on `outputFD`/`inputFD` for terminal type `term`. Calls
    /// `setlocale(LC_CTYPE, "")` first so wide characters work (bug report TUI-01).
    /// - Throws: `CursesError.cannotInitialise`.
    public init(term: String, outputFD: Int32, inputFD: Int32) throws {
        Self.ensureUTF8Locale()
        guard let o = fdopen(dup(outputFD), "w"), let i = fdopen(dup(inputFD), "r") else {
            throw CursesError.cannotInitialise(term: term)
        }
        guard let s = newterm(term, o, i) else {
            fclose(o); fclose(i)
            throw CursesError.cannotInitialise(term: term)
        }
        bytesWritten = writeCounter == nil ? nil : 0
        screen = s
        outFile = o
        inFile = i
        _ = set_term(s)
    }

    /// What to do with the locale the environment chose (bug report TUI-01, issue #27).
    public enum LocaleChoice: Equatable, Sendable {
        /// Its codeset is UTF-8: draw everything.
        case utf8
        /// No locale chosen (`C`/`POSIX`, 7-bit ASCII: LANG unset, as in many containers):
        /// switch `LC_CTYPE` to `C.UTF-8` when the system has it (the terminal is most likely UTF-8).
        case switchToUTF8
        /// A locale that names another codeset (ISO-8859-1, KOI8-R…): it is the terminal's, so
        /// keep it; curses writes that codeset, pictures and marks fall back to ASCII and
        /// characters it cannot encode are transliterated (`CursesBackend.shown`).
        case keepAndDegrade
    }

    /// The decision from `LC_CTYPE`'s name and its codeset (`nl_langinfo(CODESET)`).
    public static func localeChoice(ctype: String, codeset: String) -> LocaleChoice {
        let cs = codeset.uppercased()
        if cs == "UTF-8" || cs == "UTF8" { return .utf8 }
        if ctype == "C" || ctype == "POSIX" || cs == "ANSI_X3.4-1968" || cs == "ASCII" { return .switchToUTF8 }
        return .keepAndDegrade
    }

    /// `setlocale(LC_ALL, "")` (before curses starts, TUI-01), then `localeChoice`: in the C
    /// locale `LC_CTYPE` becomes `C.UTF-8` if the system has it; a locale with another codeset is
    /// kept (before issue #27 it was replaced by C.UTF-8 too, so an ISO-8859-1 xterm showed
    /// `vidÃ©o`).
    /// - Returns: true when the resulting codeset is UTF-8 (else callers use ASCII fallbacks).
    @discardableResult
    public static func ensureUTF8Locale() -> Bool {
        setlocale(LC_ALL, "")
        let ctype = setlocale(LC_CTYPE, nil).map { String(cString: $0) } ?? "C"
        let codeset = nl_langinfo(nl_item(CODESET)).map { String(cString: $0) } ?? ""
        switch localeChoice(ctype: ctype, codeset: codeset) {
        case .utf8: return true
        case .keepAndDegrade:
            LocaleText.degraded = true
            return false
        case .switchToUTF8:
            for name in ["C.UTF-8", "C.utf8", "en_US.UTF-8"] where setlocale(LC_CTYPE, name) != nil {
                if isUTF8Codeset() { return true }
            }
            return false
        }
    }

    /// True when the current locale's codeset can encode `c` (every scalar through wcrtomb).
    /// Reads the process locale: call after `ensureUTF8Locale`.
    public static func encodable(_ c: Character) -> Bool {
        var state = mbstate_t()
        var buf = [CChar](repeating: 0, count: 16)
        for s in c.unicodeScalars {
            if wcrtomb(&buf, wchar_t(bitPattern: s.value), &state) == -1 { return false }
        }
        return true
    }

    /// The cells curses advances for `text` written at the screen's top-left (wide API): the
    /// start-up width check (bug reports TUI-02, TUI-03: a narrow-linked curses or a wrong
    /// locale moves by bytes or not at all). The cell is written again by the first frame.
    public func advance(of text: String) -> Int {
        var wide = Array(text.unicodeScalars.prefix(4).map { wchar_t(bitPattern: $0.value) })
        wide.append(0)
        _ = cnc_mvadd_cell(0, 0, wide, cnc_a_normal(), 0)
        let x = Int(cnc_getcurx(cnc_stdscr()))
        _ = cnc_mvadd_cell(0, 0, [wchar_t(32), 0], cnc_a_normal(), 0)
        return x
    }

    static func isUTF8Codeset() -> Bool {
        guard let cs = nl_langinfo(nl_item(CODESET)) else { return false }
        let name = String(cString: cs).uppercased()
        return name == "UTF-8" || name == "UTF8"
    }

    /// Screen size in cells.
    public var size: (rows: Int, cols: Int) {
        var y: Int32 = 0, x: Int32 = 0
        cnc_getmaxyx(cnc_stdscr(), &y, &x)
        return (Int(y), Int(x))
    }

    /// Writes one grapheme at (row, col) with curses attributes and colour pair 0.
    public func put(_ text: String, row: Int, col: Int) {
        var wide = Array(text.unicodeScalars.prefix(4).map { wchar_t(bitPattern: $0.value) })
        wide.append(0)
        _ = cnc_mvadd_cell(Int32(row), Int32(col), wide, cnc_a_normal(), 0)
    }

    /// Sends pending changes to the terminal.
    /// Sends pending changes to the terminal and adds what that wrote to `bytesWritten`.
    /// ncurses 6 writes its buffer with write(2) on the output descriptor within this call,
    /// on this thread, so this thread's `wchar` grows by exactly those bytes (a `FILE*`
    /// wrapper would not see them: ncurses bypasses stdio).
    public func refresh() {
        let before = writeCounter?.bytes
        _ = wrefresh(cnc_stdscr())
        if let b = before, let a = writeCounter?.bytes, a >= b { bytesWritten = (bytesWritten ?? 0) + (a - b) }
    }

    /// Restores the terminal (leaves the alternate screen, shows the cursor) and frees curses.
    public func end() {
        guard !ended else { return }
        ended = true
        endwin()
        fflush(outFile)
        delscreen(screen)
        fclose(outFile)
        fclose(inFile)
    }

    deinit { end() }
}

/// The calling thread's bytes written by write(2) and friends, from `/proc/thread-self/io`
/// (`wchar`, Linux 3.17+). Opened on the thread that will read it; nil when unavailable.
final class ThreadWriteCounter {
    private let fd: Int32
    private var buffer = [UInt8](repeating: 0, count: 512)

    init?() {
        let f = open("/proc/thread-self/io", O_RDONLY | O_CLOEXEC)
        guard f >= 0 else { return nil }
        fd = f
        guard bytes != nil else { close(f); return nil }
    }

    deinit { close(fd) }

    /// `wchar` now, or nil when it cannot be read.
    var bytes: UInt64? {
        let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard n > 0 else { return nil }
        return Self.wchar(in: String(decoding: buffer[0..<n], as: UTF8.self))
    }

    /// The `wchar:` value of an `io` file's text.
    static func wchar(in text: String) -> UInt64? {
        for line in text.split(separator: "\n") where line.hasPrefix("wchar:") {
            return UInt64(String(line.dropFirst(6).drop { $0 == " " || $0 == "\t" }))
        }
        return nil
    }
}

/// Text for a terminal whose locale is not UTF-8 (issue #27, TUI-01): the messages written on
/// stderr after the screen are in the locale's codeset too, not UTF-8.
public enum LocaleText {
    /// Set by `CursesTerminal.ensureUTF8Locale` when it kept a locale whose codeset is not
    /// UTF-8 (`LocaleChoice.keepAndDegrade`); false otherwise (UTF-8 is written as is).
    nonisolated(unsafe) public static var degraded = false

    /// `text`'s bytes: UTF-8, or in the kept locale's codeset (wcrtomb per scalar), each
    /// character it cannot encode transliterated (`CursesBackend.asciiFallback`).
    public static func bytes(_ text: String) -> [UInt8] {
        guard degraded else { return Array(text.utf8) }
        var out: [UInt8] = []
        var state = mbstate_t()
        var buf = [CChar](repeating: 0, count: 16)
        for ch in text {
            let shown = CursesTerminal.encodable(ch) ? ch : CursesBackend.asciiFallback(ch)
            for sc in shown.unicodeScalars {
                let n = wcrtomb(&buf, wchar_t(bitPattern: sc.value), &state)
                if n == -1 { out.append(UInt8(ascii: "?")); continue }
                out += buf.prefix(n).map { UInt8(bitPattern: $0) }
            }
        }
        return out
    }
}
