import Foundation
import Testing
import TestSupport

/// The built binary in a real terminal (tmux): French screens, keys through the whole flow,
/// resize, the preview with colours, the oval and the progress bar, Ctrl-C, and the terminal
/// restored afterwards. Uses the demo source (the photo placed by `make setup`).
@Suite(.serialized) struct TerminalTests {
    static let bin = Harness.binary
    static let demoPhoto = FileManager.default.fileExists(
        atPath: TestSupport.projectRoot().appendingPathComponent("Resources/demo/astronaut.png").path)
    static let ready = bin != nil && TmuxSession.tmux != nil && demoPhoto

    @Test(.enabled(if: ready, "needs tmux, the built binary and Resources/demo (make setup)"))
    func frenchFlowWithResizeAndRestore() async throws {
        let bin = try #require(Self.bin)
        let dir = Harness.tempDir("sc-tmux-fr")
        let t = try await TmuxSession.started(cols: 100, rows: 30)
        defer { t.kill() }
        try t.type("'\(bin)' --source demo --locale fr --output '\(dir)/out' --events '\(dir)/ev.jsonl'; echo EXIT=$?")
        #expect(try await t.waitFor("Enregistrez une courte vidéo selfie"), "screen: \(t.dump())")
        #expect(try t.alternateScreenOn())
        try t.keys("Enter")
        #expect(try await t.waitFor("Demander l’autorisation"), "screen: \(t.dump())")
        try t.keys("Enter")
        #expect(try await t.waitFor("Placez votre visage dans l’ovale"), "screen: \(t.dump())")
        #expect(await t.waitUntil { eventLogContains(dir + "/ev.jsonl", "cameraReady") })
        try t.resize(cols: 70, rows: 24)
        #expect(try await t.waitUntil { let s = try t.screen(); return s.contains("Placez votre visage") && s.split(separator: "\n").count <= 24 })
        try t.resize(cols: 100, rows: 30)
        try t.keys("s")
        #expect(await t.waitUntil(90) { eventLogContains(dir + "/ev.jsonl", "videoRecordStarted") })
        #expect(try await t.waitFor("Capture terminée", limit: 60), "screen: \(t.dump())")
        try t.keys("Enter")
        #expect(try await t.waitFor("EXIT=0"), "screen: \(t.dump())")
        #expect(try !t.alternateScreenOn(), "the terminal is back on the normal screen")
        try t.type("echo still-usable")
        #expect(try await t.waitFor("still-usable\n"))
        #expect(FileManager.default.fileExists(atPath: dir + "/out/video.avi"))
    }

    @Test(.enabled(if: ready, "needs tmux, the built binary and Resources/demo (make setup)"))
    func demoWithScriptedKeysShowsPreviewOvalAndProgress() async throws {
        let bin = try #require(Self.bin)
        let dir = Harness.tempDir("sc-tmux-demo")
        let t = try await TmuxSession.started(cols: 100, rows: 30)
        defer { t.kill() }
        // A theme with pure colours, so the oval outline (primary when valid, secondary when not)
        // is recognisable in the 256-colour escapes: #00FF00 → 46, #FF0000 → 196.
        try Data(##"{"colors": {"primary": "#00FF00", "secondary": "#FF0000"}}"##.utf8).write(to: URL(fileURLWithPath: dir + "/theme.json"))
        try t.type("'\(bin)' --source demo --theme '\(dir)/theme.json' --keys 'enter; enter; wait-for cameraReady; s' --output '\(dir)/out' --events '\(dir)/ev.jsonl'; echo EXIT=$?")
        #expect(await t.waitUntil { eventLogContains(dir + "/ev.jsonl", "cameraReady") })
        // The preview: half blocks with colours (the face's skin tones are not gray), and the oval outline.
        var seen = ""
        #expect(try await t.waitUntil {
            seen = try t.screen(escapes: true)
            let outline = seen.contains("5;196m") || seen.contains("5;46m")
            return seen.contains("▀") && seen.contains("\u{1b}[38;5;") && outline
        }, "last screen: \(seen.debugDescription.prefix(3000))")
        #expect(await t.waitUntil(90) { eventLogContains(dir + "/ev.jsonl", "videoRecordStarted") })
        #expect(try await t.waitUntil(10) { let s = try t.screen(); return s.contains("█") || s.contains("░") || s.contains("Capture complete") })
        #expect(try await t.waitFor("Capture complete", limit: 60), "screen: \(t.dump())")
        try t.keys("Enter")
        #expect(try await t.waitFor("EXIT=0"))
        #expect(try !t.alternateScreenOn())
        if let ffprobe = Harness.tool("ffprobe") {
            let p = try Harness.run(ffprobe, ["-v", "error", "-show_entries", "stream=codec_name,nb_frames", "-of", "csv=p=0", dir + "/out/video.avi"])
            // A debug build may not keep up with the demo's 30 fps in real time: the video holds
            // the frames the source delivered during the 1 s recording, and result.json says how many.
            let fields = p.out.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",")
            #expect(fields.first == "mjpeg", "ffprobe: \(p.out)")
            let result = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/out/result.json"))) as? [String: Any]
            #expect(fields.count == 2 && Int(fields[1]) == result?["frameCount"] as? Int, "ffprobe: \(p.out)")
        }
    }

    @Test(.enabled(if: ready, "needs tmux, the built binary and Resources/demo (make setup)"))
    func ctrlCDuringRecordingLeavesNothing() async throws {
        let bin = try #require(Self.bin)
        let dir = Harness.tempDir("sc-tmux-int")
        let t = try await TmuxSession.started(cols: 80, rows: 24)
        defer { t.kill() }
        try t.type("'\(bin)' --source demo --no-instructions --camera-consent --no-start-button --duration-ms 30000 --output '\(dir)/out' --events '\(dir)/ev.jsonl'; echo EXIT=$?")
        #expect(await t.waitUntil(90) { eventLogContains(dir + "/ev.jsonl", "videoRecordStarted") })
        try t.keys("C-c")
        #expect(try await t.waitFor("EXIT=130"), "screen: \(t.dump())")
        #expect(try !t.alternateScreenOn())
        let left = (try? FileManager.default.contentsOfDirectory(atPath: dir + "/out")) ?? []
        #expect(left.isEmpty, "left behind: \(left)")
        #expect(!eventLogContains(dir + "/ev.jsonl", "videoRecordEnded"))
    }
}
