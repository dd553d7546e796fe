import Foundation
import Testing
import TestSupport
@testable import SelfieCaptureApp

#if canImport(Glibc)
import Glibc
#endif

/// Issue #17: `--speak` through espeak-ng, `--announce` never blocking.
@Suite struct SpeakerTests {
    /// Duration in seconds of a PCM WAV file from its header (RIFF: the `fmt ` chunk's byte
    /// rate, the `data` chunk's size).
    static func wavSeconds(_ data: Data) -> Double? {
        let b = [UInt8](data)
        guard b.count > 12, String(decoding: b[0..<4], as: UTF8.self) == "RIFF", String(decoding: b[8..<12], as: UTF8.self) == "WAVE" else { return nil }
        func u32(_ i: Int) -> Int { Int(b[i]) | Int(b[i + 1]) << 8 | Int(b[i + 2]) << 16 | Int(b[i + 3]) << 24 }
        var i = 12
        var byteRate: Int?
        while i + 8 <= b.count {
            let id = String(decoding: b[i..<i + 4], as: UTF8.self)
            var size = u32(i + 4)
            if id == "fmt " { byteRate = u32(i + 8 + 8) }
            if id == "data" {
                // espeak-ng writing to a file it cannot seek back in leaves 0x7fffffff: use what is there.
                size = min(size, b.count - i - 8)
                return byteRate.map { Double(size) / Double($0) }
            }
            i += 8 + size + (size & 1)
        }
        return nil
    }

    @Test func voiceFromTheTextsLanguage() {
        #expect(Speaker.voice(forLanguage: "fr") == "fr")
        #expect(Speaker.voice(forLanguage: "fr_CA") == "fr")
        #expect(Speaker.voice(forLanguage: "en-XA") == "en")
        #expect(Speaker.arguments(text: "Hold still", voice: "en") == ["-v", "en", "-s", "175", "--", "Hold still"])
    }

    /// espeak-ng says each sentence (written with `-w`) in about the time its words take at 175
    /// words a minute: between half and twice that, plus up to 0.6 s of leading and trailing
    /// silence; sox (`soxi -D`) agrees with the header.
    @Test(.enabled(if: ChildProcess.which("espeak-ng") != nil, "espeak-ng is not installed (scripts/setup.sh installs it)"),
          arguments: [("en", "Move your face to your left"), ("en", "Hold still: recording in 3"),
                      ("fr", "Déplacez votre visage vers votre gauche"), ("fr", "Ne bougez plus : enregistrement dans 3")])
    func spokenSentenceFitsItsLength(language: String, sentence: String) throws {
        let exe = try #require(ChildProcess.which("espeak-ng"))
        let (speaker, warning) = Speaker.make(language: language)
        #expect(warning == nil, "\(warning ?? "")")
        #expect(speaker?.voice == language)
        let dir = try TestSupport.tempTree(["README": "issue #17"], prefix: "a11y")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let wav = dir + "/speech.wav"
        let r = try ChildProcess.run(exe, Speaker.arguments(text: sentence, voice: language, wav: wav), timeout: 30)
        #expect(r.code == 0, "\(String(decoding: r.err, as: UTF8.self))")
        let data = try Data(contentsOf: URL(fileURLWithPath: wav))
        let seconds = try #require(Self.wavSeconds(data))
        let words = Double(sentence.split(separator: " ").filter { $0.contains(where: \.isLetter) || $0.contains(where: \.isNumber) }.count)
        let expected = words * 60 / Double(Speaker.wordsPerMinute)
        #expect(seconds >= expected * 0.5 && seconds <= expected * 2 + 0.6, "\(sentence): \(seconds) s for \(Int(words)) words (\(expected) s at 175 wpm)")
        if let soxi = ChildProcess.which("soxi") {
            let s = try ChildProcess.run(soxi, ["-D", wav], timeout: 30)
            if let d = Double(String(decoding: s.out, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) {
                #expect(abs(d - seconds) < 0.01, "soxi \(d) s, header \(seconds) s")
            }
        }
    }

    /// espeak-ng that cannot speak (no sound output device: it exits non-zero) is a warning,
    /// once, and nothing more is spoken (a new-user trial heard nothing and was told nothing).
    @Test func engineThatFailsIsAWarningAndStopsSpeech() throws {
        let s = Speaker(executable: "/bin/false", voice: "en")
        s.say("Hold still")
        for _ in 0..<500 where s.isBusy { s.poll(); usleep(2_000) }
        #expect(!s.isBusy)
        #expect(s.failure?.contains("espeak-ng could not speak (exit status 1") == true)
        s.say("Recording")
        #expect(!s.isBusy, "nothing more is spoken once it failed")
        // espeak-ng without a sound device exits 0 and says "error: …" on stderr (Debian 12's 1.51).
        let dir = try TestSupport.tempTree(["README": "a speaker that fails but exits 0"])
        let fake = dir + "/espeak-ng"
        try "#!/bin/sh\necho 'ALSA lib pcm.c:2666:(snd_pcm_open_noupdate) Unknown PCM default' >&2\necho 'error: No such file or directory' >&2\nexit 0\n"
            .write(toFile: fake, atomically: true, encoding: .utf8)
        #expect(chmod(fake, 0o755) == 0)
        let quiet = Speaker(executable: fake, voice: "en")
        quiet.say("Hold still")
        for _ in 0..<500 where quiet.isBusy { quiet.poll(); usleep(2_000) }
        #expect(quiet.failure?.contains("error: No such file or directory") == true, "\(quiet.failure ?? "nil")")
        let ok = Speaker(executable: "/bin/true", voice: "en")
        ok.say("Hold still")
        for _ in 0..<500 where ok.isBusy { ok.poll(); usleep(2_000) }
        #expect(ok.failure == nil)
    }

    @Test func missingEngineIsAWarning() {
        let (s, w) = Speaker.make(language: "en", path: "/nonexistent")
        #expect(s == nil)
        #expect(w?.contains("espeak-ng is not installed") == true)
    }
}

@Suite struct AnnounceSinkTests {
    /// A reader that never reads: the sink never blocks, keeps whole lines, drops the stale ones,
    /// and once the reader drains, the newest line arrives.
    @Test func slowReaderNeverBlocks() throws {
        let dir = try TestSupport.tempTree(["README": "issue #17"], prefix: "a11y")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fifo = dir + "/announce"
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        #expect(reader >= 0)
        defer { close(reader) }
        let sink = try AnnounceSink(path: fifo)
        defer { sink.close() }
        let line = String(repeating: "x", count: 99)
        for i in 0..<5000 { sink.say("\(i) \(line)") }   // ~520 kB into a 64 kB pipe
        #expect(sink.isBacklogged)
        #expect(sink.dropped > 0)
        // Drain, flush, drain again: every line read is whole, and the last is the newest.
        var text = ""
        var buf = [UInt8](repeating: 0, count: 65536)
        for _ in 0..<20 {
            while true {
                let n = read(reader, &buf, buf.count)
                if n <= 0 { break }
                text += String(decoding: buf[0..<n], as: UTF8.self)
            }
            sink.flush()
            if !sink.isBacklogged { break }
        }
        while true {
            let n = read(reader, &buf, buf.count)
            if n <= 0 { break }
            text += String(decoding: buf[0..<n], as: UTF8.self)
        }
        let lines = text.split(separator: "\n")
        #expect(lines.allSatisfy { $0.hasSuffix(line) && $0.split(separator: " ").count == 2 })
        #expect(lines.last?.hasPrefix("4999 ") == true)
    }

    @Test func fifoWithoutReaderIsANamedError() throws {
        let dir = try TestSupport.tempTree(["README": "issue #17"], prefix: "a11y")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fifo = dir + "/nobody"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: AppError.cannotCreateOutput(path: fifo, reason: "--announce: no program reads this FIFO yet; start its reader first (e.g. cat \(fifo))")) { try AnnounceSink(path: fifo) }
    }
}
