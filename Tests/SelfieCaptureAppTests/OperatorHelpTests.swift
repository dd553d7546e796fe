import Testing
@testable import SelfieCaptureApp

/// Issue #29 "Operators": what the app says when it cannot read a file itself, and when the
/// process feeding `--source -` writes to the terminal it draws on.
@Suite struct OperatorHelpTests {
    /// `--source clip.mp4` is refused (64) with the ffmpeg pipe that reads it, the path quoted
    /// for a shell and the flags that keep ffmpeg off the screen.
    @Test func unsupportedFileSourceNamesThePipeCommand() {
        let r = run(["--source", "my clip's.mp4", "--renderer", "null"], handlers: CommandRegistry.handlers)
        #expect(r.code == 64, "\(r.err)")
        #expect(r.err.contains("ffmpeg -v error -nostats -nostdin -i 'my clip'\\''s.mp4' -an -f yuv4mpegpipe - | selfie-capture --source -"), "\(r.err)")
        // A device path that is not a camera gets no ffmpeg advice.
        if case .invalidValue(_, _, let expects) = AppError.unsupportedSource("/dev/null") { #expect(!expects.contains("ffmpeg")) }
    }

    /// The feeder's argv decides the warning: ffmpeg without `-nostats` or with its default log
    /// level is told the README's flags; one already quiet is left alone; another program is told
    /// to send its stderr elsewhere.
    @Test(arguments: [
        (["ffmpeg", "-nostdin", "-i", "clip.mp4", "-f", "yuv4mpegpipe", "-"], "add -v error -nostats"),
        (["/usr/bin/ffmpeg", "-v", "error", "-i", "c.mp4", "-f", "yuv4mpegpipe", "-"], "add -v error -nostats"),
        (["ffmpeg", "-v", "error", "-nostats", "-nostdin", "-i", "c.mp4", "-an", "-f", "yuv4mpegpipe", "-"], ""),
        (["ffmpeg", "-loglevel", "quiet", "-nostats", "-i", "c.mp4", "-f", "yuv4mpegpipe", "-"], ""),
        (["gst-launch-1.0", "videotestsrc"], "gst-launch-1.0 feeding --source - writes its stderr to this terminal"),
    ])
    func pipeFeederWarningFollowsItsFlags(argv: [String], says: String) {
        let w = PipeFeeder.advice(argv: argv)
        if says.isEmpty { #expect(w == nil) } else { #expect(w?.contains(says) == true, "\(w ?? "nil")") }
    }
}
