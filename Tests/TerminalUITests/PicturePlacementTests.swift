import Testing
import Foundation
import Glibc
import CaptureModel
@testable import TerminalUI
import TestSupport

/// Pixel modes through the curses backend on a pseudo-terminal (issue #13): the picture goes
/// after curses' output at the preview rectangle, is sent again only when it changes or curses
/// repainted its cells, text changes do not resend it, the stream decodes (sixel2png) to the
/// picture, and ending removes it. In `CursesBackendTests` (serialized): curses has one current
/// screen per process, so curses tests must not run in parallel.
extension CursesBackendTests {
    static func sixels(_ bytes: [UInt8]) -> [[UInt8]] {
        var out: [[UInt8]] = [], i = 0
        while i + 2 < bytes.count {
            if bytes[i] == 0x1B, bytes[i + 1] == UInt8(ascii: "P") {
                var j = i + 2
                while j + 1 < bytes.count, !(bytes[j] == 0x1B && bytes[j + 1] == UInt8(ascii: "\\")) { j += 1 }
                let body = Array(bytes[i..<min(bytes.count, j + 2)])
                if body.count > 8, String(decoding: body.prefix(12), as: UTF8.self).contains("q") { out.append(body) }
                i = j + 2
            } else { i += 1 }
        }
        return out
    }

    func capture(_ hint: Hint) -> ScreenView {
        .capture(CaptureViewState(image: PreviewModesTests.frame, phase: .positioning, hint: hint, isValid: false))
    }

    @Test func sixelPictureFromAPtyDecodesAndIsNotResentForText() throws {
        try withPty(cols: 80, rows: 24) { slave, reader in
            let backend = try CursesBackend(term: "xterm-256color", outputFD: slave, inputFD: slave,
                                            environment: ["TERM": "xterm-256color"], quietStderr: false)
            backend.picturePlacer = PicturePlacer(mode: .sixel, fd: slave, tmux: false, environment: [:])
            var ctx = RenderContext(size: backend.size, strings: StubStrings(locale: "en"), theme: .dark,
                                    colorMode: backend.colorMode, glyphs: backend.glyphs)
            ctx.previewMode = .sixel
            ctx.cellGeometry = CellGeometry(width: 8, height: 16, measured: true)
            let screen = Screens.render(capture(.moveLeft), context: ctx)
            let picture = try #require(screen.picture)
            backend.draw(screen)
            func finish() { var n = 0; while backend.picturePending && n < 3000 { _ = backend.readInput(timeoutMs: 1); n += 1 } }
            finish()
            let first = reader.take()
            let streams = Self.sixels(first)
            #expect(streams.count == 1)
            // Placed at the rectangle, between DECSC and DECRC, after curses' own output.
            let text = String(decoding: first, as: UTF8.self)
            let place = "\u{1B}7\u{1B}[\(picture.rect.y + 1);\(picture.rect.x + 1)H\u{1B}P"
            #expect(text.contains(place))
            #expect(text.hasSuffix("\u{1B}\\\u{1B}8"), "ends with \(text.suffix(20).debugDescription)")

            // The hint changes, the picture does not: curses sends the text, not the picture.
            backend.draw(Screens.render(capture(.moveRight), context: ctx))
            let second = reader.take()
            #expect(Self.sixels(second).isEmpty)
            #expect(!second.isEmpty)

            // A repaint of everything (as after a resize) sends the picture again.
            backend.forceRepaint()
            backend.draw(Screens.render(capture(.moveRight), context: ctx))
            finish()
            #expect(Self.sixels(reader.take()).count == 1)

            // The stream, decoded by libsixel, is the picture.
            if FileManager.default.isExecutableFile(atPath: "/usr/bin/sixel2png"),
               FileManager.default.isExecutableFile(atPath: "/usr/bin/convert"), let six = streams.first {
                let dir = try TestSupport.tempTree(["README": "pty sixel"])
                try Data(six).write(to: URL(fileURLWithPath: dir + "/p.six"))
                #expect(try ChildProcess.run("/usr/bin/sixel2png", ["-i", dir + "/p.six", "-o", dir + "/p.png"], timeout: 20).code == 0)
                #expect(try ChildProcess.run("/usr/bin/convert", [dir + "/p.png", "-depth", "8", "ppm:" + dir + "/p.ppm"], timeout: 20).code == 0)
                let direct = ChafaPreview.encode(picture, mode: .sixel)
                #expect(six == direct, "pty stream \(six.count) bytes, encoder \(direct.count)")
                let decoded = try #require(PreviewImage(ppm: dir + "/p.ppm"))
                let s = PreviewFidelity.ssim(picture.image, decoded)
                #expect(s >= 0.85, "SSIM \(s)")
            } else {
                print("sixel2png/convert missing: decode skipped")
            }

            // Leaving the capture screen clears the rectangle: curses repaints those cells.
            backend.draw(Screens.render(.instructions, context: ctx))
            _ = reader.take()
            backend.end()
        }
    }

    /// Frames follow what the terminal processes: each picture ends with a DA1 query and the
    /// next picture waits for the answer, which is taken out of the keys.
    @Test func nextPictureWaitsForTheTerminalsAnswer() throws {
        try withPty(cols: 80, rows: 24) { slave, reader in
            let backend = try CursesBackend(term: "xterm-256color", outputFD: slave, inputFD: slave,
                                            environment: ["TERM": "xterm-256color"], quietStderr: false)
            backend.picturePlacer = PicturePlacer(mode: .sixel, fd: slave, tmux: false, environment: [:], ackWithDA1: true)
            var ctx = RenderContext(size: backend.size, strings: StubStrings(locale: "en"), theme: .dark,
                                    colorMode: backend.colorMode, glyphs: backend.glyphs)
            ctx.previewMode = .sixel
            ctx.cellGeometry = CellGeometry(width: 8, height: 16, measured: true)
            func finish() { var n = 0; while backend.picturePending && n < 3000 { _ = backend.readInput(timeoutMs: 1); n += 1 } }
            func frame(_ k: UInt8) -> ScreenView {
                var img = PreviewModesTests.frame
                img.rgb[0] = k
                for i in stride(from: 0, to: img.rgb.count, by: 97) { img.rgb[i] = k &* 3 }
                return .capture(CaptureViewState(image: img, phase: .positioning, hint: .moveLeft, isValid: false))
            }
            backend.draw(Screens.render(frame(1), context: ctx))
            finish()
            let first = reader.take()
            #expect(Self.sixels(first).count == 1)
            #expect(String(decoding: first, as: UTF8.self).hasSuffix("\u{1B}8\u{1B}[c"))
            // No answer yet: the next frame's picture is skipped (text still drawn).
            backend.draw(Screens.render(frame(2), context: ctx))
            #expect(backend.lastDrawSkippedPreview)
            #expect(Self.sixels(reader.take()).isEmpty)
            // The terminal answers, with a key typed after it: the key is kept, the answer is not.
            let answer = Array("\u{1B}[?63;4cq".utf8)
            _ = answer.withUnsafeBufferPointer { write(reader.master, $0.baseAddress, $0.count) }
            var keys: [InputEvent] = []
            for _ in 0..<200 { if let e = backend.readInput(timeoutMs: 5) { keys.append(e) }; if !keys.isEmpty { break } }
            #expect(keys == [.key(.character("q"))])
            backend.draw(Screens.render(frame(3), context: ctx))
            finish()
            #expect(Self.sixels(reader.take()).count == 1)
            backend.end()
        }
    }

    @Test func kittyPictureIsDeletedOnExit() throws {
        try withPty(cols: 80, rows: 24) { slave, reader in
            let backend = try CursesBackend(term: "xterm-256color", outputFD: slave, inputFD: slave,
                                            environment: ["TERM": "xterm-256color"], quietStderr: false)
            backend.picturePlacer = PicturePlacer(mode: .kitty, fd: slave, tmux: false, environment: ["SSH_TTY": "/dev/pts/1"])
            var ctx = RenderContext(size: backend.size, strings: StubStrings(locale: "en"), theme: .dark,
                                    colorMode: backend.colorMode, glyphs: backend.glyphs)
            ctx.previewMode = .kitty
            backend.draw(Screens.render(capture(.moveLeft), context: ctx))
            let first = String(decoding: reader.take(), as: UTF8.self)
            #expect(first.contains("\u{1B}_Ga=T,i=1,p=1,f=24"))
            #expect(first.contains(",t=d,"))   // over SSH: in the stream, not shared memory
            backend.end()
            let last = String(decoding: reader.take(), as: UTF8.self)
            #expect(last.contains(String(decoding: KittyGraphics.deleteBytes, as: UTF8.self)))
        }
    }
}
