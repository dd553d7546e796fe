/// Pixel-format conversions between the layouts of `Image`.
public enum PixelConvert {
    /// RGB → gray with the BT.601 luma weights (Y = 0.299 R + 0.587 G + 0.114 B), rounded, as
    /// libjpeg computes it.
    public static func gray(_ image: Image) -> Image {
        if image.layout == .gray { return image }
        var out = [UInt8](repeating: 0, count: image.width * image.height)
        image.pixels.withUnsafeBufferPointer { src in
            for i in 0..<out.count {
                let r = Int(src[3 * i]), g = Int(src[3 * i + 1]), b = Int(src[3 * i + 2])
                out[i] = UInt8((19595 * r + 38470 * g + 7471 * b + 32768) >> 16)
            }
        }
        return Image(width: image.width, height: image.height, layout: .gray, pixels: out)
    }
}
