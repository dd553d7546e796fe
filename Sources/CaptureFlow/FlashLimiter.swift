/// Holds a shown on/off state so it changes at most once per `minIntervalMs`: the oval's
/// valid/invalid colour (issue #17, "no flashing"). WCAG 2.1 SC 2.3.1 (Three Flashes or Below
/// Threshold): nothing may flash more than three times in any one-second period; a colour
/// change is half a flash, so at most three changes a second is on the safe side. 334 ms
/// between changes gives at most 3 in any 1000 ms window. Times are ms of the injected clock
/// (frame timestamps); the limiter reads no clock.
public struct FlashLimiter: Sendable, Equatable {
    /// Shortest time between two changes of the shown state, in ms (334: WCAG 2.1 SC 2.3.1).
    public var minIntervalMs: Int
    /// The state shown (nil before the first update).
    public private(set) var shown: Bool?
    private var lastChangeMs = Int.min / 2

    public init(minIntervalMs: Int = 334) { self.minIntervalMs = minIntervalMs }

    /// Feeds the wanted state at `nowMs`; returns the state to show. A change waits until
    /// `minIntervalMs` have passed since the last one (then it is shown if still wanted).
    public mutating func update(_ wanted: Bool, nowMs: Int) -> Bool {
        guard let s = shown else { shown = wanted; lastChangeMs = nowMs; return wanted }
        if wanted != s, nowMs - lastChangeMs >= minIntervalMs { shown = wanted; lastChangeMs = nowMs }
        return shown ?? wanted
    }

    public mutating func reset() { shown = nil; lastChangeMs = Int.min / 2 }
}
