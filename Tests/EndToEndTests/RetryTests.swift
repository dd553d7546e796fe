import Foundation
import Testing
import TestSupport

/// Retry, not only exit (issue #10): the built binary, headless (`--pace fast`), on
/// ../shared/media clips. Attempts are numbered in the events and result.json, a looping source
/// that starts over fails the attempt, `--max-attempts` bounds the retries (exit 75 after the
/// last), and nothing of a failed attempt is left in the output folder.
@Suite(.serialized) struct RetryScenarioTests {
    static let bin = Harness.binary
    static let media = TestSupport.shared("media/no_face.avi") != nil
    static let ready = bin != nil && media
    static let why = "needs the built binary and ../shared/media (not found: skipped)"

    struct Run {
        var result: Harness.Result
        var events: [[String: Any]]
        var output: String
    }

    static func capture(_ scenario: String, _ extra: [String]) throws -> Run {
        let dir = Harness.tempDir("sc-retry-\(scenario)")
        let out = dir + "/out", events = dir + "/events.jsonl"
        let src = try #require(TestSupport.shared("media/\(scenario).avi"))
        let r = try Harness.run(try #require(bin), ["--source", src, "--pace", "fast", "--output", out, "--events", events] + extra,
                                timeout: 300)
        let text = (try? String(contentsOfFile: events, encoding: .utf8)) ?? ""
        let parsed = text.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
        return Run(result: r, events: parsed, output: out)
    }

    static func named(_ name: String, _ events: [[String: Any]]) -> [[String: Any]] {
        events.filter { $0["event"] as? String == name }
    }

    /// Every file and folder under `path`, relative, sorted (hidden ones included).
    static func tree(_ path: String) -> [String] {
        guard let e = FileManager.default.enumerator(atPath: path) else { return [] }
        return (e.allObjects as? [String] ?? []).sorted()
    }

    @Test(.enabled(if: ready, .init(rawValue: why)))
    func loopingSourceFailsEachAttemptUntilMaxAttemptsThenExits75() throws {
        let run = try Self.capture("no_face", ["--loop", "--max-attempts", "2", "--renderer", "null"])
        #expect(run.result.code == 75, "stderr: \(run.result.err)")
        #expect(run.result.err.contains("played to its end (--loop) before the capture completed (attempt 2 of 2)"),
                "stderr: \(run.result.err)")
        let failed = Self.named("faceCaptureFailed", run.events)
        #expect(failed.count == 2)
        #expect(failed.compactMap { $0["attempt"] as? Int } == [1, 2])
        #expect(failed.allSatisfy { $0["reason"] as? String == "sourceEnded" })
        #expect(Self.named("videoCaptureStarted", run.events).compactMap { $0["attempt"] as? Int } == [1, 2])
        #expect(run.events.last?["event"] as? String == "faceCaptureFailed")
        // Each attempt's end is preceded by the frames read so far.
        #expect(run.events.map { $0["event"] as? String }.suffix(2) == ["frameCounts", "faceCaptureFailed"])
        // Each attempt covered one pass of the 4 s clip (15 fps).
        #expect(failed.compactMap { $0["t_ms"] as? Int } == [4000, 8000])
        #expect(!FileManager.default.fileExists(atPath: run.output), "no partial files, and no output folder it created")
    }

    /// Unattended without --max-attempts: one attempt; the loop's end is final.
    @Test(.enabled(if: ready, .init(rawValue: why)))
    func unattendedWithoutMaxAttemptsDoesNotRetry() throws {
        let run = try Self.capture("no_face", ["--loop", "--renderer", "null"])
        #expect(run.result.code == 75, "stderr: \(run.result.err)")
        #expect(Self.named("faceCaptureFailed", run.events).compactMap { $0["attempt"] as? Int } == [1])
        #expect(!run.result.err.contains("attempt"), "one attempt allowed: no attempt count in the message")
    }

    /// `--timeout` is per attempt: two attempts of 1.5 s each, retried by the unattended run.
    @Test(.enabled(if: ready, .init(rawValue: why)))
    func timeoutIsPerAttempt() throws {
        let run = try Self.capture("no_face", ["--loop", "--timeout", "1.5", "--max-attempts", "2", "--renderer", "null"])
        #expect(run.result.code == 75, "stderr: \(run.result.err)")
        #expect(run.result.err.contains("timed out after 1.5 s (attempt 2 of 2)"), "stderr: \(run.result.err)")
        let failed = Self.named("faceCaptureFailed", run.events)
        #expect(failed.compactMap { $0["reason"] as? String } == ["timeout", "timeout"])
        let t = failed.compactMap { $0["t_ms"] as? Int }
        let started = Self.named("videoCaptureStarted", run.events).compactMap { $0["t_ms"] as? Int }
        #expect(t.count == 2 && started.count == 2)
        if t.count == 2 && started.count == 2 {
            // The second timer starts at the retry (frames every 67 ms: within one frame of 1.5 s).
            #expect(started[1] == t[0])
            #expect((1500...1567).contains(t[1] - started[1]), "second attempt lasted \(t[1] - started[1]) ms")
        }
    }

    /// A first attempt that times out in the middle of its recording (partial video and
    /// collected frames on disk), then a second attempt that records: the output holds the
    /// second attempt's files only, and result.json says attempt 2 of 2; for both video formats
    /// (the failed attempt's partial MP4 is gone too).
    @Test(.enabled(if: ready, .init(rawValue: why)), arguments: ["avi", "mp4"])
    func failedAttemptLeavesNothingAndTheNextOneRecords(format: String) throws {
        // Where this clip starts recording with a 0.5 s countdown (the run is deterministic).
        let probe = try Self.capture("approach", ["--time-before-capture", "0.5", "--renderer", "null", "--video-format", format])
        #expect(probe.result.code == 0, "stderr: \(probe.result.err)")
        let recStart = try #require(Self.named("videoRecordStarted", probe.events).first?["t_ms"] as? Int)
        // Time the first attempt out 0.5 s into its 1 s recording.
        let timeout = String(Double(recStart + 500) / 1000)
        let run = try Self.capture("approach", ["--time-before-capture", "0.5", "--renderer", "null", "--video-format", format, "--loop",
                                                "--max-attempts", "2", "--timeout", timeout,
                                                "--frames-before-capture", "0", "--frame-interval", "1", "--frames-to-collect", "3"])
        #expect(run.result.code == 0, "stderr: \(run.result.err)")
        let failed = Self.named("faceCaptureFailed", run.events)
        #expect(failed.count == 1 && failed.first?["reason"] as? String == "timeout" && failed.first?["attempt"] as? Int == 1)
        let recordings = Self.named("videoRecordStarted", run.events).compactMap { $0["t_ms"] as? Int }
        let failedAt = try #require(failed.first?["t_ms"] as? Int)
        #expect(recordings.count == 2 && recordings[0] < failedAt, "the first attempt was recording when it failed")
        #expect(Self.named("faceCaptureSuccess", run.events).first?["attempt"] as? Int == 2)

        let data = try Data(contentsOf: URL(fileURLWithPath: run.output + "/result.json"))
        let result = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(result["attempt"] as? Int == 2 && result["attempts"] as? Int == 2)
        #expect(result["frameCount"] as? Int == 15)
        let frames = try #require(result["frames"] as? [[String: Any]])
        let collected = try #require(result["collectedFrames"] as? [[String: Any]])
        #expect(frames.count == 15 && collected.count == 3)
        // The failed attempt's frames came before the failure (t ≤ failedAt); the kept ones after.
        #expect(frames.allSatisfy { ($0["timestampMs"] as? Int ?? 0) > failedAt })
        #expect(collected.allSatisfy { ($0["timestampMs"] as? Int ?? 0) > failedAt })
        for c in collected {
            let path = try #require(c["path"] as? String)
            let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? -1
            #expect(size == c["bytes"] as? Int, "\(path) is the second attempt's frame")
        }
        #expect(Self.tree(run.output) == ["frames", "frames/frame-001.jpg", "frames/frame-002.jpg", "frames/frame-003.jpg",
                                          "manifest.json", "reference.jpg", "result.json", "video.\(format)"], "no partial or leftover files")
        // The manifest covers the second attempt's files only, and they verify.
        let verify = try Harness.run(try #require(Self.bin), ["verify", run.output])
        #expect(verify.code == 0, "\(verify.err)")
        if let ffprobe = Harness.tool("ffprobe") {
            let p = try Harness.run(ffprobe, ["-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                                              "stream=nb_read_frames", "-of", "default=noprint_wrappers=1", run.output + "/video.\(format)"])
            #expect(p.out.contains("nb_read_frames=15"), "ffprobe: \(p.out)")
        }
    }

    /// In a real terminal (curses, tmux): the failed screen shows the button and its keys,
    /// Enter goes back to the capture screen, and q on the last failed screen exits 75.
    @Test(.enabled(if: ready && TmuxSession.tmux != nil, "needs tmux, the built binary and ../shared/media"))
    func terminalTryAgainThenExit() async throws {
        let bin = try #require(Self.bin)
        let src = try #require(TestSupport.shared("media/no_face.avi"))
        let dir = Harness.tempDir("sc-tmux-retry")
        let t = try await TmuxSession.started(cols: 80, rows: 24)
        defer { t.kill() }
        try t.type("'\(bin)' --source '\(src)' --loop --pace fast --max-attempts 2 --locale en --no-instructions --camera-consent "
                   + "--no-start-button --output '\(dir)/out' --events '\(dir)/ev.jsonl'; echo EXIT=$?")
        #expect(try await t.waitFor("[ Try again ]"), "screen: \(t.dump())")
        #expect(try t.screen().contains("Attempt 1 of 2"))
        #expect(try t.screen().contains("Enter: try again · q, Esc: exit"))
        try t.keys("Enter")
        #expect(await t.waitUntil { Self.eventCount(dir + "/ev.jsonl", "videoCaptureStarted") == 2 }, "screen: \(t.dump())")
        // Attempt 2 is the last: its failed screen offers only exit.
        #expect(try await t.waitFor("Attempt 2 of 2"), "screen: \(t.dump())")
        #expect(try !t.screen().contains("[ Try again ]"))
        try t.keys("q")
        #expect(try await t.waitFor("EXIT=75"), "screen: \(t.dump())")
        #expect(!FileManager.default.fileExists(atPath: dir + "/out"))
    }

    static func eventCount(_ path: String, _ name: String) -> Int {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { $0.contains("\"event\":\"\(name)\"") }.count
    }

    /// With `--keys` (plain renderer) someone can answer: the failed screen shows Try again,
    /// Enter starts attempt 2 on the still open source, and a failed screen nobody answers ends
    /// the run after `--timeout`.
    @Test(.enabled(if: ready, .init(rawValue: why)))
    func scriptedEnterTriesAgain() throws {
        let run = try Self.capture("no_face", ["--loop", "--renderer", "plain", "--timeout", "6", "--locale", "en",
                                               "--no-instructions", "--camera-consent", "--no-start-button",
                                               "--keys", "wait-for faceCaptureFailed; enter"])
        #expect(run.result.code == 75, "stderr: \(run.result.err)")
        #expect(run.result.out.contains("[Try again]"), "stdout: \(run.result.out.suffix(600))")
        // Attempt 1's failed screen is answered in the same turn, so only attempt 2's is drawn.
        #expect(run.result.out.contains("Attempt 2 of 3"))
        let failed = Self.named("faceCaptureFailed", run.events)
        #expect(failed.compactMap { $0["attempt"] as? Int } == [1, 2])
        #expect(Self.named("cameraPreviewShown", run.events).count == 1, "the source stayed open")
        #expect(run.result.err.contains("timed out after 6 s (attempt 2 of 3)"), "stderr: \(run.result.err)")
    }
}
