import CaptureFlow
import JSON
import Localization

/// The string files, and texts of them, that a capture could not use from the override layers
/// (`$XDG_CONFIG_HOME/selfie-capture/Localizations` and each `--strings DIR`): issue #14, "a broken
/// override is never silent". `Localizer` leaves out a file that does not parse or is refused
/// (a binary or non-dictionary plist…) and a text whose specifiers do not match English or a
/// plural entry with an error; the layer below, in the end the built-in text, is shown instead.
/// The capture reports them when it starts: on stderr (`file:line:col: error: …`, then one
/// note line per file), as `stringsRejected` events, and as one line on the screens before the
/// capture (`selfie_capture_strings_rejected`). Warnings (duplicate keys, unused variables) are
/// left to `strings lint`; errors in the built-in tables are not reported here (they are linted
/// by the test suite, and "the built-in text is used" would not be true of them).
public struct RejectedStrings: Sendable, Equatable {
    /// The error diagnostics of override files, in load order.
    public var errors: [Diagnostic]

    /// The errors among `diagnostics` whose file is not under the built-in folder `builtIn`
    /// (nil: no built-in folder, every error counts).
    public init(diagnostics: [Diagnostic], builtIn: String?) {
        errors = diagnostics.filter { d in
            d.severity == .error && !(builtIn.map { d.file == $0 || d.file.hasPrefix($0 + "/") } ?? false)
        }
    }

    /// The rejections of the capture's localizer, its built-in folder found as
    /// `Localizer.standard` finds it.
    public init(strings: Localizer, inputs: LocalizationInputs = .current()) {
        self.init(diagnostics: strings.diagnostics, builtIn: LocalizationPaths.resolve(stringsDirectories: [], inputs: inputs).builtIn)
    }

    public var isEmpty: Bool { errors.isEmpty }

    /// The files concerned, in the order of their first error.
    public var files: [String] {
        var seen = Set<String>()
        return errors.map(\.file).filter { seen.insert($0).inserted }
    }

    /// What goes to stderr: per file its errors (`file:line:col: error: message`, or
    /// `file: error: key: message` for one text), then one note: the file is not used and the
    /// built-in text is used for its table, or which texts fall back to the built-in text.
    public var report: String {
        var out = ""
        for file in files {
            let errs = errors.filter { $0.file == file }
            for e in errs { out += e.description + "\n" }
            if errs.contains(where: { $0.keyPath == nil }) {
                out += "\(file): note: the file is not used; the built-in text is used for its table\n"
            } else {
                var seen = Set<String>()
                let keys = errs.compactMap { $0.keyPath?.split(separator: "/").first.map(String.init) }.filter { seen.insert($0).inserted }
                out += "\(file): note: the built-in text is used for \(keys.joined(separator: ", "))\n"
            }
        }
        return out
    }

    /// One `stringsRejected` event per error at `tMs`: `file`, `line` and `column` (1-based;
    /// null when the error has no position, e.g. a `.stringsdict` text refused for its specifiers), `message`,
    /// and `key` (the key path inside the file, null for a whole file).
    public func events(tMs: Int) -> [FlowEvent] {
        errors.map { e in
            FlowEvent(.stringsRejected, tMs: tMs, fields: [
                EventField("file", .string(e.file)),
                EventField("line", e.line.map { .int($0) } ?? .null),
                EventField("column", e.column.map { .int($0) } ?? .null),
                EventField("message", .string(e.message)),
                EventField("key", e.keyPath.map { .string($0) } ?? .null),
            ])
        }
    }

    /// The screens' line (`selfie_capture_strings_rejected` with the files' last two path
    /// components, e.g. `de.lproj/Localizable.strings`), or nil when nothing was rejected.
    public func notice(_ strings: any Localizing) -> String? {
        guard !isEmpty else { return nil }
        let names = files.map { $0.split(separator: "/").suffix(2).joined(separator: "/") }
        return strings.text("selfie_capture_strings_rejected", [.string(names.joined(separator: ", "))])
    }
}
