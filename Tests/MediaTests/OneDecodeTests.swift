import Foundation
import Testing
import Media

/// Issue #28: an MJPEG frame is entropy-decoded once, to YCbCr planes at the analysis scale.
/// Its luma must be the very bytes of the gray decode analysis used before (the guidance is
/// unchanged), and the preview's RGB made from the planes must match libjpeg-turbo's own RGB
/// decode at that scale (the oracle) to within the difference of chroma filters.
@Suite struct OneDecodeTests {
    /// Mean and largest |a - b| over the samples of two images of one size and layout.
    static func difference(_ a: Image, _ b: Image) -> (mean: Double, max: Int) {
        precondition(a.width == b.width && a.height == b.height && a.layout == b.layout)
        var sum = 0, mx = 0
        for i in 0..<a.pixels.count {
            let e = abs(Int(a.pixels[i]) - Int(b.pixels[i])); sum += e; mx = max(mx, e)
        }
        return (Double(sum) / Double(max(1, a.pixels.count)), mx)
    }

    /// 4:2:0 and 4:4:4 frames, at the analysis scale of 1280×720 (1/2) and of an odd size
    /// (sizes round up): the planes' luma is byte for byte the gray decode.
    @Test(arguments: [(1280, 720, true), (1280, 720, false), (1001, 563, true), (640, 480, true)])
    func lumaIsTheGrayDecode(_ w: Int, _ h: Int, _ sub420: Bool) throws {
        let jpeg = try JPEGCodec.encode(Tools.picture(width: w, height: h, seed: 3), quality: 85, subsampling420: sub420)
        let d = AnalysisScale.denominator(width: w, height: h)
        let planes = try JPEGCodec.decodePlanes(jpeg, scaleFor: { _, _ in d })
        let gray = try JPEGCodec.decode(jpeg, layout: .gray, scaleDenominator: d)
        #expect(planes.image == gray.image)
        #expect(planes.scaleDenominator == d && planes.sourceWidth == w && planes.sourceHeight == h)
        let c = try #require(planes.chroma)
        // tjPlaneWidth/Height: 4:2:0 halves both sizes (rounded up), 4:4:4 keeps them.
        let (lw, lh) = ((w + d - 1) / d, (h + d - 1) / d)
        #expect(c.width == (sub420 ? (lw + 1) / 2 : lw) && c.height == (sub420 ? (lh + 1) / 2 : lh))
    }

    /// The frame a source delivers (`decodeForAnalysis`) gives its preview RGB at 1/8 and 1/4
    /// from the planes, close to libjpeg's scaled RGB decode: mean |diff| ≤ 1 level, PSNR ≥ 35 dB
    /// (measured: 0.02–0.1 mean on camera frames; the two differ in how chroma is filtered).
    /// RGB larger than the analysis scale still comes from the JPEG, exactly libjpeg's.
    @Test(arguments: [true, false]) func previewRGBComesFromThePlanes(_ sub420: Bool) throws {
        let jpeg = try JPEGCodec.encode(Tools.picture(width: 1280, height: 720, seed: 1), quality: 90, subsampling420: sub420)
        var decoder = JPEGFrameDecoder(expectedWidth: 1280, expectedHeight: 720)
        let decoded = decoder.decodeForAnalysis(jpeg)
        let d = try #require(decoded)
        #expect(d.chroma != nil && d.scaleDenominator == 2)
        let frame = d.frame(index: 0, timestampMs: 0)
        #expect(frame.analysisGray == (try JPEGCodec.decode(jpeg, layout: .gray, scaleDenominator: 2).image))
        for s in [2, 4, 8] {
            let ours = frame.rgb(scaleDenominator: s)
            let oracle = try JPEGCodec.decode(jpeg, layout: .rgb, scaleDenominator: s).image
            #expect(ours.width == oracle.width && ours.height == oracle.height && ours.layout == .rgb)
            let diff = Self.difference(ours, oracle)
            #expect(diff.mean <= 1.0, "1/\(s): mean |diff| \(diff.mean), max \(diff.max)")
            #expect(try #require(ImageMetrics.psnr(ours, oracle)) >= 35)
        }
        #expect(frame.rgb == (try JPEGCodec.decode(jpeg).image))
    }

    /// A flat colour stays that colour (BT.601 full range, JFIF): the ground truth is the
    /// colour itself, within JPEG's rounding.
    @Test func flatColourKeepsItsRGB() throws {
        let colour: [UInt8] = [200, 60, 30]
        let img = Image(width: 64, height: 48, layout: .rgb, pixels: Array((0..<(64 * 48)).flatMap { _ in colour }))
        let jpeg = try JPEGCodec.encode(img, quality: 95)
        let planes = try JPEGCodec.decodePlanes(jpeg, scaleFor: { _, _ in 1 })
        let chroma = try #require(planes.chroma)
        let rgb = try #require(PixelConvert.rgb(luma: planes.image, chroma: chroma, shrink: 8))
        #expect(rgb.width == 8 && rgb.height == 6)
        for i in 0..<rgb.pixels.count { #expect(abs(Int(rgb.pixels[i]) - Int(colour[i % 3])) <= 3) }
    }

    /// A grayscale JPEG has no chroma planes: its preview is the luma in each channel, as
    /// libjpeg's RGB decode of it.
    @Test func grayJPEGPreviewIsItsLuma() throws {
        let gray = PixelConvert.gray(Tools.picture(width: 320, height: 240))
        let jpeg = try JPEGCodec.encode(gray, quality: 90)
        let planes = try JPEGCodec.decodePlanes(jpeg, scaleFor: { _, _ in 2 })
        let c = try #require(planes.chroma)
        #expect(c.isGray)
        let rgb = try #require(PixelConvert.rgb(luma: planes.image, chroma: c, shrink: 1))
        #expect(rgb == (try JPEGCodec.decode(jpeg, layout: .rgb, scaleDenominator: 2).image))
    }

    /// 4:2:2 (what many webcams send) from ffmpeg, the oracle's encoder: luma identical to the
    /// gray decode, preview RGB close to libjpeg's at 1/8.
    @Test(.enabled(if: Tools.haveFFmpeg, "ffmpeg not installed")) func ffmpeg422Frame() throws {
        let dir = Tools.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let src = Tools.picture(width: 1280, height: 720, seed: 2)
        Tools.writeBytes(Array("P6\n1280 720\n255\n".utf8) + src.pixels, dir + "/in.ppm")
        let (rc, _, err) = try Tools.run(Tools.ffmpeg!, ["-nostdin", "-v", "error", "-i", dir + "/in.ppm", "-c:v", "mjpeg",
                                                          "-q:v", "3", "-pix_fmt", "yuvj422p", "-y", dir + "/f.jpg"])
        #expect(rc == 0, "\(err)")
        let jpeg = Tools.readBytes(dir + "/f.jpg")
        var decoder = JPEGFrameDecoder()
        let decoded = decoder.decodeForAnalysis(jpeg)
        let d = try #require(decoded)
        let c = try #require(d.chroma)
        #expect(c.width == 320 && c.height == 360)   // 4:2:2 at 1/2: half the width, all rows
        #expect(d.image == (try JPEGCodec.decode(jpeg, layout: .gray, scaleDenominator: 2).image))
        let ours = d.frame(index: 0, timestampMs: 0).rgb(scaleDenominator: 8)
        let diff = Self.difference(ours, try JPEGCodec.decode(jpeg, layout: .rgb, scaleDenominator: 8).image)
        #expect(diff.mean <= 1.0, "mean |diff| \(diff.mean), max \(diff.max)")
    }
}

/// reference.jpg's re-encoding from a 4:2:0 frame's own planes (issue #28: no full-size RGB).
@Suite struct Recompress420Tests {
    /// The result is a 4:2:0 JPEG of the same size whose picture is as close to the source as
    /// the RGB route's (`encode(decode(jpeg))`, what reference.jpg was before): PSNR against
    /// libjpeg's decode of the source ≥ 40 dB and within 1 dB of the RGB route's.
    @Test func sameFileKindAsTheRGBRoute() throws {
        let src = try JPEGCodec.encode(Tools.picture(width: 1280, height: 720, seed: 4), quality: 85)
        let original = try JPEGCodec.decode(src).image
        let planar = try #require(try JPEGCodec.recompress420(src, quality: 90))
        let viaRGB = try JPEGCodec.encode(original, quality: 90)
        let a = try JPEGCodec.decode(planar).image, b = try JPEGCodec.decode(viaRGB).image
        #expect(a.width == 1280 && a.height == 720)
        #expect(try JPEGCodec.decodePlanes(planar, scaleFor: { _, _ in 1 }).chroma?.width == 640)   // 4:2:0
        let pa = try #require(ImageMetrics.psnr(a, original)), pb = try #require(ImageMetrics.psnr(b, original))
        #expect(pa >= 40 && pa >= pb - 1, "planes \(pa) dB, RGB route \(pb) dB")
    }

    /// 4:4:4 and gray sources are not 4:2:0: nil, the caller encodes from RGB.
    @Test func otherSubsamplingsAreLeftToTheRGBRoute() throws {
        let p = Tools.picture(width: 64, height: 48)
        #expect(try JPEGCodec.recompress420(try JPEGCodec.encode(p, subsampling420: false), quality: 90) == nil)
        #expect(try JPEGCodec.recompress420(try JPEGCodec.encode(PixelConvert.gray(p)), quality: 90) == nil)
        #expect(throws: JPEGError.self) { try JPEGCodec.recompress420([1, 2, 3], quality: 90) }
    }
}
