import Foundation

/// Binary PPM (P6, maxval 255) as ImageMagick's `convert … ppm:` and `xwd`→`convert` write it:
/// the one reader of the tests' screenshots and decoded pictures.
public enum PPM {
    /// `width × height` pixels, RGB bytes row-major (`rgb.count == width * height * 3`).
    public struct Image: Sendable, Equatable {
        public var width: Int, height: Int
        public var rgb: [UInt8]
    }

    /// The image in `data`; nil when it is not P6 with maxval 255 or is shorter than its header
    /// says. Comments (`#` to the end of the line) between header fields are skipped.
    public static func parse(_ data: Data) -> Image? {
        let b = [UInt8](data)
        var i = 0
        func token() -> String? {
            while i < b.count, b[i] == 0x23 || b[i] <= 0x20 {
                if b[i] == 0x23 { while i < b.count, b[i] != 0x0A { i += 1 } } else { i += 1 }
            }
            let s = i
            while i < b.count, b[i] > 0x20 { i += 1 }
            return s < i ? String(decoding: b[s..<i], as: UTF8.self) : nil
        }
        guard token() == "P6", let w = token().flatMap(Int.init), let h = token().flatMap(Int.init), token() == "255" else { return nil }
        i += 1   // the one whitespace byte after maxval
        guard w > 0, h > 0, b.count >= i + w * h * 3 else { return nil }
        return Image(width: w, height: h, rgb: Array(b[i..<i + w * h * 3]))
    }

    /// The image in the file at `path`; nil when it cannot be read or parsed.
    public static func read(_ path: String) -> Image? {
        FileManager.default.contents(atPath: path).flatMap(parse)
    }
}
