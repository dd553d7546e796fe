import Foundation
import Testing
import TestSupport

/// Issue #17: the accessibility options' errors and warnings, from the built binary.
@Suite struct AccessibilityCommandLineTests {
    static let bin = Harness.binary
    static let media = TestSupport.shared("media/off_left.avi")

    @Test(.enabled(if: bin != nil, "the selfie-capture binary is not built"))
    func announceToStdoutNeedsARendererThatLeavesIt() throws {
        let bin = try #require(Self.bin)
        let curses = try Harness.run(bin, ["--source", "demo", "--renderer", "curses", "--announce", "-"])
        #expect(curses.code == 64)
        #expect(curses.err.contains("'--announce'") && curses.err.contains("/dev/pts/3"), "\(curses.err)")
        let both = try Harness.run(bin, ["--source", "demo", "--renderer", "null", "--announce", "-", "--events", "-"])
        #expect(both.code == 64, "\(both.err)")
    }

    @Test(.enabled(if: bin != nil, "the selfie-capture binary is not built"))
    func announceFileThatCannotBeOpenedExits73() throws {
        let r = try Harness.run(try #require(Self.bin), ["--source", "demo", "--renderer", "null", "--announce", "/nonexistent-dir/announce.txt"])
        #expect(r.code == 73)
        #expect(r.err.contains("/nonexistent-dir/announce.txt"), "\(r.err)")
    }

    /// A theme file below WCAG contrast is used, with a warning naming the pair and its ratio;
    /// `--speak` without espeak-ng on PATH is one warning; both runs record.
    @Test(.enabled(if: bin != nil && media != nil, "needs the binary and ../shared/media"))
    func warningsDoNotStopTheCapture() throws {
        let bin = try #require(Self.bin), src = try #require(Self.media)
        let dir = Harness.tempDir("a11y-cli")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data(##"{"base": "dark", "colors": {"secondary": "#3C58E8"}}"##.utf8).write(to: URL(fileURLWithPath: dir + "/unissey.json"))
        let r = try Harness.run(bin, ["--source", src, "--renderer", "null", "--pace", "fast", "--theme", dir + "/unissey.json",
                                      "--speak", "--output", dir + "/out"], env: ["PATH": "/nonexistent", "NO_COLOR": ""])
        #expect(r.code == 0, "\(r.err)")
        // #3C58E8 (Unissey's dark palette) on the dark theme's #121212: 3.35:1 as text; as the oval on black 3.75:1 (passes 3:1).
        #expect(r.err.contains("unissey.json: warning: secondary (hints, warnings) on background (#3c58e8 on #121212) has contrast 3.35:1, below 4.5:1 (WCAG 2.1 SC 1.4.3)"), "\(r.err)")
        #expect(r.err.components(separatedBy: "espeak-ng is not installed").count == 2, "one warning: \(r.err)")
    }
}
