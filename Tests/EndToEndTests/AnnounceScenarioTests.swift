import Foundation
import Testing
import TestSupport

/// Issue #17, verification: every scenario of ../shared/media (the astronaut set, people/, and
/// real/ through a y4m pipe) run headless with `--announce -` (`--renderer plain --pace fast`).
/// Properties, not goldens: announcements are at least 1.5 s apart, none is stale (each says the
/// state the event log shows at the moment it is said), each is printed on stdout, and a
/// recorded run ends with "Done. Saved.".
@Suite(.serialized) struct AnnounceScenarioTests {
    static let bin = Harness.binary
    static let ready = bin != nil && TestSupport.shared("media/approach.avi") != nil

    /// The state shown by the event log, event by event (the app's own announcer is not used).
    struct LogState {
        var phase = "none"       // positioning, countdown, recording, finished, done, failed
        var hint: String?
        var remaining: Int?
        var restartedAt: Int?
        var failedAt: Int?

        mutating func apply(_ e: [String: Any]) {
            let t = e["t_ms"] as? Int ?? 0
            switch e["event"] as? String {
            case "videoCaptureStarted": phase = "positioning"; hint = nil; remaining = nil
            case "faceValidating": hint = e["hint"] as? String
            case "faceCaptureCountDown": phase = "countdown"; remaining = e["remaining"] as? Int
            case "captureRestarted": phase = "positioning"; restartedAt = t; remaining = nil
            case "videoRecordStarted", "faceCaptureStarted": phase = "recording"
            case "videoRecordEnded", "faceCaptureSuccess": phase = "finished"
            case "outputSaved": phase = "done"
            case "faceCaptureFailed": phase = "failed"; failedAt = t
            default: break
            }
        }

        /// Whether an announcement of `kind` (with its `hint`/`remaining`) said at `t` tells this state.
        func matches(_ a: [String: Any], t: Int) -> Bool {
            switch a["kind"] as? String {
            case "hint": return phase == "positioning" && hint == a["hint"] as? String
            case "restarted": return (phase == "positioning" || phase == "countdown") && restartedAt.map { t - $0 < 2000 } == true
            case "countdown": return phase == "countdown" && remaining == a["remaining"] as? Int
            case "recording": return phase == "recording"
            case "done": return phase == "finished" || phase == "done"
            case "failed": return phase == "failed"
            default: return true   // screens before the capture (not shown in unattended runs)
            }
        }
    }

    static func sources() -> [String] {
        var all = TestSupport.mediaClips().map { "media/\($0).avi" }
        if TestSupport.shared("media/long.avi") != nil { all.append("media/long.avi") }
        if TestSupport.shared("media/real/selfie_handheld.mp4") != nil, Harness.tool("ffmpeg") != nil {
            all.append("media/real/selfie_handheld.mp4")
        }
        return all
    }

    /// One headless run: its result and its event log's lines.
    static func run(_ rel: String, bin: String) async throws -> (Harness.Result, [[String: Any]]) {
        // A scenario clip's fast run is the one ScenarioTests judges too (made once).
        if rel.hasSuffix(".avi"), ScenarioTests.clips.contains(String(rel.dropFirst(6).dropLast(4))) {
            let run = try await ScenarioTests.standardRun(String(rel.dropFirst(6).dropLast(4)), pace: "fast")
            return (run.result, run.events)
        }
        struct Missing: Error { var what: String }
        guard let src = TestSupport.shared(rel) else { throw Missing(what: rel) }
        let dir = Harness.tempDir("announce")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let events = dir + "/events.jsonl"
        let args = ["--renderer", "plain", "--pace", "fast", "--announce", "-", "--events", events, "--output", dir + "/out",
                    "--timeout", "30"]
        let r: Harness.Result
        if rel.hasSuffix(".mp4") {
            guard let ffmpeg = Harness.tool("ffmpeg") else { throw Missing(what: "ffmpeg") }
            let cmd = "\(ffmpeg) -nostdin -v error -i '\(src)' -an -f yuv4mpegpipe - | '\(bin)' --source - " + args.map { "'\($0)'" }.joined(separator: " ")
            r = try await Harness.run("/bin/sh", ["-c", cmd], load: .cpu, timeout: 300)
        } else {
            r = try await Harness.run(bin, ["--source", src] + args, load: .cpu, timeout: 300)
        }
        let lines = ((try? String(contentsOfFile: events, encoding: .utf8)) ?? "").split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
        return (r, lines)
    }

    @Test(.enabled(if: ready, "needs the binary and ../shared/media"))
    func everyScenarioAnnouncesShortAndCurrent() async throws {
        let bin = try #require(Self.bin)
        let sources = Self.sources()
        // All runs are started at once; the harness's budget runs as many as the cores take, and
        // no thread of the test pool is held while they run. Each run is checked afterwards.
        struct Outcome: @unchecked Sendable { var index: Int; var run: (Harness.Result, [[String: Any]])? }
        var runs: [Int: (Harness.Result, [[String: Any]])] = [:]
        await withTaskGroup(of: Outcome.self) { group in
            for (i, rel) in sources.enumerated() {
                group.addTask { Outcome(index: i, run: try? await Self.run(rel, bin: bin)) }
            }
            for await o in group { runs[o.index] = o.run }
        }
        var report: [String] = []
        for (i, rel) in sources.enumerated() {
            guard let (r, lines) = runs[i] else { Issue.record("\(rel): did not run"); continue }
            var state = LogState()
            var said: [(t: Int, e: [String: Any])] = []
            for e in lines {
                if e["event"] as? String == "announced" {
                    let t = e["t_ms"] as? Int ?? -1
                    #expect(state.matches(e, t: t), "\(rel): stale at \(t) ms: \(e["text"] ?? "") while \(state)")
                    said.append((t, e))
                } else {
                    state.apply(e)
                }
            }
            #expect(!said.isEmpty, "\(rel): nothing announced (exit \(r.code))")
            for (a, b) in zip(said, said.dropFirst()) {
                #expect(b.t - a.t >= 1500, "\(rel): \(a.e["text"] ?? "") at \(a.t) ms, then \(b.e["text"] ?? "") at \(b.t) ms")
            }
            // Each announcement is a line of the plain renderer's output, in order.
            let out = r.out.split(separator: "\n").map(String.init)
            var from = 0
            for (_, e) in said {
                let text = e["text"] as? String ?? ""
                guard let i = out[from...].firstIndex(of: text) else {
                    Issue.record("\(rel): \"\(text)\" not printed in order on stdout"); break
                }
                from = i + 1
            }
            let recorded = lines.contains { $0["event"] as? String == "outputSaved" }
            if recorded { #expect(said.last?.e["kind"] as? String == "done", "\(rel): the last announcement is not Done") }
            let span = (lines.last?["t_ms"] as? Int ?? 0)
            report.append("\(rel): \(said.count) announcements over \(span) ms, exit \(r.code)")
        }
        print(report.joined(separator: "\n"))
        #expect(report.count == sources.count)
    }
}
