import Testing
import TerminalUI
import Glibc

@Suite struct CursesSmokeTests {
    /// ncursesw initialises on a pseudo-terminal and sends the UTF-8 bytes of a wide character.
    @Test func wideCharacterReachesThePseudoTerminal() throws {
        var master: Int32 = -1, slave: Int32 = -1
        #expect(openpty(&master, &slave, nil, nil, nil) == 0)
        defer { close(master) }
        let flags = fcntl(master, F_GETFL)
        _ = fcntl(master, F_SETFL, flags | O_NONBLOCK)
        var ws = winsize(ws_row: 24, ws_col: 80, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(slave, UInt(TIOCSWINSZ), &ws)

        let term = try CursesTerminal(term: "xterm-256color", outputFD: slave, inputFD: slave)
        #expect(term.size.rows == 24)
        #expect(term.size.cols == 80)
        term.put("▀", row: 2, col: 3)
        term.put("é", row: 2, col: 4)
        term.refresh()
        term.end()
        close(slave)

        var bytes: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(master, &buf, buf.count)
            if n <= 0 { break }
            bytes += buf[0..<n]
        }
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("▀é"), "curses output: \(text.debugDescription)")
    }
}
