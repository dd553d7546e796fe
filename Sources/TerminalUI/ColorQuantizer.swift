/// Maps RGB to the colour numbers a terminal understands (bug reports IMG-06/07/08).
public enum ColorQuantizer {
    /// Levels of the xterm 6×6×6 cube.
    static let cubeLevels: [Int] = [0, 95, 135, 175, 215, 255]

    /// The standard xterm values of the 16 ANSI colours.
    static let ansi16: [RGB] = [
        RGB(0, 0, 0), RGB(205, 0, 0), RGB(0, 205, 0), RGB(205, 205, 0), RGB(0, 0, 238), RGB(205, 0, 205),
        RGB(0, 205, 205), RGB(229, 229, 229), RGB(127, 127, 127), RGB(255, 0, 0), RGB(0, 255, 0),
        RGB(255, 255, 0), RGB(92, 92, 255), RGB(255, 0, 255), RGB(0, 255, 255), RGB(255, 255, 255),
    ]

    static func dist(_ a: RGB, _ b: RGB) -> Int {
        let dr = Int(a.r) - Int(b.r), dg = Int(a.g) - Int(b.g), db = Int(a.b) - Int(b.b)
        return 2 * dr * dr + 4 * dg * dg + 3 * db * db
    }

    static func cubeIndex(_ v: UInt8) -> Int {
        let x = Int(v)
        if x < 48 { return 0 }
        if x < 115 { return 1 }
        return min(5, (x - 35) / 40)
    }

    /// xterm-256 index: the nearer of the 6×6×6 cube entry (16…231) and the gray ramp (232…255).
    public static func palette256(_ c: RGB) -> Int {
        let ri = cubeIndex(c.r), gi = cubeIndex(c.g), bi = cubeIndex(c.b)
        let cube = RGB(UInt8(cubeLevels[ri]), UInt8(cubeLevels[gi]), UInt8(cubeLevels[bi]))
        let avg = (Int(c.r) + Int(c.g) + Int(c.b)) / 3
        let grayIndex = avg > 238 ? 23 : max(0, (avg - 3) / 10)
        let gv = UInt8(8 + 10 * grayIndex)
        let gray = RGB(gv, gv, gv)
        return dist(c, gray) < dist(c, cube) ? 232 + grayIndex : 16 + 36 * ri + 6 * gi + bi
    }

    /// Nearest of the first `count` (8 or 16) ANSI colours.
    public static func ansi(_ c: RGB, count: Int = 16) -> Int {
        var best = 0, bestD = Int.max
        for i in 0..<min(count, 16) {
            let d = dist(c, ansi16[i])
            if d < bestD { bestD = d; best = i }
        }
        return best
    }

    /// Direct-colour number `0xRRGGBB` with 6 bits per channel (the low 2 bits cleared, then
    /// rounded): camera noise of a level or two then leaves a cell's colour, its pair and so
    /// its bytes unchanged, which keeps a frame within the byte budget (Benchmarks/ui.sh).
    /// Numbers below 8 are ANSI indexes in `xterm-direct`'s `setaf`, so near-black values are
    /// raised to `0x000008`.
    public static func direct(_ c: RGB) -> Int {
        @inline(__always) func q(_ x: UInt8) -> Int { min(252, (Int(x) + 2) & ~3) }
        let v = q(c.r) << 16 | q(c.g) << 8 | q(c.b)
        return v < 8 ? 8 : v
    }

    /// The colour number for `color` in `mode` with `colors` available; -1 = terminal default.
    public static func number(_ color: Color, mode: ColorMode, colors: Int) -> Int {
        guard case .rgb(let c) = color else { return -1 }
        switch mode {
        case .none: return -1
        case .ansi16: return ansi(c, count: colors >= 16 ? 16 : 8)
        case .palette256: return palette256(c)
        case .direct: return direct(c)
        }
    }

    /// The mode to use from terminfo `colors` (never TERM substrings, IMG-08): `NO_COLOR` or
    /// fewer than 8 colours → none; ≥ 2^24 → direct; ≥ 256 → 256; else 16. Curses can only send
    /// 24-bit colour through a direct-colour terminfo entry, so `COLORTERM=truecolor` is honoured
    /// by opening the terminal as `xterm-direct` (see `CursesBackend.terminalType`).
    public static func mode(terminfoColors: Int, environment: [String: String]) -> ColorMode {
        if let nc = environment["NO_COLOR"], !nc.isEmpty { return .none }
        if terminfoColors >= 1 << 24 { return .direct }
        if terminfoColors >= 256 { return .palette256 }
        if terminfoColors >= 8 { return .ansi16 }
        return .none
    }

    /// True when `COLORTERM` announces 24-bit colour (`truecolor` or `24bit`, IMG-07).
    public static func announcesTruecolor(_ environment: [String: String]) -> Bool {
        let ct = environment["COLORTERM"]?.lowercased()
        return ct == "truecolor" || ct == "24bit"
    }
}
