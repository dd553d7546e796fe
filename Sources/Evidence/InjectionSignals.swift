import Foundation

/// `source.injection`: what the capture can see of an injection attack (CEN/TS 18099:2024's
/// "injection attack instruments": virtual cameras, replayed files, emulators) from the source's
/// own identity, written into manifest.json, result.json and `metadata` (issue #25).
///
/// It can only recognise fixed identities: a virtual camera driver that reports itself
/// (v4l2loopback, akvcam), a card label set by OBS Studio's virtual camera, and sources that are
/// replays by definition (a file, a pipe, the demo). It cannot see a loopback device whose
/// module was patched or renamed, a USB device that replays frames (an HDMI capture stick, a
/// camera emulator), nor frames altered in the kernel or in libv4l2: no browser can either
/// (w3c/mediacapture-main#896). `none` means "nothing seen", never "proven real".
public struct InjectionSignals: Codable, Equatable, Sendable {
    /// `none` (a camera with no known virtual identity), `virtualCamera` (a known virtual
    /// camera driver or label), `replay` (a file, a pipe or the demo).
    public enum Level: String, Codable, Sendable, CaseIterable {
        case none, virtualCamera, replay
    }

    public var level: Level
    /// Each signal seen, as a short sentence naming the field and its value, e.g.
    /// `driver 'v4l2 loopback' is v4l2loopback`. Empty with `none`.
    public var reasons: [String]

    public init(level: Level, reasons: [String]) { self.level = level; self.reasons = reasons }

    /// v4l2loopback's QUERYCAP driver name (v4l2loopback.c, `vidioc_querycap`: `"v4l2 loopback"`).
    public static let loopbackDriver = "v4l2 loopback"
    /// v4l2loopback's bus_info prefix (`"platform:v4l2loopback-%03d"`, same source).
    public static let loopbackBusPrefix = "platform:v4l2loopback"
    /// akvcam's driver name and bus_info prefix (akvcam `ioctl.c`: `"platform:akvcam-%d"`).
    public static let akvcamDriver = "akvcam"
    public static let akvcamBusPrefix = "platform:akvcam"
    /// The card label OBS Studio gives the v4l2loopback device it loads (obs-studio
    /// `plugins/linux-v4l2`, `card_label="OBS Virtual Camera"`).
    public static let obsCardLabel = "OBS Virtual Camera"

    /// The signals of a source of `kind` with, for a camera, its QUERYCAP identity.
    public static func judge(kind: SourceRecord.Kind, driver: String? = nil, card: String? = nil, busInfo: String? = nil) -> InjectionSignals {
        switch kind {
        case .file: return InjectionSignals(level: .replay, reasons: ["the source is a file: a replay by definition"])
        case .pipe: return InjectionSignals(level: .replay, reasons: ["the source is a pipe (standard input): a replay by definition"])
        case .demo: return InjectionSignals(level: .replay, reasons: ["the source is the built-in demo: an animated photo"])
        case .camera: break
        }
        var reasons: [String] = []
        let d = driver ?? "", c = card ?? "", b = busInfo ?? ""
        if d == loopbackDriver { reasons.append("driver '\(d)' is v4l2loopback") }
        if b.hasPrefix(loopbackBusPrefix) { reasons.append("bus_info '\(b)' is v4l2loopback's") }
        if d == akvcamDriver { reasons.append("driver '\(d)' is akvcam") }
        if b.hasPrefix(akvcamBusPrefix) { reasons.append("bus_info '\(b)' is akvcam's") }
        if c.range(of: obsCardLabel, options: .caseInsensitive) != nil {
            reasons.append("card '\(c)' is OBS Studio's virtual camera")
        }
        return InjectionSignals(level: reasons.isEmpty ? .none : .virtualCamera, reasons: reasons)
    }
}
