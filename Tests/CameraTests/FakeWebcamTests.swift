import CaptureModel
import Foundation
import Testing
import TestSupport
import CV4L2
@testable import Camera
import FakeV4L2
import Media
import Glibc

/// Camera behaviour against the scripted fake webcam (no device needed).
@Suite struct FakeWebcamTests {
    /// MJPEG is preferred over YUYV at the same size; ≥ 4 buffers requested; 30 fps chosen;
    /// the device is opened non-blocking (V4L-01).
    @Test("V4L-01: MJPEG over YUYV at HD, 4 buffers, 30 fps, opened non-blocking") func mjpegPreferred() throws {
        let fake = FakeWebcams.webcam()
        let cam = try V4L2CameraSource(path: "/dev/video0", options: FakeWebcams.options(fake))
        #expect(fake.requested! == (FourCC.mjpeg, 1280, 720))
        #expect(cam.granted.fourcc == .mjpeg && cam.granted.size == FrameSize(width: 1280, height: 720) && cam.granted.fps == 30)
        #expect(cam.info.deliversJPEG && cam.info.kind == .camera && cam.info.fps == 30)
        #expect(fake.requestedBuffers == 4 && cam.bufferCount == 4 && fake.streaming)
        #expect(fake.openFlags & O_NONBLOCK != 0)
        cam.close()
        #expect(fake.openFDs.isEmpty && fake.mapped.isEmpty && !fake.streaming)
    }

    /// V4L-07: the driver silently changes the size: the granted size is used.
    @Test("V4L-07: the size and format the driver grants are used") func driverChangesSize() throws {
        let fake = FakeWebcams.webcam()
        fake.adjust = { f, _, _ in (f, 960, 720) }
        let cam = try V4L2CameraSource(path: "/dev/video0", options: FakeWebcams.options(fake))
        #expect(cam.info.width == 960 && cam.info.height == 720 && cam.granted.size == FrameSize(width: 960, height: 720))
        // ...and a driver that swaps in YUYV is honoured too.
        let fake2 = FakeWebcams.webcam()
        fake2.adjust = { _, w, h in (.yuyv, w, h) }
        let cam2 = try V4L2CameraSource(path: "/dev/video0", options: FakeWebcams.options(fake2))
        #expect(cam2.granted.fourcc == .yuyv && !cam2.info.deliversJPEG)
    }

    /// Quality list fallback: fhd missing in YUYV-only → hd; nothing matching → closest height.
    @Test func qualityFallback() throws {
        let fake = FakeWebcam()
        fake.formats = [.init(fourcc: .yuyv, sizes: [(320, 240, [30]), (640, 480, [30]), (1280, 720, [10])])]
        let cam = try V4L2CameraSource(path: "/dev/video0", options: FakeWebcams.options(fake, [.fhd, .hd, .sd]))
        #expect(cam.granted.size == FrameSize(width: 1280, height: 720) && cam.granted.reason == "quality hd" && cam.granted.fps == 10)
        cam.close()
        let c = FormatNegotiation.choose(from: [FormatModes(fourcc: .yuyv, description: "", sizes: [
            SizeModes(size: FrameSize(width: 320, height: 240), fps: [30]), SizeModes(size: FrameSize(width: 800, height: 600), fps: [20])])],
                                         qualities: [.uhd, .hd])
        #expect(c?.size == FrameSize(width: 800, height: 600) && c?.reason == "fallback")
    }

    /// targetResolution hd720 (720×1280 portrait) matches the landscape 1280×720 mode.
    @Test func targetResolution() throws {
        let fake = FakeWebcams.webcam()
        let cam = try V4L2CameraSource(path: "/dev/video0", options: FakeWebcams.options(fake, [.sd], target: .hd720))
        #expect(cam.granted.size == FrameSize(width: 1280, height: 720) && cam.granted.reason == "target hd720")
    }

    @Test func lowestHighestAndUnsupported() {
        let f = FakeWebcams.webcam().formats.map { FormatModes(fourcc: $0.fourcc, description: "", sizes: $0.sizes.map {
            SizeModes(size: FrameSize(width: $0.w, height: $0.h), fps: $0.fps.map(Double.init)) }) }
        #expect(FormatNegotiation.choose(from: f, qualities: [.lowest])?.size == FrameSize(width: 640, height: 480))
        #expect(FormatNegotiation.choose(from: f, qualities: [.highest])?.size == FrameSize(width: 1920, height: 1080))
        #expect(FormatNegotiation.choose(from: [FormatModes(fourcc: FourCC("H264"), description: "", sizes: [
            SizeModes(size: FrameSize(width: 640, height: 480), fps: [30])])], qualities: [.sd]) == nil)
    }

    /// Streaming MJPEG: frames decode at the granted size, keep the JPEG bytes (junk after EOI
    /// trimmed, JPG-11), timestamps from the buffer timestamps; poll uses the 2 s timeout.
    @Test func streamsMJPEG() throws {
        let fake = FakeWebcams.webcam()
        fake.formats = [.init(fourcc: .mjpeg, sizes: [(64, 48, [30])])]
        var frames = try FakeWebcams.mjpegFrames(3)
        let clean = frames[1].bytes
        frames[1].bytes += [0, 0, 0, 0x55]
        fake.frames = frames
        let cam = try V4L2CameraSource(path: "/dev/video0", options: FakeWebcams.options(fake, [.lowest]))
        var got: [VideoFrame] = []
        while got.count < 3, let f = try cam.nextFrame() { got.append(f) }
        #expect(got.map(\.timestampMs) == [0, 33, 66])
        #expect(got.map(\.index) == [0, 1, 2])
        #expect(got[1].jpeg == clean && got[0].width == 64)
        #expect(fake.lastPollTimeout == 2000)
        #expect(cam.stats.skippedFrames == 0)
    }

    /// Unplug mid-stream (ENODEV from DQBUF): `disconnected`, and teardown tolerates ENODEV on
    /// STREAMOFF, munmap and close (V4L-02), releasing everything.
    @Test("V4L-02/V4L-04: unplug mid-stream is terminal; full teardown tolerating ENODEV") func unplugMidStream() throws {
        let fake = FakeWebcams.webcam()
        fake.formats = [.init(fourcc: .mjpeg, sizes: [(64, 48, [30])])]
        fake.frames = try FakeWebcams.mjpegFrames(5)
        fake.failures = ["VIDIOC_DQBUF": (ENODEV, 2, 100), "VIDIOC_STREAMOFF": (ENODEV, 0, 1), "munmap": (ENODEV, 0, 10)]
        let cam = try V4L2CameraSource(path: "/dev/video0", options: FakeWebcams.options(fake, [.lowest]))
        #expect(try cam.nextFrame() != nil)
        #expect(try cam.nextFrame() != nil)
        #expect(throws: CameraError.disconnected(path: "/dev/video0")) { try cam.nextFrame() }
        cam.close()
        #expect(fake.openFDs.isEmpty && fake.mapped.isEmpty && fake.unmappedCount == 4)
        #expect(CameraError.disconnected(path: "x").exitCodeHint == 69)
    }

    /// POLLERR/POLLHUP without data is an unplug too.
    @Test("V4L-01: POLLERR/POLLHUP without data is an unplug") func pollErrorIsDisconnect() throws {
        let fake = FakeWebcams.webcam()
        fake.polls = [.error(Int16(POLLERR))]
        let cam = try V4L2CameraSource(path: "/dev/video0", options: FakeWebcams.options(fake))
        #expect(throws: CameraError.disconnected(path: "/dev/video0")) { try cam.nextFrame() }
    }

    /// EBUSY at open or later (another program streams) → busy, exit 69; everything released.
    @Test("V4L-06: EBUSY anywhere is 'busy', exit 69, everything released",
          arguments: ["open", "VIDIOC_S_FMT", "VIDIOC_REQBUFS", "VIDIOC_STREAMON"])
    func busy(call: String) throws {
        let fake = FakeWebcams.webcam()
        fake.failures = [call: (EBUSY, 0, 1)]
        #expect(throws: CameraError.busy(path: "/dev/video0")) { try V4L2CameraSource(path: "/dev/video0", options: FakeWebcams.options(fake)) }
        #expect(fake.openFDs.isEmpty && fake.mapped.isEmpty)
        #expect(CameraError.busy(path: "/dev/video0").exitCodeHint == 69)
    }

    /// EACCES → permission denied, exit 77; a missing node → notFound, exit 66.
    @Test func permissionAndMissing() throws {
        let fake = FakeWebcams.webcam()
        fake.failures = ["open": (EACCES, 0, 1)]
        #expect(throws: CameraError.permissionDenied(path: "/dev/video0")) { try V4L2CameraSource(path: "/dev/video0", options: FakeWebcams.options(fake)) }
        #expect(CameraError.permissionDenied(path: "").exitCodeHint == 77)
        #expect(throws: CameraError.notFound(path: "/dev/video9")) { try V4L2CameraSource(path: "/dev/video9", options: FakeWebcams.options(fake)) }
        #expect(CameraError.notFound(path: "").exitCodeHint == 66)
        // Not a capture device (e.g. a metadata node).
        let meta = FakeWebcams.webcam()
        meta.capabilities = CV4L2_CAP_STREAMING
        #expect(throws: CameraError.unsupported(path: "/dev/video0", reason: "not a video capture device with streaming I/O")) {
            try V4L2CameraSource(path: "/dev/video0", options: FakeWebcams.options(meta))
        }
    }

    /// Poll timeout (V4L-13) is a recoverable `timeout`: the next call gets the frame.
    @Test("V4L-13: a poll timeout is recoverable") func pollTimeoutRecoverable() throws {
        let fake = FakeWebcams.webcam()
        fake.formats = [.init(fourcc: .mjpeg, sizes: [(64, 48, [30])])]
        fake.frames = try FakeWebcams.mjpegFrames(1)
        fake.polls = [.timeout]
        let cam = try V4L2CameraSource(path: "/dev/video0", options: FakeWebcams.options(fake, [.lowest]))
        #expect(throws: CameraError.timeout(path: "/dev/video0", ms: 2000)) { try cam.nextFrame() }
        #expect(try cam.nextFrame() != nil)
    }

    /// Short YUYV buffers (bytesused < width·height·2) and empty ones are skipped and counted;
    /// good frames around them come through with the right colour (Y=235 → white).
    @Test func shortBuffers() throws {
        let fake = FakeWebcams.webcam()
        fake.formats = [.init(fourcc: .yuyv, sizes: [(8, 4, [30])])]
        let good = FakeWebcams.yuyvFrame(w: 8, h: 4)
        fake.frames = [(good, nil), (Array(good.prefix(20)), nil), (good, 0), (good, nil)]
        let cam = try V4L2CameraSource(path: "/dev/video0", options: FakeWebcams.options(fake, [.lowest]))
        let a = try #require(try cam.nextFrame()), b = try #require(try cam.nextFrame())
        #expect(a.index == 0 && b.index == 1 && a.jpeg == nil)
        #expect(Array(b.rgb.pixels.prefix(3)) == [255, 255, 255])
        #expect(cam.stats.skippedFrames == 2)
    }

    /// V4L-14: a lone EIO from DQBUF skips that frame (counted); repeated EIO means gone.
    @Test("V4L-14: a lone DQBUF EIO skips the frame") func eio() throws {
        let fake = FakeWebcams.webcam()
        fake.formats = [.init(fourcc: .yuyv, sizes: [(8, 4, [30])])]
        fake.frames = Array(repeating: (FakeWebcams.yuyvFrame(w: 8, h: 4), nil), count: 5)
        fake.failures = ["VIDIOC_DQBUF": (EIO, 1, 1)]
        let cam = try V4L2CameraSource(path: "/dev/video0", options: FakeWebcams.options(fake, [.lowest]))
        #expect(try cam.nextFrame() != nil && cam.nextFrame() != nil)
        #expect(cam.stats.skippedFrames == 1)
        fake.failures = ["VIDIOC_DQBUF": (EIO, 0, 100)]
        #expect(throws: CameraError.disconnected(path: "/dev/video0")) { try cam.nextFrame() }
    }

    /// V4L-08: fewer buffers than asked are accepted; none is an error.
    @Test("V4L-08: fewer buffers than asked are accepted; none is an error") func fewerBuffers() throws {
        let fake = FakeWebcams.webcam()
        fake.grantedBuffers = 2
        let cam = try V4L2CameraSource(path: "/dev/video0", options: FakeWebcams.options(fake))
        #expect(cam.bufferCount == 2)
        let none = FakeWebcams.webcam()
        none.grantedBuffers = 0
        #expect(throws: CameraError.unsupported(path: "/dev/video0", reason: "driver granted no capture buffers")) {
            try V4L2CameraSource(path: "/dev/video0", options: FakeWebcams.options(none))
        }
        #expect(none.openFDs.isEmpty)
    }

    static let approach = TestSupport.shared("media/approach.avi")

    /// Frames from a file: the fake webcam plays the JPEG chunks of a shared clip as MJPEG at
    /// 640×480; what comes out equals what the AVI reader decodes.
    @Test(.enabled(if: approach != nil, "../shared/media/approach.avi absent"))
    func framesFromFile() throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.approach!)))
        let idx = try AVIParser.parse(bytes)
        let fake = FakeWebcams.webcam()
        fake.formats = fake.formats.filter { $0.fourcc == .mjpeg }   // the payloads are JPEG
        fake.frames = idx.chunks.prefix(3).map { (Array(bytes[$0.range]), nil) }
        let cam = try V4L2CameraSource(path: "/dev/video0", options: FakeWebcams.options(fake, [.sd]))
        let avi = try AVIFileSource(path: Self.approach!)
        for _ in 0..<3 {
            let a = try #require(try cam.nextFrame()), b = try #require(try avi.nextFrame())
            #expect(a.rgb == b.rgb && a.jpeg == b.jpeg)
        }
    }

    /// `devices` data: driver, card, formats with sizes and rates.
    @Test func listDevices() {
        let fake = FakeWebcams.webcam()
        let list = V4L2Devices.list(system: fake)
        guard case .success(let d)? = list.first else { Issue.record("\(list)"); return }
        #expect(d.driver == "uvcvideo" && d.card == "Fake Webcam" && d.isCaptureDevice)
        #expect(d.formats.map(\.fourcc.description) == ["YUYV", "MJPG"])
        #expect(d.formats[1].sizes.map(\.size.description) == ["640x480", "1280x720", "1920x1080"])
        #expect(d.formats[0].sizes[0].fps == [30, 15])
        #expect(fake.openFDs.isEmpty)
        #expect(V4L2Devices.firstCaptureDevice(system: fake) == "/dev/video0")
    }
}
