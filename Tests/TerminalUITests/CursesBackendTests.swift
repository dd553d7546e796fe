import Testing
import Foundation
import Glibc
import CaptureModel
@testable import TerminalUI
import TestSupport

/// Collects everything written to a pseudo-terminal's master side on a background thread.
final class PtyReader: @unchecked Sendable {
    let master: Int32
    private let lock = NSLock()
    private var data: [UInt8] = []
    private var thread: Thread?
    private var done = false
    init(master: Int32) { self.master = master }
    func start() {
        let t = Thread { [self] in
            var buf = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = read(master, &buf, buf.count)
                if n <= 0 { break }
                lock.lock(); data += buf[0..<n]; lock.unlock()
            }
            lock.lock(); done = true; lock.unlock()
        }
        thread = t
        t.start()
    }
    /// Everything written until every slave descriptor closed (read returns EIO), at most 5 s.
    func takeUntilClosed() -> [UInt8] {
        for _ in 0..<1000 {
            lock.lock(); let d = done; lock.unlock()
            if d { break }
            usleep(5_000)
        }
        lock.lock(); defer { data.removeAll(); lock.unlock() }
        return data
    }

    /// Bytes so far, once the reader has been quiet for 20 ms (waiting up to 300 ms for the
    /// first byte, and at most 3 s in all, on a loaded machine).
    func take() -> [UInt8] {
        var last = -1, quiet = 0, waited = 0
        while waited < 3_000 {
            lock.lock(); let n = data.count; lock.unlock()
            if n == last { quiet += 1 } else { quiet = 0; last = n }
            if quiet >= 4 && (n > 0 || waited >= 300) { break }
            usleep(5_000); waited += 5
        }
        lock.lock(); defer { data.removeAll(); lock.unlock() }
        return data
    }
}

@Suite(.serialized) struct CursesBackendTests {
    func withPty(cols: UInt16, rows: UInt16, _ body: (Int32, PtyReader) throws -> Void) throws {
        try withPty(cols: cols, rows: rows) { slave, reader, _ in try body(slave, reader) }
    }

    /// A pty pair; `body` gets the slave, the master's reader and an idempotent "close the slave".
    func withPty(cols: UInt16, rows: UInt16, _ body: (Int32, PtyReader, () -> Void) throws -> Void) throws {
        var master: Int32 = -1, slave: Int32 = -1
        #expect(openpty(&master, &slave, nil, nil, nil) == 0)
        // Close-on-exec, so a child another test spawns meanwhile cannot hold this pty open.
        for fd in [master, slave] { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var ws = winsize(ws_row: rows, ws_col: cols, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(slave, UInt(TIOCSWINSZ), &ws)
        let reader = PtyReader(master: master)
        reader.start()
        var slaveOpen = true
        let closeSlave = { if slaveOpen { slaveOpen = false; close(slave) } }
        try body(slave, reader, closeSlave)
        closeSlave()
        _ = reader.takeUntilClosed()
        close(master)
    }

    @Test func frameReachesTheTerminalOnlyChangesAreResentAndTerminalIsRestored() throws {
        try withPty(cols: 80, rows: 24) { slave, reader in
            let backend = try CursesBackend(term: "xterm-256color", outputFD: slave, inputFD: slave,
                                            environment: ["TERM": "xterm-256color"], quietStderr: false)
            #expect(backend.size == Size(cols: 80, rows: 24))
            #expect(backend.colorMode == .palette256)
            let ctx = RenderContext(size: backend.size, strings: StubStrings(locale: "fr"), theme: .dark,
                                    colorMode: backend.colorMode, glyphs: backend.glyphs)
            backend.draw(Screens.render(.instructions, context: ctx))
            let first = String(decoding: reader.take(), as: UTF8.self)
            #expect(first.contains("Enregistrez une courte vidéo selfie"), "output: \(first.debugDescription)")
            #expect(first.contains("\u{1B}[?1049h"), "alternate screen entered")

            backend.draw(Screens.render(.instructions, context: ctx))
            let again = reader.take()
            #expect(again.count < 16, "an unchanged frame sends (almost) nothing: \(again.count) bytes")

            let capture = CaptureViewState(image: quadrantImage(), phase: .positioning, hint: .moveLeft, isValid: false)
            backend.draw(Screens.render(.capture(capture), context: ctx))
            let captureBytes = reader.take()
            #expect(String(decoding: captureBytes, as: UTF8.self).contains("▀"))

            backend.end()
            let tail = String(decoding: reader.take(), as: UTF8.self)
            // rmcup (leave the alternate screen) and cnorm (show the cursor) of xterm-256color.
            #expect(tail.contains("\u{1B}[?1049l"), "tail: \(tail.debugDescription)")
            #expect(tail.contains("\u{1B}[?25h"), "tail: \(tail.debugDescription)")
            let lastText = tail.range(of: "\u{1B}[?1049l")
            #expect(lastText != nil && !tail[lastText!.upperBound...].contains("▀"))
        }
    }

    /// A terminal that goes away (its pty's master closed, as when an SSH connection or a
    /// terminal window closes) is reported as `.hangup`, not as "no key" on every turn: the
    /// capture loop spun at 60 % of a core on a closed tmux session that sent it no SIGHUP.
    @Test func aTerminalThatGoesAwayIsAHangup() throws {
        var master: Int32 = -1, slave: Int32 = -1
        try #require(openpty(&master, &slave, nil, nil, nil) == 0)
        for fd in [master, slave] { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var ws = winsize(ws_row: 24, ws_col: 80, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(slave, UInt(TIOCSWINSZ), &ws)
        let backend = try CursesBackend(term: "xterm-256color", outputFD: slave, inputFD: slave,
                                        environment: ["TERM": "xterm-256color"], quietStderr: false)
        #expect(backend.readInput(timeoutMs: 0) == nil, "a live terminal with no key pressed")
        close(master)
        #expect(backend.readInput(timeoutMs: 0) == .hangup)
        backend.end()   // writes to the dead terminal fail; nothing hangs or crashes
        close(slave)
    }

    /// Pixels in the cells (sixel, iTerm2) are repainted over when the picture goes or moves,
    /// row by row of the old rectangle; kitty's are deleted by id, and an unchanged picture
    /// repaints nothing.
    @Test func cellPicturesLeaveNoStrips() {
        let a = CellRect(x: 2, y: 3, width: 40, height: 15), b = CellRect(x: 2, y: 5, width: 20, height: 8)
        #expect(CursesBackend.rowsToRepaint(old: a, new: nil, mode: .sixel)! == (3, 15))
        #expect(CursesBackend.rowsToRepaint(old: a, new: b, mode: .iterm)! == (3, 15))
        #expect(CursesBackend.rowsToRepaint(old: a, new: a, mode: .sixel) == nil)
        #expect(CursesBackend.rowsToRepaint(old: a, new: nil, mode: .kitty) == nil)
        #expect(CursesBackend.rowsToRepaint(old: nil, new: b, mode: .sixel) == nil)
    }

    @Test func keysAreMapped() throws {
        try withPty(cols: 80, rows: 24) { slave, reader in
            let backend = try CursesBackend(term: "xterm-256color", outputFD: slave, inputFD: slave,
                                            environment: ["TERM": "xterm-256color"], quietStderr: false)
            defer { backend.end() }
            let input: [UInt8] = [13, 32, 0x7F, 3, UInt8(ascii: "s"), UInt8(ascii: "q")]
            _ = input.withUnsafeBufferPointer { write(reader.master, $0.baseAddress, $0.count) }
            var keys: [Key] = []
            for _ in 0..<input.count {
                if case .key(let k)? = backend.readInput(timeoutMs: 500) { keys.append(k) }
            }
            #expect(keys == [.enter, .space, .backspace, .interrupt, .character("s"), .character("q")])
            #expect(backend.readInput(timeoutMs: 0) == nil)
        }
    }

    /// A terminal that never answered the start-up probe: its late replies are filtered out of
    /// the keys while the window lasts, and the first key after the window is a key (a new-user
    /// trial lost it: idle 3 s on the instructions screen, then Enter did nothing).
    @Test func lateProbeRepliesAreFilteredAndTheFirstKeyAfterTheWindowIsKept() throws {
        try withPty(cols: 80, rows: 24) { slave, reader in
            let backend = try CursesBackend(term: "xterm-256color", outputFD: slave, inputFD: slave,
                                            environment: ["TERM": "xterm-256color"], quietStderr: false)
            defer { backend.end() }
            func keys(_ input: [UInt8], count: Int) -> [Key] {
                _ = input.withUnsafeBufferPointer { write(reader.master, $0.baseAddress, $0.count) }
                var out: [Key] = []
                for _ in 0..<20 where out.count < count {
                    if case .key(let k)? = backend.readInput(timeoutMs: 200) { out.append(k) }
                }
                return out
            }
            // Within the window: a late DA1 reply is not keys; the key after it is.
            backend.takeProbeInput([], deadlineExpired: true, lateReplyMs: 60_000)
            #expect(keys(Array("\u{1B}[?63;4cs".utf8), count: 1) == [.character("s")])
            // The window already over: the first key is kept.
            backend.takeProbeInput([], deadlineExpired: true, lateReplyMs: -1)
            #expect(keys([13, UInt8(ascii: "q")], count: 2) == [.enter, .character("q")])
        }
    }

    /// ncursesw initialises on a pseudo-terminal and sends the UTF-8 bytes of a wide character
    /// (the foundation's smoke test, moved here so all curses tests run one at a time).
    @Test func wideCharacterReachesThePseudoTerminal() throws {
        try withPty(cols: 80, rows: 24) { slave, reader in
            let term = try CursesTerminal(term: "xterm-256color", outputFD: slave, inputFD: slave)
            #expect(term.size.rows == 24)
            #expect(term.size.cols == 80)
            term.put("▀", row: 2, col: 3)
            term.put("é", row: 2, col: 4)
            term.refresh()
            term.end()
            let text = String(decoding: reader.take(), as: UTF8.self)
            #expect(text.contains("▀é"), "curses output: \(text.debugDescription)")
        }
    }

    /// SIGWINCH after a size change gives `.resized` with the new size, and the next frame is
    /// painted in full at that size.
    @Test func resizeIsReportedAndRepaintedInFull() throws {
        try withPty(cols: 80, rows: 24) { slave, reader in
            let backend = try CursesBackend(term: "xterm-256color", outputFD: slave, inputFD: slave,
                                            environment: ["TERM": "xterm-256color"], quietStderr: false)
            defer { backend.end() }
            let strings = StubStrings(locale: "en")
            backend.draw(Screens.render(.instructions, context: RenderContext(size: backend.size, strings: strings, theme: .dark)))
            _ = reader.take()
            var ws = winsize(ws_row: 30, ws_col: 100, ws_xpixel: 0, ws_ypixel: 0)
            _ = ioctl(slave, UInt(TIOCSWINSZ), &ws)
            raise(SIGWINCH)
            #expect(backend.readInput(timeoutMs: 500) == .resized(Size(cols: 100, rows: 30)))
            #expect(backend.size == Size(cols: 100, rows: 30))
            backend.draw(Screens.render(.instructions, context: RenderContext(size: backend.size, strings: strings, theme: .dark)))
            let out = String(decoding: reader.take(), as: UTF8.self)
            #expect(out.contains("Record a short selfie video"), "the whole screen is sent again")
        }
    }

    static let helper: String? = {
        let p = TestSupport.projectRoot().appendingPathComponent(".build/debug/bench-ui").path
        return FileManager.default.isExecutableFile(atPath: p) ? p : nil
    }()

    /// A process killed by any signal `SignalGuard` catches while curses draws (no loop polls
    /// here, so SIGTERM/SIGHUP take the fatal path too) leaves the terminal restored (xterm's
    /// rmcup, cnorm, rmkx, and the screen cleared: issue #18) and still dies of that signal
    /// (TUI-04).
    @Test(.enabled(if: helper != nil, ".build/debug/bench-ui absent (run swift build)"),
          arguments: [SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT])
    func signalRestoresTheTerminal(sig: Int32) throws {
        try withPty(cols: 80, rows: 24) { slave, reader, closeSlave in
            let r = try ChildProcess.run(Self.helper ?? "/bin/false", ["--signal-check", String(sig)],
                                         environment: ["TERM": "xterm-256color", "LANG": "C.UTF-8"],
                                         stdin: .descriptor(slave), stdout: .descriptor(slave), timeout: 30)
            #expect(!r.timedOut, "the helper did not end within 30 s")
            #expect(r.signal == sig, "ended by signal \(r.signal.map(String.init) ?? "none"), exit status \(r.exitStatus.map(String.init) ?? "none")")
            closeSlave()
            let out = String(decoding: reader.takeUntilClosed(), as: UTF8.self)
            guard let drawn = out.range(of: "SIGNAL-CHECK") else { Issue.record("frame not drawn: \(out.debugDescription)"); return }
            let tail = out[drawn.upperBound...]
            #expect(tail.contains("\u{1B}[?1049l"), "rmcup after the frame: \(tail.debugDescription)")
            #expect(tail.contains("\u{1B}[?25h"), "cnorm after the frame: \(tail.debugDescription)")
            #expect(tail.contains("\u{1B}[?1l\u{1B}>"), "rmkx after the frame: \(tail.debugDescription)")
            #expect(tail.contains("\u{1B}[H\u{1B}[2J"), "clear after the frame: \(tail.debugDescription)")
        }
    }

    /// TUI-06: the restore bytes reach a non-blocking descriptor that first answers EAGAIN
    /// (a full pipe): the restore path retries until they are all written.
    @Test("TUI-06: the restore sequences are retried on EAGAIN, not dropped")
    func tui06() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        _ = fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK)
        let filler = [UInt8](repeating: 0x2E, count: 4096)
        var filled = 0
        while true {
            let n = filler.withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) }
            if n <= 0 { break }
            filled += n
        }
        #expect(errno == EAGAIN, "the pipe is full")
        let restore = Array("\u{1B}[?1049l\u{1B}[?25hRESTORED".utf8)
        SignalGuard.armTerminal(fd: fds[1], bytes: restore, saved: nil)
        defer { SignalGuard.disarmTerminal() }
        // A reader drains the pipe while the restore path writes.
        let readFD = fds[0], total = filled + restore.count
        let box = UncheckedSendableBytes()
        let t = Thread {
            var buf = [UInt8](repeating: 0, count: 65536)
            while box.count < total {
                let n = read(readFD, &buf, buf.count)
                if n <= 0 { break }
                box.append(buf[0..<n])
            }
        }
        t.start()
        SignalGuard.writeRestoreNow()
        var waited = 0
        while box.count < total && waited < 10_000 { usleep(1000); waited += 1 }
        #expect(box.count == total && box.suffix(restore.count) == restore, "\(box.count) of \(total) bytes")
    }

    /// TUI-07 and TUI-08: resizing is ncurses' own SIGWINCH handling (KEY_RESIZE read in the
    /// loop, no curses call in a signal handler): many resizes in a row, each followed by a
    /// draw, end at the last size with the screen intact.
    @Test("TUI-07: resize handled from KEY_RESIZE in the loop, not in a signal handler")
    func tui07() throws { try vigorousResize(times: 3) }

    @Test("TUI-08: vigorous resizing neither crashes nor corrupts the screen")
    func tui08() throws { try vigorousResize(times: 40) }

    func vigorousResize(times: Int) throws {
        try withPty(cols: 80, rows: 24) { slave, reader in
            let backend = try CursesBackend(term: "xterm-256color", outputFD: slave, inputFD: slave,
                                            environment: ["TERM": "xterm-256color"], quietStderr: false)
            defer { backend.end() }
            let strings = StubStrings(locale: "en")
            var last = Size(cols: 80, rows: 24)
            for i in 0..<times {
                last = Size(cols: 60 + (i * 7) % 60, rows: 16 + (i * 5) % 30)
                var ws = winsize(ws_row: UInt16(last.rows), ws_col: UInt16(last.cols), ws_xpixel: 0, ws_ypixel: 0)
                _ = ioctl(slave, UInt(TIOCSWINSZ), &ws)
                raise(SIGWINCH)
                while let input = backend.readInput(timeoutMs: 50) { if case .resized = input { continue } }
                backend.draw(Screens.render(.instructions, context: RenderContext(size: backend.size, strings: strings, theme: .dark)))
            }
            #expect(backend.size == last)
            _ = reader.take()
            backend.draw(Screens.render(.instructions, context: RenderContext(size: backend.size, strings: strings, theme: .dark)))
            var ws = winsize(ws_row: 30, ws_col: 100, ws_xpixel: 0, ws_ypixel: 0)
            _ = ioctl(slave, UInt(TIOCSWINSZ), &ws)
            raise(SIGWINCH)
            #expect(backend.readInput(timeoutMs: 500) == .resized(Size(cols: 100, rows: 30)))
            backend.draw(Screens.render(.instructions, context: RenderContext(size: backend.size, strings: strings, theme: .dark)))
            #expect(String(decoding: reader.take(), as: UTF8.self).contains("Record a short selfie video"))
        }
    }

    /// The RGB of xterm-256 colour `n` (16…255: the 6×6×6 cube, then the gray ramp 8 + 10 k).
    static func xterm256(_ n: Int) -> RGB {
        if n >= 232 { let v = UInt8(8 + 10 * (n - 232)); return RGB(v, v, v) }
        let l = [0, 95, 135, 175, 215, 255], i = n - 16
        return RGB(UInt8(l[i / 36]), UInt8(l[i / 6 % 6]), UInt8(l[i % 6]))
    }

    /// TUI-13: more colour combinations than 256 on a 256-colour terminal: pairs come from the
    /// extended-pair API through a cache, so no pair overwrites another and every cell's colour
    /// is sent (each of 300 background colours reaches the terminal).
    @Test("TUI-13: more than 256 colour pairs never overwrite each other")
    func tui13() throws {
        try withPty(cols: 80, rows: 24) { slave, reader in
            let backend = try CursesBackend(term: "xterm-256color", outputFD: slave, inputFD: slave,
                                            environment: ["TERM": "xterm-256color"], quietStderr: false)
            #expect(backend.colorMode == .palette256)
            var canvas = Canvas(width: 80, height: 24)
            // 300 distinct (fg, bg) pairs: bg over 240 palette colours, fg black or white.
            for i in 0..<300 {
                let bg = Self.xterm256(16 + i % 240)
                let fg = i < 240 ? RGB(0, 0, 0) : RGB(255, 255, 255)
                canvas[i % 80, i / 80] = Cell("x", style: Style(fg: .rgb(fg), bg: .rgb(bg)))
            }
            backend.draw(RenderedScreen(canvas: canvas, lines: [], status: nil))
            backend.end()
            let out = String(decoding: reader.take(), as: UTF8.self)
            for n in [16, 100, 200, 255] { #expect(out.contains("48;5;\(n)m") || out.contains(";48;5;\(n)"), "background \(n) not sent") }
        }
    }

    /// An 8-colour terminal with 64 pairs (TERM=xterm, TUI-14): more colour combinations than
    /// pairs restart the cache and still draw every cell; nothing traps, the text arrives.
    @Test func smallPairTableDegrades() throws {
        try withPty(cols: 80, rows: 24) { slave, reader in
            let backend = try CursesBackend(term: "xterm", outputFD: slave, inputFD: slave,
                                            environment: ["TERM": "xterm"], quietStderr: false)
            #expect(backend.colorMode == .ansi16 && backend.terminfoPairs == 64)
            let ctx = RenderContext(backend: backend, strings: ProjectStrings.en, theme: .dark)
            let img = PreviewImage(width: 64, height: 48, rgb: (0..<(64 * 48 * 3)).map { UInt8(truncatingIfNeeded: $0 &* 37) })
            for phase in [CapturePhase.ready, .positioning, .recording] {
                backend.draw(Screens.render(.capture(CaptureViewState(image: img, phase: phase, hint: .moveUp, isValid: false, progress: 0.5)), context: ctx))
            }
            backend.end()
            let out = String(decoding: reader.take(), as: UTF8.self)
            #expect(out.contains("Recording"), "the last frame's text arrived")
        }
    }

    @Test func directColourTerminal() throws {
        try withPty(cols: 80, rows: 24) { slave, reader in
            let backend = try CursesBackend(term: "xterm-direct", outputFD: slave, inputFD: slave,
                                            environment: ["TERM": "xterm-direct"], quietStderr: false)
            #expect(backend.colorMode == .direct)
            let ctx = RenderContext(size: backend.size, strings: StubStrings(locale: "en"), theme: .dark,
                                    colorMode: backend.colorMode, glyphs: backend.glyphs)
            backend.draw(Screens.render(.capture(CaptureViewState(image: quadrantImage(), phase: .ready)), context: ctx))
            backend.end()
            let out = String(decoding: reader.take(), as: UTF8.self)
            // The quadrant colour (200,150,120) dimmed outside the oval, sent as 24-bit colour.
            #expect(out.contains("38:2::") || out.contains("38;2;"), "no 24-bit colour in output")
        }
    }
}

@Suite struct ColorAndPlainTests {
    @Test func palette256() {
        #expect(ColorQuantizer.palette256(RGB(0, 0, 0)) == 16)
        #expect(ColorQuantizer.palette256(RGB(255, 255, 255)) == 231)
        #expect(ColorQuantizer.palette256(RGB(255, 0, 0)) == 196)
        #expect(ColorQuantizer.palette256(RGB(128, 128, 128)) == 244)  // gray ramp 8 + 10·12 = 128
        #expect(ColorQuantizer.palette256(RGB(95, 135, 175)) == 16 + 36 * 1 + 6 * 2 + 3)
    }

    @Test func ansiAndDirect() {
        #expect(ColorQuantizer.ansi(RGB(250, 10, 10)) == 9)
        #expect(ColorQuantizer.ansi(RGB(250, 10, 10), count: 8) == 1)
        #expect(ColorQuantizer.direct(RGB(0x12, 0x34, 0x56)) == 0x143458)
        #expect(ColorQuantizer.direct(RGB(0xFF, 0x81, 0x80)) == 0xFC8080)
        #expect(ColorQuantizer.direct(RGB(0, 0, 3)) == 8)
    }

    @Test func modeFromTerminfo() {
        #expect(ColorQuantizer.mode(terminfoColors: 256, environment: [:]) == .palette256)
        #expect(ColorQuantizer.mode(terminfoColors: 1 << 24, environment: [:]) == .direct)
        #expect(ColorQuantizer.mode(terminfoColors: 8, environment: [:]) == .ansi16)
        #expect(ColorQuantizer.mode(terminfoColors: -1, environment: [:]) == .none)
        #expect(ColorQuantizer.mode(terminfoColors: 256, environment: ["NO_COLOR": "1"]) == .none)
        #expect(CursesBackend.terminalType(term: "xterm-256color", environment: ["COLORTERM": "truecolor"]) == "xterm-direct")
        #expect(CursesBackend.terminalType(term: "xterm-256color", environment: [:]) == "xterm-256color")
        #expect(CursesBackend.terminalType(term: "screen", environment: ["COLORTERM": "24bit"]) == "screen")
    }

    @Test func asciiFallbacks() {
        #expect(CursesBackend.asciiFallback("é") == "e")
        #expect(CursesBackend.asciiFallback("…") == ".")
        #expect(CursesBackend.asciiFallback("▀") == "#")
        #expect(CursesBackend.asciiFallback("漢") == "?")
    }

    @Test func plainPrintsScreensAndStatusChangesOnce() {
        var out = ""
        let plain = PlainBackend { out += $0 }
        let ctx = RenderContext(size: plain.size, strings: StubStrings(locale: "en"), theme: .dark.withoutColor(), colorMode: .none)
        var state = CaptureViewState(image: nil, phase: .positioning, hint: .getCloser, isValid: false)
        plain.draw(Screens.render(.capture(state), context: ctx))
        plain.draw(Screens.render(.capture(state), context: ctx))
        state.hint = .holdStill
        plain.draw(Screens.render(.capture(state), context: ctx))
        #expect(out == "Place your face in the oval\nThe recording will last 1 second\nMove closer\nHold still\n")
        #expect(!out.contains("\u{1B}"))
    }

    @Test func noColorThemeRendersPreviewAsAsciiRamp() {
        let ctx = RenderContext(size: Size(cols: 80, rows: 24), strings: StubStrings(locale: "en"), theme: .dark.withoutColor(),
                                colorMode: .direct)
        let r = Screens.render(.capture(CaptureViewState(image: quadrantImage(), phase: .ready)), context: ctx)
        let rows = r.canvas.textRows()
        #expect(!rows.joined().contains("▀"))
        #expect(rows[10].contains("•"), "oval outline drawn with the outline glyph")
        #expect(r.canvas.cells.allSatisfy { $0.style.fg == .terminalDefault && $0.style.bg == .terminalDefault })
    }
}

/// Bytes collected by a reader thread (TUI-06).
final class UncheckedSendableBytes: @unchecked Sendable {
    private let lock = NSLock()
    private var data: [UInt8] = []
    var count: Int { lock.lock(); defer { lock.unlock() }; return data.count }
    func append(_ b: ArraySlice<UInt8>) { lock.lock(); data += b; lock.unlock() }
    func suffix(_ n: Int) -> [UInt8] { lock.lock(); defer { lock.unlock() }; return Array(data.suffix(n)) }
}
