/// The pseudo-locale `en-XA` for testers: every English text accented, bracketed and about 40 %
/// longer ("Place your face in the oval" → "[Ṕļåçé ýöûŕ ƒåçé ïñ ţĥé öṽåļ one two]"), so text
/// that is cut, hard-coded or overflowing shows on every screen while it stays readable.
///
/// Format specifiers (`%d`, `%1$@`, `%.1f`), variable references (`%#@n@`) and `%%` are kept
/// as they are, so arguments and plural selection (English CLDR rules) work unchanged. The tag
/// follows Android's and Chrome's pseudo-locales (`en-XA`, the accented one; ISO 3166 reserves
/// `XA`–`XZ` for private use). Expansion: filler words ("one", "two", …) are added while they
/// bring the text's length closer to 1.4 × its literal length (brackets included), the
/// expansion Android's pseudo-localizer and IBM's guidance use for short UI strings.
public enum PseudoLocale {
    /// The normalized tag (`--locale en-XA` or `en_XA`).
    public static let tag = "en_XA"

    /// Whether `locale` names the pseudo-locale.
    public static func isPseudo(_ locale: String) -> Bool { LocaleResolver.matchKey(locale) == "en_xa" }

    static let accents: [Character: Character] = {
        let from = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        let to = Array("åƀçðéƒĝĥïĵķļɱñöþǫŕšţûṽŵẋýžÅƁÇÐÉƑĜĤÎĴĶĻṀÑÖṔǪŔŠŢÛṼŴẊÝŽ")
        var m: [Character: Character] = [:]
        for (f, t) in zip(from, to) { m[f] = t }
        return m
    }()
    static let fillers = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]

    /// A plain text (a `.strings` value or a format): accented, padded and bracketed.
    public static func text(_ format: String) -> String { transform(format, bracketed: true) }

    /// A localized text: a plain one as `text(_:)`; a plural entry with its format bracketed
    /// and each variant accented and padded (not bracketed, since it sits inside the format).
    public static func transform(_ t: LocalizedText) -> LocalizedText {
        switch t {
        case .plain(let s): return .plain(text(s))
        case .plural(var e):
            e.format = transform(e.format, bracketed: true)
            for (name, var v) in e.variables {
                for (c, s) in v.variants { v.variants[c] = transform(s, bracketed: false) }
                e.variables[name] = v
            }
            return .plural(e)
        }
    }

    static func transform(_ format: String, bracketed: Bool) -> String {
        var out = ""
        var literal = 0
        for t in FormatString.tokenize(format) {
            switch t {
            case .literal(let s):
                for ch in s {
                    out.append(accents[ch] ?? ch)
                    if ch == "%" { out.append("%") }
                    literal += 1
                }
            case .specifier(let s): out += s.text
            case .variable(_, _, let text): out += text
            case .invalid(let s): out += s
            }
        }
        let target = 1.4 * Double(literal)
        var length = Double(literal + (bracketed ? 2 : 0))
        var k = 0
        while literal > 0 {
            let word = fillers[k % fillers.count]
            let next = length + Double(word.count + 1)
            guard abs(next - target) < abs(length - target) else { break }
            out += " " + word
            length = next
            k += 1
        }
        return bracketed ? "[" + out + "]" : out
    }
}
