import Testing
@testable import TerminalUI

/// Truecolor for any TERM (IMG-07) and colours from terminfo, not TERM names (IMG-08).
@Suite struct TerminfoColorTests {
    @Test func directEntryForAnyTerm() {
        let have: Set<String> = ["tmux-direct", "kitty-direct", "alacritty-direct", "xterm-direct"]
        let exists = { (n: String) in have.contains(n) }
        #expect(TerminfoColor.directType(for: "tmux-256color", exists: exists) == "tmux-direct")
        #expect(TerminfoColor.directType(for: "xterm-kitty", exists: exists) == "kitty-direct")
        #expect(TerminfoColor.directType(for: "alacritty", exists: exists) == "alacritty-direct")
        #expect(TerminfoColor.directType(for: "foot", exists: exists) == "xterm-direct")
        #expect(TerminfoColor.directType(for: "xterm-direct", exists: exists) == "xterm-direct")
        #expect(TerminfoColor.directType(for: "screen-256color", exists: exists) == nil)
        #expect(TerminfoColor.directType(for: "foot", exists: { _ in false }) == nil)
    }

    /// Debian's terminfo (ncurses-term): xterm-kitty carries `Tc`, xterm-256color neither flag.
    @Test(.enabled(if: TerminfoColor.entryExists("xterm-kitty") && TerminfoColor.entryExists("xterm-direct"),
                   "needs ncurses-term"))
    func terminfoFlagsAnnounceTruecolor() {
        #expect(TerminfoColor.announcesTruecolor(term: "xterm-kitty"))
        #expect(!TerminfoColor.announcesTruecolor(term: "xterm-256color"))
        #expect(!TerminfoColor.announcesTruecolor(term: "no-such-terminal-type"))
        // COLORTERM alone, a TERM that is not xterm*: its own direct entry.
        #expect(CursesBackend.terminalType(term: "tmux-256color", environment: ["COLORTERM": "truecolor"]) == "tmux-direct")
        // Terminfo alone (no COLORTERM): kitty's Tc.
        #expect(CursesBackend.terminalType(term: "xterm-kitty", environment: [:]) == "kitty-direct")
        #expect(CursesBackend.terminalType(term: "xterm-kitty", environment: [:], terminfoTruecolor: false) == "xterm-kitty")
        #expect(CursesBackend.terminalType(term: "xterm-256color", environment: [:]) == "xterm-256color")
    }

    /// IMG-08: the number of colours comes from terminfo `colors`, whatever the TERM's name says.
    @Test func coloursFromTerminfoNumbers() {
        #expect(ColorQuantizer.mode(terminfoColors: 256, environment: [:]) == .palette256)   // rxvt-unicode-256color
        #expect(ColorQuantizer.mode(terminfoColors: 88, environment: [:]) == .ansi16)        // rxvt-unicode (88)
        #expect(ColorQuantizer.mode(terminfoColors: 1 << 24, environment: [:]) == .direct)
    }
}
