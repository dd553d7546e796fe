#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An 8-bit image in packed RGB (3 bytes per pixel) or gray (1 byte per pixel), row-major,
/// no padding (`stride == width * channels`).
public struct Image: Sendable, Equatable {
    /// Pixel layout of `Image.pixels`.
    public enum Layout: Int, Sendable { case gray = 1, rgb = 3 }
    public var width: Int
    public var height: Int
    public var layout: Layout
    public var pixels: [UInt8]

    /// Creates an image; `pixels.count` must equal `width * height * layout.rawValue`.
    public init(width: Int, height: Int, layout: Layout, pixels: [UInt8]) {
        precondition(width >= 0 && height >= 0 && pixels.count == width * height * layout.rawValue,
                     "Image: pixel buffer size does not match \(width)x\(height)x\(layout.rawValue)")
        self.width = width
        self.height = height
        self.layout = layout
        self.pixels = pixels
    }

    /// A uniform image filled with `value` in every channel.
    public init(width: Int, height: Int, layout: Layout, fill value: UInt8 = 0) {
        self.init(width: width, height: height, layout: layout,
                  pixels: [UInt8](repeating: value, count: width * height * layout.rawValue))
    }

    /// Bytes per row.
    public var stride: Int { width * layout.rawValue }
}

/// Image quality metrics.
public enum ImageMetrics {
    /// Peak signal-to-noise ratio in dB between two images of the same size and layout, over all
    /// channels with peak 255. Returns `.infinity` for identical images, `nil` on size mismatch.
    public static func psnr(_ a: Image, _ b: Image) -> Double? {
        guard a.width == b.width, a.height == b.height, a.layout == b.layout, !a.pixels.isEmpty else { return nil }
        var sum = 0.0
        for i in 0..<a.pixels.count {
            let d = Double(a.pixels[i]) - Double(b.pixels[i])
            sum += d * d
        }
        let mse = sum / Double(a.pixels.count)
        if mse == 0 { return .infinity }
        return 10 * log10(255 * 255 / mse)
    }
}
