import Foundation
import Camera
import Evidence
import Media

/// Options for `FrameSources.open`.
public struct SourceOptions {
    /// Loads the demo photo (the app passes `FaceAnalysis.ImageFile.loadRGB` of
    /// `Resources/demo/astronaut.png`); required for `demo`.
    public var demoPhoto: (() throws -> Image)?
    /// Nominal rate of raw `.mjpeg` streams (they carry none); default 30.
    public var mjpegFPS: Double
    /// `--loop`: restart file sources at their end instead of ending.
    public var loop: Bool
    /// Camera negotiation and the syscall seam.
    public var camera: CameraOptions

    public init(demoPhoto: (() throws -> Image)? = nil, mjpegFPS: Double = 30, loop: Bool = false,
                camera: CameraOptions = CameraOptions()) {
        self.demoPhoto = demoPhoto; self.mjpegFPS = mjpegFPS; self.loop = loop; self.camera = camera
    }
}

/// Opens a `FrameSource` from a `--source` spec.
public enum FrameSources {
    /// The kind a spec names, without opening it.
    /// - `/dev/…` → camera; `-` → y4m on stdin; `demo`; by extension (case-insensitive):
    ///   `.avi`, `.mjpeg`/`.mjpg`, `.y4m`.
    public static func kind(of spec: String) -> SourceKind? {
        if spec == "demo" { return .demo }
        if spec == "-" { return .y4m }
        if spec.hasPrefix("/dev/") { return .camera }
        let lower = spec.lowercased()
        if lower.hasSuffix(".avi") { return .avi }
        if lower.hasSuffix(".mjpeg") || lower.hasSuffix(".mjpg") { return .mjpegStream }
        if lower.hasSuffix(".y4m") { return .y4m }
        return nil
    }

    /// Opens `spec`.
    /// - Throws: `MediaError` (fileMissing → 66, unreadable → 66, malformed → 65,
    ///   unsupportedSource → 64, demoPhotoMissing → 66) or `CameraError` (notFound 66, busy 69,
    ///   permissionDenied 77, unsupported 69, …). Both have `exitCodeHint`.
    public static func open(spec: String, options: SourceOptions = SourceOptions()) throws -> FrameSource {
        guard let kind = kind(of: spec) else { throw MediaError.unsupportedSource(spec) }
        let make: () throws -> FrameSource
        switch kind {
        case .camera: return try V4L2CameraSource(path: spec, options: options.camera)
        case .demo:
            guard let load = options.demoPhoto else { throw MediaError.demoPhotoMissing }
            return DemoSource(photo: try load())
        case .avi: make = { try AVIFileSource(path: spec) }
        case .mjpegStream: make = { try MJPEGFileSource(path: spec, fps: options.mjpegFPS) }
        case .y4m:
            // A pipe cannot be rewound: stdin never loops.
            if spec == "-" { return try Y4MSource(path: spec) }
            make = { try Y4MSource(path: spec) }
        }
        return options.loop ? try LoopingSource(open: make) : try make()
    }
}

extension FrameSources {
    /// The manifest's account of an open source (`manifest.json` `source`): its kind in the
    /// manifest's words (`/dev/…` → `camera`, `-` → `pipe`, `demo`, any file → `file`), `live`
    /// only for a camera, size and nominal rate from `source.info`, and for a V4L2 camera the
    /// VIDIOC_QUERYCAP driver, card and bus info, the granted FourCC and the measured rate
    /// (`V4L2CameraSource.measuredFPS`, rounded to 0.01).
    ///
    /// A camera's record also holds its USB identity (`usbIdentity`, from `sysfs`: the real
    /// `/sys` unless a test points elsewhere) and the kernel release; the record's
    /// `injection` is judged from all of it (`InjectionSignals`).
    public static func sourceRecord(of source: FrameSource, spec: String, sysfs: String = "/sys") -> SourceRecord {
        let info = source.info
        var camera: SourceRecord.Camera?
        if let cam = source as? V4L2CameraSource {
            camera = SourceRecord.Camera(driver: cam.description.driver, card: cam.description.card,
                                         busInfo: cam.description.busInfo, fourcc: cam.granted.fourcc.description,
                                         measuredFps: cam.measuredFPS.map { ($0 * 100).rounded() / 100 },
                                         usb: usbIdentity(devicePath: cam.description.path, sysfs: sysfs),
                                         kernel: kernelRelease())
        }
        return SourceRecord(kind: recordKind(info.kind, spec: spec), spec: spec, width: info.width, height: info.height,
                            fps: info.fps, camera: camera)
    }

    /// The manifest's word for a source: `camera`, `demo`, `pipe` (`-`, standard input) or
    /// `file` (.avi, .mjpeg, .y4m).
    public static func recordKind(_ kind: SourceKind, spec: String) -> SourceRecord.Kind {
        switch kind {
        case .camera: return .camera
        case .demo: return .demo
        case .avi, .mjpegStream, .y4m: return spec == "-" ? .pipe : .file
        }
    }
}

extension FrameSources {
    /// The USB device behind a V4L2 node: `SYSFS/class/video4linux/videoN/device` resolved,
    /// then up to 4 parent folders searched for `idVendor` and `idProduct` (the USB device holds
    /// them; the node's `device` is its interface), with `serial` when the device has one.
    /// - Returns: nil when the node is not in sysfs or not on USB (a platform or virtual device).
    public static func usbIdentity(devicePath: String, sysfs: String = "/sys") -> SourceRecord.USB? {
        let real = (try? FileManager.default.destinationOfSymbolicLink(atPath: devicePath))
            .map { $0.hasPrefix("/") ? $0 : ((devicePath as NSString).deletingLastPathComponent as NSString).appendingPathComponent($0) }
            ?? devicePath
        let node = (real as NSString).lastPathComponent
        let link = "\(sysfs)/class/video4linux/\(node)/device"
        guard let resolved = realpath(link, nil) else { return nil }
        var dir = String(cString: resolved)
        free(resolved)
        func read(_ name: String) -> String? {
            guard let d = FileManager.default.contents(atPath: dir + "/" + name) else { return nil }
            let t = String(decoding: d, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            return t.isEmpty ? nil : t
        }
        for _ in 0..<5 {
            if let v = read("idVendor"), let p = read("idProduct") {
                return SourceRecord.USB(vendorId: v.lowercased(), productId: p.lowercased(), serial: read("serial"))
            }
            let up = (dir as NSString).deletingLastPathComponent
            guard up != dir, up.count > 1 else { break }
            dir = up
        }
        return nil
    }

    /// The running kernel's release (`uname -r`), nil if uname fails.
    public static func kernelRelease() -> String? {
        var u = utsname()
        guard uname(&u) == 0 else { return nil }
        return withUnsafeBytes(of: &u.release) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
