import CaptureModel

extension SceneSignature {
    /// Which blocks of the `columns × rows` grid of a `width × height` frame `rect` (pixels of
    /// that frame) overlaps, row by row like `means`. Block (c, r) holds the pixels whose
    /// `x · columns / width` is c and `y · rows / height` is r (the sampling of `init(gray:)`).
    public static func blocks(covering rect: Rect, width: Int, height: Int) -> [Bool] {
        var mask = [Bool](repeating: false, count: columns * rows)
        guard width > 0, height > 0, rect.w > 0, rect.h > 0 else { return mask }
        let bw = Double(width) / Double(columns), bh = Double(height) / Double(rows)
        for r in 0..<rows where rect.y < Double(r + 1) * bh && rect.y + rect.h > Double(r) * bh {
            for c in 0..<columns where rect.x < Double(c + 1) * bw && rect.x + rect.w > Double(c) * bw {
                mask[r * columns + c] = true
            }
        }
        return mask
    }

    /// The largest difference of one block's mean between `self` and `other` over the blocks
    /// where `mask` is `inside` (luma levels; 0 when there are none); `.infinity` when the grids
    /// differ.
    public func maxDifference(_ other: SceneSignature, mask: [Bool], inside: Bool) -> Float {
        guard !means.isEmpty, means.count == other.means.count, mask.count == means.count else { return .infinity }
        var d: Float = 0
        for i in means.indices where mask[i] == inside { d = max(d, abs(means[i] - other.means[i])) }
        return d
    }
}

/// When to run the HOG searches on a frame while a face is tracked (issue #28: "analyse what is
/// needed, not every frame"). Pure: frame times and the frame's `SceneSignature` come in.
///
/// **The tracking-ROI search** runs on a frame when any of these holds, else the faces of the
/// last search confirm the tracks again (`TrackingFaceDetector` hands them back unchanged):
/// - no ROI search since `reset()`, or time went back (a new source), or the caller asks for one
///   (`force`: a track the last search did not confirm, a tentative track, a landmark fit that
///   degraded: each needs the detector's own word on this frame);
/// - the tracked boxes are not the ones confirmed by the last search: another count, or one
///   overlapping its box of then by less than `regionIoU`;
/// - a block of the frame's `SceneSignature` that the ROI covers moved by `changeThreshold` or
///   more from the frame of the last ROI search (the face or what is around it changed);
/// - `roiMaxIntervalMs` or more of frame time passed since the last ROI search.
///
/// **The downscaled whole-frame search** that looks for a second face is due, as before, every
/// `DetectionStrategy.fullSearchInterval` frames; while a face is tracked it then runs only when
/// a block OUTSIDE the ROI moved by `changeThreshold` since the last whole-frame search (a
/// person walking in changes the blocks they cover), or `fullMaxIntervalMs` passed. So a second
/// face is found within the same frame bound as before, and a still scene is not searched
/// again and again.
public struct TrackedSearchSchedule: Sendable, Equatable {
    /// A block mean change that calls for a search, luma levels. 4: as `IdleSearchSchedule`
    /// (≥ 8× the noise of a still scene's block mean; a face moving by a tenth of a block across
    /// a face/background edge of 40 levels changes it by 4).
    public var changeThreshold: Float = 4
    /// The tracked boxes must overlap the boxes the last search confirmed by at least this IoU.
    /// 0.9: a move of ~5 % of the face's size (~1.6 % of the frame width for a face a third of
    /// it), half the 3 % `StillnessConfig.holdCenterTolerance`; a face moving more than that is
    /// searched as before.
    public var regionIoU: Double = 0.9
    /// The longest frame time a search confirms a track for, ms. 250: the blip the capture flow
    /// already tolerates without the detector (`FaceTrackerConfig.coastMs`,
    /// `StillnessConfig.graceMs`): a face is never reported on an older confirmation than a
    /// coasting track is kept on.
    public var roiMaxIntervalMs: Int = 250
    /// The longest frame time between two whole-frame searches while the outside of the ROI
    /// does not change, ms. 500: as `IdleSearchSchedule.maxIntervalMs` (the safety net for a
    /// face that appears without changing the picture enough).
    public var fullMaxIntervalMs: Int = 500

    private var roiSearchMs: Int?
    private var roiReference: SceneSignature?
    private var confirmed: [Rect]?
    private var fullSearchMs: Int?
    private var fullReference: SceneSignature?

    public init(changeThreshold: Float = 4, regionIoU: Double = 0.9, roiMaxIntervalMs: Int = 250,
                fullMaxIntervalMs: Int = 500) {
        self.changeThreshold = changeThreshold; self.regionIoU = regionIoU
        self.roiMaxIntervalMs = roiMaxIntervalMs; self.fullMaxIntervalMs = fullMaxIntervalMs
    }

    /// Forgets every search: the next tracked frame is searched. Call while no face is tracked.
    public mutating func reset() {
        roiSearchMs = nil; roiReference = nil; confirmed = nil; fullSearchMs = nil; fullReference = nil
    }

    /// Whether the tracked frame taken at `timestampMs`, with look `signature`, tracked boxes
    /// `regions` (frame pixels) and ROI blocks `roiMask` (`SceneSignature.blocks(covering:…)`),
    /// gets an ROI search. A `true` makes this frame the reference for the next decisions; the
    /// boxes it confirms are given by `confirm(_:)` afterwards.
    public mutating func shouldSearchROI(timestampMs t: Int, signature: SceneSignature, regions: [Rect],
                                         roiMask: [Bool], force: Bool = false) -> Bool {
        var due = force
        if !due, let last = roiSearchMs, let ref = roiReference, let boxes = confirmed {
            due = t < last || t - last >= roiMaxIntervalMs
                || boxes.count != regions.count
                || zip(boxes, regions).contains { $0.iou($1) < regionIoU }
                || signature.maxDifference(ref, mask: roiMask, inside: true) >= changeThreshold
        } else {
            due = true
        }
        if due { roiSearchMs = t; roiReference = signature; confirmed = nil }
        return due
    }

    /// The tracked boxes as the last ROI search left them (the faces it found, then the
    /// tracker's boxes once it matched them); later frames are compared with them.
    public mutating func confirm(_ boxes: [Rect]) {
        if roiSearchMs != nil { confirmed = boxes }
    }

    /// Whether the periodic whole-frame search (due by the frame count) runs on the tracked
    /// frame taken at `timestampMs`: outside `roiMask` a block moved ≥ `changeThreshold` since
    /// the last whole-frame search, or `fullMaxIntervalMs` passed, or none ran yet. A `true`
    /// makes this frame the reference (as does `searchedWhole`).
    public mutating func shouldSearchWhole(timestampMs t: Int, signature: SceneSignature, roiMask: [Bool]) -> Bool {
        var due = true
        if let last = fullSearchMs, let ref = fullReference {
            due = t < last || t - last >= fullMaxIntervalMs
                || signature.maxDifference(ref, mask: roiMask, inside: false) >= changeThreshold
        }
        if due { searchedWhole(timestampMs: t, signature: signature) }
        return due
    }

    /// Records a whole-frame search that ran for another reason (the ROI found nothing).
    public mutating func searchedWhole(timestampMs t: Int, signature: SceneSignature) {
        fullSearchMs = t; fullReference = signature
    }
}
