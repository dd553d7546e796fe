// The face image quality vector of one analysed frame (issue #11): the cheap measures of
// ISO/IEC 29794-5 as BSI's OFIQ computes them, from the 68 landmarks and the gray pixels the
// analysis already has. Pure values here; FaceAnalysis (`QualityMeasures`) computes them.

/// One measure of the vector: its ISO/IEC 29794-5 / OFIQ name (raw value = the name used in
/// OFIQ's `QualityMeasure` enum and `ofiq_config.jaxn`), or ours where OFIQ has no cheap
/// counterpart (documented per case). Raw values are stable identifiers in result.json and the
/// analysis log.
public enum QualityMeasure: String, Sendable, CaseIterable, Codable {
    /// Distance between the eye centres (mid-points of each eye's corners, iBUG 36/39 and 42/45)
    /// divided by cos(yaw), in pixels of the source frame. OFIQ `FaceMeasures::InterEyeDistance`;
    /// score: OFIQ sigmoid h 100, x0 70, w 20 (ofiq_config.jaxn `InterEyeDistance`).
    case interEyeDistance = "InterEyeDistance"
    /// Eye-midpoint-to-chin distance (OFIQ `tmetric`, chin = iBUG 8) over the frame height,
    /// a ratio. OFIQ `HeadSize`; score: 200·(1 − σ(|raw − 0.45|, 0, 0.05)). A selfie framed for
    /// the oval (face box ≈ ½ the height) scores low by design: ICAO framing has the head fill
    /// about 2/3 of a portrait. Reported, not used by the reference score.
    case headSize = "HeadSize"
    /// Head pose, degrees (FaceAnalysis `HeadPose`, not OFIQ's 3DDFA network).
    /// Score: OFIQ `HeadPose.cpp`, round(100·max(0, cos θ)²).
    case headPoseYaw = "HeadPoseYaw"
    case headPosePitch = "HeadPosePitch"
    case headPoseRoll = "HeadPoseRoll"
    /// The smaller eye opening over the `tmetric`, a ratio: each eye's opening is the largest
    /// distance between its eyelid pairs (iBUG 37–41, 38–40; 43–47, 44–46). OFIQ `EyesOpen`;
    /// score: sigmoid h 100, x0 0.02, w 0.01.
    case eyesOpen = "EyesOpen"
    /// The subject's right eye (iBUG 36–41, the raw frame's left) alone, same formula (ours:
    /// OFIQ reports only the smaller of the two).
    case eyeOpenRight = "EyeOpenRight"
    /// The subject's left eye (iBUG 42–47), same formula.
    case eyeOpenLeft = "EyeOpenLeft"
    /// Largest inner-lip opening (iBUG pairs 61–67, 62–66, 63–65) over the `tmetric`, a ratio.
    /// OFIQ `MouthClosed`; score: inverse sigmoid h 100, x0 0.2, w 0.06 (100·(1 − σ)).
    case mouthClosed = "MouthClosed"
    /// Mean luminance of the face region, 0…1 (luma/255). OFIQ `Luminance` (LuminanceMean);
    /// score: round(100·σ(x, 0.2, 0.05)·(1 − σ(x, 0.8, 0.05))).
    case luminanceMean = "LuminanceMean"
    /// Variance of the face region's luminance, (luma/255)². OFIQ `Luminance`
    /// (LuminanceVariance); score: round(100·sin(π·60v/(60v + 1))).
    case luminanceVariance = "LuminanceVariance"
    /// Fraction of face-region pixels with luma 0…25. OFIQ `UnderExposurePrevention`;
    /// score: 120·(0.832 − σ(x, 0.92, 0.05)), clamped to 0…100.
    case underExposurePrevention = "UnderExposurePrevention"
    /// Fraction of face-region pixels with luma 247…255. OFIQ `OverExposurePrevention`;
    /// score: round(1/(x + 0.01)), clamped to 0…100.
    case overExposurePrevention = "OverExposurePrevention"
    /// Histogram intersection (Σ min of the two normalised 256-bin luma histograms, 0…1) of a
    /// zone on each cheek. OFIQ `IlluminationUniformity`; score: round(100·x^0.3).
    case illuminationUniformity = "IlluminationUniformity"
    /// Ours: mean luma of the darker half of the face region over the brighter half, 0…1 (the
    /// halves either side of the line from the eye midpoint to the chin); 1 is even light.
    /// Score: 100·x. The left/right balance the "face the light" hint uses: halves rather than
    /// OFIQ's small cheek zones, which fall on folds and the nose's shadow (DECISIONS.md).
    case illuminationBalance = "IlluminationBalance"
    /// Ours: mean luma of the face region over `BackgroundLuminance`, a ratio (above 1: the face
    /// is brighter than the bright part of what is around it). Score: 100 at ≥ 0.8, falling
    /// linearly to 0 at 0.2. Backlight shows as a low ratio before a bright background.
    case backlight = "Backlight"
    /// Ours: the bright part of the scene, luma/255: the mean of the frame's pixels outside the
    /// face box that are at or above their median (every 4th pixel and row). A window or lamp
    /// behind the person reads near 1. Score: 100 up to 0.8, falling linearly to 0 at 1.0 (a
    /// background near clipping makes the camera's exposure leave the face dark).
    case backgroundLuminance = "BackgroundLuminance"
    /// Ours, not OFIQ's (OFIQ's `Sharpness` is a random forest over image features): the variance
    /// of the Laplacian on the face resampled to 64×64 (`FaceQuality.sharpness`), luma².
    /// Score: 100·σ(x, 150, 50): 50 at the guidance's blur threshold (`GuidanceConfig.minSharpness`).
    case sharpness = "Sharpness"
    /// OFIQ `CropOfTheFaceImage`, in inter-eye distances or `tmetric`s (ratios):
    /// leftward = raw-left eye centre x / IED (score σ(x, 0.9, 0.1)·100),
    case leftwardCrop = "LeftwardCropOfTheFaceImage"
    /// rightward = (frame width − raw-right eye centre x) / IED (σ(x, 0.9, 0.1)),
    case rightwardCrop = "RightwardCropOfTheFaceImage"
    /// above = eye midpoint y / tmetric (σ(x, 1.4, 0.1)),
    case marginAbove = "MarginAboveOfTheFaceImage"
    /// below = (frame height − eye midpoint y) / tmetric (σ(x, 1.8, 0.1)). ICAO portrait framing:
    /// a selfie that fills the oval is expected to score low on the margins; reported only.
    case marginBelow = "MarginBelowOfTheFaceImage"
    /// Ours: the fraction of the landmarks' bounding box (jaw, brows, chin; brows raised by a
    /// third of the brow-to-chin height for the forehead) inside the frame, 0…1. Score 100·x.
    /// The "face fully inside the frame" check.
    case faceInFrame = "FaceInFrame"
    /// OFIQ `SingleFacePresent`: f = area of the second-largest face / area of the largest
    /// (0 for one face); score round(100·(1 − f)). nil raw when no face.
    case singleFacePresent = "SingleFacePresent"

    /// The unit of the raw value, as written in result.json.
    public var unit: String {
        switch self {
        case .interEyeDistance: return "px"
        case .headPoseYaw, .headPosePitch, .headPoseRoll: return "deg"
        case .luminanceVariance: return "luma01^2"
        case .sharpness: return "luma^2"
        case .luminanceMean, .backgroundLuminance: return "luma01"
        case .underExposurePrevention, .overExposurePrevention, .illuminationUniformity, .faceInFrame: return "fraction"
        case .headSize, .eyesOpen, .eyeOpenLeft, .eyeOpenRight, .mouthClosed, .illuminationBalance, .backlight,
             .leftwardCrop, .rightwardCrop, .marginAbove, .marginBelow, .singleFacePresent: return "ratio"
        }
    }
}

/// One component: the measure, its raw value in the measure's unit, and its 0…100 quality score
/// (higher is better). Both nil when the measure could not be assessed (OFIQ's FailureToAssess:
/// no landmarks, an empty zone).
public struct QualityComponent: Sendable, Equatable {
    public var measure: QualityMeasure
    public var raw: Double?
    public var score: Int?
    public init(measure: QualityMeasure, raw: Double?, score: Int?) {
        self.measure = measure; self.raw = raw; self.score = score
    }
}

/// The quality vector of one frame: one component per `QualityMeasure`, in the enum's order.
public struct QualityVector: Sendable, Equatable {
    public var components: [QualityComponent]
    public init(components: [QualityComponent]) { self.components = components }

    /// The component of `m` (nil when absent from the vector).
    public subscript(_ m: QualityMeasure) -> QualityComponent? { components.first { $0.measure == m } }
    /// Shorthand: the raw value of `m`, nil when absent or not assessed.
    public func raw(_ m: QualityMeasure) -> Double? { self[m]?.raw }

    /// The measures the reference score averages: what a face comparison needs (size in pixels,
    /// pose, eyes and mouth, light, focus, the whole face in the frame, one face). Left out:
    /// HeadSize and the four crop margins (ICAO portrait framing, not a selfie's), the per-eye
    /// components (EyesOpen holds the smaller) and LuminanceVariance (contrast, already in
    /// Sharpness and the exposure measures).
    public static let referenceMeasures: [QualityMeasure] = [
        .interEyeDistance, .headPoseYaw, .headPosePitch, .headPoseRoll, .eyesOpen, .mouthClosed,
        .luminanceMean, .underExposurePrevention, .overExposurePrevention, .illuminationUniformity,
        .illuminationBalance, .backlight, .sharpness, .faceInFrame, .singleFacePresent,
    ]

    /// The frame's quality score, 0…100: the mean of the `referenceMeasures` scores, a measure
    /// that could not be assessed counting 0. ISO/IEC 29794-5 leaves the combination to the
    /// application (OFIQ's own unified score is a network, MagFace); an unweighted mean keeps
    /// every measure visible in the result. nil when the vector has no face (SingleFacePresent
    /// not assessed).
    public var referenceScore: Double? {
        guard self[.singleFacePresent]?.raw != nil else { return nil }
        let ms = Self.referenceMeasures
        let sum = ms.reduce(0) { $0 + (self[$1]?.score ?? 0) }
        return Double(sum) / Double(ms.count)
    }
}

/// What a reference frame must reach (ISO/IEC 19794-5's frontal image, as issue #11 cites it):
/// a shortfall names the measure, the value, the limit and by how much it missed. The clause
/// numbers are not given here: the standard's text was not at hand, only these figures.
public struct ReferenceThresholds: Sendable, Equatable {
    /// Least inter-eye distance in pixels: 90, ISO/IEC 19794-5:2005's full frontal image type
    /// (a head at least 180 px wide, about 90 px between the eye centres), the figure ICAO asks.
    public var minInterEyeDistance: Double = 90
    /// Largest |yaw| and |pitch|, degrees: ±5° (ISO/IEC 19794-5's frontal pose requirement).
    public var maxYaw: Double = 5
    public var maxPitch: Double = 5
    /// Largest |roll|, degrees: ±8° (ISO/IEC 19794-5's frontal pose requirement).
    public var maxRoll: Double = 8
    public init() {}

    /// One missed threshold.
    public struct Shortfall: Sendable, Equatable {
        /// The measure (`QualityMeasure` raw value).
        public var measure: QualityMeasure
        /// The frame's raw value (px or degrees); nil when not measured.
        public var value: Double?
        /// The limit: a minimum for InterEyeDistance, a maximum of |angle| for the pose.
        public var limit: Double
        /// How far it missed, in the measure's unit (> 0); nil when not measured.
        public var by: Double?
    }

    /// The thresholds `v` misses (empty: a valid reference).
    public func shortfalls(_ v: QualityVector) -> [Shortfall] {
        var out: [Shortfall] = []
        let ied = v.raw(.interEyeDistance)
        if ied == nil || ied! < minInterEyeDistance {
            out.append(Shortfall(measure: .interEyeDistance, value: ied, limit: minInterEyeDistance,
                                 by: ied.map { minInterEyeDistance - $0 }))
        }
        for (m, limit) in [(QualityMeasure.headPoseYaw, maxYaw), (.headPosePitch, maxPitch), (.headPoseRoll, maxRoll)] {
            let a = v.raw(m)
            if a == nil || abs(a!) > limit {
                out.append(Shortfall(measure: m, value: a, limit: limit, by: a.map { abs($0) - limit }))
            }
        }
        return out
    }
}

/// Ranks recorded frames for the reference image (`reference.jpg`, issue #11).
///
/// Rule: a frame that meets every `ReferenceThresholds` beats one that does not; among those
/// alike, the higher `QualityVector.referenceScore` wins; on a tie, the earlier frame (the
/// order is total, so the choice does not depend on the order frames arrive in). A frame with
/// no face (no score) is never chosen.
public struct ReferenceCandidate: Sendable, Equatable {
    public var frameIndex: Int
    public var timestampMs: Int
    public var score: Double
    public var vector: QualityVector
    public var shortfalls: [ReferenceThresholds.Shortfall]
    public var meetsThresholds: Bool { shortfalls.isEmpty }

    /// The candidate for a frame, nil without a face.
    public init?(frameIndex: Int, timestampMs: Int, vector: QualityVector, thresholds: ReferenceThresholds = ReferenceThresholds()) {
        guard let s = vector.referenceScore else { return nil }
        self.frameIndex = frameIndex; self.timestampMs = timestampMs; self.score = s; self.vector = vector
        shortfalls = thresholds.shortfalls(vector)
    }

    /// True when `self` ranks above `other`.
    public func isBetter(than other: ReferenceCandidate) -> Bool {
        if meetsThresholds != other.meetsThresholds { return meetsThresholds }
        if score != other.score { return score > other.score }
        return frameIndex < other.frameIndex
    }
}
