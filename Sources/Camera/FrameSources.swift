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
    public static func sourceRecord(of source: FrameSource, spec: String) -> SourceRecord {
        let info = source.info
        var camera: SourceRecord.Camera?
        if let cam = source as? V4L2CameraSource {
            camera = SourceRecord.Camera(driver: cam.description.driver, card: cam.description.card,
                                         busInfo: cam.description.busInfo, fourcc: cam.granted.fourcc.description,
                                         measuredFps: cam.measuredFPS.map { ($0 * 100).rounded() / 100 })
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
