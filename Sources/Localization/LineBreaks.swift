import CICUPlural
import Synchronization

/// Line-break opportunities of UAX #14 (Unicode Line Breaking Algorithm), from ICU's
/// line-break iterator (`ubrk_open(UBRK_LINE)`, ICU 72 here; rules of the ICU data's Unicode
/// version). This module is ICU's one Swift home (plural rules live here too); screens wrap text
/// through it (`TerminalUI.DisplayWidth.wrap`), so Chinese and Japanese text without spaces
/// breaks between ideographs (never before "。" or after "「"), and spaces stay at the end of
/// the line they follow.
public enum LineBreaks {
    /// Results of recent calls (screens wrap the same texts every frame); cleared past 512.
    private static let cache = Mutex<[String: [Int]]>([:])

    /// The segments of `text` between consecutive break opportunities: each is a piece a line
    /// may end after (a word with the spaces after it, one ideograph, …; never right after
    /// "/", this app's one tailoring, so paths stay whole). Joined, they give
    /// `text` back. When ICU cannot open its iterator, `text` is split after runs of spaces.
    public static func segments(_ text: String) -> [Substring] {
        guard !text.isEmpty else { return [] }
        let offsets = utf16Breaks(text)
        var out: [Substring] = []
        var start = text.startIndex
        for o in offsets {
            let i = String.Index(utf16Offset: o, in: text)
            // An offset inside a grapheme (ICU and Swift disagree) is skipped: never split a character.
            guard let end = i.samePosition(in: text), end > start else { continue }
            // Tailoring: no break right after "/" (UAX #14 allows one in "/dev/video0"): paths
            // and URLs stay whole, so they can be read and copied.
            if end < text.endIndex, text[text.index(before: end)] == "/" { continue }
            out.append(text[start..<end])
            start = end
        }
        if start < text.endIndex { out.append(text[start...]) }
        return out
    }

    /// UTF-16 offsets where a line may start (ascending, ending with the text's UTF-16 length).
    public static func utf16Breaks(_ text: String) -> [Int] {
        if let hit = cache.withLock({ $0[text] }) { return hit }
        let units = Array(text.utf16)
        var out = [Int32](repeating: 0, count: units.count + 1)
        var n = units.withUnsafeBufferPointer { u in
            cicu_line_breaks(u.baseAddress, Int32(units.count), "", &out, Int32(out.count))
        }
        if n > out.count {
            out = [Int32](repeating: 0, count: Int(n))
            n = units.withUnsafeBufferPointer { u in cicu_line_breaks(u.baseAddress, Int32(units.count), "", &out, Int32(out.count)) }
        }
        let result: [Int]
        if n < 0 {
            result = spaceBreaks(units)
        } else {
            result = out.prefix(Int(n)).map { Int($0) }
        }
        cache.withLock { c in
            if c.count > 512 { c.removeAll() }
            c[text] = result
        }
        return result
    }

    /// The fallback: a break after each run of spaces, and at the end.
    static func spaceBreaks(_ units: [UInt16]) -> [Int] {
        var out: [Int] = []
        for i in 1..<max(1, units.count) where units[i - 1] == 0x20 && units[i] != 0x20 { out.append(i) }
        out.append(units.count)
        return out
    }
}
