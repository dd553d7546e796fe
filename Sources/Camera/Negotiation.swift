import CaptureModel
/// A FourCC (V4L2 pixel format code), e.g. `MJPG`, `YUYV`.
public struct FourCC: Hashable, Sendable, CustomStringConvertible {
    public var code: UInt32
    public init(_ code: UInt32) { self.code = code }
    /// From a 4-character string (`"MJPG"`); shorter strings are space-padded.
    public init(_ s: String) {
        let b = Array((s + "    ").utf8.prefix(4))
        code = UInt32(b[0]) | UInt32(b[1]) << 8 | UInt32(b[2]) << 16 | UInt32(b[3]) << 24
    }
    public var description: String {
        let bytes = [code & 0xFF, code >> 8 & 0xFF, code >> 16 & 0xFF, code >> 24 & 0xFF].map { UInt8($0) }
        return String(decoding: bytes.map { $0 >= 0x20 && $0 < 0x7F ? $0 : 0x3F }, as: UTF8.self)
    }
    public static let mjpeg = FourCC("MJPG"), jpeg = FourCC("JPEG"), yuyv = FourCC("YUYV")
    public static let nv12 = FourCC("NV12"), i420 = FourCC("YU12"), rgb24 = FourCC("RGB3")
    public static let bgr24 = FourCC("BGR3"), grey = FourCC("GREY")
}

/// A frame size in pixels.
public struct FrameSize: Hashable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    public init(width: Int, height: Int) { self.width = width; self.height = height }
    public var description: String { "\(width)x\(height)" }
}

/// One size of one format, with its frame rates (frames per second, descending).
public struct SizeModes: Sendable, Equatable {
    public var size: FrameSize
    public var fps: [Double]
    public init(size: FrameSize, fps: [Double]) { self.size = size; self.fps = fps }
}

/// One format a device offers (`VIDIOC_ENUM_FMT`), with its sizes (`ENUM_FRAMESIZES`) and rates
/// (`ENUM_FRAMEINTERVALS`).
public struct FormatModes: Sendable, Equatable {
    public var fourcc: FourCC
    public var description: String
    /// True for formats libv4l2 emulates (V4L2_FMT_FLAG_EMULATED).
    public var emulated: Bool
    public var sizes: [SizeModes]
    public init(fourcc: FourCC, description: String, emulated: Bool = false, sizes: [SizeModes]) {
        self.fourcc = fourcc; self.description = description; self.emulated = emulated; self.sizes = sizes
    }
}

// VideoQuality and TargetResolution are CaptureFlow's (RecordingConfig.qualities,
// CaptureOptions.targetResolution): one definition for the flow and the camera. Here `lowest` and
// `highest` mean the smallest and largest size the device offers.

extension TargetResolution {
    /// Portrait size (Mobai names them portrait; either orientation matches).
    var portraitSize: FrameSize { FrameSize(width: size.short, height: size.long) }
}

/// What to ask the driver for.
public struct FormatChoice: Sendable, Equatable {
    public var fourcc: FourCC
    public var size: FrameSize
    /// Frames per second to request (nil: leave the driver's default).
    public var fps: Double?
    /// Which rule picked the size (for logs): "quality hd", "target hd720", "fallback".
    public var reason: String
}

/// Picks a format, size and rate from what a device offers (pure: tested without a device).
///
/// Rules (issue #4, bug report V4L-12):
/// 1. Formats in preference order: MJPEG (then JPEG), YUYV, then the formats we can convert
///    (NV12, YU12, RGB3, BGR3, GREY), native before libv4l2-emulated.
/// 2. Size: with a `target`, the first format offering that size in either orientation; else
///    the `qualities` in order: the first quality some format offers exactly (landscape height
///    = quality height, the widest such size; `lowest`/`highest` = smallest/largest area); each
///    quality tries every format in preference order, so MJPEG wins at equal size.
/// 3. Fallback when nothing matches: the preferred format's size whose height is closest to the
///    first quality's height (ties → the smaller), or its largest size.
/// 4. Rate: the highest offered ≤ `maxFPS` (30), else the lowest offered.
/// 5. Small sizes prefer YUYV (bug report V4L-12: "prefer MJPEG for large sizes, YUYV for
///    small"): when MJPEG won and a native YUYV mode of the same size offers at least the same
///    rate within `yuyvBytesPerSecondLimit`, YUYV is taken: uncompressed frames, no camera JPEG
///    artefacts, and MJPEG buys nothing there since the raw stream fits the USB link.
public enum FormatNegotiation {
    /// The most raw bytes per second taken as YUYV: 24 576 000, USB 2.0's high-bandwidth
    /// isochronous limit for one endpoint (3 × 1024 bytes per 125 µs microframe, USB 2.0
    /// §5.6.4). 640×480 YUYV at 30 fps is 18.4 MB/s (fits); 1280×720 at 30 fps, 55 MB/s, does not.
    public static let yuyvBytesPerSecondLimit = 24_576_000.0

    /// The FourCCs we can turn into RGB, best first.
    public static let preference: [FourCC] = [.mjpeg, .jpeg, .yuyv, .nv12, .i420, .rgb24, .bgr24, .grey]

    public static func choose(from formats: [FormatModes], qualities: [VideoQuality], target: TargetResolution? = nil,
                              maxFPS: Double = 30) -> FormatChoice? {
        guard let c = chooseByPreference(from: formats, qualities: qualities, target: target, maxFPS: maxFPS) else { return nil }
        guard c.fourcc == .mjpeg || c.fourcc == .jpeg,
              let yuyv = formats.first(where: { $0.fourcc == .yuyv && !$0.emulated }),
              let s = yuyv.sizes.first(where: { $0.size == c.size }) else { return c }
        let rate = s.fps.filter { $0 <= maxFPS + 0.01 }.max() ?? s.fps.min()
        guard let r = rate, r + 0.01 >= (c.fps ?? 0),
              Double(c.size.width * c.size.height * 2) * r <= yuyvBytesPerSecondLimit else { return c }
        return FormatChoice(fourcc: .yuyv, size: c.size, fps: r, reason: c.reason + ", YUYV at a small size")
    }

    static func chooseByPreference(from formats: [FormatModes], qualities: [VideoQuality], target: TargetResolution?,
                                   maxFPS: Double) -> FormatChoice? {
        let usable = formats.filter { f in preference.contains(f.fourcc) && !f.sizes.isEmpty }
            .sorted { a, b in
                let ia = preference.firstIndex(of: a.fourcc) ?? 99, ib = preference.firstIndex(of: b.fourcc) ?? 99
                if a.emulated != b.emulated { return !a.emulated }
                return ia < ib
            }
        guard let best = usable.first else { return nil }

        func rate(_ s: SizeModes) -> Double? {
            guard !s.fps.isEmpty else { return nil }
            return s.fps.filter { $0 <= maxFPS + 0.01 }.max() ?? s.fps.min()
        }
        func pick(_ f: FormatModes, _ s: SizeModes, _ why: String) -> FormatChoice {
            FormatChoice(fourcc: f.fourcc, size: s.size, fps: rate(s), reason: why)
        }

        if let t = target {
            let want = t.portraitSize
            for f in usable {
                if let s = f.sizes.first(where: { ($0.size.width == want.width && $0.size.height == want.height) ||
                                                  ($0.size.width == want.height && $0.size.height == want.width) }) {
                    return pick(f, s, "target \(t.rawValue)")
                }
            }
        }
        for q in qualities {
            for f in usable {
                let match: SizeModes?
                switch q {
                case .lowest: match = f.sizes.min { $0.size.width * $0.size.height < $1.size.width * $1.size.height }
                case .highest: match = f.sizes.max { $0.size.width * $0.size.height < $1.size.width * $1.size.height }
                default:
                    match = f.sizes.filter { min($0.size.width, $0.size.height) == q.height }
                        .max { $0.size.width * $0.size.height < $1.size.width * $1.size.height }
                }
                if let m = match { return pick(f, m, "quality \(q.rawValue)") }
            }
        }
        let goal = qualities.first?.height ?? target.map { $0.size.short }
        if let g = goal {
            let s = best.sizes.min { a, b in
                let da = abs(min(a.size.width, a.size.height) - g), db = abs(min(b.size.width, b.size.height) - g)
                return da != db ? da < db : a.size.width * a.size.height < b.size.width * b.size.height
            }
            if let s { return pick(best, s, "fallback") }
        }
        let s = best.sizes.max { $0.size.width * $0.size.height < $1.size.width * $1.size.height }
        return s.map { pick(best, $0, "fallback") }
    }
}
