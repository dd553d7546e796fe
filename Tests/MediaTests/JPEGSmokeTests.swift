import Testing
import Media

@Suite struct JPEGSmokeTests {
    /// A generated 160×120 RGB gradient survives an encode/decode round trip at quality 90 with
    /// PSNR ≥ 35 dB (libjpeg-turbo through the CTurboJPEG shim).
    @Test func roundTripPSNR() throws {
        let w = 160, h = 120
        var px = [UInt8](repeating: 0, count: w * h * 3)
        for y in 0..<h {
            for x in 0..<w {
                let i = (y * w + x) * 3
                px[i] = UInt8(x * 255 / (w - 1))
                px[i + 1] = UInt8(y * 255 / (h - 1))
                px[i + 2] = UInt8((x + y) * 255 / (w + h - 2))
            }
        }
        let image = Image(width: w, height: h, layout: .rgb, pixels: px)
        let jpeg = try JPEGCodec.encode(image, quality: 90)
        #expect(jpeg.starts(with: [0xFF, 0xD8]))
        #expect(try JPEGCodec.dimensions(of: jpeg) == (160, 120))
        let decoded = try JPEGCodec.decode(jpeg)
        #expect(decoded.warning == nil)
        let psnr = try #require(ImageMetrics.psnr(image, decoded.image))
        #expect(psnr >= 35, "PSNR \(psnr) dB")
    }

    @Test func emptyDataIsANamedError() {
        #expect(throws: JPEGError.decode("empty JPEG data")) { try JPEGCodec.decode([]) }
    }
}
