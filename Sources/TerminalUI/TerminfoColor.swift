import CNcursesw
#if canImport(Glibc)
import Glibc
#endif

/// Truecolor from terminfo as well as `COLORTERM` (issue #13, bug report IMG-07): the `RGB`
/// (ncurses 6.1 extension) and `Tc` (tmux's) boolean capabilities of a terminal type, and the
/// direct-colour entry to open for any TERM.
public enum TerminfoColor {
    /// True when the terminfo entry of `term` has the `RGB` or `Tc` flag (tigetflag), read
    /// without disturbing a running curses screen; false when the entry is unknown.
    public static func announcesTruecolor(term: String) -> Bool {
        guard !term.isEmpty else { return false }
        let previous = set_curterm(nil)
        defer {
            let mine = set_curterm(previous)
            if let mine, mine != previous { del_curterm(mine) }
        }
        var err: Int32 = 0
        guard setupterm(term, -1, &err) == 0 else { return false }
        return tigetflag("RGB") > 0 || tigetflag("Tc") > 0
    }

    /// Whether a compiled terminfo entry named `name` exists in the standard directories.
    public static func entryExists(_ name: String) -> Bool {
        guard let first = name.first else { return false }
        for dir in ["/etc/terminfo", "/lib/terminfo", "/usr/share/terminfo"]
        where access("\(dir)/\(first)/\(name)", R_OK) == 0 {
            return true
        }
        return false
    }

    /// The direct-colour entry that stands for `term`: `term` itself when it is one; else
    /// `<base>-direct` (base: `term` without `-256color`/`-88color`/`-16color`/`-color`, and
    /// without an `xterm-` prefix: `xterm-kitty` → `kitty-direct`, `tmux-256color` →
    /// `tmux-direct`), else `xterm-direct` (38;2;R;G;B is what every truecolor terminal
    /// understands); nil for GNU screen (`screen*`: screen 4 drops 24-bit SGR, and COLORTERM
    /// there is the outer terminal's) or when no candidate exists.
    public static func directType(for term: String, exists: (String) -> Bool = entryExists) -> String? {
        if term.contains("direct") { return term }
        if term.hasPrefix("screen") { return nil }
        var base = term
        for suffix in ["-256color", "-88color", "-16color", "-color"] where base.hasSuffix(suffix) {
            base = String(base.dropLast(suffix.count)); break
        }
        var candidates = ["\(base)-direct"]
        if base.hasPrefix("xterm-") { candidates.append("\(base.dropFirst(6))-direct") }
        candidates.append("xterm-direct")
        return candidates.first(where: exists)
    }
}
