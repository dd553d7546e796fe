import CICUPlural

/// A CLDR plural category (CLDR 42 as shipped in ICU 72, Debian 12's libicu72).
public enum PluralCategory: String, CaseIterable, Sendable, Codable {
    case zero, one, two, few, many, other
}

/// CLDR plural rules, answered by ICU (`uplrules_select`) through the `CICUPlural` shim.
public enum PluralRules {
    /// The CLDR plural category of `number` in `locale`.
    ///
    /// - Parameters:
    ///   - locale: a BCP 47 or ICU locale tag (`fr`, `fr-CA`, `pl_PL`); unknown tags get ICU's root
    ///     rules (everything is `other`).
    ///   - number: the number being counted.
    ///   - fractionDigits: visible fraction digits (CLDR operand `v`), or `nil` to treat a whole
    ///     number as an integer (`1` not `1.0`).
    /// - Returns: the category; `.other` if ICU fails.
    public static func category(locale: String, number: Double, fractionDigits: Int? = nil) -> PluralCategory {
        var buf = [CChar](repeating: 0, count: 32)
        let icuLocale = String(locale.map { $0 == "-" ? "_" : $0 })
        let rc = cicu_plural_category(icuLocale, number, Int32(fractionDigits ?? -1), &buf, buf.count)
        guard rc == 0 else { return .other }
        let name = String(decoding: buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return PluralCategory(rawValue: name) ?? .other
    }

    /// The categories `locale` uses (ICU `uplrules_getKeywords`), e.g. `[.one, .few, .many, .other]` for `pl`.
    public static func categories(locale: String) -> Set<PluralCategory> {
        var buf = [CChar](repeating: 0, count: 128)
        let icuLocale = String(locale.map { $0 == "-" ? "_" : $0 })
        guard cicu_plural_keywords(icuLocale, &buf, buf.count) == 0 else { return [.other] }
        let text = String(decoding: buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return Set(text.split(separator: " ").compactMap { PluralCategory(rawValue: String($0)) })
    }

    /// The ICU version in use, e.g. "72.1".
    public static var icuVersion: String { String(cString: cicu_version()) }
}

extension PluralRules {
    /// The categories whole-number arguments (`%d`, `%ld`, `%lld`) can reach in `locale`, found by
    /// asking ICU for 0…1010 and the powers of ten up to 10⁹ (every CLDR 42 integer rule depends
    /// only on `n % 100`, `n % 1000`, `n % 1000000` or small values, so this set is exhaustive).
    /// E.g. `pl` → one, few, many (`other` is for fractions only; PL-04/PL-06).
    public static func integerCategories(locale: String) -> Set<PluralCategory> {
        var found = Set<PluralCategory>()
        let all = categories(locale: locale)
        var numbers = Array(0...1010).map(Double.init)
        var p = 10_000.0
        while p <= 1e9 { numbers.append(p); numbers.append(p + 1); p *= 10 }
        for n in numbers {
            found.insert(category(locale: locale, number: n))
            if found == all { break }
        }
        return found
    }
}
