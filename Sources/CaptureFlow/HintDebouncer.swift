/// Keeps the shown hint until a different one has persisted for `persistMs` (frame timestamps; no
/// clock reads), so the hint does not flicker between frames.
public struct HintDebouncer: Sendable, Equatable {
    public var persistMs: Int
    /// The hint on screen (nil before the first frame).
    public private(set) var shown: Hint?
    private var candidate: Hint?
    private var candidateSinceMs = 0

    public init(persistMs: Int = 200) { self.persistMs = persistMs }

    /// Feeds the raw hint of a frame at `timestampMs`; returns the hint to show. The first hint is
    /// shown at once; a later one once it has been the raw hint on every frame for ≥ `persistMs`.
    public mutating func update(_ raw: Hint, timestampMs: Int) -> Hint {
        guard let current = shown else { shown = raw; return raw }
        if raw == current { candidate = nil; return current }
        if raw != candidate { candidate = raw; candidateSinceMs = timestampMs }
        if timestampMs - candidateSinceMs >= persistMs { shown = raw; candidate = nil }
        return shown ?? raw
    }

    public mutating func reset() { shown = nil; candidate = nil }
}
