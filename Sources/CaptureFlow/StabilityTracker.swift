/// Tells whether the face is holding still: its centre has moved less than `centerFraction` of
/// the frame width and its size changed less than `sizeFraction` since an anchor taken when it
/// last settled (issue #5: 3 % and 5 %). Comparing with an anchor rather than the previous frame
/// also catches a slow drift.
///
/// Centre and size come from the 68 landmarks when present (their centroid and RMS spread: these
/// move smoothly, while dlib's box size jumps in 5/6 pyramid steps, up to ~20 % for the same
/// face), otherwise from the detector box (centre, height).
public struct StabilityTracker: Sendable, Equatable {
    public var centerFraction: Double
    public var sizeFraction: Double
    private var anchor: (x: Double, y: Double, size: Double)?

    public init(centerFraction: Double = 0.03, sizeFraction: Double = 0.05) {
        self.centerFraction = centerFraction; self.sizeFraction = sizeFraction
    }

    public static func == (a: StabilityTracker, b: StabilityTracker) -> Bool {
        a.centerFraction == b.centerFraction && a.sizeFraction == b.sizeFraction
            && a.anchor?.x == b.anchor?.x && a.anchor?.y == b.anchor?.y && a.anchor?.size == b.anchor?.size
    }

    /// Centre (x, y) and size of a face in pixels, as used for stability.
    public static func measure(_ face: DetectedFace) -> (x: Double, y: Double, size: Double) {
        let lm = face.landmarks
        if lm.count >= 68 {
            var sx = 0.0, sy = 0.0
            for p in lm { sx += p.x; sy += p.y }
            let n = Double(lm.count)
            let mx = sx / n, my = sy / n
            var s2 = 0.0
            for p in lm { s2 += (p.x - mx) * (p.x - mx) + (p.y - my) * (p.y - my) }
            return (mx, my, (s2 / n).squareRoot())
        }
        return (face.box.centerX, face.box.centerY, face.box.h)
    }

    /// Feeds the face of a valid frame (nil when the frame is not valid: the anchor is dropped).
    /// Returns true when the face is within the limits of the anchor; false on the first frame and
    /// whenever the limits are exceeded (the anchor then moves to the new position).
    public mutating func update(_ face: DetectedFace?, frameWidth: Int) -> Bool {
        guard let face else { anchor = nil; return false }
        let m = Self.measure(face)
        guard let a = anchor, a.size > 0 else { anchor = m; return false }
        let dc = ((m.x - a.x) * (m.x - a.x) + (m.y - a.y) * (m.y - a.y)).squareRoot() / Double(max(frameWidth, 1))
        let ds = abs(m.size / a.size - 1)
        if dc < centerFraction && ds < sizeFraction { return true }
        anchor = m
        return false
    }

    public mutating func reset() { anchor = nil }
}
