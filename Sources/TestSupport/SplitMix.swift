#if canImport(Glibc)
import Glibc
#endif

/// A small deterministic PRNG (SplitMix64, Steele et al., OOPSLA 2014) for bounded fuzzing and
/// test noise: the same seed gives the same sequence on every machine.
public struct SplitMix: Sendable {
    public var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E3779B97F4A7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58476D1CE4E5B9
        z = (z ^ (z >> 27)) &* 0x94D049BB133111EB
        return z ^ (z >> 31)
    }
    /// Uniform in [0, 1).
    public mutating func uniform() -> Double { Double(next() >> 11) / Double(UInt64(1) << 53) }
    /// Standard normal (Box–Muller).
    public mutating func gaussian() -> Double {
        let u = max(uniform(), 1e-12), v = uniform()
        return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * v)
    }
}
