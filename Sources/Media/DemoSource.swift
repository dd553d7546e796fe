/// The built-in demo: a face photo animated over a plain background along a scripted path
/// (far → closer → off-centre → centred and still), so the whole guided flow runs with no camera.
///
/// The app loads the photo (`Resources/demo/astronaut.png`, placed by `make setup`) and passes
/// it in: Media has no PNG decoder and must not depend on FaceAnalysis.
///
/// Geometry: each keyframe gives the face box height as a fraction of the frame height and the
/// face box centre as fractions of the frame; between keyframes the values are eased
/// (smoothstep). The photo is scaled so its face box (`faceBoxInPhoto`) gets that size and
/// centre, sampled nearest-neighbour, and only the head (an ellipse around the face box) is
/// drawn over the plain background. Frames never end (the app's timeout bounds a run).
public final class DemoSource: FrameSource {
    /// One point of the scripted path.
    public struct Keyframe: Sendable, Equatable {
        public var timeMs: Int
        /// Face box height / frame height.
        public var faceHeight: Double
        /// Face box centre / frame size.
        public var centerX: Double
        public var centerY: Double
        public init(timeMs: Int, faceHeight: Double, centerX: Double, centerY: Double) {
            self.timeMs = timeMs; self.faceHeight = faceHeight; self.centerX = centerX; self.centerY = centerY
        }
    }

    /// The default script (30 fps): far (0.20 H) until 0.5 s → comes closer while drifting right,
    /// to 0.50 H at 0.78 W by 5 s → holds off-centre until 6 s → back to the centre by 7.5 s →
    /// still. 0.50 H at the centre is the shared clips' target (../shared/media/README.md).
    /// The face never stops inside the oval before 7.5 s (every keyframe is a stop: the easing is
    /// per segment), so the countdown starts once, on the final hold, and is never restarted by
    /// "You moved" (issue #29: the old script paused 0.5 s at the centre at 3 s, the stillness
    /// rule rightly settled there, and the slide that followed was a real move).
    public static let defaultScript: [Keyframe] = [
        .init(timeMs: 0, faceHeight: 0.20, centerX: 0.5, centerY: 0.5),
        .init(timeMs: 500, faceHeight: 0.20, centerX: 0.5, centerY: 0.5),
        .init(timeMs: 5000, faceHeight: 0.50, centerX: 0.78, centerY: 0.5),
        .init(timeMs: 6000, faceHeight: 0.50, centerX: 0.78, centerY: 0.5),
        .init(timeMs: 7500, faceHeight: 0.50, centerX: 0.5, centerY: 0.5),
    ]

    /// The astronaut photo's dlib face box (x, y, w, h in photo pixels, from
    /// ../shared/media/README.md `photo_face.box_in_photo`).
    public static let astronautFaceBox = PixelRect(x: 175.8, y: 79.8, width: 95.0, height: 94.8)

    public let info: SourceInfo
    public private(set) var stats = SourceStats()
    private let photo: Image
    private let faceBox: PixelRect
    private let script: [Keyframe]
    private let background: (UInt8, UInt8, UInt8)
    private var index = 0

    /// - Parameters:
    ///   - photo: the face photo (RGB or gray).
    ///   - faceBoxInPhoto: where the face is in `photo` (default: the astronaut's).
    ///   - width, height, fps: output geometry (default 640×480 at 30 fps, like a webcam).
    ///   - background: plain background colour (default a warm grey).
    public init(photo: Image, faceBoxInPhoto: PixelRect = DemoSource.astronautFaceBox, width: Int = 640, height: Int = 480,
                fps: Double = 30, script: [Keyframe] = DemoSource.defaultScript,
                background: (UInt8, UInt8, UInt8) = (176, 168, 156)) {
        self.photo = PixelConvert.rgb(photo)
        self.faceBox = faceBoxInPhoto
        self.script = script.isEmpty ? DemoSource.defaultScript : script
        self.background = background
        info = SourceInfo(kind: .demo, width: width, height: height, fps: fps,
                          description: "demo (\(photo.width)x\(photo.height) photo, \(width)x\(height) @ \(Int(fps)) fps)",
                          deliversJPEG: false)
    }

    /// The face box the demo draws at `timeMs` (frame pixels): ground truth for tests.
    public func faceBox(atMs t: Int) -> PixelRect {
        let k = keyframe(at: t)
        let h = k.faceHeight * Double(info.height)
        let w = h * faceBox.width / faceBox.height
        return PixelRect(x: k.centerX * Double(info.width) - w / 2, y: k.centerY * Double(info.height) - h / 2, width: w, height: h)
    }

    func keyframe(at t: Int) -> Keyframe {
        guard let first = script.first, let last = script.last else { return DemoSource.defaultScript[0] }
        if t <= first.timeMs { return first }
        if t >= last.timeMs { return last }
        var i = 0
        while i + 1 < script.count && script[i + 1].timeMs <= t { i += 1 }
        let a = script[i], b = script[min(i + 1, script.count - 1)]
        let span = max(1, b.timeMs - a.timeMs)
        var u = Double(t - a.timeMs) / Double(span)
        u = u * u * (3 - 2 * u)
        func mix(_ x: Double, _ y: Double) -> Double { x + (y - x) * u }
        return Keyframe(timeMs: t, faceHeight: mix(a.faceHeight, b.faceHeight), centerX: mix(a.centerX, b.centerX),
                        centerY: mix(a.centerY, b.centerY))
    }

    /// Renders the frame at `timeMs`.
    public func render(atMs t: Int) -> Image {
        let w = info.width, h = info.height
        let box = faceBox(atMs: t)
        let s = box.height / faceBox.height          // photo px → frame px
        let ox = box.x - faceBox.x * s, oy = box.y - faceBox.y * s
        var out = [UInt8](repeating: 0, count: w * h * 3)
        let pw = photo.width, ph = photo.height
        let xs: [Int] = (0..<w).map { x in
            let px = (Double(x) + 0.5 - ox) / s
            return px >= 0 && px < Double(pw) ? Int(px) : -1
        }
        // Head cut-out (photo pixels): an ellipse around the face box, 0.95 × its width and
        // 1.35 × its height as radii, centred 10 % of the box height above the box centre, so
        // hair and chin stay in and the photo's own background goes.
        let ecx = faceBox.x + faceBox.width / 2, ecy = faceBox.y + faceBox.height * 0.4
        let erx = faceBox.width * 0.95, ery = faceBox.height * 1.35
        @inline(__always) func inHead(_ px: Int, _ py: Int) -> Bool {
            let dx = (Double(px) + 0.5 - ecx) / erx, dy = (Double(py) + 0.5 - ecy) / ery
            return dx * dx + dy * dy <= 1
        }
        photo.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<h {
                    let py = (Double(y) + 0.5 - oy) / s
                    let row = py >= 0 && py < Double(ph) ? Int(py) : -1
                    for x in 0..<w {
                        let o = 3 * (y * w + x)
                        if row >= 0 && xs[x] >= 0 && inHead(xs[x], row) {
                            let i = 3 * (row * pw + xs[x])
                            dst[o] = src[i]; dst[o + 1] = src[i + 1]; dst[o + 2] = src[i + 2]
                        } else {
                            dst[o] = background.0; dst[o + 1] = background.1; dst[o + 2] = background.2
                        }
                    }
                }
            }
        }
        return Image(width: w, height: h, layout: .rgb, pixels: out)
    }

    public func nextFrame() throws -> VideoFrame? {
        let t = Int((Double(index) * 1000 / info.fps).rounded())
        defer { index += 1; stats.deliveredFrames += 1 }
        return VideoFrame(index: index, timestampMs: t, rgb: render(atMs: t))
    }

    public func close() {}
}
