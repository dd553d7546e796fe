import Testing
@testable import TerminalUI

/// The curses colour pairs' table key (issue #28: an `Int` rather than a struct of two, so the
/// first screen does not pay the runtime's first look-up of a `Hashable` conformance): one key
/// per (foreground, background), the terminal's default colour (-1) and 24-bit colours included.
@Suite struct PairKeyTests {
    @Test func oneKeyPerColourPair() {
        let colours: [Int32] = [-1, 0, 1, 7, 15, 16, 231, 255, 256, 0x12_12_12, 0x4F_C3_F7, 0xFF_FF_FF, Int32.max]
        var seen: [Int: (Int32, Int32)] = [:]
        for fg in colours {
            for bg in colours {
                let key = CursesBackend.pairKey(fg: fg, bg: bg)
                #expect(seen[key] == nil, "\(fg)/\(bg) and \(String(describing: seen[key])) share a key")
                seen[key] = (fg, bg)
                // Both colours come back out of the key.
                #expect(Int32(truncatingIfNeeded: key >> 32) == fg && Int32(truncatingIfNeeded: key) == bg)
            }
        }
        #expect(seen.count == colours.count * colours.count)
    }
}
