import Foundation
import Localization
import Testing
import TestSupport
@testable import TerminalUI

/// Issue #18: display width from the Unicode data files, UAX #14 line breaking, the `?` help.
@Suite struct TextLayoutTests {
    static let ucd = "/usr/share/unicode"   // Debian's unicode-data
    static let haveUCD = FileManager.default.fileExists(atPath: ucd + "/EastAsianWidth.txt")
        && FileManager.default.fileExists(atPath: ucd + "/emoji/emoji-data.txt")
        && FileManager.default.fileExists(atPath: ucd + "/extracted/DerivedGeneralCategory.txt")

    /// Code-point ranges of a UCD property file whose value passes `want`, and its version.
    static func ranges(_ path: String, _ want: (String) -> Bool) throws -> (ranges: [ClosedRange<UInt32>], version: String?) {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var out: [ClosedRange<UInt32>] = []
        var version: String?
        for line in text.split(separator: "\n") {
            if version == nil, line.hasPrefix("#"), let r = line.range(of: #"-(\d+\.\d+\.\d+)\.txt"#, options: .regularExpression) {
                version = String(line[r].dropFirst().dropLast(4))
            }
            let data = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let fields = data.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard fields.count >= 2, want(fields[1]) else { continue }
            let bounds = fields[0].components(separatedBy: "..").compactMap { UInt32($0, radix: 16) }
            guard let lo = bounds.first else { continue }
            out.append(lo...(bounds.last ?? lo))
        }
        return (out, version)
    }

    /// Every scalar from U+0300 up: 0 for Mn/Me/Cf (not U+00AD) and Hangul medial/final jamo,
    /// else 2 for East_Asian_Width W/F or Emoji_Presentation, else 1; read from the data files
    /// themselves, and the generated table is from the same Unicode version.
    @Test(.enabled(if: haveUCD, "needs Debian's unicode-data (/usr/share/unicode)"))
    func widthsFollowTheUnicodeDataFiles() throws {
        let eaw = try Self.ranges(Self.ucd + "/EastAsianWidth.txt") { $0 == "W" || $0 == "F" }
        let emoji = try Self.ranges(Self.ucd + "/emoji/emoji-data.txt") { $0 == "Emoji_Presentation" }
        let gc = try Self.ranges(Self.ucd + "/extracted/DerivedGeneralCategory.txt") { ["Mn", "Me", "Cf"].contains($0) }
        #expect(eaw.version == DisplayWidth.unicodeVersion, "regenerate with scripts/gen-width-table.py: data \(eaw.version ?? "?")")
        var expected = [UInt8](repeating: 1, count: 0x110000)
        for r in eaw.ranges + emoji.ranges { for v in r { expected[Int(v)] = 2 } }
        for r in gc.ranges + [0x1160...0x11FF, 0xD7B0...0xD7FF] { for v in r where v != 0xAD { expected[Int(v)] = 0 } }
        var wrong: [String] = []
        for v in UInt32(0x300)..<0x110000 {
            guard let s = Unicode.Scalar(v) else { continue }
            let w = DisplayWidth.of(s)
            if w != Int(expected[Int(v)]) && wrong.count < 10 { wrong.append(String(format: "U+%04X: %d, data says %d", v, w, expected[Int(v)])) }
        }
        #expect(wrong.isEmpty, "\(wrong)")
    }

    @Test func knownWidths() {
        #expect(DisplayWidth.of("😀") == 2)           // U+1F600, Emoji_Presentation
        #expect(DisplayWidth.of("🇫🇷") == 2)          // regional indicators, Emoji_Presentation
        #expect(DisplayWidth.of("⌚") == 2)           // U+231A, EAW W
        #expect(DisplayWidth.of("☺") == 1)           // U+263A: text presentation by default
        #expect(DisplayWidth.of("ｶ") == 1)           // U+FF76 halfwidth katakana, EAW H
        #expect(DisplayWidth.of("Ａ") == 2)           // U+FF21 fullwidth, EAW F
        #expect(DisplayWidth.of("\u{200D}") == 0 && DisplayWidth.of(Unicode.Scalar(0xFE0F)!) == 0)
        #expect(DisplayWidth.of("👩\u{200D}💻") == 2, "a ZWJ sequence is one glyph")
        #expect(DisplayWidth.of("\u{E0001}") == 0, "a tag character, Cf")
        // Never negative (TUI-11): unassigned, private use, controls count 1.
        for v: UInt32 in [0x7, 0x7F, 0x9F, 0x378, 0xE000, 0x10FFFD, 0x2FFFE] {
            #expect(DisplayWidth.of(Unicode.Scalar(v)!) >= 0)
        }
    }

    /// ICU's line-break iterator against the Unicode Line Breaking Algorithm's own test data
    /// (LineBreakTest.txt): every case without U+002F (this app's one tailoring keeps paths
    /// whole). ICU 72 follows it except where it tailors LB25 (numbers: "-", "," or "." next to a
    /// digit or a letter; 22 of the 7,311 cases here): a difference elsewhere fails, and so do
    /// more than those 22.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: ucd + "/auxiliary/LineBreakTest.txt"), "needs Debian's unicode-data"))
    func icuFollowsLineBreakTest() throws {
        let text = try String(contentsOfFile: Self.ucd + "/auxiliary/LineBreakTest.txt", encoding: .utf8)
        var cases = 0, tailored = 0, wrong: [String] = []
        for line in text.split(separator: "\n") where line.hasPrefix("×") {
            let spec = line.split(separator: "#").first ?? ""
            var scalars = "", breaks: [Int] = [], utf16 = 0
            for token in spec.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init) {
                if token == "÷" { if utf16 > 0 { breaks.append(utf16) } } else if token == "×" { continue } else if let v = UInt32(token, radix: 16), let s = Unicode.Scalar(v) {
                    scalars.unicodeScalars.append(s); utf16 += String(s).utf16.count
                }
            }
            guard !scalars.unicodeScalars.contains("/") else { continue }
            cases += 1
            let got = LineBreaks.utf16Breaks(scalars)
            guard got != breaks else { continue }
            if ["002D", "002C", "002E"].contains(where: { spec.contains($0) }) { tailored += 1 } else { wrong.append(String(spec)) }
        }
        #expect(cases > 7000)
        #expect(wrong.isEmpty, "\(wrong.count) of \(cases) differ, e.g. \(wrong.prefix(5))")
        #expect(tailored <= 22, "\(tailored) cases differ around numbers (LB25)")
    }

    @Test func chineseAndJapaneseWrapWithoutSpaces() {
        let zh = "自拍视频需要使用您的摄像头。视频只保存在这台电脑上，不会上传到任何地方。"
        let lines = DisplayWidth.wrap(zh, width: 20)
        #expect(lines.count >= 4)
        #expect(lines.joined() == zh, "nothing cut: \(lines)")
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= 20 })
        #expect(!lines.contains { $0.hasPrefix("。") || $0.hasPrefix("，") }, "UAX #14: no line starts with closing punctuation: \(lines)")
        let ja = "カメラを使って短い自撮り動画を録画します。"
        let j = DisplayWidth.wrap(ja, width: 12)
        #expect(j.joined() == ja && j.count >= 4 && !j.contains { $0.hasPrefix("。") })
        // Latin text still breaks between words; a path stays whole (UAX #14 LB13 keeps "use /"
        // together too: no break before "/").
        #expect(DisplayWidth.wrap("Keep your face straight and fully visible", width: 16) == ["Keep your face", "straight and", "fully visible"])
        #expect(DisplayWidth.wrap("may not use /dev/video0 now", width: 16) == ["may not", "use /dev/video0", "now"])
    }

    /// Issue #27 follow-up: a word wider than the line is broken across lines, not cut with `…`:
    /// every character arrives, in order, and no line is wider than asked (wide characters too).
    @Test func overLongWordIsBrokenAcrossLinesNothingLost() {
        let path = "/home/someone/Videos/selfie-capture-2026-12-02T01-02-03Z/reference.jpg"
        for width in [1, 7, 16, 30] {
            let text = "Saved: " + path + " now"
            let lines = DisplayWidth.wrap(text, width: width)
            #expect(lines.allSatisfy { DisplayWidth.of($0) <= width }, "width \(width): \(lines)")
            #expect(lines.joined().filter { $0 != " " } == text.filter { $0 != " " }, "width \(width): text lost: \(lines)")
            #expect(!lines.joined().contains("…"))
        }
        #expect(DisplayWidth.wrap("abcdefghij", width: 4) == ["abcd", "efgh", "ij"])
        // A path breaks between its folders when a `/` fits.
        #expect(DisplayWidth.wrap("/home/someone/Videos/selfie", width: 10) == ["/home/", "someone/", "Videos/", "selfie"])
        #expect(DisplayWidth.wrap("go abcdefghij ok", width: 4) == ["go", "abcd", "efgh", "ij", "ok"])
        // Wide characters are never split; one that cannot fit a 1-cell line still gets a line.
        #expect(DisplayWidth.wrap("日本語", width: 1).joined() == "日本語")
    }

    static func projectStrings(_ lang: String) -> Localizer {
        Localizer(locale: lang, folders: [TestSupport.projectRoot().path + "/Localizations"], inputs: .current())
    }

    @Test(arguments: ["en", "fr"])
    func keysHelpListsWhatActs(lang: String) throws {
        let strings = Self.projectStrings(lang)
        let first = KeysHelp.lines(screen: .instructions, canGoBack: false, strings: strings)
        #expect(!first.contains(strings.text("selfie_capture_help_back")), "no back on the first screen")
        #expect(!first.contains(strings.text("selfie_capture_help_start")))
        #expect(first.contains(strings.text("selfie_capture_help_quit")) && first.contains(strings.text("selfie_capture_help_suspend")))
        let capture = KeysHelp.lines(screen: .capture, canGoBack: true, strings: strings)
        #expect(capture.contains(strings.text("selfie_capture_help_start")) && capture.contains(strings.text("selfie_capture_help_back")))
        #expect(!capture.contains { $0.hasPrefix("selfie_capture_") }, "every line translated: \(capture)")
        for size in [Size(cols: 40, rows: 12), Size(cols: 80, rows: 24)] {
            let c = RenderContext(size: size, strings: strings, theme: .dark, canGoBack: true)
            let rows = KeysHelp.render(screen: .capture, context: c).canvas.textRows()
            #expect(rows.contains { $0.contains(strings.text("selfie_capture_help_close")) })
            #expect(rows.contains { $0.contains(strings.text("selfie_capture_help_title")) })
            #expect(rows.allSatisfy { DisplayWidth.of($0) == size.cols })
        }
    }
}
