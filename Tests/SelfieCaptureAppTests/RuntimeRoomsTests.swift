import CaptureFlow
import CaptureModel
import Evidence
import Foundation
import Media
@testable import SelfieCaptureApp
import Testing
import TerminalUI
import TestSupport

/// The runtime's rooms alone (issue #26), without a run: the draw pacing on given times, the
/// virtual clock's stall rule with an injected real clock, the keys help, and a recording's
/// documents for given frames. Whole runs are in SmallTruthsTests and EndToEndTests.
@Suite struct RuntimeRoomsTests {
    // MARK: the rooms' size (issue #26's goals, kept)

    /// `CaptureRuntime.swift` is at most 400 lines, and no type of the app module has more than
    /// 15 mutable stored properties (`scripts/mutable-properties.py --max 15`, which exits 1 and
    /// names the types over it). A room that grows past them is a room to split again.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "needs /usr/bin/python3"))
    func roomsStayWithinTheirLimits() throws {
        let root = TestSupport.projectRoot().path
        let runtime = try String(contentsOfFile: root + "/Sources/SelfieCaptureApp/CaptureRuntime.swift", encoding: .utf8)
        let lines = runtime.split(separator: "\n", omittingEmptySubsequences: false).count - (runtime.hasSuffix("\n") ? 1 : 0)
        #expect(lines <= 400, "CaptureRuntime.swift has \(lines) lines")
        let r = try ChildProcess.run("/usr/bin/python3", [root + "/scripts/mutable-properties.py", "--max", "15",
                                                          root + "/Sources/SelfieCaptureApp"], timeout: 60)
        let out = String(decoding: r.out + r.err, as: UTF8.self)
        #expect(r.code == 0, "\(out.split(separator: "\n").prefix(3).joined(separator: "\n"))")
        #expect(out.contains("CaptureRuntime"), "the script listed no types: \(out)")
    }

    // MARK: DrawPacer

    /// A 15 fps source drawn at `--preview-fps` 15 and 5 for 3 s of the run's clock: every
    /// frame at 15 (45 draws); at 5 the first at once and then one every 200 ms (frames 2, 5,
    /// …, 44: 16 draws), because each draw makes the next due one interval after the last due
    /// time, not after the draw (else a 15 fps source would be drawn at 7.5).
    @Test func drawPacerCapsCaptureScreensOnAverage() {
        func draws(fps: Int) -> Int {
            var p = DrawPacer(fps: fps)
            var n = 0
            for k in 0..<45 {
                p.markChanged()   // a new frame
                if p.shouldDraw(nowMs: k * 1000 / 15, capture: true) { n += 1 }
            }
            return n
        }
        #expect(draws(fps: 15) == 45)
        #expect(draws(fps: 5) == 16)
    }

    /// Nothing changed: no draw; other screens draw at once whatever the pacing.
    @Test func drawPacerDrawsOnlyChangedScreens() {
        var p = DrawPacer(fps: 15)
        do { let d = p.shouldDraw(nowMs: 0, capture: true); #expect(d) }
        do { let d = p.shouldDraw(nowMs: 500, capture: true); #expect(!d) }   // nothing changed
        p.markChanged()
        do { let d = p.shouldDraw(nowMs: 1, capture: false); #expect(d) }      // not the capture screen: now
        p.markChanged()
        do { let d = p.shouldDraw(nowMs: 2, capture: true); #expect(!d) }      // due at 33 − 4: half an interval after the first
        do { let d = p.shouldDraw(nowMs: 62, capture: true); #expect(d) }
    }

    /// A draw that cost 40 ms of real time puts the next one at least 60 ms later (1.5 ×);
    /// one of 10 ms or less changes nothing.
    @Test func drawPacerBacksOffAfterCostlyDraws() {
        var p = DrawPacer(fps: 60)   // 16 ms
        do { let d = p.shouldDraw(nowMs: 1000, capture: true); #expect(d) }
        p.drew(costMs: 40, nowMs: 1000)
        #expect(p.nextDueMs == 1060)
        var q = DrawPacer(fps: 60)
        do { let d = q.shouldDraw(nowMs: 1000, capture: true); #expect(d) }
        let due = q.nextDueMs
        q.drew(costMs: 10, nowMs: 1000)
        #expect(q.nextDueMs == due)
        q.restart()
        #expect(q.needsRedraw)
        do { let d = q.shouldDraw(nowMs: 1001, capture: true); #expect(d) }
    }

    // MARK: Pacing

    /// Virtual time: frames move it to their time, never back; a source silent for real lets it
    /// follow real time only after `stallMs` (1 s), from the stall's start.
    @Test func virtualPacingFollowsRealTimeOnlyInAStall() {
        var real = 10_000
        let v = VirtualPacing(realNowMs: { real })
        v.reach(ms: 400)
        v.reach(ms: 100)
        #expect(v.clock.nowMs() == 400)
        #expect(v.skipAhead(ms: 10) && v.clock.nowMs() == 410)
        func stall() -> PacingStall? { v.awaitFrames(take: { [] }, wait: { _ in false }) }
        guard case .waiting(false)? = stall() else { Issue.record("a fresh silence is not a stall"); return }
        real += 999
        guard case .waiting(false)? = stall() else { Issue.record("999 ms is not a stall"); return }
        #expect(v.clock.nowMs() == 410)
        real += 1   // 1000 ms of real silence: the clock follows from the stall's start
        guard case .waiting(true)? = stall() else { Issue.record("1 s is a stall"); return }
        #expect(v.clock.nowMs() == 1410)
        real += 250
        _ = stall()
        #expect(v.clock.nowMs() == 1660)
        v.framesArrived()   // the silence is over: a new one starts from zero
        real += 500
        guard case .waiting(false)? = stall() else { Issue.record("a new silence"); return }
        #expect(v.clock.nowMs() == 1660)
    }

    /// What arrives while a virtual run waits is handed over at once.
    @Test func virtualPacingTakesWhatArrives() {
        let v = VirtualPacing(realNowMs: { 0 })
        guard case .frames(let items)? = v.awaitFrames(take: { [.waiting] }, wait: { ms in ms == 20 }) else {
            Issue.record("frames expected"); return
        }
        #expect(items.count == 1)
        #expect(v.framesPerTurn == 1 && !v.analysesInBackground && v.realCostMs(sinceMonotonicMs: 0) == 0)
    }

    /// Realtime never waits for the source and never moves its clock by hand.
    @Test func realtimePacingLeavesTimeAlone() {
        let r = RealtimePacing()
        #expect(r.awaitFrames(take: { [.waiting] }, wait: { _ in true }) == nil)
        #expect(!r.skipAhead(ms: 1000))
        #expect(r.framesPerTurn == .max && r.analysesInBackground)
    }

    // MARK: keys help

    /// `?` opens the keys help (the machine hears it), the next key only closes it, Ctrl-C
    /// closes it and still acts; on a window too small `?` is not taken.
    @Test func keysHelpTakesTheNextKey() throws {
        let presenter = ScreenPresenter(setup: try Self.setup([]), pacing: VirtualPacing())
        #expect(presenter.keysHelp(.character("?"), windowTooSmall: true) == (false, nil))
        #expect(presenter.keysHelp(.character("?"), windowTooSmall: false) == (true, .keysHelpShown(true)))
        #expect(presenter.keysHelp(.character("s"), windowTooSmall: false) == (true, .keysHelpShown(false)))
        #expect(presenter.keysHelp(.character("s"), windowTooSmall: false) == (false, nil))
        _ = presenter.keysHelp(.character("?"), windowTooSmall: false)
        #expect(presenter.keysHelp(.interrupt, windowTooSmall: false) == (false, .keysHelpShown(false)))
    }

    // MARK: RecordingSession

    static let demoPhoto = (try? AppResources.requireDemoPhoto()) != nil

    static func setup(_ extra: [String]) throws -> CaptureSetup {
        let argv = ["--source", "demo", "--renderer", "null", "--pace", "fast"] + extra
        let args = try ArgumentParser.parse(argv.enumerated().map { ArgToken($0.element, index: $0.offset + 1) }, spec: Commands.capture)
        var s = try CaptureSetup.make(args, environment: ProcessInfo.processInfo.environment, console: Captured().console)
        s.output.wallClock = { Date(timeIntervalSince1970: 1_796_126_400) }
        return s
    }

    static func frames(_ n: Int) throws -> [VideoFrame] {
        var px = [UInt8](repeating: 0, count: 64 * 48 * 3)
        return try (0..<n).map { i in
            for k in px.indices { px[k] = UInt8((k + i * 7) % 256) }
            let img = Image(width: 64, height: 48, layout: .rgb, pixels: px)
            return VideoFrame(index: i, timestampMs: i * 100, rgb: img, jpeg: try JPEGCodec.encode(img))
        }
    }

    /// Ten frames at 10 fps with stills asked for frames 3 and 7 (and one for a frame not in
    /// the video yet, which the next frame written stands in for): result.json says 10 frames
    /// of 1 s and 3 stills, the manifest lists and hashes every file (`verify` finds nothing
    /// changed), and the fatal-signal list is cleared once published.
    @Test(.enabled(if: demoPhoto, "the demo photo is absent (make demo-photo)"))
    func recordingWritesResultAndManifest() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sc-rooms-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let rec = RecordingSession(setup: try Self.setup(["--output", dir, "--frames-to-collect", "3"]))
        try rec.prepareOutput()
        let frames = try Self.frames(10)
        try rec.start(frame: frames[0], fps: 10)
        #expect(rec.isRecording)
        try rec.collect(frameIndex: 0, recent: [], analysis: nil)   // not written yet: waits for the next frame
        for f in frames {
            try rec.append(f, analysis: nil)
            if f.index == 3 || f.index == 7 { try rec.collect(frameIndex: f.index, recent: frames, analysis: nil) }
        }
        try rec.finish()
        let saved = try #require(try rec.writeResult(RecordingSession.ResultFacts(attempt: 1, plan: nil)))
        let result = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: saved.published.result))) as? [String: Any])
        #expect(result["frameCount"] as? Int == 10)
        #expect(result["durationMs"] as? Int == 1000)
        #expect((result["frames"] as? [Any])?.count == 10)
        let stills = (result["collectedFrames"] as? [[String: Any]])?.compactMap { $0["frameIndex"] as? Int }
        #expect(stills == [0, 3, 7])
        #expect(result["referenceFrame"] is NSNull)   // no frame was analysed
        let check = try EvidenceFolder.verify(dir)
        #expect(check.discrepancies.isEmpty)
        #expect(check.files == 5)   // video, 3 stills, result.json
        #expect(rec.savedPaths?.count == 4)   // video, frames/, result.json, manifest.json
    }

    /// The stills a recording still owes when it ends (`collectOwed`): the written frames
    /// nearest the offsets, among those no analysis reached, after the last still; a frame the
    /// analyser judged is never taken, and the count reported before (`recordedVideo`) is the
    /// count taken.
    @Test(.enabled(if: demoPhoto, "the demo photo is absent (make demo-photo)"))
    func owedStillsComeFromTheUnjudgedTail() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sc-owed-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let rec = RecordingSession(setup: try Self.setup(["--output", dir, "--frames-to-collect", "3"]))
        try rec.prepareOutput()
        let frames = try Self.frames(10)   // 0, 100, …, 900 ms
        try rec.start(frame: frames[0], fps: 10)
        for f in frames {
            try rec.append(f, analysis: nil)
            if f.index == 2 { try rec.collect(frameIndex: 2, recent: frames, analysis: nil) }
        }
        // The analysis of frame 5 arrived: frames up to 5 are judged (or skipped for good).
        rec.attach(FrameAnalysis(frameIndex: 5, timestampMs: 500, frameWidth: 64, frameHeight: 48, faces: [],
                                 brightness: 0.5, clippedFraction: 0, sharpness: 1))
        #expect(rec.owedStills(offsetsMs: [500, 850]).map(\.index) == [6, 8])
        #expect(rec.recordedVideo(owedStillOffsetsMs: [500, 850])?.stills == 3)
        try rec.collectOwed(offsetsMs: [500, 850])
        #expect(rec.stills.map(\.index) == [2, 6, 8])
        // Nothing left after the last still for a further offset.
        #expect(rec.owedStills(offsetsMs: [800]).map(\.index) == [9])
        #expect(rec.owedStills(offsetsMs: [800, 900]).map(\.index) == [9])
        try rec.finish()
    }

    /// The fatal-signal list names every file a run may write in the folder and its temporary
    /// name, then `frames/`, then the folder when the run created it.
    @Test func unfinishedOutputNamesEveryFile() throws {
        let folder = try OutputFolder.prepare(requested: FileManager.default.temporaryDirectory
            .appendingPathComponent("sc-rooms-\(UUID().uuidString.prefix(8))").path)
        defer { try? FileManager.default.removeItem(atPath: folder.path) }
        let u = RecordingSession.unfinishedOutput(in: folder, created: true, stills: 2)
        #expect(u.files.contains(folder.file("video.avi")) && u.files.contains(folder.file("frames/frame-002.jpg")))
        #expect(u.files.contains(PartialFile.temporaryPath(for: folder.file(Manifest.fileName))))
        #expect(!u.files.contains(folder.file("frames/frame-003.jpg")))
        #expect(u.folders == [folder.file("frames"), folder.path])
        #expect(RecordingSession.unfinishedOutput(in: folder, created: false, stills: 0).folders == [folder.file("frames")])
    }

    /// Signing that fails leaves neither result.json nor manifest.json (all or nothing).
    @Test func evidenceWriterLeavesNothingWhenSigningFails() throws {
        let folder = try OutputFolder.prepare(requested: FileManager.default.temporaryDirectory
            .appendingPathComponent("sc-rooms-\(UUID().uuidString.prefix(8))").path)
        defer { try? FileManager.default.removeItem(atPath: folder.path) }
        let w = EvidenceWriter(folder: folder, settings: [:], signKey: folder.file("no-such-key"))
        let record = SourceRecord(kind: .demo, spec: "demo", width: 64, height: 48, fps: 10)
        #expect(throws: (any Error).self) {
            try w.publish(result: Array("{}\n".utf8), source: record, startedAt: Date(), endedAt: Date())
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") } == [])
        let unsigned = try EvidenceWriter(folder: folder, settings: [:], signKey: nil)
            .publish(result: Array("{}\n".utf8), source: record, startedAt: Date(), endedAt: Date())
        #expect(unsigned.signature == nil && FileManager.default.fileExists(atPath: unsigned.manifest))
    }
}
