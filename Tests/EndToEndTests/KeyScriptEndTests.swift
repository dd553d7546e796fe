import Foundation
import Testing
import TestSupport

/// Issue #14 "nothing waits forever": a headless run (no terminal to read keys from) whose
/// `--keys` script ends, or waits for an event that cannot come, while the flow waits for a key
/// ends with exit 75 and says where; it no longer waits with no timeout.
@Suite struct KeyScriptEndTests {
    static let bin = Harness.binary
    static let clip = TestSupport.shared("media/approach.avi")

    static func run(_ keys: String, _ extra: [String] = []) throws -> Harness.Result {
        let dir = Harness.tempDir("sc-keys")
        return try Harness.run(try #require(bin), ["--source", try #require(clip), "--pace", "fast", "--renderer", "null",
                                                   "--output", dir + "/out", "--keys", keys] + extra, timeout: 120)
    }

    @Test(.enabled(if: bin != nil && clip != nil, "needs the built binary and ../shared/media/approach.avi"),
          arguments: [
            ("enter", "key script ended at step 1 while the cameraPermission screen waits for a key"),
            ("wait-for instructionsShown; enter; enter", "key script ended at step 3 while the capture (waiting for Start) screen waits for a key"),
            ("wait-for cameraReady", "key script waits for cameraReady at step 1, but the instructions screen waits for a key"),
          ])
    func stalledScriptEnds(keys: String, message: String) throws {
        let r = try Self.run(keys)
        #expect(r.code == 75, "\(r.code) \(r.err)")
        #expect(r.err.contains(message), "\(r.err)")
    }

    /// A script that plays through to Start still records; `--timeout` still governs once its
    /// timer runs (the capture screen), so a script ending there waits for the timeout.
    @Test(.enabled(if: bin != nil && clip != nil, "needs the built binary and ../shared/media/approach.avi"))
    func completeScriptRecordsAndTimeoutGoverns() throws {
        let ok = try Self.run("enter; enter; wait-for cameraReady; s")
        #expect(ok.code == 0, "\(ok.err)")
        let timed = try Self.run("enter; enter", ["--timeout", "2"])
        #expect(timed.code == 75 && timed.err.contains("timed out after 2 s"), "\(timed.err)")
    }

    /// Issue #29: a scripted `?` opens the keys help and the script's next key closes it (as a
    /// typed key does), so `?; x; wait-for outputSaved` records instead of hanging; a script
    /// that ends with the help open ends the run with 75 naming the keys help.
    @Test(.enabled(if: bin != nil && clip != nil, "needs the built binary and ../shared/media/approach.avi"))
    func scriptedKeysHelpClosesOnNextKeyAndNeverHangs() throws {
        let dir = Harness.tempDir("sc-keyshelp")
        let events = dir + "/events.jsonl"
        let ok = try Self.run("wait-for cameraReady; s; wait-for faceCaptureCountDown; ?; x; wait-for outputSaved",
                              ["--camera-consent", "--no-instructions", "--events", events])
        #expect(ok.code == 0, "\(ok.code) \(ok.err)")
        let log = (try? String(contentsOfFile: events, encoding: .utf8)) ?? ""
        #expect(log.contains("\"reason\":\"keysHelp\""), "\(log)")
        #expect(log.contains("\"event\":\"outputSaved\""), "\(log)")
        let stuck = try Self.run("wait-for cameraReady; s; wait-for faceCaptureCountDown; ?", ["--camera-consent", "--no-instructions"])
        #expect(stuck.code == 75, "\(stuck.code) \(stuck.err)")
        #expect(stuck.err.contains("keys help"), "\(stuck.err)")
    }
}
