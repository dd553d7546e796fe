import CV4L2
import Camera
import FakeV4L2
import CaptureModel
import Foundation
import Synchronization
import Media
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Issue #14 "camera faults are recoverable where V4L2 says they are", through the fake device:
/// on the camera source, and at the runtime level (a whole headless capture from a fake camera).
@Suite struct CameraFaultTests {
    typealias T = FakeWebcams

    @Test("V4L-12: small sizes take YUYV when it streams at the same rate within USB 2.0's limit; large ones MJPEG")
    func yuyvAtSmallSizes() throws {
        let modes = { (yuyvFPS: [Int]) -> [FormatModes] in
            let f = FakeWebcam()
            f.formats = [.init(fourcc: .yuyv, sizes: [(640, 480, yuyvFPS), (1280, 720, [10])]),
                         .init(fourcc: .mjpeg, sizes: [(640, 480, [30]), (1280, 720, [30])])]
            return try! V4L2Devices.describe(V4L2Device(path: "/dev/video0", system: f)).formats
        }
        let sd = try #require(FormatNegotiation.choose(from: modes([30, 15]), qualities: [.sd]))
        #expect(sd.fourcc == .yuyv && sd.size == FrameSize(width: 640, height: 480) && sd.fps == 30)
        // YUYV only at 15 fps there: MJPEG's 30 fps is worth it.
        let slow = try #require(FormatNegotiation.choose(from: modes([15]), qualities: [.sd]))
        #expect(slow.fourcc == .mjpeg && slow.fps == 30)
        // 1280×720 YUYV at 30 fps would be 55 MB/s: MJPEG.
        let hd = try #require(FormatNegotiation.choose(from: modes([30]), qualities: [.hd]))
        #expect(hd.fourcc == .mjpeg && hd.size == FrameSize(width: 1280, height: 720))
        #expect(Double(640 * 480 * 2 * 30) <= FormatNegotiation.yuyvBytesPerSecondLimit)
        #expect(Double(1280 * 720 * 2 * 30) > FormatNegotiation.yuyvBytesPerSecondLimit)
    }

    @Test("V4L-13: poll timeouts are recoverable; every 2nd in a row restarts streaming; a stream that stays dead is reported")
    func pollTimeoutsRestartStreaming() throws {
        let fake = T.webcam()
        fake.formats = [.init(fourcc: .mjpeg, sizes: [(64, 48, [30])])]
        fake.frames = try T.mjpegFrames(2)
        fake.polls = [.timeout, .timeout]
        let cam = try V4L2CameraSource(path: "/dev/video0", options: T.options(fake, [.lowest]))
        #expect(throws: CameraError.timeout(path: "/dev/video0", ms: 2000)) { try cam.nextFrame() }
        #expect(fake.calls["VIDIOC_STREAMOFF", default: 0] == 0)
        #expect(throws: CameraError.timeout(path: "/dev/video0", ms: 2000)) { try cam.nextFrame() }
        // The second timeout in a row restarted streaming: STREAMOFF, every buffer queued again, STREAMON.
        #expect(fake.calls["VIDIOC_STREAMOFF"] == 1 && fake.calls["VIDIOC_STREAMON"] == 2 && fake.streaming)
        #expect(fake.calls["VIDIOC_QBUF"] == 2 * cam.bufferCount)
        #expect(try cam.nextFrame() != nil && cam.streamRestarts == 1)
        // A stream that stays silent: 2 restarts, then noFrames (6 timeouts × 2 s).
        let dead = T.webcam()
        dead.formats = fake.formats
        let cam2 = try V4L2CameraSource(path: "/dev/video0", options: T.options(dead, [.lowest]))
        var timeouts = 0
        var last: Error?
        for _ in 0..<10 {
            do { _ = try cam2.nextFrame() } catch CameraError.timeout { timeouts += 1 } catch { last = error; break }
        }
        #expect(timeouts == 5 && cam2.streamRestarts == 2)
        #expect(last as? CameraError == .noFrames(path: "/dev/video0", ms: 12_000))
    }

    @Test("V4L-14: a run of DQBUF EIO restarts streaming instead of ending the capture; only a run that survives the restarts does")
    func eioRestartsStreaming() throws {
        let fake = T.webcam()
        fake.formats = [.init(fourcc: .yuyv, sizes: [(8, 4, [30])])]
        fake.frames = Array(repeating: (T.yuyvFrame(w: 8, h: 4), nil), count: 5)
        fake.failures = ["VIDIOC_DQBUF": (EIO, 1, 3)]
        let cam = try V4L2CameraSource(path: "/dev/video0", options: T.options(fake, [.lowest]))
        #expect(try cam.nextFrame() != nil)
        #expect(try cam.nextFrame() != nil)   // 3 EIO, a restart, then the frame
        #expect(cam.streamRestarts == 1 && cam.stats.skipped[.deviceError] == 3)
        let bad = T.webcam()
        bad.formats = fake.formats
        bad.frames = fake.frames
        bad.failures = ["VIDIOC_DQBUF": (EIO, 0, 1000)]
        let cam2 = try V4L2CameraSource(path: "/dev/video0", options: T.options(bad, [.lowest]))
        #expect(throws: CameraError.disconnected(path: "/dev/video0")) { try cam2.nextFrame() }
        #expect(cam2.streamRestarts == 2)
    }

    @Test("V4L-07: NV12, YU12 and GREY rows are read bytesperline apart", arguments: [FourCC.nv12, .i420, .grey])
    func bytesPerLinePadding(fourcc: FourCC) throws {
        let w = 8, h = 4, pad = 8
        // A picture with a left-to-right luma ramp and constant chroma, written with and without padding.
        func buffer(_ stride: Int) -> [UInt8] {
            let cw = w / 2, ch = h / 2
            var b: [UInt8] = []
            for _ in 0..<h { b += (0..<w).map { UInt8(40 + 20 * $0) } + [UInt8](repeating: 0xEE, count: stride - w) }
            switch fourcc {
            case .nv12: for _ in 0..<ch { b += (0..<cw).flatMap { _ in [UInt8(100), UInt8(150)] } + [UInt8](repeating: 0xEE, count: stride - w) }
            case .i420:
                for v: UInt8 in [100, 150] { for _ in 0..<ch { b += [UInt8](repeating: v, count: cw) + [UInt8](repeating: 0xEE, count: stride / 2 - cw) } }
            default: break
            }
            return b
        }
        var out: [Image] = []
        for p in [0, pad] {
            let fake = T.webcam()
            fake.formats = [.init(fourcc: fourcc, sizes: [(w, h, [30])])]
            fake.padding = p
            fake.frames = [(buffer(w + p), nil)]
            let cam = try V4L2CameraSource(path: "/dev/video0", options: T.options(fake, [.lowest]))
            #expect(cam.bytesPerLine == w + p)
            out.append(try #require(try cam.nextFrame()).rgb)
        }
        #expect(out[0] == out[1], "padded rows must give the same picture")
        // ...the picture the tight buffer converts to directly (the padding, 0xEE, never shows).
        let tight = buffer(w)[...]
        let direct: Image? = switch fourcc {
        case .nv12: PixelConvert.nv12ToRGB(tight, width: w, height: h)
        case .i420: PixelConvert.i420ToRGB(tight, width: w, height: h)
        default: PixelConvert.rgb(Image(width: w, height: h, layout: .gray, pixels: Array(tight)))
        }
        #expect(out[1] == direct)
    }

    @Test("V4L-08: one buffer granted is accepted with a warning")
    func oneBufferWarns() throws {
        let fake = T.webcam()
        fake.grantedBuffers = 1
        let cam = try V4L2CameraSource(path: "/dev/video0", options: T.options(fake))
        #expect(cam.bufferCount == 1)
        #expect(cam.warnings.count == 1 && cam.warnings[0].contains("granted 1 capture buffer of 4"))
        let four = try V4L2CameraSource(path: "/dev/video0", options: T.options(T.webcam()))
        #expect(four.warnings.isEmpty)
    }
}

/// The remaining V4L rows, named by id.
@Suite struct CameraRowTests {
    typealias T = FakeWebcams

    @Test("V4L-09: the format is set before any buffer is requested, and never while streaming (restarts included)")
    func formatBeforeBuffers() throws {
        let fake = T.webcam()
        fake.formats = [.init(fourcc: .mjpeg, sizes: [(64, 48, [30])])]
        fake.frames = try T.mjpegFrames(3)
        fake.polls = [.timeout, .timeout]
        let cam = try V4L2CameraSource(path: "/dev/video0", options: T.options(fake, [.lowest]))
        for _ in 0..<2 { _ = try? cam.nextFrame() }   // two timeouts: a restart
        _ = try cam.nextFrame()
        cam.close()
        let log = fake.log
        let sFmt = try #require(log.firstIndex(of: "VIDIOC_S_FMT"))
        #expect(log.filter { $0 == "VIDIOC_S_FMT" }.count == 1)
        #expect(sFmt < (log.firstIndex(of: "VIDIOC_REQBUFS") ?? -1) && sFmt < (log.firstIndex(of: "VIDIOC_STREAMON") ?? -1))
        #expect(cam.streamRestarts == 1)
    }

    @Test("V4L-03: ENODEV ends the session at once: no retry loop (one DQBUF after the unplug), exit 69")
    func enodevIsTerminal() throws {
        let fake = T.webcam()
        fake.formats = [.init(fourcc: .mjpeg, sizes: [(64, 48, [30])])]
        fake.frames = try T.mjpegFrames(20)
        fake.failures = ["VIDIOC_DQBUF": (ENODEV, 3, 1000)]
        let cam = try V4L2CameraSource(path: "/dev/video0", options: T.options(fake, [.lowest]))
        for _ in 0..<3 { #expect(try cam.nextFrame() != nil) }
        #expect(throws: CameraError.disconnected(path: "/dev/video0")) { try cam.nextFrame() }
        #expect(fake.calls["VIDIOC_DQBUF"] == 4)
        #expect(CameraError.disconnected(path: "/dev/video0").exitCodeHint == 69)
    }
}
