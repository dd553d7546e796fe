import CaptureFlow
#if canImport(Glibc)
import CaptureModel
import Glibc
#endif

/// One step of a `--keys` script.
public enum KeyStep: Sendable, Equatable {
    /// Press a key.
    case key(Key)
    /// Wait this many milliseconds on the injected clock.
    case wait(ms: Int)
    /// Wait until the flow emits this event.
    case waitFor(EventName)
}

/// A bad `--keys` script: where (`source:line:col`) and what.
public struct KeyScriptError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `keys` for an inline script, the file path for `@FILE`.
    public var source: String
    public var line: Int
    public var column: Int
    public var message: String
    public var description: String { "\(source):\(line):\(column): error: \(message)" }
}

/// The `--keys` language: steps separated by `;` or new lines, `#` starts a comment.
///
/// ```
/// enter; wait 500ms; wait-for cameraReady; s
/// ```
/// Steps: a key name (`enter`/`return`, `space`, `esc`/`escape`, `backspace`, `ctrl-c`, or any
/// single character such as `s`, `q`), `wait N` with a unit `ms` or `s` (`wait 1.5s`, or with a
/// space: `wait 2 s`), and
/// `wait-for EVENT` with an event name of DESIGN.md "Events".
public enum KeyScript {
    static let keyNames: [String: Key] = [
        "enter": .enter, "return": .enter, "space": .space, "esc": .escape, "escape": .escape,
        "backspace": .backspace, "ctrl-c": .interrupt,
    ]

    /// Parses a `--keys` argument: the script itself, or `@FILE` to read it from a file (errors
    /// then name the file).
    /// - Throws: `KeyScriptError` (line/column 0 when the file cannot be read).
    public static func parse(argument: String, readFile: (String) -> String? = { path in
        guard let f = fopen(path, "r") else { return nil }
        defer { fclose(f) }
        var bytes: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = fread(&buf, 1, buf.count, f)
            if n <= 0 { break }
            bytes += buf[0..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }) throws -> [KeyStep] {
        guard argument.hasPrefix("@") else { return try parse(argument) }
        let path = String(argument.dropFirst())
        guard let text = readFile(path) else {
            throw KeyScriptError(source: path, line: 0, column: 0, message: "cannot read the key script")
        }
        return try parse(text, source: path)
    }

    /// Parses `text`; `source` names it in errors.
    /// - Throws: `KeyScriptError` at the first bad step.
    public static func parse(_ text: String, source: String = "keys") throws -> [KeyStep] {
        var steps: [KeyStep] = []
        var line = 1
        // "\r\n" is one Character in Swift: a script saved with CRLF line ends splits on it too.
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            defer { line += 1 }
            var content = Substring(rawLine)
            if let hash = content.firstIndex(of: "#") { content = content[..<hash] }
            var col = 1
            for piece in content.split(separator: ";", omittingEmptySubsequences: false) {
                defer { col += piece.count + 1 }
                let leading = piece.prefix { $0 == " " || $0 == "\t" || $0 == "\r" }.count
                let step = piece.trimmingCharacters()
                if step.isEmpty { continue }
                let at = col + leading
                func fail(_ m: String) -> KeyScriptError { KeyScriptError(source: source, line: line, column: at, message: m) }
                let words = step.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
                switch words[0] {
                case "wait":
                    // `wait 2s` or `wait 2 s`: the unit may stand apart, as people write it.
                    let spaced = words.count == 3 && (words[2] == "ms" || words[2] == "s") && Double(words[1]) != nil
                    guard words.count == 2 || spaced else { throw fail("'wait' needs one duration, e.g. 'wait 500ms' or 'wait 2s'") }
                    let text = words.dropFirst().joined()
                    guard let ms = duration(text) else { throw fail("bad duration '\(text)': use a number with ms or s up to a day, e.g. 500ms or 1.5s") }
                    steps.append(.wait(ms: ms))
                case "wait-for":
                    guard words.count == 2 else { throw fail("'wait-for' needs one event name, e.g. 'wait-for cameraReady'") }
                    guard let name = EventName(rawValue: words[1]) else {
                        let near = closest(words[1], in: EventName.allCases.map(\.rawValue))
                        throw fail("unknown event '\(words[1])'" + (near.map { "; did you mean '\($0)'?" } ?? ""))
                    }
                    steps.append(.waitFor(name))
                default:
                    guard words.count == 1 else { throw fail("unknown step '\(step)'") }
                    let w = words[0]
                    if let k = keyNames[w.lowercased()] { steps.append(.key(k)); continue }
                    if w.count == 1, let c = w.first { steps.append(.key(.character(c))); continue }
                    let near = closest(w, in: Array(keyNames.keys) + ["wait", "wait-for"])
                    throw fail("unknown step '\(w)'" + (near.map { "; did you mean '\($0)'?" } ?? ""))
                }
            }
        }
        return steps
    }

    /// Longest wait: one day (86 400 000 ms).
    static let maxWaitMs = 86_400_000.0

    /// `500ms` → 500, `2s` → 2000, `1.5s` → 1500; nil when malformed, negative or over a day.
    static func duration(_ s: String) -> Int? {
        var ms: Double?
        if s.hasSuffix("ms") { ms = Double(s.dropLast(2)) } else if s.hasSuffix("s") { ms = Double(s.dropLast(1)).map { $0 * 1000 } }
        guard let v = ms, v.isFinite, v >= 0, v <= maxWaitMs else { return nil }
        return Int(v.rounded())
    }

    /// The candidate within edit distance 2 of `word`, if any.
    static func closest(_ word: String, in candidates: [String]) -> String? {
        func distance(_ a: [Character], _ b: [Character]) -> Int {
            var prev = Array(0...b.count)
            for i in 1...max(1, a.count) where !a.isEmpty {
                var cur = [i] + Array(repeating: 0, count: b.count)
                for j in 1...max(1, b.count) where !b.isEmpty {
                    cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                }
                prev = cur
            }
            return a.isEmpty ? b.count : (b.isEmpty ? a.count : prev[b.count])
        }
        let w = Array(word.lowercased())
        var best: (String, Int)?
        for c in candidates.sorted() {
            let d = distance(w, Array(c.lowercased()))
            if d <= 2, d < (best?.1 ?? Int.max) { best = (c, d) }
        }
        return best?.0
    }
}

extension Substring {
    func trimmingCharacters() -> String {
        let ws: Set<Character> = [" ", "\t", "\r"]
        var s = self[...]
        while let f = s.first, ws.contains(f) { s = s.dropFirst() }
        while let l = s.last, ws.contains(l) { s = s.dropLast() }
        return String(s)
    }
}

/// Plays a parsed script against the injected clock and the emitted events. The runtime calls
/// `observe` for every emitted event and `poll(nowMs:)` each loop turn, feeding the returned
/// keys to the state machine as `keyPressed`.
///
/// `wait-for X` is satisfied by an `X` emitted after the last key step was played (or since the
/// start), so `s; wait 3s; wait-for videoRecordStarted` works even if the event came during the wait.
public struct KeyScriptPlayer: Sendable {
    public let steps: [KeyStep]
    public private(set) var index = 0
    private var waitUntilMs: Int?
    private var seenSinceLastKey: Set<EventName> = []

    public init(steps: [KeyStep]) { self.steps = steps }

    /// True when every step has been played.
    public var isFinished: Bool { index >= steps.count }

    /// The event the script waits for, if that is the current step.
    public var waitingFor: EventName? {
        if !isFinished, case .waitFor(let n) = steps[index] { return n }
        return nil
    }

    /// When the current `wait` ends (ms), so the runtime can bound its poll timeout.
    public var deadlineMs: Int? { waitUntilMs }

    /// Records an emitted event.
    public mutating func observe(_ name: EventName) { seenSinceLastKey.insert(name) }

    /// Plays the steps due at `nowMs` up to and including the next key; returns that key, or nil
    /// when the script waits (or has ended). The runtime presses each key as if typed before it
    /// asks for the next, so a key that changes what the next one means (`?` opens the keys help,
    /// which the next key closes) acts in order.
    public mutating func next(nowMs: Int) -> Key? {
        while !isFinished {
            switch steps[index] {
            case .key(let k):
                seenSinceLastKey.removeAll()
                index += 1
                return k
            case .wait(let ms):
                if waitUntilMs == nil { waitUntilMs = nowMs + ms }
                guard let until = waitUntilMs, nowMs >= until else { return nil }
                waitUntilMs = nil
                index += 1
            case .waitFor(let name):
                guard seenSinceLastKey.contains(name) else { return nil }
                index += 1
            }
        }
        return nil
    }

    /// Plays every step that is due at `nowMs`; returns the keys to press, in order.
    public mutating func poll(nowMs: Int) -> [Key] {
        var keys: [Key] = []
        while let k = next(nowMs: nowMs) { keys.append(k) }
        return keys
    }
}
