import CaptureModel
#if canImport(Glibc)
import Glibc
#endif

/// Keys typed as lines, for the plain renderer on a terminal that cannot be put in raw mode
/// usefully (`TERM=dumb`, TERM unset, `--renderer plain`): the terminal stays in its canonical
/// (cooked) mode, as POSIX.1-2017 §11.1.6 "Canonical Mode Input Processing" delivers it, one
/// line at a time, and each line is one key (issue #18 "no terminal type is not consent").
public enum LineKeys {
    /// The key a typed line means, or nil for a line that names none (ignored, so a stray word
    /// never starts a capture): an empty line (Enter alone) is Enter; one character is that
    /// character (`s`, `q`, `i`; Esc typed then Enter is Escape); the words `enter`, `space`,
    /// `esc`/`escape` (any case) are those keys. Surrounding spaces (a blank line is Enter) and a trailing CR are ignored.
    public static func key(forLine raw: String) -> Key? {
        var line = Substring(raw)
        while let l = line.last, l == "\r" || l == "\n" { line.removeLast() }
        let trimmed = line.trimmingSpaces
        if trimmed.isEmpty { return .enter }
        switch trimmed.lowercased() {
        case "enter", "return": return .enter
        case "space": return .space
        case "esc", "escape", "\u{1b}": return .escape
        default: break
        }
        guard trimmed.count == 1, let c = trimmed.first else { return nil }
        if c == "\u{7f}" || c == "\u{8}" { return .backspace }
        if c.isASCII, let a = c.asciiValue, a < 0x20 { return nil }
        return .character(c)
    }
}

extension Substring {
    var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}

/// The plain renderer (`PlainBackend`'s text frames) with keys read line by line from a
/// terminal descriptor (`LineKeys`). End of input (Ctrl-D on an empty line) is `q`: whoever is
/// at the terminal has left, and `q` ends every screen (on the result screen it keeps the files).
/// Before the first screen it prints `intro` (how to type keys in this mode).
public final class LinePlainBackend: TerminalBackend {
    let plain: PlainBackend
    let fd: Int32
    var buffer: [UInt8] = []
    var pending: [InputEvent] = []
    var ended = false
    var intro: String?
    let write: (String) -> Void

    /// - Parameters:
    ///   - inputFD: a terminal in canonical mode (stdin, or `/dev/tty` when stdin is the video);
    ///     not closed here.
    ///   - intro: one line shown before the first screen.
    ///   - write: receives whole lines (stdout).
    public init(inputFD: Int32, intro: String?, size: Size = Size(cols: 80, rows: 24), glyphs: Glyphs = .unicode,
                write: @escaping (String) -> Void) {
        fd = inputFD
        self.intro = intro
        self.write = write
        plain = PlainBackend(size: size, glyphs: glyphs, write: write)
    }

    public var size: Size { plain.size }
    public var colorMode: ColorMode { .none }
    public var glyphs: Glyphs { plain.glyphs }
    public var inputFD: Int32? { ended && pending.isEmpty ? nil : fd }

    public func draw(_ screen: RenderedScreen) {
        if let i = intro { write(i + "\n"); intro = nil }
        plain.draw(screen)
    }

    public func readInput(timeoutMs: Int) -> InputEvent? {
        if !pending.isEmpty { return pending.removeFirst() }
        guard !ended else { return nil }
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&p, 1, Int32(max(0, timeoutMs))) > 0 else { return nil }
        var chunk = [UInt8](repeating: 0, count: 1024)
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n < 0 { return nil }   // EINTR/EAGAIN: try again on the next turn
        if n == 0 {
            ended = true
            buffer = []
            return .key(.character("q"))
        }
        feed(Array(chunk[0..<n]))
        return pending.isEmpty ? nil : pending.removeFirst()
    }

    /// Splits `bytes` into lines and queues the key of each complete one.
    func feed(_ bytes: [UInt8]) {
        buffer += bytes
        while let nl = buffer.firstIndex(of: 0x0A) {
            let line = String(decoding: buffer[..<nl], as: UTF8.self)
            buffer.removeSubrange(...nl)
            if let k = LineKeys.key(forLine: line) { pending.append(.key(k)) }
        }
    }

    public func end() { plain.end() }
}
