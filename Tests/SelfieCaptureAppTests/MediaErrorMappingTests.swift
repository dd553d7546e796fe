import Testing
import Media
import Camera
@testable import SelfieCaptureApp

/// Media/camera errors map to the documented exit codes (DESIGN.md "Exit codes").
@Suite struct MediaErrorMappingTests {
    @Test(arguments: [
        (MediaError.fileMissing(path: "a.avi") as Error, ExitCode.noInput),
        (MediaError.malformed(path: "a.avi", reason: "x"), .dataError),
        (MediaError.unsupportedSource("a.mp4"), .usage),
        (MediaError.sourceEnded("a.avi"), .timedOut),
        (MediaError.cannotCreateOutput(path: "/x", reason: "y"), .cannotCreate),
        (CameraError.busy(path: "/dev/video0"), .unavailable),
        (CameraError.permissionDenied(path: "/dev/video0"), .permissionDenied),
        (CameraError.notFound(path: "/dev/video3"), .noInput),
        (CameraError.disconnected(path: "/dev/video0"), .unavailable),
        (MediaError.encoderUnavailable(encoder: "libx264", reason: "x"), .encoderUnavailable),
    ])
    func exitCodes(error: Error, code: ExitCode) throws {
        let app = try #require(AppError.media(error))
        #expect(ErrorReport.exitCode(for: app) == code)
        if let m = error as? MediaError { #expect(Int32(code.rawValue) == m.exitCodeHint) }
        if let c = error as? CameraError { #expect(Int32(code.rawValue) == c.exitCodeHint) }
    }

    /// An encoder that cannot open is named, with what to do, and exits 78 (EX_CONFIG).
    @Test func encoderMessage() throws {
        let e = try #require(AppError.media(MediaError.encoderUnavailable(encoder: "libx264", reason: "avcodec_open2: Invalid argument")))
        #expect(ErrorReport.exitCode(for: e).rawValue == 78)
        #expect(ErrorReport.message(for: e) == "selfie-capture: cannot open the video encoder 'libx264': avcodec_open2: Invalid argument\n"
            + "Install FFmpeg's libavcodec with libx264 (Debian: libavcodec59), or use '--video-format avi'.")
    }

    @Test func busyMessage() throws {
        let m = ErrorReport.message(for: try #require(AppError.media(CameraError.busy(path: "/dev/video0"))))
        #expect(m == "selfie-capture: camera /dev/video0 is in use by another program (close it; 'fuser /dev/video0' shows which)")
    }
}

/// `--video-format` reaches the setup: the writer's format and the words `videoRecordEnded` uses.
/// Standard input cannot be replayed, so its end does not suggest `--loop` (which refuses `-`).
@Suite struct SourceEndedMessageTests {
    @Test func stdinEndedSuggestsNoLoop() throws {
        let pipe = ErrorReport.message(for: try #require(AppError.media(MediaError.sourceEnded("-"))))
        #expect(pipe.contains("standard input ended before the capture completed") && !pipe.contains("--loop"), "\(pipe)")
        let file = ErrorReport.message(for: try #require(AppError.media(MediaError.sourceEnded("a.avi"))))
        #expect(file.contains("a.avi ended before the capture completed (use --loop to repeat it)"), "\(file)")
    }
}

@Suite struct VideoFormatSetupTests {
    static func setup(_ extra: [String]) throws -> CaptureSetup {
        let toks = (["--source", "demo", "--renderer", "null"] + extra).enumerated().map { ArgToken($0.element, index: $0.offset + 1) }
        let parsed = try ArgumentParser.parse(toks, spec: Commands.capture)
        return try CaptureSetup.make(parsed, environment: [:], console: Console(out: { _ in }, err: { _ in }))
    }

    @Test func defaultIsAVI() throws {
        let s = try Self.setup([])
        #expect(s.output.videoFormat == .avi && s.settings.videoContainer == "avi" && s.settings.videoCodec == "mjpeg")
    }

    /// mp4 opens the encoder in `make` (a missing libx264 would throw exit 78 here, before the
    /// screen) and names container and codec for the event.
    @Test func mp4() throws {
        let s = try Self.setup(["--video-format", "mp4"])
        #expect(s.output.videoFormat == .mp4 && s.settings.videoContainer == "mp4" && s.settings.videoCodec == "h264")
        #expect(s.output.videoFormat.fileName == "video.mp4")
    }
}
