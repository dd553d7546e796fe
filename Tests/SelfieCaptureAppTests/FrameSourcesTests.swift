import Foundation
import Testing
import TestSupport
import Camera
import FakeV4L2
@testable import SelfieCaptureApp
import Media

@Suite struct FrameSourcesTests {
    @Test func kinds() {
        #expect(FrameSources.kind(of: "/dev/video0") == .camera)
        #expect(FrameSources.kind(of: "clip.AVI") == .avi)
        #expect(FrameSources.kind(of: "a.mjpeg") == .mjpegStream && FrameSources.kind(of: "a.mjpg") == .mjpegStream)
        #expect(FrameSources.kind(of: "a.y4m") == .y4m && FrameSources.kind(of: "-") == .y4m)
        #expect(FrameSources.kind(of: "demo") == .demo)
        #expect(FrameSources.kind(of: "a.mp4") == nil)
    }

    /// Named errors with the exit codes the app uses.
    @Test func errors() {
        #expect(throws: MediaError.unsupportedSource("a.mp4")) { try FrameSources.open(spec: "a.mp4") }
        #expect(throws: MediaError.fileMissing(path: "/nonexistent/a.avi")) { try FrameSources.open(spec: "/nonexistent/a.avi") }
        #expect(throws: MediaError.demoPhotoMissing) { try FrameSources.open(spec: "demo") }
        let fake = FakeWebcam()
        #expect(throws: CameraError.notFound(path: "/dev/video7")) {
            try FrameSources.open(spec: "/dev/video7", options: SourceOptions(camera: CameraOptions(system: fake)))
        }
    }

    static let approach = TestSupport.shared("media/approach.avi")

    @Test(.enabled(if: approach != nil, "../shared/media/approach.avi absent"))
    func opensFilesAndDemo() throws {
        let avi = try FrameSources.open(spec: Self.approach!)
        #expect(avi.info.kind == .avi && avi.info.deliversJPEG)
        let looped = try FrameSources.open(spec: Self.approach!, options: SourceOptions(loop: true))
        #expect(looped is LoopingSource)
        let demo = try FrameSources.open(spec: "demo", options: SourceOptions(demoPhoto: { Image(width: 8, height: 8, layout: .rgb, fill: 9) }))
        #expect(demo.info.kind == .demo && demo.info.width == 640 && demo.info.fps == 30)
    }

    /// The `devices` report: formats by FourCC, sizes with rates; none → says so.
    @Test func devicesReport() {
        let fake = FakeWebcam()
        fake.formats = [.init(fourcc: .mjpeg, sizes: [(640, 480, [30, 15]), (1280, 720, [30])])]
        let text = V4L2Devices.report(V4L2Devices.list(system: fake))
        #expect(text == """
        /dev/video0: Fake Webcam (driver uvcvideo)
          MJPG  MJPG
            640x480    30, 15 fps
            1280x720   30 fps

        """)
        #expect(V4L2Devices.report([]).hasPrefix("No V4L2 video devices found"))
        fake.failures = ["open": (13, 1, 1)]   // the 2nd open (EACCES)
        #expect(V4L2Devices.report(V4L2Devices.list(system: fake)).contains("permission denied (add your user to the 'video' group"))
    }
}

@Suite struct RealV4L2Tests {
    /// The real libv4l2 on a node that is not a V4L2 device: a named `unsupported` error (QUERYCAP
    /// ENOTTY), nothing left open.
    @Test func notAV4L2Node() {
        #expect(throws: CameraError.unsupported(path: "/dev/null", reason: "not a V4L2 device")) {
            try V4L2CameraSource(path: "/dev/null")
        }
    }

    @Test func paceDefaults() {
        #expect(PaceMode.defaultMode(for: .camera, interactive: false) == .realtime)
        #expect(PaceMode.defaultMode(for: .demo, interactive: false) == .realtime)
        #expect(PaceMode.defaultMode(for: .avi, interactive: false) == .fast)
        #expect(PaceMode.defaultMode(for: .y4m, interactive: true) == .realtime)
    }
}
