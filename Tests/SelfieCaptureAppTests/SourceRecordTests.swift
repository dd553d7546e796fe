import Evidence
import Foundation
import Testing
import TestSupport
import Camera
import FakeV4L2
@testable import SelfieCaptureApp
import Media

/// The manifest's `source` (issue #12): a camera is described from VIDIOC_QUERYCAP and the
/// negotiation, through the fake device; files, pipes and the demo are flagged as not live.
@Suite struct SourceRecordTests {
    /// Driver, card and bus info as QUERYCAP reported them, the FourCC and size the driver
    /// granted (not the ones asked for), the negotiated and the measured rate, `live: true`.
    @Test func cameraFieldsComeFromTheDevice() throws {
        let fake = FakeWebcams.webcam()
        fake.driver = "uvcvideo"; fake.card = "Integrated Camera: Integrated C"; fake.busInfo = "usb-0000:00:14.0-8"
        fake.formats = [.init(fourcc: .mjpeg, sizes: [(64, 48, [30])])]
        fake.frames = try FakeWebcams.mjpegFrames(10)
        let cam = try V4L2CameraSource(path: "/dev/video0", options: FakeWebcams.options(fake, [.lowest]))
        defer { cam.close() }
        #expect(cam.measuredFPS == nil, "no frame yet")
        for _ in 0..<10 { _ = try #require(try cam.nextFrame()) }
        let r = FrameSources.sourceRecord(of: cam, spec: "/dev/video0")
        #expect(r.kind == .camera && r.live && r.spec == "/dev/video0")
        #expect(r.width == 64 && r.height == 48 && r.fps == 30)
        let c = try #require(r.camera)
        #expect(c.driver == "uvcvideo" && c.card == "Integrated Camera: Integrated C" && c.busInfo == "usb-0000:00:14.0-8")
        #expect(c.fourcc == "MJPG")
        // The fake stamps frame n at n × 33 333 µs: 30.00 fps measured over 10 frames.
        #expect(c.measuredFps == 30.0)

        let json = String(decoding: try JSONEncoder().encode(r), as: UTF8.self)
        #expect(json.contains("\"live\":true") && json.contains("\"busInfo\":\"usb-0000:00:14.0-8\""))
    }

    /// A driver that swaps the format: the record names what was granted (YUYV), and a camera
    /// that delivered one frame has no measured rate yet.
    @Test func grantedFormatNotTheRequest() throws {
        let fake = FakeWebcams.webcam()
        fake.adjust = { _, w, h in (.yuyv, w, h) }
        fake.formats = [.init(fourcc: .mjpeg, sizes: [(64, 48, [15])])]
        fake.frames = [(FakeWebcams.yuyvFrame(w: 64, h: 48), nil)]
        let cam = try V4L2CameraSource(path: "/dev/video0", options: FakeWebcams.options(fake, [.lowest]))
        defer { cam.close() }
        _ = try #require(try cam.nextFrame())
        let c = try #require(FrameSources.sourceRecord(of: cam, spec: "/dev/video0").camera)
        #expect(c.fourcc == "YUYV" && c.measuredFps == nil)
    }

    @Test func kindsInTheManifestsWords() {
        #expect(FrameSources.recordKind(.camera, spec: "/dev/video0") == .camera)
        #expect(FrameSources.recordKind(.demo, spec: "demo") == .demo)
        #expect(FrameSources.recordKind(.y4m, spec: "-") == .pipe)
        for (k, s) in [(SourceKind.y4m, "a.y4m"), (.avi, "a.avi"), (.mjpegStream, "a.mjpeg")] {
            #expect(FrameSources.recordKind(k, spec: s) == .file)
        }
    }

    @Test func demoIsNotLive() throws {
        let demo = try FrameSources.open(spec: "demo", options: SourceOptions(demoPhoto: { Image(width: 8, height: 8, layout: .rgb, fill: 9) }))
        let r = FrameSources.sourceRecord(of: demo, spec: "demo")
        #expect(r.kind == .demo && !r.live && r.camera == nil && r.width == 640 && r.fps == 30)
    }

    @Test(.enabled(if: TestSupport.shared("media/approach.avi") != nil, "../shared/media/approach.avi absent"))
    func fileIsNotLiveEvenLooped() throws {
        let path = try #require(TestSupport.shared("media/approach.avi"))
        let looped = try FrameSources.open(spec: path, options: SourceOptions(loop: true))
        let r = FrameSources.sourceRecord(of: looped, spec: path)
        #expect(r.kind == .file && !r.live && r.camera == nil && r.width == 640 && r.height == 480 && r.fps == 15)
    }
}
