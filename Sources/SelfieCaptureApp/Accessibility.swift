import CaptureFlow
import Foundation
import JSON
import Spawn
import Localization
import Media
import TerminalUI

#if canImport(Glibc)
import Glibc
#endif

// Guidance without sight (issue #17): `--announce FILE|-`, `--sound`, `--speak`. The pure parts
// (what to say and when, which cue and its rhythm) live in CaptureFlow (`Announcer`,
// `BellSchedule`); here is only their I/O, none of which may block the loop.

/// Writes announcement lines without ever blocking the capture: the file (a second terminal such
/// as /dev/pts/3, a FIFO, a regular file) is opened non-blocking; when it cannot take a line
/// now (a slow reader, a full pipe), the rest of the line being written waits, and of the lines
/// after it only the newest is kept (an older one is stale by then and dropped, counted).
public final class AnnounceSink {
    private let fd: Int32
    private let ownsFD: Bool
    private let write: ((String) -> Void)?
    /// Bytes of the line under way that the file has not taken yet.
    private var partial: [UInt8] = []
    /// The newest line waiting behind it.
    private var waiting: String?
    /// Lines dropped because a newer one replaced them while the reader was slow.
    public private(set) var dropped = 0

    /// Lines go to `write` (the plain renderer's stdout, `--announce -`).
    public init(write: @escaping (String) -> Void) { fd = -1; ownsFD = false; self.write = write }

    /// Lines go to `path` (created 0600 if missing; a terminal or a FIFO is written as it is).
    /// - Throws: `AppError.cannotCreateOutput` when it cannot be opened.
    public init(path: String) throws {
        var st = stat()
        let exists = stat(path, &st) == 0
        let isRegular = exists && (st.st_mode & S_IFMT) == S_IFREG
        let flags = O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | (exists && !isRegular ? 0 : O_CREAT | O_TRUNC)
        let f = open(path, flags, 0o600)
        guard f >= 0 else {
            let why = errno == ENXIO ? "--announce: no program reads this FIFO yet; start its reader first (e.g. cat \(path))"
                : "--announce: " + String(cString: strerror(errno))
            throw AppError.cannotCreateOutput(path: path, reason: why)
        }
        fd = f; ownsFD = true; write = nil
    }

    /// Queues `line` (a newline is added) and writes what the file takes now.
    public func say(_ line: String) {
        if let w = write { w(line + "\n"); return }
        if !partial.isEmpty || waiting != nil {
            flush()
            if !partial.isEmpty {
                if waiting != nil { dropped += 1 }
                waiting = line
                return
            }
        }
        partial = Array((line + "\n").utf8)
        flush()
    }

    /// Writes what it can of the waiting bytes (call once a turn).
    public func flush() {
        guard fd >= 0 else { return }
        while true {
            if partial.isEmpty, let w = waiting { partial = Array((w + "\n").utf8); waiting = nil }
            guard !partial.isEmpty else { return }
            let n = partial.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n > 0 { partial.removeFirst(n); continue }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && errno != EAGAIN && errno != EWOULDBLOCK { partial = []; waiting = nil }   // reader gone (EPIPE): stop
            return
        }
    }

    /// True while bytes wait for the reader.
    public var isBacklogged: Bool { !partial.isEmpty || waiting != nil }

    public func close() {
        if ownsFD && fd >= 0 { _ = Glibc.close(fd) }
    }
    deinit { close() }
}

/// Speaks announcements through espeak-ng (`--speak`), run as a child process: one at a time;
/// while one speaks, only the newest announcement waits (an older waiting one is dropped).
public final class Speaker {
    /// Words a minute given to espeak-ng (`-s`): its own default, 175.
    public static let wordsPerMinute = 175
    public let executable: String
    public let voice: String
    private var speaking: pid_t?
    private var waiting: String?
    /// Why speech stopped, once espeak-ng failed to speak a sentence (it exits non-zero, e.g.
    /// with no sound output device: ALSA cannot open one); nothing more is spoken after it. The
    /// runtime prints it as a warning, so silence is never unexplained.
    public private(set) var failure: String?
    /// The read end of the speaking child's stderr (non-blocking), or -1.
    private var errFD: Int32 = -1

    /// The espeak-ng command line for `text` in `voice`; `wav` writes a WAV file instead of
    /// playing (`-w`, used by the tests).
    public static func arguments(text: String, voice: String, wav: String? = nil) -> [String] {
        var a = ["-v", voice, "-s", String(wordsPerMinute)]
        if let w = wav { a += ["-w", w] }
        return a + ["--", text]
    }

    /// The espeak-ng voice for a string-table language (`fr_CA` → `fr`, `en-XA` → `en`).
    public static func voice(forLanguage lang: String) -> String {
        let base = lang.split(whereSeparator: { $0 == "_" || $0 == "-" }).first.map(String.init) ?? "en"
        return base.isEmpty ? "en" : base.lowercased()
    }

    /// Finds espeak-ng and checks that it has `voice` (`espeak-ng --voices=LANG` lists at least
    /// one voice). Runs before the screen starts, waiting at most 2 s.
    /// - Returns: the speaker, or a warning saying why there is none.
    public static func make(language: String, path: String? = ProcessInfo.processInfo.environment["PATH"]) -> (Speaker?, String?) {
        let voice = voice(forLanguage: language)
        guard let exe = ChildProcess.which("espeak-ng", path: path) else {
            return (nil, "--speak: espeak-ng is not installed (Debian: apt-get install espeak-ng); the capture goes on without speech")
        }
        guard hasVoice(exe, voice) else {
            return (nil, "--speak: espeak-ng has no voice for '\(voice)' (espeak-ng --voices); the capture goes on without speech")
        }
        return (Speaker(executable: exe, voice: voice), nil)
    }

    static func hasVoice(_ exe: String, _ voice: String) -> Bool {
        guard let r = try? ChildProcess.run(exe, ["--voices=\(voice)"], stdout: .capture, stderr: .null, timeout: 2) else {
            return false
        }
        // A header line ("Pty Language Age/Gender VoiceName …") and one line per voice.
        let lines = String(decoding: r.out, as: UTF8.self).split(separator: "\n")
        return lines.count >= 2
    }

    public init(executable: String, voice: String) { self.executable = executable; self.voice = voice }

    /// Speaks `text` now, or after the one speaking (replacing any other waiting text).
    public func say(_ text: String) {
        waiting = text
        poll()
    }

    /// Reaps a finished child and starts the waiting text (call once a turn).
    public func poll() {
        if let p = speaking, let status = ChildProcess.exitStatus(p) {
            speaking = nil
            let said = takeStderr()
            // espeak-ng 1.51 exits 0 when it cannot open a sound device; it then writes
            // "error: …" on stderr (after ALSA's own lines), so either sign is a failure.
            let error = said.split(separator: "\n").first { $0.hasPrefix("error:") }
            if (status != 0 || error != nil), failure == nil {
                let why = error.map { String($0.prefix(120)) } ?? "exit status \(status)"
                failure = "--speak: espeak-ng could not speak (\(why); is there a sound output device?); the capture went on without speech"
            }
        }
        if failure != nil { waiting = nil }
        guard speaking == nil, let t = waiting else { return }
        waiting = nil
        var fds: [Int32] = [-1, -1]
        let piped = pipe(&fds) == 0
        if piped {
            for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK)
        }
        speaking = ChildProcess.start(executable, Self.arguments(text: t, voice: voice), stderrFD: piped ? fds[1] : nil)
        if piped { Glibc.close(fds[1]); errFD = fds[0] }
    }

    /// What the child wrote on stderr (its pipe is closed after).
    private func takeStderr() -> String {
        guard errFD >= 0 else { return "" }
        var out = [UInt8](), buf = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(errFD, &buf, buf.count)
            if n <= 0 { break }
            out += buf[0..<n]
        }
        Glibc.close(errFD); errFD = -1
        return String(decoding: out, as: UTF8.self)
    }

    /// True while a text is spoken or waits.
    public var isBusy: Bool { speaking != nil || waiting != nil }

    /// Stops speaking (the run was cancelled).
    public func stop() {
        waiting = nil
        if let p = speaking { kill(-p, SIGTERM); kill(p, SIGTERM); var s: Int32 = 0; waitpid(p, &s, 0); speaking = nil }
        _ = takeStderr()
    }
}

/// The accessibility outputs of one run, fed once a loop turn with the machine's state.
final class AccessibilityOutputs {
    var announcer: Announcer
    let sink: AnnounceSink?
    let speaker: Speaker?
    var bells: BellSchedule?
    let strings: any Localizing
    /// Rings one terminal bell (the backend's, so curses sends it in its own output).
    var ring: () -> Void = {}
    /// Reports an `announced` event (the event log).
    var report: (FlowEvent) -> Void = { _ in }

    init(announcer: Announcer, sink: AnnounceSink?, speaker: Speaker?, sound: Bool, strings: any Localizing) {
        self.announcer = announcer; self.sink = sink; self.speaker = speaker
        self.bells = sound ? BellSchedule() : nil
        self.strings = strings
    }

    var announces: Bool { sink != nil || speaker != nil }

    /// The text of `a` in the run's language.
    static func text(_ a: Announcement, strings: any Localizing) -> String {
        let args: [FormatArgument] = a.arguments.map {
            switch $0 {
            case .int(let n): return .int(n)
            case .key(let k): return .string(strings.text(k))
            case .text(let t): return .string(t)
            }
        }
        return ([strings.text(a.key, args)] + a.followUps.map { strings.text($0) }).joined(separator: " ")
    }

    /// After a loop turn at `nowMs`.
    func update(_ m: CaptureStateMachine, nowMs: Int) {
        if announces, let a = announcer.update(m, nowMs: nowMs) { say(a, nowMs: nowMs) }
        if bells != nil {
            bells!.observe(SoundState(m))
            for _ in 0..<bells!.due(nowMs: nowMs) { ring() }
        }
        sink?.flush()
        speaker?.poll()
    }

    func say(_ a: Announcement, nowMs: Int) {
        let t = Self.text(a, strings: strings)
        sink?.say(t)
        speaker?.say(t)
        var fields = [EventField("kind", .string(a.kind.rawValue)), EventField("key", .string(a.key)), EventField("text", .string(t))]
        if let h = a.hint { fields.append(EventField("hint", .string(h.rawValue))) }
        if case .int(let n)? = a.arguments.first { fields.append(EventField("remaining", .int(n))) }
        report(FlowEvent(.announced, tMs: nowMs, fields: fields))
    }

    /// When the run's last announcement (e.g. "Done. Saved.") still waits for its window: the
    /// time it may be said, so the runtime can let it out before exiting.
    var pendingDueMs: Int? { announces ? announcer.pacer.pendingDueMs : nil }

    /// True while bells, speech or announcement bytes are still under way.
    var isBusy: Bool { (bells?.isBusy ?? false) || (speaker?.isBusy ?? false) || (sink?.isBacklogged ?? false) }

    func close() { sink?.close() }
}
