#if canImport(Glibc)
import Glibc
#endif

/// The One Euro filter (Casiez, Roussel & Vogel, "1€ Filter: A Simple Speed-based Low-pass Filter
/// for Noisy Input in Interactive Systems", CHI 2012): a first-order low-pass filter whose cutoff
/// rises with the signal's speed, so a still signal is smoothed hard and a moving one follows with
/// little lag. One value; feed samples in time order.
///
/// Per sample: the derivative is low-passed at `derivativeCutoffHz`; the cutoff is
/// `minCutoffHz + beta·|derivative|`; the value is low-passed at that cutoff, with the smoothing
/// factor α = 1 / (1 + τ/Tₑ), τ = 1/(2π·cutoff), Tₑ the time since the previous sample (the
/// paper's equations 1–4).
public struct OneEuroFilter: Sendable, Equatable {
    /// The filter's three parameters (the paper's names).
    public struct Parameters: Sendable, Equatable {
        /// fc_min in Hz: the cutoff of a still signal. Lower smooths jitter more and lags slow moves more.
        public var minCutoffHz: Double
        /// β in 1/(unit of the signal): how fast the cutoff rises with speed (units per second).
        public var beta: Double
        /// f_cd in Hz: the cutoff of the derivative's own low-pass (the paper uses 1 Hz).
        public var derivativeCutoffHz: Double
        public init(minCutoffHz: Double, beta: Double, derivativeCutoffHz: Double = 1) {
            self.minCutoffHz = minCutoffHz; self.beta = beta; self.derivativeCutoffHz = derivativeCutoffHz
        }
    }

    public var parameters: Parameters
    private var value: Double?
    private var derivative = 0.0
    private var lastSeconds = 0.0

    public init(_ parameters: Parameters) { self.parameters = parameters }

    /// The last filtered value, nil before the first sample.
    public var current: Double? { value }

    /// Filters `x` taken at `seconds` (any origin). The first sample passes through unchanged; a
    /// sample at the same time as the previous one returns the previous output; a sample earlier
    /// than the previous one (a source that started over) starts the filter over.
    public mutating func filter(_ x: Double, seconds: Double) -> Double {
        guard let prev = value else {
            value = x; derivative = 0; lastSeconds = seconds
            return x
        }
        let dt = seconds - lastSeconds
        if dt < 0 { reset(); return filter(x, seconds: seconds) }   // the clock went back: start over
        guard dt > 0 else { return prev }
        lastSeconds = seconds
        let dx = (x - prev) / dt
        derivative += Self.alpha(cutoffHz: parameters.derivativeCutoffHz, dt: dt) * (dx - derivative)
        let cutoff = parameters.minCutoffHz + parameters.beta * abs(derivative)
        let out = prev + Self.alpha(cutoffHz: cutoff, dt: dt) * (x - prev)
        value = out
        return out
    }

    /// Forgets the history: the next sample passes through.
    public mutating func reset() { value = nil; derivative = 0 }

    /// α = 1 / (1 + τ/Tₑ) with τ = 1/(2π·cutoff).
    static func alpha(cutoffHz: Double, dt: Double) -> Double {
        let tau = 1 / (2 * Double.pi * max(cutoffHz, 1e-6))
        return 1 / (1 + tau / dt)
    }
}
