import Testing
import Foundation
import Glibc
import CaptureModel
@testable import TerminalUI

/// A scripted terminal: each answer arrives at a time (ms after the queries); the clock only
/// moves when the probe waits, so no test sleeps.
final class ScriptedTerminal: TerminalProbeChannel {
    var chunks: [(atMs: Int, bytes: [UInt8])]
    var now = 1000
    var sent: [UInt8] = []
    var sentAt: Int?
    init(_ chunks: [(Int, String)]) { self.chunks = chunks.map { ($0.0, Array($0.1.utf8)) } }
    init(bytes chunks: [(Int, [UInt8])]) { self.chunks = chunks.map { ($0.0, $0.1) } }
    func send(_ bytes: [UInt8]) { sent += bytes; sentAt = now }
    func receive(timeoutMs: Int) -> [UInt8]? {
        let start = sentAt ?? now
        if let first = chunks.first, start + first.atMs <= now + timeoutMs {
            now = max(now, start + first.atMs)
            chunks.removeFirst()
            return first.bytes
        }
        now += timeoutMs
        return []
    }
    func nowMs() -> Int { now }
}

let esc = "\u{1B}"
/// xterm 380 with `-ti vt340` (sixel), as it answers the probe's queries (no kitty reply).
let xtermVT340 = "\(esc)P>|XTerm(380)\(esc)\\" + "\(esc)[4;384;640t" + "\(esc)[6;16;8t"
    + "\(esc)]11;rgb:ffff/ffff/dddd\(esc)\\" + "\(esc)[?63;1;2;4;6;9;15;16;22;28c"
/// kitty 0.26 (answers every query, OSC 11 with BEL).
let kittyAnswers = "\(esc)P>|kitty(0.26.5)\(esc)\\" + "\(esc)_Gi=31;OK\(esc)\\" + "\(esc)[4;600;1000t"
    + "\(esc)[6;20;10t" + "\(esc)]11;rgb:00/00/00\u{07}" + "\(esc)[?62;c"

@Suite struct TerminalProbeTests {
    @Test func queriesEndWithDA1AndIncludeEachQuery() {
        let q = String(decoding: TerminalProbe.queryBytes, as: UTF8.self)
        #expect(q.hasSuffix("\(esc)[c"))
        for part in ["\(esc)[>0q", "\(esc)_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\(esc)\\", "\(esc)[14t", "\(esc)[16t", "\(esc)]11;?\(esc)\\"] {
            #expect(q.contains(part), "missing \(part.debugDescription)")
        }
    }

    @Test func noAnswerAtAllKeepsTheDeadlineAndDetectsNothing() {
        let t = ScriptedTerminal([])
        let (r, keys) = TerminalProbe.run(on: t, deadlineMs: 150)
        #expect(r.deadlineExpired)
        #expect(r.da1Attributes == nil && r.xtversion == nil && r.kittyGraphics == nil && r.backgroundRGB == nil)
        #expect(t.now - t.sentAt! == 150)   // waited exactly the deadline, not longer
        #expect(keys.isEmpty)
        #expect(TerminalProbe.graphics(r, environment: ["TERM": "xterm-256color"]) == TerminalGraphics.none)
    }

    @Test func fullXtermAnswerInOneRead() {
        let t = ScriptedTerminal([(3, xtermVT340)])
        let (r, keys) = TerminalProbe.run(on: t)
        #expect(!r.deadlineExpired)
        #expect(t.now - t.sentAt! == 3)   // stopped at the DA1 reply
        #expect(r.xtversion == "XTerm(380)")
        #expect(r.sixel)
        #expect(r.da1Attributes == [63, 1, 2, 4, 6, 9, 15, 16, 22, 28])
        #expect(r.cellPixels! == (8, 16))
        #expect(r.textAreaPixels! == (640, 384))
        #expect(r.backgroundRGB! == (255, 255, 221))
        #expect(r.kittyGraphics == nil)
        #expect(keys.isEmpty)
        #expect(TerminalProbe.graphics(r, environment: ["TERM": "xterm"]) == .sixel)
    }

    @Test func kittyAnswersSplitAcrossEveryByte() {
        let bytes = Array(kittyAnswers.utf8)
        let t = ScriptedTerminal(bytes: bytes.enumerated().map { (1 + $0.offset / 10, [$0.element]) })
        let (r, keys) = TerminalProbe.run(on: t)
        #expect(!r.deadlineExpired)
        #expect(r.kittyGraphics == true)
        #expect(r.xtversion == "kitty(0.26.5)")
        #expect(r.backgroundRGB! == (0, 0, 0))
        #expect(r.cellPixels! == (10, 20))
        #expect(r.da1Attributes == [62, 0])
        #expect(keys.isEmpty)
        #expect(TerminalProbe.graphics(r, environment: ["TERM": "xterm-kitty"]) == .kitty)
    }

    @Test func partialAnswerThenSilenceKeepsWhatCame() {
        // XTVERSION and half of the OSC 11 reply, then nothing: the deadline holds, the whole
        // reply counts, the cut one is dropped (not handed to the keys).
        let t = ScriptedTerminal([(2, "\(esc)P>|foot(1.13.1)\(esc)\\"), (5, "\(esc)]11;rgb:12")])
        let (r, keys) = TerminalProbe.run(on: t, deadlineMs: 150)
        #expect(r.deadlineExpired)
        #expect(t.now - t.sentAt! == 150)
        #expect(r.xtversion == "foot(1.13.1)")
        #expect(r.backgroundRGB == nil)
        #expect(r.da1Attributes == nil)
        #expect(keys.isEmpty)
        // No DA1: environment hints decide (foot speaks sixel).
        #expect(TerminalProbe.graphics(r, environment: ["TERM": "foot"]) == .sixel)
        #expect(TerminalProbe.graphics(r, environment: ["TERM": "xterm-256color"]) == TerminalGraphics.none)
    }

    @Test func keystrokesInterleavedWithRepliesAreKeptInOrder() {
        // The user types "q", an arrow key, "é" and Enter while the replies arrive.
        let t = ScriptedTerminal([(1, "q\(esc)P>|XTerm(380)\(esc)\\"), (2, "\(esc)[A"), (3, "é\(esc)[6;17;9t\r"),
                                  (4, "\(esc)"), (5, "[?62;22c")])
        let (r, keys) = TerminalProbe.run(on: t)
        #expect(!r.deadlineExpired)
        #expect(r.xtversion == "XTerm(380)")
        #expect(r.cellPixels! == (9, 17))
        #expect(r.da1Attributes == [62, 22])
        #expect(!r.sixel)
        #expect(keys == Array("q\(esc)[Aé\r".utf8))
        #expect(TerminalProbe.keys(from: keys) == [.character("q"), .character("é"), .enter])
    }

    @Test func loneEscapeAtTheDeadlineIsTheEscKey() {
        let t = ScriptedTerminal([(10, "\(esc)")])
        let (r, keys) = TerminalProbe.run(on: t, deadlineMs: 150)
        #expect(r.deadlineExpired)
        #expect(TerminalProbe.keys(from: keys) == [.escape])
    }

    @Test func kittyErrorReplyMeansNoKittyGraphics() {
        var p = TerminalProbe.Parser()
        p.feed(Array("\(esc)_Gi=31;ENOTSUPPORTED:no\(esc)\\\(esc)[?62;4c".utf8))
        #expect(p.result.kittyGraphics == false)
        #expect(p.done)
        #expect(TerminalProbe.graphics(p.result, environment: [:]) == .sixel)
    }

    @Test func colourForms() {
        #expect(TerminalProbe.parseColor("rgb:ffff/8080/0000")! == (255, 128, 0))
        #expect(TerminalProbe.parseColor("rgb:ff/80/00")! == (255, 128, 0))
        #expect(TerminalProbe.parseColor("rgb:f/8/0")! == (255, 136, 0))
        #expect(TerminalProbe.parseColor("rgb:1e1e/1e1e/2e2e")! == (30, 30, 46))
        #expect(TerminalProbe.parseColor("#ffffff") == nil)
        #expect(TerminalProbe.parseColor("rgb:ff/ff") == nil)
        #expect(TerminalProbe.parseColor("rgb:zz/00/00") == nil)
    }

    @Test func tmuxUsesSixelOnlyWhenTmuxItselfAnnouncesIt() {
        let tmuxPlain = TerminalProbeResult(xtversion: "tmux 3.3a", da1Attributes: [1, 2])
        let tmuxSixel = TerminalProbeResult(xtversion: "tmux 3.4", da1Attributes: [61, 4, 6])
        // Inherited hints of the outer terminal are not trusted inside tmux.
        let env = ["TERM": "tmux-256color", "TMUX": "/tmp/tmux-1000/default,1,0", "KITTY_WINDOW_ID": "1"]
        #expect(TerminalProbe.graphics(tmuxPlain, environment: env) == TerminalGraphics.none)
        #expect(TerminalProbe.graphics(tmuxSixel, environment: env) == .sixel)
        #expect(TerminalProbe.graphics(TerminalProbeResult(kittyGraphics: true, da1Attributes: [62]), environment: env) == TerminalGraphics.none)
        #expect(TerminalProbe.insideTmux(tmuxPlain, environment: ["TERM": "screen"]))
    }

    @Test func environmentHintsOnlyWhenTheProbeWasSilent() {
        let silent = TerminalProbeResult.none
        #expect(TerminalProbe.graphics(silent, environment: ["KITTY_WINDOW_ID": "3"]) == .kitty)
        #expect(TerminalProbe.graphics(silent, environment: ["TERM_PROGRAM": "iTerm.app"]) == .iterm)
        #expect(TerminalProbe.graphics(silent, environment: ["TERM_PROGRAM": "WezTerm"]) == .sixel)
        // A terminal that answered DA1 without sixel and without kitty is believed over a stale
        // KITTY_WINDOW_ID (e.g. a shell started in kitty, then `ssh` into another terminal).
        let answered = TerminalProbeResult(da1Attributes: [62, 22])
        #expect(TerminalProbe.graphics(answered, environment: ["KITTY_WINDOW_ID": "3"]) == TerminalGraphics.none)
        #expect(TerminalProbe.graphics(answered, environment: ["TERM_PROGRAM": "iTerm.app"]) == .iterm)
        #expect(TerminalProbe.graphics(silent, environment: ["TERM": "screen-256color", "KITTY_WINDOW_ID": "3"]) == TerminalGraphics.none)
    }

    @Test func cellSizePrefersTheKernelThenCSI16ThenCSI14() {
        let p = TerminalProbeResult(textAreaPixels: (800, 480), cellPixels: (9, 18))
        #expect(TerminalProbe.cellSize(winsizePixels: (640, 384), cols: 80, rows: 24, probe: p)! == (8, 16))
        #expect(TerminalProbe.cellSize(winsizePixels: (0, 0), cols: 80, rows: 24, probe: p)! == (9, 18))
        #expect(TerminalProbe.cellSize(winsizePixels: nil, cols: 80, rows: 24,
                                       probe: TerminalProbeResult(textAreaPixels: (800, 480)))! == (10, 20))
        #expect(TerminalProbe.cellSize(winsizePixels: nil, cols: 80, rows: 24, probe: .none) == nil)
    }

    @Test func probeSkipsDumbAndLinuxConsole() {
        #expect(!TerminalProbe.shouldProbe(environment: ["TERM": "dumb"]))
        #expect(!TerminalProbe.shouldProbe(environment: ["TERM": "linux"]))
        #expect(!TerminalProbe.shouldProbe(environment: [:]))
        #expect(TerminalProbe.shouldProbe(environment: ["TERM": "xterm-256color"]))
    }
}

/// The probe's I/O on a real pseudo-terminal: queries written to the tty, replies read in raw
/// mode, the terminal's modes restored, keys kept; a silent terminal costs the deadline only.
@Suite(.serialized) struct TTYProbeChannelTests {
    static func withPty(_ body: (_ master: Int32, _ slave: Int32) throws -> Void) throws {
        var master: Int32 = -1, slave: Int32 = -1
        try #require(openpty(&master, &slave, nil, nil, nil) == 0)
        for fd in [master, slave] { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        defer { close(slave); close(master) }
        try body(master, slave)
    }

    @Test func answeringTerminalRestoresModesAndKeepsKeys() throws {
        try Self.withPty { master, slave in
            var before = termios()
            tcgetattr(slave, &before)
            // The "terminal": reads the queries, then answers like xterm -ti vt340, with a key typed first.
            let answer = Array(("x" + xtermVT340).utf8)
            let t = Thread {
                var buf = [UInt8](repeating: 0, count: 256), got: [UInt8] = []
                while !got.suffix(3).elementsEqual(Array("\u{1B}[c".utf8)) {
                    let n = read(master, &buf, buf.count)
                    if n <= 0 { return }
                    got += buf[0..<n]
                }
                _ = answer.withUnsafeBufferPointer { write(master, $0.baseAddress, $0.count) }
            }
            t.start()
            let (r, keys) = TTYProbeChannel.probe(outputFD: slave, inputFD: slave, deadlineMs: 2000)
            #expect(!r.deadlineExpired)
            #expect(r.sixel && r.xtversion == "XTerm(380)")
            #expect(keys == Array("x".utf8))
            var after = termios()
            tcgetattr(slave, &after)
            #expect(after.c_lflag == before.c_lflag && after.c_iflag == before.c_iflag, "termios restored")
        }
    }

    @Test func silentTerminalReturnsAtTheDeadline() throws {
        try Self.withPty { master, slave in
            let start = TTYProbeChannel.monotonicMs()
            let (r, keys) = TTYProbeChannel.probe(outputFD: slave, inputFD: slave, deadlineMs: 150)
            let took = TTYProbeChannel.monotonicMs() - start
            #expect(r.deadlineExpired && r.da1Attributes == nil && keys.isEmpty)
            #expect(took >= 150 && took < 2000, "took \(took) ms")
            // What was written is exactly the query round.
            var buf = [UInt8](repeating: 0, count: 512)
            let n = read(master, &buf, buf.count)
            #expect(n > 0 && Array(buf[0..<max(0, n)]) == TerminalProbe.queryBytes)
        }
    }
}
