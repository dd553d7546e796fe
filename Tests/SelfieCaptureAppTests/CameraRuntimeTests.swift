import Camera
import FakeV4L2
import Foundation
import Synchronization
import Media
import SelfieCaptureApp
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Issue #14 at the runtime level: a whole headless capture from a fake camera (moved from
/// CameraTests, which tests the camera alone).
@Suite struct CameraRuntimeTests {
    typealias T = FakeWebcams

    static let approach = TestSupport.shared("media/approach.avi")
    static let model = FileManager.default.fileExists(atPath: "/usr/share/dlib/shape_predictor_68_face_landmarks.dat")

    /// A headless capture (`--pace fast --renderer null`) from a fake MJPEG camera playing a
    /// shared clip (each frame twice: the fake's timestamps are 30 fps, the clip 15), with poll
    /// timeouts and a run of EIO mid-stream: the runtime keeps going, the camera restarts its
    /// stream, and the capture records; the skips are counted in the `frameCounts` event.
    @Test("V4L-13/V4L-14 at the runtime: timeouts and EIO mid-stream, the capture still records",
          .enabled(if: approach != nil && model, "../shared/media/approach.avi or the dlib model is absent"))
    func runtimeRecordsThroughFaults() throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try #require(Self.approach))))
        let chunks = try AVIParser.parse(bytes).chunks.map { Array(bytes[$0.range]) }
        let fake = T.webcam()
        fake.formats = [.init(fourcc: .mjpeg, sizes: [(640, 480, [30])])]
        fake.frames = chunks.flatMap { [($0, nil), ($0, nil)] }
        fake.polls = Array(repeating: .ready, count: 20) + [.timeout, .timeout, .timeout]
        fake.failures = ["VIDIOC_DQBUF": (EIO, 40, 3)]
        let dir = NSTemporaryDirectory() + "sc-fakecam-\(UUID().uuidString.prefix(8))"
        let args = ["--source", "/dev/video0", "--pace", "fast", "--renderer", "null", "--output", dir + "/out",
                    "--events", dir + "/ev.jsonl"]
        let parsed = try ArgumentParser.parse(args.enumerated().map { ArgToken($0.element, index: $0.offset + 1) }, spec: Commands.capture)
        let errText = Mutex("")
        var setup = try CaptureSetup.make(parsed, environment: [:], console: Console(out: { _ in }, err: { s in errText.withLock { $0 += s } }))
        setup.source.cameraSystem = fake
        let code = try CaptureRuntime(setup: setup).run()
        #expect(code == .ok, "\(errText.withLock { $0 })")
        #expect(fake.calls["VIDIOC_STREAMOFF", default: 0] >= 2, "the timeouts and the EIO run each restarted streaming")
        #expect(fake.openFDs.isEmpty && !fake.streaming, "the device is released at the end")
        let events = (try String(contentsOfFile: dir + "/ev.jsonl", encoding: .utf8)).split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
        let counts = try #require(events.last { $0["event"] as? String == "frameCounts" })
        #expect(counts["skippedDeviceError"] as? Int == 3)
        #expect(FileManager.default.fileExists(atPath: dir + "/out/video.avi"))
        // V4L-12: the measured rate is recorded (the fake stamps frames 33.3 ms apart: 30 fps).
        let result = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/out/result.json"))) as? [String: Any])
        let fps = try #require((result["source"] as? [String: Any])?["measuredFps"] as? Double)
        #expect(abs(fps - 30) < 0.5, "\(fps)")
    }

    /// The runtime with a YUYV-capable camera that pads its rows and grants one buffer: YUYV
    /// is negotiated at 640×480 (V4L-12), the padded rows are read (V4L-07: nothing skipped), and
    /// the one-buffer warning reaches stderr once the run ends (V4L-08).
    @Test("V4L-07/V4L-08/V4L-12 at the runtime: padded YUYV rows, one buffer, YUYV at 640×480",
          .enabled(if: model, "the dlib model is absent"))
    func runtimeYUYVPaddedOneBuffer() throws {
        let fake = T.webcam()
        fake.formats = [.init(fourcc: .yuyv, sizes: [(640, 480, [30])]), .init(fourcc: .mjpeg, sizes: [(640, 480, [30])])]
        fake.grantedBuffers = 1
        fake.padding = 64
        let row = [UInt8](repeating: 128, count: 2 * 640) + [UInt8](repeating: 0xEE, count: 64)
        fake.frames = Array(repeating: (Array([[UInt8]](repeating: row, count: 480).joined()), nil), count: 45)
        let dir = NSTemporaryDirectory() + "sc-fakecam-\(UUID().uuidString.prefix(8))"
        let args = ["--source", "/dev/video0", "--pace", "fast", "--renderer", "null", "--timeout", "1",
                    "--output", dir + "/out", "--events", dir + "/ev.jsonl"]
        let parsed = try ArgumentParser.parse(args.enumerated().map { ArgToken($0.element, index: $0.offset + 1) }, spec: Commands.capture)
        let errText = Mutex("")
        var setup = try CaptureSetup.make(parsed, environment: [:], console: Console(out: { _ in }, err: { s in errText.withLock { $0 += s } }))
        setup.source.cameraSystem = fake
        let code = try CaptureRuntime(setup: setup).run()
        let err = errText.withLock { $0 }
        #expect(code == .timedOut, "\(err)")
        #expect(fake.requested.map { $0.0 } == .yuyv)
        #expect(err.contains("warning: /dev/video0: the driver granted 1 capture buffer of 4 asked"), "\(err)")
        let events = (try String(contentsOfFile: dir + "/ev.jsonl", encoding: .utf8)).split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
        let counts = try #require(events.last { $0["event"] as? String == "frameCounts" })
        #expect(counts["skipped"] as? Int == 0 && (counts["delivered"] as? Int ?? 0) > 0)
    }
}
