// Video and preview vocabulary shared by the flow, the camera and the screens (Unissey
// `VideoQuality`, Mobai `MBTargetResolution`, `PreviewScaleType`). Pure values.

/// A video quality, in order of preference (Unissey `VideoQuality`).
public enum VideoQuality: String, Sendable, CaseIterable, Codable {
    /// The smallest size the camera offers (nominally 144p).
    case lowest
    /// 480p.
    case sd
    /// 720p.
    case hd
    /// 1080p.
    case fhd
    /// 2160p.
    case uhd
    /// The highest resolution the camera offers.
    case highest

    /// Frame height in pixels this quality stands for; nil for `highest`.
    public var height: Int? {
        switch self {
        case .lowest: return 144
        case .sd: return 480
        case .hd: return 720
        case .fhd: return 1080
        case .uhd: return 2160
        case .highest: return nil
        }
    }
}

/// Mobai `MBTargetResolution`: the camera resolution asked for (either orientation).
public enum TargetResolution: String, Sendable, CaseIterable, Codable {
    /// 960×540 (Mobai `qHD960x540`, the default).
    case qhd
    /// 1280×720.
    case hd720
    /// 1920×1080.
    case hd1080
    /// 3840×2160.
    case uhd4k

    /// Long side × short side in pixels.
    public var size: (long: Int, short: Int) {
        switch self {
        case .qhd: return (960, 540)
        case .hd720: return (1280, 720)
        case .hd1080: return (1920, 1080)
        case .uhd4k: return (3840, 2160)
        }
    }
}

/// Mobai `PreviewScaleType`: `fit` shows the whole frame (letterboxed); `fill` fills the preview
/// area and crops the overflow (the preview only: recordings are never cropped).
public enum PreviewScaleType: String, Sendable, CaseIterable, Codable {
    case fit, fill
}
