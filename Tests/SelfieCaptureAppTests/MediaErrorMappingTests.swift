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
    ])
    func exitCodes(error: Error, code: ExitCode) throws {
        let app = try #require(AppError.media(error))
        #expect(ErrorReport.exitCode(for: app) == code)
        if let m = error as? MediaError { #expect(Int32(code.rawValue) == m.exitCodeHint) }
        if let c = error as? CameraError { #expect(Int32(code.rawValue) == c.exitCodeHint) }
    }

    @Test func busyMessage() throws {
        let m = ErrorReport.message(for: try #require(AppError.media(CameraError.busy(path: "/dev/video0"))))
        #expect(m == "selfie-capture: camera /dev/video0 is in use by another program (close it; 'fuser /dev/video0' shows which)")
    }
}
