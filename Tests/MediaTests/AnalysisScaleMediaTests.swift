import Testing
import Media

/// Issue #16: frames reach analysis at `AnalysisScale`'s size; MJPEG decoded in the DCT domain,
/// raw YUV shrunk from the Y samples in one pass; the recording keeps the whole JPEG.
@Suite struct AnalysisScaleMediaTests {
    /// Random-ish luma of `w`×`h`.
    static func luma(_ w: Int, _ h: Int) -> [UInt8] {
        var s: UInt32 = 12345
        return (0..<(w * h)).map { _ in s = s &* 1103515245 &+ 12345; return UInt8(truncatingIfNeeded: s >> 16) }
    }

    /// With full-range samples and sizes divisible by d, the one-pass shrink is exactly the
    /// area average (`Scale.area`) of the full-size gray.
    @Test(arguments: [1, 2, 4, 8]) func planeShrinkIsTheAreaMean(_ d: Int) throws {
        let w = 64, h = 48
        let y = Self.luma(w, h)
        let full = try #require(PixelConvert.grayFromLuma(y[...], width: w, height: h, fullRange: true))
        let shrunk = try #require(PixelConvert.lumaShrunk(y[...], width: w, height: h, rowStride: w, sampleStep: 1,
                                                          denominator: d, fullRange: true))
        #expect(shrunk == Scale.area(full, width: w / d, height: h / d))
    }

    /// YUYV (Y at every second byte, rows `bytesperline` apart with padding, V4L-07) gives the
    /// same as the plane of its Y samples; sizes not divisible by d round up like libjpeg's.
    @Test func yuyvWithPaddingShrinksLikeItsYPlane() throws {
        let w = 30, h = 17, bpl = 2 * w + 8, d = 4
        let y = Self.luma(w, h)
        var yuyv = [UInt8](repeating: 128, count: bpl * h)
        for r in 0..<h { for c in 0..<w { yuyv[r * bpl + 2 * c] = y[r * w + c] } }
        let a = try #require(PixelConvert.lumaShrunk(yuyv[...], width: w, height: h, rowStride: bpl, sampleStep: 2, denominator: d))
        let b = try #require(PixelConvert.lumaShrunk(y[...], width: w, height: h, rowStride: w, sampleStep: 1, denominator: d))
        #expect(a == b)
        #expect(a.width == 8 && a.height == 5)
        // Limited range: a flat 16 is black, 235 white (BT.601).
        let flat = [UInt8](repeating: 235, count: 2 * w * h)
        #expect(PixelConvert.lumaShrunk(flat[...], width: w, height: h, rowStride: 2 * w, sampleStep: 2, denominator: d)?
            .pixels.allSatisfy { $0 == 255 } == true)
        #expect(PixelConvert.lumaShrunk(yuyv[...], width: w, height: h, rowStride: bpl, sampleStep: 2, denominator: d,
                                        fullRange: false) != nil)
        #expect(PixelConvert.lumaShrunk(yuyv.prefix(100), width: w, height: h, rowStride: bpl, sampleStep: 2, denominator: d) == nil)
    }

    /// A 1280×720 MJPEG frame read through `JPEGFrameDecoder.decodeForAnalysis`: the frame says
    /// 1280×720, its analysis gray is 640×360 (1/2) and close to the area mean of the full decode
    /// (PSNR ≥ 30 dB: DCT-domain scaling is a filtered downscale, not the same numbers); the JPEG
    /// is kept whole; full-size gray and RGB still decode on demand.
    @Test func mjpegFrameDecodesAtTheAnalysisScale() throws {
        let jpeg = try JPEGCodec.encode(Tools.picture(width: 1280, height: 720), quality: 90)
        var decoder = JPEGFrameDecoder(expectedWidth: 1280, expectedHeight: 720)
        let decoded = decoder.decodeForAnalysis(jpeg)
        let d = try #require(decoded)
        #expect(d.scaleDenominator == 2 && d.width == 1280 && d.height == 720)
        let frame = d.frame(index: 0, timestampMs: 0)
        #expect(frame.width == 1280 && frame.height == 720 && frame.jpeg == jpeg)
        #expect(frame.analysisDenominator == 2)
        let small = frame.analysisGray
        #expect(small.width == 640 && small.height == 360)
        let full = frame.gray
        #expect(full.width == 1280 && full.height == 720)
        let psnr = try #require(ImageMetrics.psnr(small, Scale.area(full, width: 640, height: 360)))
        #expect(psnr >= 30, "PSNR \(psnr) dB")
        #expect(frame.rgb.width == 1280)
        #expect(decoder.stats.deliveredFrames == 1)
    }
}
