/// `--keep-failed` (issue #25): the frames that explain a failed attempt, as AWS Amplify Face
/// Liveness keeps audit images. Pure and generic over the frame (the app keeps `VideoFrame`s).
///
/// Rule: for each hint seen while the attempt ran, the newest frame judged with it; the four
/// most recently seen hints are kept (oldest dropped first), so the frames show what the
/// person was last told, the failing state last. A hint seen again moves to the newest place
/// with its newer frame. 4 is Amplify's count of audit images (`auditImagesLimit`, up to 4).
public struct FailureFrames<Frame> {
    /// Frames kept per failed attempt.
    public static var limit: Int { 4 }

    public struct Kept {
        public var frame: Frame
        /// `Hint`'s raw value (`noFace`, `turnHeadLess`, …), or `ok` for a valid frame.
        public var hint: String
        public var frameIndex: Int
        /// The frame's time on the run's clock, ms.
        public var tMs: Int
    }

    public private(set) var kept: [Kept] = []

    public init() {}

    /// Notes a judged frame of the running attempt.
    public mutating func note(_ frame: Frame, hint: String, frameIndex: Int, tMs: Int) {
        kept.removeAll { $0.hint == hint }
        kept.append(Kept(frame: frame, hint: hint, frameIndex: frameIndex, tMs: tMs))
        if kept.count > Self.limit { kept.removeFirst(kept.count - Self.limit) }
    }

    /// Forgets the attempt (a new one starts).
    public mutating func reset() { kept = [] }
}
