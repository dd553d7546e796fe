import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// What a stalling FIFO's writer sends before it holds the FIFO open without writing for 60 s.
enum StallingWriter {
    /// A y4m header and one 8×8 mono frame.
    static let headerAndOneFrame = "printf 'YUV4MPEG2 W8 H8 F15:1 Cmono\\nFRAME\\n'; head -c 64 /dev/zero;"
    /// Nothing at all (not even the header).
    static let nothing = ""
}

/// Makes the FIFO `path` and starts its writer (`sends`, then a 60 s silence); terminate it.
func stallingFIFO(_ path: String, sends: String) throws -> Process {
    #expect(mkfifo(path, 0o600) == 0)
    let writer = Process()
    writer.executableURL = URL(fileURLWithPath: "/bin/sh")
    writer.arguments = ["-c", "{ \(sends) sleep 60; } > '\(path)'"]
    try writer.run()
    return writer
}

/// Issue #14 "sources and the screen": README's pipe command in a real terminal, and sources
/// that deliver nothing. The source is read on its own thread (`SourceReader`), so keys, signals,
/// the screen and `--timeout` never wait for it.
@Suite(.serialized) struct SourceStallTests {
    static let bin = Harness.binary
    static let ffmpeg = Harness.tool("ffmpeg")
    static let clip = TestSupport.shared("media/approach.avi")

    /// README: `ffmpeg -nostdin -i clip -f yuv4mpegpipe - | selfie-capture --source -` in a
    /// terminal. stdin is the video, so keys come from /dev/tty: Enter, Enter, s reach a recording.
    @Test(.enabled(if: TmuxSession.tmux != nil && bin != nil && ffmpeg != nil && clip != nil,
                   "needs tmux, ffmpeg, the built binary and ../shared/media/approach.avi"))
    func pipeCommandInATerminalRecords() async throws {
        let bin = try #require(Self.bin), ff = try #require(Self.ffmpeg), src = try #require(Self.clip)
        let dir = Harness.tempDir("sc-pipe")
        let t = try await TmuxSession.started(cols: 100, rows: 30)
        defer { t.kill() }
        try t.type("'\(ff)' -v error -nostdin -i '\(src)' -f yuv4mpegpipe - | '\(bin)' --source - --output '\(dir)/out' --events '\(dir)/ev.jsonl'; echo EXIT=$?")
        #expect(await t.waitUntil { eventLogContains(dir + "/ev.jsonl", "instructionsShown") }, "screen: \(t.dump())")
        try t.keys("Enter")
        #expect(await t.waitUntil { eventLogContains(dir + "/ev.jsonl", "cameraPermissionShown") }, "screen: \(t.dump())")
        try t.keys("Enter")
        #expect(await t.waitUntil { eventLogContains(dir + "/ev.jsonl", "cameraReady") }, "screen: \(t.dump())")
        try t.keys("s")
        #expect(await t.waitUntil(120) { eventLogContains(dir + "/ev.jsonl", "outputSaved") }, "screen: \(t.dump())")
        try t.keys("q")
        #expect(try await t.waitFor("EXIT=0"), "screen: \(t.dump())")
        #expect(FileManager.default.fileExists(atPath: dir + "/out/video.avi"))
    }

    /// A FIFO that sends a y4m header and one frame, then nothing (its writer stays open): the
    /// run is not frozen. `--timeout` fires on time, and SIGINT ends it with 130 at once,
    /// although the read never returns.
    @Test(.enabled(if: bin != nil, "needs the built binary"), arguments: ["timeout", "sigint"])
    func stalledFIFO(ending: String) async throws {
        let bin = try #require(Self.bin)
        let dir = Harness.tempDir("sc-fifo")
        let fifo = dir + "/stall.y4m"
        let writer = try stallingFIFO(fifo, sends: StallingWriter.headerAndOneFrame)
        defer { writer.terminate() }
        let app = Process()
        app.executableURL = URL(fileURLWithPath: bin)
        app.arguments = ["--source", fifo, "--renderer", "null", "--pace", "realtime", "--no-instructions", "--camera-consent",
                         "--no-start-button", "--output", dir + "/out", "--events", dir + "/ev.jsonl"]
            + (ending == "timeout" ? ["--timeout", "2"] : [])
        let err = Pipe()
        app.standardError = err
        app.standardOutput = FileHandle.nullDevice
        let started = Date()
        try app.run()
        if ending == "sigint" {
            // Once the one frame arrived (the capture screen is up), interrupt the stalled run.
            let seen = Date(timeIntervalSinceNow: 30)
            while Date() < seen && !eventLogContains(dir + "/ev.jsonl", "cameraReady") { try? await Task.sleep(nanoseconds: 20_000_000) }
            kill(app.processIdentifier, SIGINT)
        }
        let deadline = Date(timeIntervalSinceNow: 30)
        while app.isRunning && Date() < deadline { try? await Task.sleep(nanoseconds: 20_000_000) }
        let stillRunning = app.isRunning
        if stillRunning { app.terminate() }
        app.waitUntilExit()
        #expect(!stillRunning, "the run froze on a stalled source")
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        if ending == "timeout" {
            #expect(app.terminationStatus == 75, "\(text)")
            #expect(text.contains("timed out after 2 s"), "\(text)")
            // The timeout is the run's: it fired after about 2 s, not after the 60 s stall.
            #expect(Date().timeIntervalSince(started) < 20)
        } else {
            #expect(app.terminationStatus == 130, "\(text)")
        }
        #expect(!FileManager.default.fileExists(atPath: dir + "/out"), "no output folder left")
    }
}

/// Findings of the new-user trial of #14 and #19, end to end.
@Suite struct TrialFindingsTests {
    static let bin = Harness.binary
    static let clip = TestSupport.shared("media/approach.avi")

    /// `--output z` (a one-character folder name) records: it used to trap in Foundation.
    @Test(.enabled(if: bin != nil && clip != nil, "needs the built binary and ../shared/media/approach.avi"))
    func oneCharacterOutputFolder() throws {
        let dir = Harness.tempDir("sc-z")
        let r = try Harness.run(try #require(Self.bin), ["--source", try #require(Self.clip), "--renderer", "null", "--pace", "fast",
                                                         "--output", "z"], cwd: dir, timeout: 180)
        #expect(r.code == 0, "\(r.code) \(r.err)")
        #expect(FileManager.default.fileExists(atPath: dir + "/z/video.avi"))
    }

    /// The result screen names every file the folder holds, reference.jpg and manifest.json
    /// included (new-user trial of #11: they were missing from "Files:").
    @Test(.enabled(if: bin != nil && clip != nil, "needs the built binary and ../shared/media/approach.avi"))
    func resultScreenListsEveryFile() throws {
        let dir = Harness.tempDir("sc-files")
        let r = try Harness.run(try #require(Self.bin), ["--source", try #require(Self.clip), "--renderer", "plain", "--pace", "fast",
                                                         "--output", dir + "/out"], timeout: 180)
        #expect(r.code == 0, "\(r.err)")
        let listed = try #require(r.out.split(separator: "\n").last { $0.hasPrefix("Files: ") })
        let names = listed.dropFirst("Files: ".count).components(separatedBy: ", ")
        let inFolder = try FileManager.default.contentsOfDirectory(atPath: dir + "/out")
        #expect(Set(names) == Set(inFolder), "screen: \(listed), folder: \(inFolder)")
    }

    /// A headless `--pace fast` run on a pipe that stalls: once the source has been silent for
    /// a second of real time, virtual time follows real time, so `--timeout 6` fires after
    /// about 6 s (it took 28 s when virtual time crept in 5 ms steps).
    @Test(.enabled(if: bin != nil, "needs the built binary"))
    func fastPaceTimeoutOnAStall() throws {
        let dir = Harness.tempDir("sc-fifo-fast")
        let fifo = dir + "/stall.y4m"
        let writer = try stallingFIFO(fifo, sends: StallingWriter.headerAndOneFrame)
        defer { writer.terminate() }
        let started = Date()
        let r = try Harness.run(try #require(Self.bin), ["--source", fifo, "--renderer", "null", "--pace", "fast", "--timeout", "6",
                                                         "--output", dir + "/out"], timeout: 60)
        let took = Date().timeIntervalSince(started)
        #expect(r.code == 75 && r.err.contains("timed out after 6 s"), "\(r.code) \(r.err)")
        #expect(took < 18, "took \(took) s for a 6 s timeout")
    }
}

/// A FIFO whose writer never sends the y4m header, in a terminal: the permission screen, where
/// the camera opens once asked, says it is waiting and counts; `q` still ends the run at once.
@Suite(.serialized) struct OpeningStallTests {
    static let bin = Harness.binary

    @Test(.enabled(if: TmuxSession.tmux != nil && bin != nil, "needs tmux and the built binary"))
    func permissionScreenSaysItWaits() async throws {
        let bin = try #require(Self.bin)
        let dir = Harness.tempDir("sc-open-stall")
        let fifo = dir + "/late.y4m"
        let writer = try stallingFIFO(fifo, sends: StallingWriter.nothing)
        defer { writer.terminate() }
        let t = try await TmuxSession.started(cols: 80, rows: 24)
        defer { t.kill() }
        try t.type("'\(bin)' --source '\(fifo)' --no-instructions --output '\(dir)/out' --events '\(dir)/ev.jsonl'; echo EXIT=$?")
        #expect(await t.waitUntil { eventLogContains(dir + "/ev.jsonl", "cameraPermissionShown") }, "screen: \(t.dump())")
        try t.keys("Enter")
        // A file source is "the video", not "the camera" (issue #18).
        #expect(try await t.waitFor("Waiting for the video", limit: 30), "screen: \(t.dump())")
        try t.keys("q")
        #expect(try await t.waitFor("EXIT=130", limit: 10), "screen: \(t.dump())")
    }
}
