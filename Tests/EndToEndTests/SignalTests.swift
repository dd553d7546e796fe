import Foundation
import Testing
import TestSupport

/// Issue #18 "Terminal" in a real terminal (tmux): every signal on every screen leaves the
/// terminal sane and no output folder; Ctrl-Z and `fg`; no face left on terminals without an
/// alternate screen; the `?` help; a too-small window pauses the flow; wide titles centred and
/// Chinese text wrapped. One tmux server (the shared socket of `TmuxSession`); screens are
/// reached with `--keys` and known by the event log, never by sleeping.
@Suite(.serialized) struct SignalTests {
    static let bin = Harness.binary
    static let ready = TerminalTests.ready

    /// A screen to signal on: extra arguments and the event that says it is shown.
    struct Place: Sendable, CustomStringConvertible {
        var name: String
        var args: String
        var event: String
        var description: String { name }
    }

    static let places = [
        Place(name: "instructions", args: "", event: "instructionsShown"),
        Place(name: "permission", args: "--keys enter", event: "cameraPermissionShown"),
        Place(name: "recording", args: "--no-instructions --camera-consent --no-start-button --duration-ms 60000",
              event: "videoRecordStarted"),
    ]
    /// Signal numbers on Linux x86-64 and the status a shell reports: 130 for INT (the run
    /// cancels itself, as q does), 128 + N for the others (the process dies of the signal).
    static let signals: [(name: String, number: Int32)] = [("INT", SIGINT), ("TERM", SIGTERM), ("HUP", SIGHUP), ("QUIT", SIGQUIT), ("SEGV", SIGSEGV)]

    /// The script the pane runs: the app under `sh` (no job control, so no shell puts the tty
    /// modes back for us), its pid written first, then its status; `stty -a` goes to a file.
    static func script(dir: String, bin: String, args: String, env: String = "") -> String {
        """
        ulimit -c 0
        \(env) sh -c 'echo $$ > "\(dir)/pid"; exec "$0" "$@"' '\(bin)' --source demo --output '\(dir)/out' --events '\(dir)/ev.jsonl' \(args)
        echo "EXIT=$?"
        stty -a > '\(dir)/stty'
        echo "STTY-DONE"
        """
    }

    @Test(.enabled(if: ready, "needs tmux, the built binary and Resources/demo (make setup)"))
    func everySignalOnEveryScreenLeavesTheTerminalSane() async throws {
        let bin = try #require(Self.bin)
        let t = try await TmuxSession.started(cols: 90, rows: 28)
        defer { t.kill() }
        var failures: [String] = []
        for place in Self.places {
            for (name, number) in Self.signals {
                let dir = Harness.tempDir("sc-sig-\(place.name)-\(name)")
                try Self.script(dir: dir, bin: bin, args: place.args).write(toFile: dir + "/run.sh", atomically: true, encoding: .utf8)
                try t.tmux(["send-keys", "-t", t.name, "clear", "Enter"])
                try t.type("sh '\(dir)/run.sh'")
                let shown = await t.waitUntil(90) { eventLogContains(dir + "/ev.jsonl", place.event) }
                guard shown, let pidText = try? String(contentsOfFile: dir + "/pid", encoding: .utf8),
                      let pid = Int32(pidText.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                    failures.append("\(place) \(name): screen never shown: \(t.dump())")
                    try t.keys("C-c")
                    continue
                }
                if try t.keypadFlag() != 1 { failures.append("\(place) \(name): keypad_flag not set while curses runs") }
                if place.name == "recording" {
                    // The event comes just before the video file is opened: wait for the file, so
                    // the signal has something to remove.
                    let writing = await t.waitUntil(20) { ((try? FileManager.default.contentsOfDirectory(atPath: dir + "/out")) ?? []).contains { $0.contains("video") } }
                    if !writing { failures.append("\(place) \(name): no video file being written") }
                }
                kill(pid, number)
                let expected = number == SIGINT ? 130 : 128 + Int(number)
                var screen = ""
                let ended = try await t.waitUntil(30) { screen = try t.screen(); return screen.contains("STTY-DONE") }
                guard ended else { failures.append("\(place) \(name): no exit: \(screen)"); continue }
                let exitLine = screen.split(separator: "\n").first { $0.hasPrefix("EXIT=") }.map(String.init) ?? ""
                if exitLine != "EXIT=\(expected)" { failures.append("\(place) \(name): \(exitLine), expected EXIT=\(expected)") }
                let stty = (try? String(contentsOfFile: dir + "/stty", encoding: .utf8)) ?? ""
                let tokens = Set(stty.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == ";" }).map(String.init))
                if !tokens.contains("echo") || !tokens.contains("icanon") || tokens.contains("-echo") || tokens.contains("-icanon") {
                    failures.append("\(place) \(name): tty not sane: \(stty)")
                }
                // The last line says how the run ended: the person cancelling, or a signal.
                if number == SIGTERM || number == SIGHUP, screen.contains("selfie-capture: cancelled") {
                    failures.append("\(place) \(name): said 'cancelled' for a signal from outside")
                }
                if number == SIGINT, screen.contains("selfie-capture: ended by") {
                    failures.append("\(place) \(name): Ctrl-C's signal said 'ended by'")
                }
                if number == SIGTERM, place.name != "result", !screen.contains("selfie-capture: ended by SIGTERM") {
                    failures.append("\(place) \(name): no 'ended by SIGTERM' line: \(screen)")
                }
                if try t.keypadFlag() != 0 { failures.append("\(place) \(name): keypad_flag still 1") }
                if try t.alternateScreenOn() { failures.append("\(place) \(name): still on the alternate screen") }
                if FileManager.default.fileExists(atPath: dir + "/out") {
                    let left = (try? FileManager.default.contentsOfDirectory(atPath: dir + "/out")) ?? []
                    failures.append("\(place) \(name): output folder left: \(left)")
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    /// On the result screen the capture is saved: SIGTERM restores the terminal and ends with
    /// 143, and the published folder stays whole (the handler's list is cleared once
    /// manifest.json is in place).
    @Test(.enabled(if: ready, "needs tmux, the built binary and Resources/demo (make setup)"))
    func termOnTheResultScreenKeepsTheSavedCapture() async throws {
        let bin = try #require(Self.bin)
        let dir = Harness.tempDir("sc-sig-result")
        try Self.script(dir: dir, bin: bin, args: "--no-instructions --camera-consent --no-start-button --duration-ms 500")
            .write(toFile: dir + "/run.sh", atomically: true, encoding: .utf8)
        let t = try await TmuxSession.started(cols: 90, rows: 28)
        defer { t.kill() }
        try t.type("sh '\(dir)/run.sh'")
        #expect(await t.waitUntil(120) { eventLogContains(dir + "/ev.jsonl", "outputSaved") })
        let pid = try #require(Int32((try String(contentsOfFile: dir + "/pid", encoding: .utf8)).trimmingCharacters(in: .whitespacesAndNewlines)))
        kill(pid, SIGTERM)
        #expect(try await t.waitFor("STTY-DONE"), "screen: \(t.dump())")
        #expect(try t.screen().contains("EXIT=143"), "screen: \(t.dump())")
        #expect(try t.keypadFlag() == 0 && !t.alternateScreenOn())
        let files = (try? FileManager.default.contentsOfDirectory(atPath: dir + "/out")) ?? []
        #expect(files.contains("manifest.json") && files.contains("video.avi") && files.contains("result.json"), "kept: \(files)")
    }

    @Test(.enabled(if: ready, "needs tmux, the built binary and Resources/demo (make setup)"))
    func ctrlZSuspendsAndFgRedraws() async throws {
        let bin = try #require(Self.bin)
        let dir = Harness.tempDir("sc-tstp")
        let t = try await TmuxSession.started(cols: 90, rows: 28)
        defer { t.kill() }
        try t.type("'\(bin)' --source demo --no-instructions --camera-consent --no-start-button --duration-ms 60000 --output '\(dir)/out' --events '\(dir)/ev.jsonl'; echo EXIT=$?")
        #expect(await t.waitUntil(90) { eventLogContains(dir + "/ev.jsonl", "videoRecordStarted") })
        try t.keys("C-z")
        #expect(try await t.waitFor("Stopped"), "screen: \(t.dump())")
        #expect(try await t.waitFor("EXIT=148"), "stopped as by SIGTSTP: \(t.dump())")
        #expect(try !t.alternateScreenOn())
        #expect(try t.keypadFlag() == 0)
        // The take in progress was dropped before stopping: no video, a restart in the log.
        #expect(eventLogContains(dir + "/ev.jsonl", "captureRestarted"))
        let left = (try? FileManager.default.contentsOfDirectory(atPath: dir + "/out")) ?? []
        #expect(!left.contains { $0.hasPrefix("video") || $0.hasPrefix(".video") }, "left: \(left)")
        // The shell works while the app is stopped.
        try t.type("stty -a | grep -c -- ' icanon'")
        #expect(try await t.waitFor("\n1\n"), "screen: \(t.dump())")
        try t.type("fg")
        #expect(try await t.waitUntil(30) { try t.alternateScreenOn() && t.screen().contains("q: ") }, "screen: \(t.dump())")
        // SIGTSTP from outside (kill -TSTP) does the same as Ctrl-Z.
        let shell = try t.tmux(["display-message", "-p", "-t", t.name, "#{pane_pid}"]).out.trimmingCharacters(in: .whitespacesAndNewlines)
        let children = (try? String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)) ?? ""
        let child = children.split(separator: " ").first.flatMap { Int32($0) }
        let pid = try #require(child, "the app's pid")
        kill(pid, SIGTSTP)
        #expect(try await t.waitUntil(30) { try !t.alternateScreenOn() && t.keypadFlag() == 0 }, "screen: \(t.dump())")
        try t.type("fg")
        #expect(try await t.waitUntil(30) { try t.alternateScreenOn() && t.screen().contains("q: ") }, "screen: \(t.dump())")
        try t.keys("q")
        // The `; echo EXIT=$?` already ran when the job stopped (148 = 128 + SIGTSTP); after
        // `fg` the app's own last line says how it ended.
        #expect(try await t.waitFor("selfie-capture: cancelled"), "screen: \(t.dump())")
        #expect(try !t.alternateScreenOn())
    }

    /// Terminals without an alternate screen: after `q` the last preview frame must be gone.
    @Test(.enabled(if: ready, "needs tmux, the built binary and Resources/demo (make setup)"),
          arguments: ["linux", "vt100"])
    func noFaceLeftWithoutAlternateScreen(term: String) async throws {
        let bin = try #require(Self.bin)
        let dir = Harness.tempDir("sc-noface-\(term)")
        let t = try await TmuxSession.started(cols: 90, rows: 28)
        defer { t.kill() }
        try t.type("TERM=\(term) '\(bin)' --source demo --no-instructions --camera-consent --output '\(dir)/out' --events '\(dir)/ev.jsonl'; echo EXIT=$?")
        #expect(await t.waitUntil(90) { eventLogContains(dir + "/ev.jsonl", "cameraReady") })
        // The preview: half blocks (or the ASCII ramp of a terminal without colours, or the grey
        // shades of an 8-colour one, issue #27) fill many cells.
        func previewCells(_ s: String) -> Int { s.filter { "▀▄█░▒▓@%#*+=:".contains($0) }.count }
        #expect(try await t.waitUntil(30) { try previewCells(t.screen()) > 100 }, "screen: \(t.dump())")
        #expect(try !t.alternateScreenOn(), "TERM=\(term) has no alternate screen")
        try t.keys("q")
        #expect(try await t.waitFor("EXIT=130"), "screen: \(t.dump())")
        let after = try t.screen()
        #expect(previewCells(after) < 5, "preview left on screen: \(after)")
    }

    /// `?` shows the keys; any key closes it without acting; on the first screen no "Esc: back".
    @Test(.enabled(if: ready, "needs tmux, the built binary and Resources/demo (make setup)"))
    func questionMarkShowsTheKeys() async throws {
        let bin = try #require(Self.bin)
        let dir = Harness.tempDir("sc-help")
        let t = try await TmuxSession.started(cols: 90, rows: 28)
        defer { t.kill() }
        try t.type("'\(bin)' --source demo --output '\(dir)/out' --events '\(dir)/ev.jsonl'; echo EXIT=$?")
        #expect(await t.waitUntil(90) { eventLogContains(dir + "/ev.jsonl", "instructionsShown") })
        #expect(try await t.waitFor("Enter: continue"))
        #expect(try !t.screen().contains("Esc: back"), "the first screen offers no back")
        try t.keys("?")
        #expect(try await t.waitFor("Press any key to close"), "screen: \(t.dump())")
        let help = try t.screen()
        #expect(help.contains("q, Ctrl-C: quit") && help.contains("Ctrl-Z: suspend") && !help.contains("Esc, Backspace"), "help: \(help)")
        try t.keys("Enter")   // closes the help only
        #expect(try await t.waitFor("Record a short selfie video"))
        #expect(!eventLogContains(dir + "/ev.jsonl", "cameraPermissionShown"), "the key that closed the help did nothing else")
        try t.keys("q")
        #expect(try await t.waitFor("EXIT=130"))
    }

    /// Below 40×12 only "Enlarge the window" shows and Enter, Enter, s do nothing; q still quits.
    @Test(.enabled(if: ready, "needs tmux, the built binary and Resources/demo (make setup)"))
    func tooSmallWindowPausesTheFlow() async throws {
        let bin = try #require(Self.bin)
        let dir = Harness.tempDir("sc-small")
        let t = try await TmuxSession.started(cols: 30, rows: 10)
        defer { t.kill() }
        try t.type("'\(bin)' --source demo --duration-ms 500 --output '\(dir)/out' --events '\(dir)/ev.jsonl'; echo EXIT=$?")
        #expect(await t.waitUntil(90) { eventLogContains(dir + "/ev.jsonl", "instructionsShown") })
        #expect(try await t.waitFor("Enlarge"), "screen: \(t.dump())")
        try t.keys("Enter"); try t.keys("Enter"); try t.keys("s")
        // The app reads them at 30×10 (on a busy machine the resize could otherwise be seen first).
        #expect(try await t.waitKeysRead(), "the keys were never read: \(t.dump())")
        try t.resize(cols: 90, rows: 28)
        #expect(try await t.waitFor("Record a short selfie video"), "still on the first screen: \(t.dump())")
        #expect(!eventLogContains(dir + "/ev.jsonl", "cameraPermissionShown"))
        #expect(!eventLogContains(dir + "/ev.jsonl", "videoRecordStarted"))
        try t.resize(cols: 30, rows: 10)
        #expect(try await t.waitFor("Enlarge"))
        try t.keys("q")
        #expect(try await t.waitFor("EXIT=130"), "screen: \(t.dump())")
    }

    /// A title of wide characters and emoji (Unicode 15.0: W and Emoji_Presentation, 2 cells
    /// each) is centred, and a long Chinese text without spaces wraps (UAX #14) instead of being
    /// cut with "…". Both through a `--strings` override.
    @Test(.enabled(if: ready, "needs tmux, the built binary and Resources/demo (make setup)"))
    func wideTitleCentredAndChineseWraps() async throws {
        let bin = try #require(Self.bin)
        let dir = Harness.tempDir("sc-cjk")
        let title = "自撮り動画😀を録画🎥します"     // 12 characters, all 2 cells wide
        let long = "自拍视频需要使用您的摄像头。视频只保存在这台电脑上，不会上传到任何地方。请确认您同意后继续，或者按退出键取消这次拍摄。"
        try FileManager.default.createDirectory(atPath: dir + "/strings/en.lproj", withIntermediateDirectories: true)
        try """
        "selfie_capture_instructions_title" = "\(title)";
        "selfie_capture_permission_explanation" = "\(long)";
        """.write(toFile: dir + "/strings/en.lproj/Localizable.strings", atomically: true, encoding: .utf8)
        let cols = 80
        let t = try await TmuxSession.started(cols: cols, rows: 28)
        defer { t.kill() }
        try t.type("'\(bin)' --source demo --locale en --strings '\(dir)/strings' --output '\(dir)/out' --events '\(dir)/ev.jsonl'; echo EXIT=$?")
        #expect(await t.waitUntil(90) { eventLogContains(dir + "/ev.jsonl", "instructionsShown") })
        #expect(try await t.waitFor(title), "screen: \(t.dump())")
        let row = try t.screen().split(separator: "\n").first { $0.contains(title) }.map(String.init) ?? ""
        let left = row.prefix { $0 == " " }.count
        let width = 2 * title.count
        #expect(abs(left - (cols - width) / 2) <= 1, "title starts at column \(left), centred would be \((cols - width) / 2): \(row)")
        try t.keys("Enter")
        #expect(await t.waitUntil(30) { eventLogContains(dir + "/ev.jsonl", "cameraPermissionShown") })
        var text = ""
        #expect(try await t.waitUntil(30) {
            let lines = try t.screen().split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            let cjk = lines.filter { $0.unicodeScalars.contains { (0x4E00...0x9FFF).contains($0.value) } }
            text = cjk.joined()
            return cjk.count >= 2 && text == long
        }, "the Chinese text, wrapped, reads back whole: \(t.dump())")
        #expect(!text.contains("…"))
        try t.keys("q")
        #expect(try await t.waitFor("EXIT=130"))
    }
}

extension TmuxSession {
    /// tmux's `#{keypad_flag}`: 1 while the application asked for keypad-transmit mode (smkx).
    func keypadFlag() throws -> Int {
        Int(try tmux(["display-message", "-p", "-t", name, "#{keypad_flag}"]).out.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }
}
