import CaptureFlow
import Foundation
import Media
import TerminalUI

#if canImport(Glibc)
import Glibc
#endif

/// `--announce`, `--sound`, `--speak` for one run (issue #17), and the only owner of their
/// outputs: the sink, the speaker, and /dev/tty for the bell without curses.
final class AccessibilitySession {
    private(set) var outputs: AccessibilityOutputs?
    /// /dev/tty for `--sound` without curses (-1: none).
    private var bellFD: Int32 = -1

    /// Opens what the setup asks for; the warnings found before the screen (a theme file below
    /// WCAG contrast, no espeak-ng, no terminal to ring) are said once on stderr, before the
    /// screen for the plain and null renderers, and returned for after it (curses hides stderr).
    /// - Parameters:
    ///   - bell: rings the curses backend's bell.
    ///   - report: where announcement events go (`FlowDriver.report`).
    /// - Returns: the warnings to say again after the screen (curses only).
    func open(_ setup: CaptureSetup, bell: @escaping () -> Void, report: @escaping (FlowEvent) -> Void) throws -> [String] {
        var warnings = setup.warnings
        var sink: AnnounceSink?
        if let p = setup.accessibility.announcePath {
            let console = setup.console
            sink = p == "-" ? AnnounceSink { console.out($0) } : try AnnounceSink(path: p)
        }
        var speaker: Speaker?
        if setup.accessibility.speak {
            // The language the texts really come from (a locale without tables falls back, e.g. to en).
            let (s, warning) = Speaker.make(language: setup.strings.lookup("selfie_capture_announce_done")?.language ?? "en")
            speaker = s
            if let w = warning { warnings.append(w) }
        }
        if setup.accessibility.sound && setup.screen.renderer != .curses {
            // Without curses the bell goes straight to the controlling terminal (over SSH, the
            // person's own), not into a log on stdout.
            bellFD = Glibc.open("/dev/tty", O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
            if bellFD < 0 { warnings.append("--sound: no terminal to ring (/dev/tty: \(String(cString: strerror(errno)))); the capture goes on without sound") }
        }
        for w in warnings where setup.screen.renderer != .curses { setup.console.err("selfie-capture: warning: \(w)\n") }
        let later = setup.screen.renderer == .curses ? warnings : []
        guard sink != nil || speaker != nil || setup.accessibility.sound else { return later }
        let out = AccessibilityOutputs(announcer: Announcer(mirrored: setup.guidance.mirror, sourceIsCamera: setup.source.kind == .camera),
                                       sink: sink, speaker: speaker, sound: setup.accessibility.sound, strings: setup.strings)
        let curses = setup.screen.renderer == .curses
        out.ring = { [unowned self] in
            if curses { bell() } else if self.bellFD >= 0 {
                var bel: UInt8 = 7
                _ = Glibc.write(self.bellFD, &bel, 1)
            }
        }
        out.report = report
        outputs = out
        return later
    }

    /// After each loop turn: what the machine's state calls for.
    func update(_ machine: CaptureStateMachine, nowMs: Int) {
        outputs?.update(machine, nowMs: nowMs)
    }

    /// At the end of a run: `recorded` lets the last announcement out once its pacing window
    /// opens (virtual time with `--pace fast`; at most 1.5 s of waiting in realtime) and the
    /// last bells and speech finish (at most 4 s), so "Done. Saved." is heard before the exit.
    /// A cancelled or failed run stops at once.
    func finish(recorded: Bool, machine: CaptureStateMachine, pacing: any Pacing) {
        guard let a = outputs else { return }
        defer { a.close(); if bellFD >= 0 { close(bellFD); bellFD = -1 } }
        guard recorded else { a.speaker?.stop(); return }
        let start = SystemClock.monotonicNowMs()
        while SystemClock.monotonicNowMs() - start < 4000 {
            if let due = a.pendingDueMs { pacing.reach(ms: due) }
            a.update(machine, nowMs: pacing.clock.nowMs())
            if a.pendingDueMs == nil && !a.isBusy { break }
            // Only bells left: their rhythm is virtual time too.
            if a.pendingDueMs == nil, a.speaker == nil, !(a.sink?.isBacklogged ?? false), pacing.skipAhead(ms: 10) { continue }
            usleep(10_000)
        }
    }

    /// Why speech failed, if it did (a warning for stderr).
    var speakerFailure: String? { outputs?.speaker?.failure }
}
