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

    /// Sets the locale from the environment and, when its codeset is not UTF-8 (`LANG` unset or
    /// `C`), switches `LC_CTYPE` to `C.UTF-8` if the system has it (bug report TUI-01).
    /// - Returns: true when the resulting codeset is UTF-8 (else callers use ASCII fallbacks).
    @discardableResult
    public static func ensureUTF8Locale() -> Bool {
        setlocale(LC_ALL, "")
        if isUTF8Codeset() { return true }
        for name in ["C.UTF-8", "C.utf8", "en_US.UTF-8"] where setlocale(LC_CTYPE, name) != nil {
            if isUTF8Codeset() { return true }
        }
        return false
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
