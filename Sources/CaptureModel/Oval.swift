/// The face oval: where the user should put their face. ONE value used by both the renderer (to
/// draw the oval over the preview) and the guidance rules (to judge the face box).
///
/// Coordinates are **frame-normalised** in the orientation the user sees (the mirrored preview
/// by default): x in 0...1 from the left edge of the shown frame, y in 0...1 from the top. The
/// renderer maps them with the same transform as the frame itself (fit or fill), so the oval stays
/// on the same pixels of the image. The oval is symmetric about x = 0.5, so mirroring does not move it.
///
/// Source of the defaults: the scenario label rule of `shared/media/README.md` (target face-box
/// centre at 0.5/0.5, face-box height 0.5 of the frame height, h_min 0.35, h_max 0.65,
/// tolerance 0.12 of the frame's width and height), which the scenarios were generated with.
public struct FaceOval: Sendable, Equatable, Codable {
    /// Centre of the oval and target centre of the face box (frame-normalised).
    public var centerX: Double
    public var centerY: Double
    /// Target face-box height / frame height (dlib box: eyebrows to chin).
    public var targetFaceHeight: Double
    /// Face-box height / frame height below which the face is too far away.
    public var minFaceHeight: Double
    /// Face-box height / frame height above which the face is too close.
    public var maxFaceHeight: Double
    /// Largest allowed |face-box centre − oval centre| in x, as a fraction of the frame width.
    public var toleranceX: Double
    /// Largest allowed |face-box centre − oval centre| in y, as a fraction of the frame height.
    public var toleranceY: Double
    /// Drawn oval's vertical diameter / frame height. 1.3 × the target face box, because the head
    /// (forehead and hair included) is about 1.3 × the detector box (eyebrows to chin).
    public var drawnHeight: Double
    /// Drawn oval's width / its height, in pixels (a head is about 0.75 as wide as tall).
    public var drawnAspect: Double

    public init(centerX: Double, centerY: Double, targetFaceHeight: Double, minFaceHeight: Double,
                maxFaceHeight: Double, toleranceX: Double, toleranceY: Double, drawnHeight: Double, drawnAspect: Double) {
        self.centerX = centerX; self.centerY = centerY; self.targetFaceHeight = targetFaceHeight
        self.minFaceHeight = minFaceHeight; self.maxFaceHeight = maxFaceHeight
        self.toleranceX = toleranceX; self.toleranceY = toleranceY
        self.drawnHeight = drawnHeight; self.drawnAspect = drawnAspect
    }

    /// The product's oval (values from the shared/media label rule, see the type's doc).
    public static let standard = FaceOval(centerX: 0.5, centerY: 0.5, targetFaceHeight: 0.5, minFaceHeight: 0.35,
                                          maxFaceHeight: 0.65, toleranceX: 0.12, toleranceY: 0.12,
                                          drawnHeight: 0.65, drawnAspect: 0.75)

    /// The drawn ellipse in pixels of a `width`×`height` frame (or preview showing the whole frame):
    /// centre and semi-axes (rx horizontal, ry vertical), both in those pixels.
    public func ellipse(width: Double, height: Double) -> (cx: Double, cy: Double, rx: Double, ry: Double) {
        let ry = drawnHeight * height / 2
        return (centerX * width, centerY * height, ry * drawnAspect, ry)
    }
}
