import Camera
@testable import SelfieCaptureApp
import Testing

/// When a face too small in pixels is told to choose a higher --quality (issue #11): only when
/// the camera lists a taller frame size than the one granted.
@Suite struct QualityRuntimeTests {
    @Test func cameraOffersTallerFrames() {
        let formats = [FormatModes(fourcc: .mjpeg, description: "Motion-JPEG",
                                   sizes: [SizeModes(size: FrameSize(width: 640, height: 480), fps: [30]),
                                           SizeModes(size: FrameSize(width: 1280, height: 720), fps: [30])]),
                       FormatModes(fourcc: .yuyv, description: "YUYV",
                                   sizes: [SizeModes(size: FrameSize(width: 320, height: 240), fps: [30])])]
        #expect(SourceSession.cameraOffersTaller(formats, than: FrameSize(width: 640, height: 480)))
        #expect(!SourceSession.cameraOffersTaller(formats, than: FrameSize(width: 1280, height: 720)))
        #expect(!SourceSession.cameraOffersTaller([], than: FrameSize(width: 320, height: 240)))
    }
}
