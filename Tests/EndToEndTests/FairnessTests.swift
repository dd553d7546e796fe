import Foundation
import Testing
import TestSupport

/// Issue #24, fair for every person: every person of ../shared/media/fairness (placed well and
/// still for 7 s) records with default options, at both paces, whatever their skin, age, glasses,
/// expression, pose or light; at fast pace the recording starts within countdown (1 s) +
/// patience (3 s) + 0.5 s of settling. Behaviour only: no event sequence is pinned.
@Suite struct FairnessTests {
    /// At realtime pace: each run needs its 7 s of wall clock and a fraction of a core; the
    /// harness's wall-clock slots (`Harness.Load.wall`) keep a few at a time, so 25 at once on
    /// 2 cores do not test the machine's load rather than the product.
    @Suite struct Realtime {
        @Test(.enabled(if: FairnessTests.ready, "needs the built binary and ../shared/media/fairness"), arguments: FairnessTests.clips)
        func everyPersonRecordsAtRealtimePace(clip: String) async throws { try await FairnessTests.check(clip: clip, pace: "realtime") }
    }

    static let bin = Harness.binary
    static let clips: [String] = {
        guard let dir = TestSupport.shared("media/fairness") else { return [] }
        return ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [])
            .filter { $0.hasSuffix("_settle.avi") }.map { "fairness/" + String($0.dropLast(4)) }.sorted()
    }()
    static let ready = bin != nil && !clips.isEmpty

    @Test(.enabled(if: ready, "needs the built binary and ../shared/media/fairness"), arguments: clips)
    func everyPersonRecordsAtFastPace(clip: String) async throws { try await Self.check(clip: clip, pace: "fast") }

    static func check(clip: String, pace: String) async throws {
        let dir = Harness.tempDir("fair")
        let out = dir + "/out", events = dir + "/events.jsonl", log = dir + "/analysis.jsonl"
        let src = try #require(TestSupport.shared("media/\(clip).avi"))
        let r = try await Harness.run(try #require(Self.bin), ["--source", src, "--renderer", "null", "--pace", pace, "--output", out,
                                                               "--events", events, "--analysis-log", log],
                                      load: pace == "fast" ? .cpu : .wall, timeout: 300)
        #expect(r.code == 0, "\(clip) at \(pace): exit \(r.code); stderr: \(r.err)")
        let parsed = ((try? String(contentsOfFile: events, encoding: .utf8)) ?? "").split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
        // What was accepted is reported the same way in the event and in result.json.
        let accepted = parsed.filter { $0["event"] as? String == "qualityAccepted" }
        #expect(accepted.count <= 1)
        if r.code == 0, let data = FileManager.default.contents(atPath: out + "/result.json"),
           let result = try JSONSerialization.jsonObject(with: data) as? [String: Any] {
            let reported = (result["qualityShortfalls"] as? [[String: Any]]) ?? []
            let evented = (accepted.first?["shortfalls"] as? [[String: Any]]) ?? []
            // result.json lists every shortfall of the attempt; those the window accepted are the event's.
            let acceptedInResult = reported.filter { $0["accepted"] as? Bool == true }
            #expect(acceptedInResult.compactMap { $0["measure"] as? String } == evented.compactMap { $0["measure"] as? String })
            #expect(reported.allSatisfy { $0["value"] is Double && $0["limit"] is Double && $0["shownMs"] is Int })
        }
        guard pace == "fast", r.code == 0,
              let start = parsed.last(where: { $0["event"] as? String == "videoRecordStarted" })?["t_ms"] as? Int else { return }
        // Event times are the run's clock, the analysis log's the clip's: one faceValidating per
        // analysed frame pairs them (as ScenarioTests does). The person is settled from the
        // clip's first still-and-valid moment (~0.27 s: the ground truth's settling rule).
        let logTimes = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").compactMap {
            ((try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any])?["t_ms"] as? Int
        }
        let fv = parsed.filter { $0["event"] as? String == "faceValidating" }.compactMap { $0["t_ms"] as? Int }
        let pair = try #require(zip(fv.suffix(logTimes.count), logTimes.suffix(fv.count)).reversed().first)
        let recClip = Double(start - (pair.0 - pair.1)) / 1000
        let path = try #require(TestSupport.shared("media/\(clip).json"))
        let truth = try JSONDecoder().decode(ScenarioTests.Truth.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        let settled = try #require(ScenarioTests.stillValidRuns(truth).first?.start)
        #expect(recClip - settled <= 1.0 + 3.0 + 0.5 + 0.001, "\(clip): recording at \(recClip) s, settled at \(settled) s")
    }

    /// `--strict-quality` keeps the blocking of enrolment-grade capture: a person whose head is
    /// slightly turned (about 16° of yaw against the 15° advice limit) does not record in 7 s.
    @Test(.enabled(if: ready && TestSupport.shared("media/fairness/cc0_interfaces_020_settle.avi") != nil,
                   "needs the built binary and ../shared/media/fairness"))
    func strictQualityStillBlocks() async throws {
        let dir = Harness.tempDir("fair-strict")
        let src = try #require(TestSupport.shared("media/fairness/cc0_interfaces_020_settle.avi"))
        let r = try await Harness.run(try #require(Self.bin), ["--source", src, "--renderer", "null", "--pace", "fast", "--output",
                                                               dir + "/out", "--events", dir + "/ev.jsonl", "--strict-quality"],
                                      load: .cpu, timeout: 300)
        #expect(r.code == 75, "stderr: \(r.err)")
        let text = (try? String(contentsOfFile: dir + "/ev.jsonl", encoding: .utf8)) ?? ""
        #expect(text.contains("\"hint\":\"turnHeadLess\"") && !text.contains("qualityAccepted"))
        // Strict never loops through countdowns it then drops, and the operator is told why.
        #expect(!text.contains("captureRestarted"))
        #expect(r.err.contains("note: the last hint shown was \"Face the camera\""), "stderr: \(r.err)")
    }
}
