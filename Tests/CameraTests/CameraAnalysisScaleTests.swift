import Camera
import FakeV4L2
import Foundation
import Media
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Issue #16 through the fake device: a 1280×720 YUYV frame reaches analysis shrunk to 1/2 from
/// its Y samples (rows `bytesperline` apart), and carries a capture time on CLOCK_MONOTONIC.
@Suite struct CameraAnalysisScaleTests {
    typealias T = FakeWebcams

    @Test func yuyvFrameIsShrunkForAnalysisAndTimed() throws {
        let w = 1280, h = 720, pad = 16
        let fake = T.webcam()
        fake.formats = [.init(fourcc: .yuyv, sizes: [(w, h, [10])])]
        fake.padding = pad
        // A left-to-right luma ramp, chroma neutral, rows 2·w + pad bytes apart.
        var bytes: [UInt8] = []
        for _ in 0..<h {
            for x in 0..<w { bytes += [UInt8(16 + x * 219 / (w - 1)), 128] }
            bytes += [UInt8](repeating: 0xEE, count: pad)
        }
        fake.frames = [(bytes, nil)]
        let cam = try V4L2CameraSource(path: "/dev/video0", options: T.options(fake, [.lowest]))
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        let before = Int(ts.tv_sec) * 1_000_000 + Int(ts.tv_nsec) / 1000
        let frame = try #require(try cam.nextFrame())
        #expect(frame.width == w && frame.height == h)
        #expect(frame.analysisDenominator == 2)
        let g = frame.analysisGray
        #expect(g.width == 640 && g.height == 360)
        let expected = try #require(PixelConvert.lumaShrunk(bytes[...], width: w, height: h, rowStride: 2 * w + pad,
                                                           sampleStep: 2, denominator: 2))
        #expect(g == expected)
        // Limited-range ramp 16…235 → full range: black at the left edge, white at the right.
        #expect(g.pixels[0] <= 2 && g.pixels[639] >= 253)
        // The fake stamps its buffers without the monotonic flag: the dequeue time stands in.
        let c = try #require(frame.captureMicros)
        #expect(c >= before && c - before < 10_000_000)
    }
}
