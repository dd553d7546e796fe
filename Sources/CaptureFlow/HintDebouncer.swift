import CaptureModel

/// Keeps the shown hint until a different one has persisted (frame timestamps; no clock reads),
/// so the hint does not flicker between frames.
///
/// Rules (issues #5 and #11), in order:
/// - the first hint is shown at once;
/// - a different hint replaces the shown one once it has been the raw hint on every frame for
///   `persistMs` (200 ms, issue #5), or `qualityPersistMs` (500 ms) for a quality hint
///   (`Hint.isQuality`: its measure is noisier from frame to frame than a position);
/// - while the face is still, i.e. neither the shown nor the new hint is a placement hint
///   (`Hint.isPlacement`: no face, several, distance, position), the shown hint changes at most
///   once per `minChangeIntervalMs` (1 s, issue #11: "never flickers: at most one change per
///   second while the face is still"). Placement hints follow a moving face at `persistMs`.
public struct HintDebouncer: Sendable, Equatable {
    public var persistMs: Int
    public var qualityPersistMs: Int
    public var minChangeIntervalMs: Int
    /// The hint on screen (nil before the first frame).
    public private(set) var shown: Hint?
    private var candidate: Hint?
    private var candidateSinceMs = 0
    private var lastChangeMs = 0

    public init(persistMs: Int = 200, qualityPersistMs: Int = 500, minChangeIntervalMs: Int = 1000) {
        self.persistMs = persistMs; self.qualityPersistMs = qualityPersistMs; self.minChangeIntervalMs = minChangeIntervalMs
    }

    /// Feeds the raw hint of a frame at `timestampMs`; returns the hint to show.
    public mutating func update(_ raw: Hint, timestampMs: Int) -> Hint {
        guard let current = shown else { shown = raw; lastChangeMs = timestampMs; return raw }
        if raw == current { candidate = nil; return current }
        if raw != candidate { candidate = raw; candidateSinceMs = timestampMs }
        let persisted = timestampMs - candidateSinceMs >= (raw.isQuality ? qualityPersistMs : persistMs)
        let mayChange = raw.isPlacement || current.isPlacement || timestampMs - lastChangeMs >= minChangeIntervalMs
        if persisted && mayChange { shown = raw; candidate = nil; lastChangeMs = timestampMs }
        return shown ?? raw
    }

    public mutating func reset() { shown = nil; candidate = nil }
}
