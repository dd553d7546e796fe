// Shared vocabulary between FaceAnalysis (which measures), the guidance rules (which judge) and
// the state machine (which drives the flow). Pure values: no C, no clock, no I/O.

/// A rectangle in pixels of some image (x, y = top-left corner).
public struct Rect: Sendable, Equatable, Codable {
    public var x: Double
    public var y: Double
    public var w: Double
    public var h: Double
    public init(x: Double, y: Double, w: Double, h: Double) { self.x = x; self.y = y; self.w = w; self.h = h }
    public var centerX: Double { x + w / 2 }
    public var centerY: Double { y + h / 2 }
    /// Intersection over union with `other`, in 0...1 (0 when either is empty).
    public func iou(_ other: Rect) -> Double {
        let ix = max(0, min(x + w, other.x + other.w) - max(x, other.x))
        let iy = max(0, min(y + h, other.y + other.h) - max(y, other.y))
        let inter = ix * iy
        let union = w * h + other.w * other.h - inter
        return union > 0 ? inter / union : 0
    }
}

/// A point in pixels.
public struct Point: Sendable, Equatable, Codable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) { self.x = x; self.y = y }
}

/// One detected face, in **raw (unmirrored) source-frame pixels**.
public struct DetectedFace: Sendable, Equatable {
    /// The face's bounding box, tracked and smoothed over frames (`FaceTracker`), in the
    /// detector's convention (dlib HOG: roughly eyebrows to chin, cheek to cheek).
    public var box: Rect
    /// Detector confidence (dlib SVM margin).
    public var score: Double
    /// 68 landmarks in the iBUG 300-W order, or empty when not computed.
    public var landmarks: [Point]
    /// Head pose in degrees, when landmarks were available. Yaw: positive when the face turns
    /// towards the raw frame's right; pitch: positive when the chin goes up; roll: positive
    /// counter-clockwise in the raw, unmirrored frame (as in shared/media ground truth).
    public var yaw: Double?
    public var pitch: Double?
    public var roll: Double?
    /// The detector's own box for this face on this frame, before tracking (nil when the
    /// detector did not confirm the face on this frame). On a tracked frame the detector did not
    /// search (`FaceAnalysis.TrackedSearchSchedule`: nothing changed), the box of its last
    /// search, at most 250 ms of frame time old. `box` is the tracked one.
    public var detectorBox: Rect?
    public init(box: Rect, score: Double = 0, landmarks: [Point] = [], yaw: Double? = nil, pitch: Double? = nil,
                roll: Double? = nil, detectorBox: Rect? = nil) {
        self.box = box; self.score = score; self.landmarks = landmarks; self.yaw = yaw; self.pitch = pitch; self.roll = roll
        self.detectorBox = detectorBox
    }
}

/// Everything analysis measured on one frame. Produced by FaceAnalysis, consumed by the
/// guidance rules and the state machine (`Event.frameAnalyzed`).
public struct FrameAnalysis: Sendable, Equatable {
    /// Index of the analysed frame in its source (0-based).
    public var frameIndex: Int
    /// Frame timestamp in milliseconds from the source's start.
    public var timestampMs: Int
    /// Source frame size in pixels.
    public var frameWidth: Int
    public var frameHeight: Int
    /// Faces found, most confident first.
    public var faces: [DetectedFace]
    /// Mean luma (0...255) of the face region of the first face, or of the whole frame if none.
    public var brightness: Double
    /// Fraction (0...1) of the face region's pixels at or above 250 luma (clipped highlights).
    public var clippedFraction: Double
    /// Size-normalised sharpness (variance of the Laplacian on the face region); higher is sharper.
    public var sharpness: Double
    /// Whether the eyes look open, nil when unknown: `EyeOpennessJudge`'s verdict, relative to
    /// the person's own open-eye aperture in this capture (set by `Guidance.judge`; FaceAnalysis
    /// only measures the aperture, the quality vector's `EyesOpen`).
    public var eyesOpen: Bool?
    /// The `EyesOpen` aperture below which this frame's eyes counted as closed (the verdict's
    /// limit, same unit), nil when there was no verdict.
    public var eyesOpenLimit: Double?
    /// Mean luma of the whole frame, 0…255 (the camera's exposure, whoever is in front of it),
    /// nil when not measured (frames built by hand).
    public var sceneBrightness: Double?
    /// The ISO/IEC 29794-5 quality vector of the first face (`QualityVector`; FaceAnalysis
    /// `QualityMeasures`), nil when not computed (tests and drivers that build a frame by hand).
    public var quality: QualityVector?
    public init(frameIndex: Int, timestampMs: Int, frameWidth: Int, frameHeight: Int, faces: [DetectedFace],
                brightness: Double, clippedFraction: Double = 0, sharpness: Double, eyesOpen: Bool? = nil,
                quality: QualityVector? = nil, sceneBrightness: Double? = nil) {
        self.sceneBrightness = sceneBrightness
        self.frameIndex = frameIndex; self.timestampMs = timestampMs
        self.frameWidth = frameWidth; self.frameHeight = frameHeight; self.faces = faces
        self.brightness = brightness; self.clippedFraction = clippedFraction; self.sharpness = sharpness
        self.eyesOpen = eyesOpen; self.quality = quality
    }
}

/// The one hint shown to the user at a time. Raw values are stable identifiers used in events
/// and the analysis log; the string key is `selfie_capture_hint_<snake_case>` (see `stringKey`).
/// Directions are in the user's **mirrored** view (shared/media README: a face in the raw
/// frame's left part is shown on the right and the user is told `moveLeft`).
public enum Hint: String, Sendable, CaseIterable, Codable {
    case noFace, multipleFaces, getCloser, getFurther, moveLeft, moveRight, moveUp, moveDown
    case turnHeadLess, levelHead, tooDark, tooBright, tooBlurry, openEyes, holdStill
    /// Issue #11 (quality vector): uneven light or backlight ("Face the light"); mouth open
    /// ("Close your mouth"); face too few pixels for the recording ("Move closer", or for the
    /// operator "choose a higher --quality" when the camera can do more); face partly outside
    /// the frame. See `GuidanceRules.judge` for the one priority list.
    case faceTheLight, closeMouth, faceTooSmall, faceTooSmallRaiseQuality, faceOutOfFrame

    /// Hints about where the face is (none, several, distance, position): they follow the face
    /// as it moves, so `HintDebouncer` does not hold them back by its once-a-second limit.
    public var isPlacement: Bool {
        switch self {
        case .noFace, .multipleFaces, .getCloser, .getFurther, .moveLeft, .moveRight, .moveUp, .moveDown: return true
        default: return false
        }
    }

    /// The hints judged on the quality vector (issue #11): they must persist longer before they
    /// are shown (`GuidanceConfig.qualityHintPersistMs`), since one frame's measure is noisy.
    public var isQuality: Bool {
        switch self {
        case .faceTheLight, .closeMouth, .faceTooSmall, .faceTooSmallRaiseQuality, .faceOutOfFrame: return true
        default: return false
        }
    }

    /// The localization key, e.g. `selfie_capture_hint_get_closer`.
    public var stringKey: String {
        var snake = ""
        for ch in rawValue {
            if ch.isUppercase { snake += "_" + ch.lowercased() } else { snake.append(ch) }
        }
        return "selfie_capture_hint_" + snake
    }
}
