import Foundation
import Testing
import TestSupport

/// Issue #27: the app in an 8-colour terminal (`TERM=xterm`, xterm's defaults) is readable. The
/// byte stream the app writes (recorded by `script` in a tmux pane) is rendered by
/// `../shared/tools/term_contrast.py` (pyte, Debian python3-pyte) in xterm's default palette
/// with bold base colours drawn bright; the lowest contrast of any letter on the capture and
/// result screens must be ≥ 4.5:1 (WCAG 2.1 SC 1.4.3). Before the fix the light theme's title
/// was bright cyan on grey90, 1.0:1.
@Suite(.serialized) struct LowColorTerminalTests {
    static let bin = Harness.binary
    static let demoPhoto = FileManager.default.fileExists(
        atPath: TestSupport.projectRoot().appendingPathComponent("Resources/demo/astronaut.png").path)
    static let oracle = TestSupport.shared("tools/term_contrast.py")
    /// A python3 that has pyte: Debian's (/usr/bin/python3, python3-pyte) before one on PATH (pyenv).
    static let python: String? = (["/usr/bin/python3"] + [Harness.tool("python3")].compactMap { $0 }).first {
        FileManager.default.isExecutableFile(atPath: $0) && (try? Harness.run($0, ["-c", "import pyte"]).code) == 0
    }
    static let ready = bin != nil && TmuxSession.tmux != nil && demoPhoto && oracle != nil && python != nil
        && Harness.tool("script") != nil

    /// The lowest letter contrast term_contrast.py reports for the stream `raw` (cols × rows).
    static func lowestContrast(_ raw: String, cols: Int, rows: Int) throws -> (Double?, String) {
        let r = try Harness.run(try #require(python), [try #require(oracle), raw, "\(cols)", "\(rows)"], timeout: 60)
        let last = r.out.split(separator: "\n").last.map(String.init) ?? ""
        return (last.hasPrefix("min ") ? Double(last.dropFirst(4)) : nil, r.out + r.err)
    }

    @Test(.enabled(if: ready, "needs tmux, script, python3-pyte, ../shared/tools/term_contrast.py, the binary and Resources/demo"),
          arguments: ["light", "dark", "high-contrast"])
    func everyLetterReadableInXtermWith8Colours(theme: String) async throws {
        let bin = try #require(Self.bin)
        let dir = Harness.tempDir("sc-8col-\(theme)")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let t = try await TmuxSession.started(cols: 80, rows: 24)
        defer { t.kill() }
        let raw = dir + "/raw"
        let app = "env -u COLORFGBG TERM=xterm LANG=C.UTF-8 '\(bin)' --source demo --theme \(theme) --output '\(dir)/out' --events '\(dir)/ev.jsonl' --keys 'enter; enter; wait-for cameraReady; wait 2s; s'"
        try t.type("script -q -f -c \"\(app)\" '\(raw)'; echo EXIT=$?")
        #expect(await t.waitUntil(90) { eventLogContains(dir + "/ev.jsonl", "videoRecordStarted") }, "\(t.dump())")
        // The capture screen as it was just before the recording started.
        try FileManager.default.copyItem(atPath: raw, toPath: raw + ".capture")
        #expect(try await t.waitFor("Capture complete", limit: 90), "screen: \(t.dump())")
        #expect(await t.waitUntil(30) { eventLogContains(dir + "/ev.jsonl", "outputSaved") })
        try FileManager.default.copyItem(atPath: raw, toPath: raw + ".result")
        try t.keys("Enter")
        #expect(try await t.waitFor("EXIT=0"), "screen: \(t.dump())")
        for screen in ["capture", "result"] {
            let (min, out) = try Self.lowestContrast(raw + "." + screen, cols: 80, rows: 24)
            print("TERM=xterm --theme \(theme), \(screen) screen:\n\(out)")
            let m = try #require(min, "no letters on the \(screen) screen: \(out)")
            #expect(m >= 4.5, "\(theme) \(screen): \(out)")
        }
    }
}
