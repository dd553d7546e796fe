import Camera
import Localization
import Media
#if canImport(Glibc)
import Glibc
#endif

extension AppError {
    /// `--source SPEC` names nothing the app reads (usage, 64). The message lists what it reads
    /// and, for a file such as `clip.mp4`, the ffmpeg pipe that reads it (issue #29), with the
    /// flags that keep ffmpeg off the screen: `-v error -nostats` (no banner, no progress),
    /// `-nostdin` (the keys stay the app's), `-an` (no audio to convert).
    public static func unsupportedSource(_ spec: String) -> AppError {
        var expects = "/dev/videoN, a .avi, .mjpeg or .y4m file, - (y4m on stdin) or demo"
        if spec != "-", !spec.hasPrefix("/dev/") {
            expects += "; to read another video, pipe it through ffmpeg: " + pipeCommand(for: spec)
        }
        return .invalidValue(option: "--source", value: spec, expects: expects)
    }

    /// `ffmpeg -v error -nostats -nostdin -i 'FILE' -an -f yuv4mpegpipe - | selfie-capture --source -`,
    /// FILE quoted for a POSIX shell.
    static func pipeCommand(for file: String) -> String {
        let quoted = "'" + file.replacingOccurrences(of: "'", with: "'\\''") + "'"
        return "ffmpeg -v error -nostats -nostdin -i \(quoted) -an -f yuv4mpegpipe - | selfie-capture --source -"
    }

    /// Maps media and camera errors to the app's errors (and so to exit codes, via
    /// `ErrorReport`): missing file/device → 66, malformed video → 65, camera busy or gone → 69,
    /// cannot create output → 73, source ended early → 75, camera permission → 77, video encoder
    /// unavailable → 78.
    /// Returns nil for errors that are not from Media/Camera.
    public static func media(_ error: Error) -> AppError? {
        func reason(_ e: Int32) -> String { String(cString: strerror(e)) }
        if let e = error as? MediaError {
            switch e {
            case .fileMissing(let p): return .inputMissing(path: p)
            case .unreadable(let p, let err): return err == ENOENT ? .inputMissing(path: p) : .unreadable(path: p, reason: reason(err))
            case .malformed(let p, let r): return .badData("\(p): error: \(r)")
            case .unsupportedSource(let s):
                return .unsupportedSource(s)
            case .demoPhotoMissing: return .demoPhotoMissing(searched: ResourceLocator.locate(inputs: .current()).searchedDemoPhoto)
            case .sourceEnded(let s):
                // A pipe cannot be replayed (--loop refuses `-`): suggest what can help instead.
                return .timedOut(s == "-" ? "standard input ended before the capture completed (send a longer video, or press s sooner)"
                                          : "\(s) ended before the capture completed (use --loop to repeat it)")
            case .cannotCreateOutput(let p, let r): return .cannotCreateOutput(path: p, reason: r)
            case .writeFailed(let p, let err): return .cannotCreateOutput(path: p, reason: reason(err))
            case .encoderUnavailable(let name, let r): return .encoderUnavailable(encoder: name, reason: r)
            case .libraryMissing(let lib, let r):
                return .encoderUnavailable(encoder: MP4Writer.defaultEncoder, reason: "cannot load FFmpeg's \(lib): \(r)")
            }
        }
        if let e = error as? CameraError {
            switch e {
            case .notFound(let p): return .cameraMissing(path: p)
            case .busy(let p): return .cameraUnavailable("camera \(p) is in use by another program (close it; 'fuser \(p)' shows which)")
            case .permissionDenied(let p): return .cameraPermissionDenied(path: p)
            case .unsupported(let p, let r): return .cameraUnavailable("\(p): \(r)")
            case .disconnected(let p): return .cameraUnavailable("camera \(p) was disconnected")
            case .timeout(let p, let ms): return .cameraUnavailable("camera \(p) sent no frame for \(ms) ms")
            case .noFrames(let p, let ms):
                return .cameraUnavailable("camera \(p) sent no frame for \(ms / 1000) s, even after restarting its stream; unplug and replug it, or check `selfie-capture devices`")
            case .system(let p, let v):
                let call: String
                switch v {
                case .open: call = "open"
                case .ioctl(let name, _): call = name
                case .mmap: call = "mmap"
                case .poll: call = "poll"
                case .notACaptureDevice: call = "VIDIOC_QUERYCAP"
                }
                return .cameraUnavailable("\(p): \(call) failed: \(v.errno.map(reason) ?? "not a capture device")")
            }
        }
        if let e = error as? JPEGError { return .badData("\(ErrorReport.program): bad JPEG data: \(e)") }
        return nil
    }
}
