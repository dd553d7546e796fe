import Foundation
import Glibc
import JSON
import Testing
import TestSupport
import CaptureFlow
@testable import SelfieCaptureApp

@Suite struct KeyScriptParseTests {
    @Test func parsesTheDocumentedExample() throws {
        let steps = try KeyScript.parse("enter; wait 500ms; wait-for cameraReady; s; ...".replacingOccurrences(of: "; ...", with: ""))
        #expect(steps == [.key(.enter), .wait(ms: 500), .waitFor(.cameraReady), .key(.character("s"))])
    }

    @Test func keysDurationsCommentsAndLines() throws {
        let text = """
        # a whole capture
        enter ;space;esc;backspace;ctrl-c;RETURN
        wait 1.5s; wait 0ms  # inline comment
        q
        """
        #expect(try KeyScript.parse(text, source: "flow.keys") == [
            .key(.enter), .key(.space), .key(.escape), .key(.backspace), .key(.interrupt), .key(.enter),
            .wait(ms: 1500), .wait(ms: 0), .key(.character("q")),
        ])
    }

    /// Issue #19: a unit written apart from the number (`wait 2 s`) means the same as `wait 2s`.
    @Test func waitAcceptsASpaceBeforeTheUnit() throws {
        #expect(try KeyScript.parse("wait 2 s; wait 1.5 s; wait 250 ms; wait 2s") == [.wait(ms: 2000), .wait(ms: 1500), .wait(ms: 250), .wait(ms: 2000)])
        #expect(throws: KeyScriptError.self) { try KeyScript.parse("wait 2 sec") }
        #expect(throws: KeyScriptError.self) { try KeyScript.parse("wait s 2") }
        #expect(throws: KeyScriptError.self) { try KeyScript.parse("wait 2 s s") }
    }

    @Test(arguments: [
        ("enter; entr", "keys:1:8: error: unknown step 'entr'; did you mean 'enter'?"),
        ("enter;\n  wait 5", "keys:2:3: error: bad duration '5': use a number with ms or s up to a day, e.g. 500ms or 1.5s"),
        ("wait", "keys:1:1: error: 'wait' needs one duration, e.g. 'wait 500ms' or 'wait 2s'"),
        ("wait-for cameraRedy", "keys:1:1: error: unknown event 'cameraRedy'; did you mean 'cameraReady'?"),
        ("s;; wait-for", "keys:1:5: error: 'wait-for' needs one event name, e.g. 'wait-for cameraReady'"),
        ("press enter", "keys:1:1: error: unknown step 'press enter'"),
        ("wait 9999999999999999999999s", "keys:1:1: error: bad duration '9999999999999999999999s': use a number with ms or s up to a day, e.g. 500ms or 1.5s"),
        ("wait -3s", "keys:1:1: error: bad duration '-3s': use a number with ms or s up to a day, e.g. 500ms or 1.5s"),
    ])
    func errorsSayWhereAndWhat(script: String, message: String) {
        #expect(throws: KeyScriptError.self) { try KeyScript.parse(script) }
        do { _ = try KeyScript.parse(script) } catch let e as KeyScriptError { #expect(e.description == message) } catch { Issue.record(error) }
    }
}

@Suite struct KeyScriptFileTests {
    @Test func atFileReadsTheFileAndErrorsNameIt() throws {
        let files = ["flow.keys": "enter\nwait-for cameraReady\ns\n", "bad.keys": "enter\n  zz\n"]
        #expect(try KeyScript.parse(argument: "@flow.keys", readFile: { files[$0] }) == [.key(.enter), .waitFor(.cameraReady), .key(.character("s"))])
        #expect(try KeyScript.parse(argument: "enter", readFile: { _ in nil }) == [.key(.enter)])
        do { _ = try KeyScript.parse(argument: "@bad.keys", readFile: { files[$0] }); Issue.record("no error") } catch let e as KeyScriptError {
            #expect(e.description == "bad.keys:2:3: error: unknown step 'zz'")
        }
        do { _ = try KeyScript.parse(argument: "@missing.keys", readFile: { files[$0] }); Issue.record("no error") } catch let e as KeyScriptError {
            #expect(e.description == "missing.keys:0:0: error: cannot read the key script")
        }
    }
}

@Suite struct KeyScriptPlayerTests {
    @Test func waitsUseTheInjectedClock() throws {
        var p = KeyScriptPlayer(steps: try KeyScript.parse("enter; wait 500ms; space"))
        #expect(p.poll(nowMs: 100) == [.enter])
        #expect(p.deadlineMs == 600)
        #expect(p.poll(nowMs: 599) == [])
        #expect(p.poll(nowMs: 600) == [.space])
        #expect(p.isFinished)
    }

    @Test func waitForNeedsAnEventAfterTheLastKey() throws {
        var p = KeyScriptPlayer(steps: try KeyScript.parse("wait-for cameraReady; s; wait-for cameraReady; q"))
        p.observe(.cameraPreviewShown)
        #expect(p.poll(nowMs: 0) == [])
        #expect(p.waitingFor == .cameraReady)
        p.observe(.cameraReady)
        #expect(p.poll(nowMs: 1) == [.character("s")])
        #expect(p.poll(nowMs: 2) == [], "the earlier cameraReady was before the key")
        p.observe(.cameraReady)
        #expect(p.poll(nowMs: 3) == [.character("q")])
    }

    @Test func eventDuringAWaitCounts() throws {
        var p = KeyScriptPlayer(steps: try KeyScript.parse("s; wait 1s; wait-for videoRecordStarted; q"))
        #expect(p.poll(nowMs: 0) == [.character("s")])
        p.observe(.videoRecordStarted)
        #expect(p.poll(nowMs: 1000) == [.character("q")])
    }

    /// Issue #29: the runtime takes the script's keys one at a time (`next`), so `?; x` gives
    /// `?` first and `x` only when asked again, after `?` has opened the keys help.
    @Test func nextGivesOneKeyAtATime() throws {
        var p = KeyScriptPlayer(steps: try KeyScript.parse("?; x; wait-for outputSaved"))
        #expect(p.next(nowMs: 0) == .character("?"))
        #expect(p.next(nowMs: 0) == .character("x"))
        #expect(p.next(nowMs: 0) == nil)
        #expect(p.waitingFor == .outputSaved)
    }
}

@Suite struct EventLogTests {
    @Test func jsonLines() {
        var lines: [String] = []
        let log = EventLog { lines.append($0) }
        log.write(FlowEvent(.cameraReady, tMs: 300))
        log.write(FlowEvent(.videoRecordProgress, tMs: 3250, fields: [EventField("progress", .double(0.25))]))
        log.write(FlowEvent(.videoRecordProgress, tMs: 4000, fields: [EventField("progress", .double(1))]))
        log.write(FlowEvent(.faceBoundingBoxValidating, tMs: 5, fields: [
            EventField("poses", .array([.string("VALID_FACE_POSE")])), EventField("distance", .string("TOO_CLOSE")),
            EventField("positions", .array([])),
        ]))
        log.write(FlowEvent(.faceCaptureFailed, tMs: 9, fields: [EventField("reason", .string("camera: \"x\"\n\u{1}"))]))
        #expect(lines == [
            "{\"event\":\"cameraReady\",\"t_ms\":300}\n",
            "{\"event\":\"videoRecordProgress\",\"t_ms\":3250,\"progress\":0.25}\n",
            "{\"event\":\"videoRecordProgress\",\"t_ms\":4000,\"progress\":1}\n",
            "{\"event\":\"faceBoundingBoxValidating\",\"t_ms\":5,\"poses\":[\"VALID_FACE_POSE\"],\"distance\":\"TOO_CLOSE\",\"positions\":[]}\n",
            "{\"event\":\"faceCaptureFailed\",\"t_ms\":9,\"reason\":\"camera: \\\"x\\\"\\n\\u0001\"}\n",
        ])
    }

    @Test func fileIsWrittenAndParsesAsJSON() throws {
        let path = "/tmp/selfie-capture-eventlog-\(getpid()).jsonl"
        defer { unlink(path) }
        let log = try EventLog(path: path)
        log.write(FlowEvent(.instructionsShown, tMs: 1))
        log.write(FlowEvent(.faceCaptureCountDown, tMs: 2, fields: [EventField("remaining", .int(3))]))
        log.close()
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let objects = try text.split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(objects.count == 2)
        #expect(objects[1]?["event"] as? String == "faceCaptureCountDown")
        #expect(objects[1]?["remaining"] as? Int == 3)
        #expect(objects[1]?["t_ms"] as? Int == 2)
    }

    @Test func unwritablePathThrows() {
        #expect(throws: EventLogError.open(path: "/nonexistent-dir/x.jsonl", errno: ENOENT)) {
            _ = try EventLog(path: "/nonexistent-dir/x.jsonl")
        }
    }
}

/// The whole flow driven the way the runtime will: a key script, a fake camera delivering a frame
/// every 100 ms, and the event log. Checks the DESIGN.md event order.
@Suite struct ScriptedFlowTests {
    /// Keys due while the loading screen is up wait for the next screen instead of being lost.
    @Test func scriptKeysWaitForTheLoadingScreenToEnd() throws {
        // The instructions show while the model loads (issue #29): the first Enter leaves them
        // for the loading screen, where the second waits.
        var driver = FlowDriver(machine: CaptureStateMachine(settings: FlowSettings()),
                                keys: try KeyScript.parse("enter; enter"))
        _ = driver.step(nowMs: 0, events: [.started])
        _ = driver.step(nowMs: 100)
        #expect(driver.machine.screen == .loading)
        #expect(driver.player?.index == 1)
        _ = driver.step(nowMs: 200, events: [.modelLoaded])
        #expect(driver.machine.screen == .cameraPermission)
        #expect(driver.player?.isFinished == true)
    }

    @Test func scriptedCaptureEmitsTheDocumentedEventsInOrder() throws {
        var log: [String] = []
        let writer = EventLog { log.append($0) }
        var driver = FlowDriver(
            machine: CaptureStateMachine(settings: FlowSettings(options: CaptureOptions(timeBeforeAutomaticCapture: 1), interactive: false)),
            keys: try KeyScript.parse("wait-for instructionsShown; enter; wait-for cameraPermissionShown; enter; wait-for cameraReady; s"),
            log: writer)
        var cameraOpen = false, exitCode: FlowExit?
        var pending: [Event] = [.started]
        var frame = 0
        for now in stride(from: 0, through: 6000, by: 100) where exitCode == nil {
            if now == 200 { pending.append(.modelLoaded) }
            if cameraOpen {
                if frame == 0 { pending.append(.cameraFirstFrame) }
                let valid = now > 2500
                pending.append(.frameGuided(GuidanceResult(frameIndex: frame, timestampMs: now, status: valid ? .ValidFace : .TooFarAway,
                                                           distance: valid ? .VALID_FACE_POSE : .TOO_FAR_AWAY, positions: [.VALID_FACE_POSE],
                                                           poses: [.VALID_FACE_POSE], hint: valid ? .holdStill : .getCloser,
                                                           isValid: valid, isStill: valid)))
                frame += 1
            }
            var effects = driver.step(nowMs: now, events: pending)
            pending = []
            // Answers to effects arrive in the same turn (a fake camera that opens at once).
            while !effects.isEmpty {
                let e = effects.removeFirst()
                switch e {
                case .requestPermission: cameraOpen = true; effects += driver.step(nowMs: now, events: [.permissionGranted])
                case .exit(let code): exitCode = code
                default: break
                }
            }
        }
        #expect(exitCode == .recorded)
        let names = log.compactMap { line -> String? in
            guard let r = line.range(of: "\"event\":\"") else { return nil }
            return String(line[r.upperBound...].prefix { $0 != "\"" })
        }
        let repeated: Set<String> = ["faceValidating", "videoRecordProgress", "faceCaptureProgress"]
        var main: [String] = []
        for n in names where !repeated.contains(n) && main.last != n { main.append(n) }
        #expect(main == ["instructionsShown", "cameraPermissionShown", "cameraPermissionRequested", "cameraPermissionAccepted",
                         "cameraPreviewShown", "cameraReady", "videoCaptureStarted", "faceCaptureCountDown",
                         "videoRecordStarted", "faceCaptureStarted", "videoRecordEnded", "faceCaptureSuccess"])
        // faceValidating starts right after videoCaptureStarted; progress climbs to 1 before the end.
        #expect(names[names.firstIndex(of: "videoCaptureStarted")! + 1] == "faceValidating")
        let progress = log.filter { $0.contains("videoRecordProgress") }.compactMap { line -> Double? in
            guard let r = line.range(of: "\"progress\":") else { return nil }
            return Double(line[r.upperBound...].prefix { $0 != "}" })
        }
        #expect(progress == [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1])
        #expect(names.firstIndex(of: "videoRecordEnded")! > names.lastIndex(of: "videoRecordProgress")!)
    }
}

@Suite struct KeyScriptFuzzTests {
    /// Bounded fuzz: 3000 random scripts from the script alphabet never trap, and every error
    /// points inside the text (line ≥ 1, column ≥ 1).
    @Test func randomScriptsParseOrFailWithAPosition() {
        var rng = SplitMix(seed: 0x5EED)
        let pieces = ["wait 1e30s", "wait nanms", "enter", "space", "esc", "wait", "wait-for", "cameraReady", "500ms", "1.5s", "-2s", "s", "q", ";", "\n",
                      " ", "#", "é", "漢", "\t", "ctrl-c", "xx", "ms", "0", "9999999999999999999999s", ";;"]
        for _ in 0..<3000 {
            let n = Int(rng.next() % 12)
            let text = (0..<n).map { _ in pieces[Int(rng.next() % UInt64(pieces.count))] }.joined()
            do { _ = try KeyScript.parse(text) } catch let e as KeyScriptError {
                #expect(e.line >= 1 && e.column >= 1, "\(text.debugDescription): \(e)")
            } catch { Issue.record(error) }
        }
    }
}

/// A key script file saved with CRLF (or CR) line ends reads as with LF (found while fuzzing:
/// Swift's "\r\n" is one Character, so splitting on "\n" kept whole lines together).
@Suite struct KeyScriptLineEndTests {
    @Test(arguments: ["\r\n", "\r", "\n"])
    func lineEnds(eol: String) throws {
        let steps = try KeyScript.parse(["enter", "wait 2 s", "# a comment", "wait-for cameraReady", "s"].joined(separator: eol) + eol)
        #expect(steps == [.key(.enter), .wait(ms: 2000), .waitFor(.cameraReady), .key(.character("s"))])
        #expect(throws: KeyScriptError.self) { try KeyScript.parse("enter" + eol + "entr") }
        do { _ = try KeyScript.parse("enter" + eol + "entr") } catch let e as KeyScriptError { #expect(e.line == 2) }
    }
}
