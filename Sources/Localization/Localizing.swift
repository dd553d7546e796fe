/// A typed argument for a format specifier. The formatter checks each specifier's type against
/// these; a mismatch never reaches C varargs.
public enum FormatArgument: Sendable, Equatable {
    /// For `%d %i %u %ld %lld %lu %llu` and plural variables.
    case int(Int)
    /// For `%f %.Nf` (and plural variables with fractions).
    case double(Double)
    /// For `%@ %s`.
    case string(String)
}

/// Looks up a localized text by key and formats it with typed arguments. Implemented by the
/// localization engine (`Localizer`); the screens depend only on this protocol.
public protocol Localizing: Sendable {
    /// The resolved locale tag in use (e.g. `fr`, `fr_CA`).
    var locale: String { get }
    /// The text for `key` formatted with `args`; never crashes: a missing key returns the key
    /// itself, a bad translation falls back to the base language.
    func text(_ key: String, _ args: [FormatArgument]) -> String
}

extension Localizing {
    /// `text(key, [])`.
    public func text(_ key: String) -> String { text(key, []) }
}
