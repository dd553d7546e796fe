/// Locale tags: normalisation, choice from the environment, and the fallback chain.
public enum LocaleResolver {
    /// A tag in the `ll_RR` form used for `.lproj` lookup and ICU, or nil for none/`C`/`POSIX`.
    ///
    /// Strips a codeset (`.UTF-8`) and a modifier (`@euro`), turns `-` into `_`
    /// (`fr-CA.UTF-8@x` → `fr_CA`). Empty, `C`, `POSIX` and `C.UTF-8` give nil.
    public static func normalize(_ tag: String) -> String? {
        var t = Substring(tag)
        if let at = t.firstIndex(of: "@") { t = t[..<at] }
        if let dot = t.firstIndex(of: ".") { t = t[..<dot] }
        let s = t.replacingHyphens().trimmingSpaces
        if s.isEmpty || s == "C" || s == "POSIX" { return nil }
        return s
    }

    /// The locale to use: `explicit` (`--locale`) if given, else the first of `LC_ALL`,
    /// `LC_MESSAGES`, `LANG` that names a language (POSIX precedence; `C`/`POSIX` skipped), else
    /// `fallback`.
    public static func resolve(explicit: String?, environment: [String: String], fallback: String = "en") -> String {
        if let e = explicit, let n = normalize(e) { return n }
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let v = environment[name], let n = normalize(v) { return n }
        }
        return fallback
    }

    /// Languages to try in order: the tag, then each shorter prefix, then `base`
    /// (`fr_CA` → `fr_CA, fr, en`; `zh_Hans_CN` → `zh_Hans_CN, zh_Hans, zh, en`).
    public static func fallbackChain(_ locale: String, base: String = "en") -> [String] {
        var chain: [String] = []
        var parts = (normalize(locale) ?? base).split(separator: "_").map(String.init)
        while !parts.isEmpty {
            // Joined by hand (`joined(separator:)` costs the runtime's first look-up of a
            // `StringProtocol` conformance, ~0.05 ms of the first screen; issue #28).
            var tag = parts[0]
            for p in parts.dropFirst() { tag += "_" + p }
            chain.append(tag)
            parts.removeLast()
        }
        if !chain.contains(where: { $0.lowercased() == base.lowercased() }) { chain.append(base) }
        return chain
    }

    /// The key two tags are compared by (`fr-CA`, `fr_CA`, `FR_ca` → `fr_ca`).
    public static func matchKey(_ tag: String) -> String { tag.replacingHyphens().lowercased() }
}

extension StringProtocol {
    func replacingHyphens() -> String { String(map { $0 == "-" ? "_" : $0 }) }
}
