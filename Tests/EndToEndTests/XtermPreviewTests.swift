import CaptureModel
import Foundation
import Testing
import TestSupport
import CaptureFlow
@testable import TerminalUI

/// Issue #13 in a real terminal emulator: xterm (`-ti vt340`, 256 colour registers) under Xvfb
/// runs the capture on a still video (the demo photo, 640×480 MJPEG); a screenshot of the
/// screen (ImageMagick `import`) is cut to the preview picture and compared (SSIM) with the
/// frame as the preview composes it (fill, mirrored, oval, dimmed outside), and inside the oval
/// with the bare frame.
@Suite(.serialized) struct XtermPreviewTests {
    static let tools = ["Xvfb", "xterm", "import", "convert", "ffmpeg"].allSatisfy { Harness.tool($0) != nil }
    static let photo = TestSupport.projectRoot().appendingPathComponent("Resources/demo/astronaut.png").path
    static let ready = tools && Harness.binary != nil && FileManager.default.fileExists(atPath: photo)
    static let why: Comment = "needs Xvfb, xterm, ImageMagick, ffmpeg, the built binary and Resources/demo (make setup)"

    /// Runs the binary in xterm on a private X display with `--preview-mode mode` and returns
    /// the screenshot, taken once the screen has been still for 0.75 s, 2 s after `cameraReady`.
    static func screenshot(mode: String, dir: String, display: Int, kitty: Bool = false) async throws -> PreviewImage? {
        let bin = try #require(Harness.binary)
        let script = """
        set -u
        cd '\(dir)'
        [ -f still.avi ] || ffmpeg -loglevel error -loop 1 -i '\(photo)' -t 20 -r 5 -vf scale=640:480 -c:v mjpeg -q:v 2 -huffman default -pix_fmt yuvj420p still.avi
        [ -f frame.ppm ] || convert '\(photo)' -resize '640x480!' -depth 8 ppm:frame.ppm
        Xvfb :\(display) -screen 0 800x600x24 -nolisten tcp >/dev/null 2>&1 & XP=$!
        trap 'kill $TP 2>/dev/null; kill $XP 2>/dev/null' EXIT
        for i in $(seq 100); do [ -e /tmp/.X11-unix/X\(display) ] && break; sleep 0.05; done
        DISPLAY=:\(display) LIBGL_ALWAYS_SOFTWARE=1 \(kitty
            ? "kitty --config NONE -o remember_window_size=no -o initial_window_width=80c -o initial_window_height=24c -o background=#000000 env -u NO_COLOR -u COLORTERM LANG=C.UTF-8"
            : "xterm -ti vt340 -xrm 'XTerm*numColorRegisters: 256' -geometry 80x24+0+0 -bg black -fg white -e env -u NO_COLOR -u COLORTERM LANG=C.UTF-8 TERM=xterm-256color") \
          '\(bin)' capture --source still.avi --no-instructions --camera-consent --preview-mode \(mode) \
          --events ev-\(mode).jsonl --output out-\(mode) >/dev/null 2>&1 & TP=$!
        for i in $(seq 300); do grep -q cameraReady ev-\(mode).jsonl 2>/dev/null && break; sleep 0.05; done
        # The first frames reach the screen within a second or two of cameraReady (a debug build
        # composes slowly); then wait for the screen to hold still.
        sleep 2
        prev=""; same=0
        for i in $(seq 60); do
          sleep 0.25
          DISPLAY=:\(display) import -window root -depth 8 ppm:shot.ppm 2>/dev/null || continue
          h=$(md5sum < shot.ppm)
          if [ "$h" = "$prev" ]; then same=$((same+1)); [ $same -ge 3 ] && break; else same=0; fi
          prev=$h
        done
        cp shot.ppm shot-\(mode).ppm
        """
        let r = try await Harness.run("/bin/bash", ["-c", script], load: .terminal, timeout: 90)
        #expect(r.code == 0, "\(r.err)")
        return PreviewImage(ppm: dir + "/shot-\(mode).ppm")
    }

    /// The preview's bounding box in a screenshot: the longest run of rows with more than 120
    /// lit pixels, and the columns lit in most of those rows. Lit: any channel more than 12 away
    /// from both of the screenshot's two most common colours (the X root window around the
    /// terminal, and the terminal's background or the one the theme paints, #121212 for dark).
    static func pictureBox(_ s: PreviewImage) -> (x: Int, y: Int, w: Int, h: Int)? {
        var counts: [Int: Int] = [:]
        for i in stride(from: 0, to: s.width * s.height * 3, by: 3 * 7) {
            counts[Int(s.rgb[i]) << 16 | Int(s.rgb[i + 1]) << 8 | Int(s.rgb[i + 2]), default: 0] += 1
        }
        let backgrounds = counts.sorted { $0.value > $1.value }.prefix(2).map { [$0.key >> 16 & 255, $0.key >> 8 & 255, $0.key & 255] }
        func lit(_ x: Int, _ y: Int) -> Bool {
            let i = (y * s.width + x) * 3
            return backgrounds.allSatisfy { bg in (0..<3).contains { abs(Int(s.rgb[i + $0]) - bg[$0]) > 12 } }
        }
        var best = (0, 0), start = -1
        for y in 0...s.height {
            let on = y < s.height && (0..<s.width).filter { lit($0, y) }.count > 120
            if on, start < 0 { start = y }
            if !on, start >= 0 { if y - start > best.1 - best.0 { best = (start, y) }; start = -1 }
        }
        guard best.1 - best.0 > 40 else { return nil }
        let rows = Array(best.0..<best.1)
        let cols = (0..<s.width).filter { x in rows.filter { lit(x, $0) }.count * 2 > rows.count }
        guard let x0 = cols.first, let x1 = cols.last else { return nil }
        return (x0, best.0, x1 - x0 + 1, best.1 - best.0)
    }

    static func crop(_ s: PreviewImage, _ b: (x: Int, y: Int, w: Int, h: Int)) -> PreviewImage {
        var px = [UInt8](); px.reserveCapacity(b.w * b.h * 3)
        for y in b.y..<(b.y + b.h) { px += s.rgb[((y * s.width + b.x) * 3)..<((y * s.width + b.x + b.w) * 3)] }
        return PreviewImage(width: b.w, height: b.h, rgb: px)
    }

    /// SSIM of the shown preview against the frame composed as the preview does, and inside
    /// the oval (its central half, where nothing is drawn over the image) against the frame.
    static func fidelity(_ shot: PreviewImage, frame: PreviewImage) throws -> (whole: Double, oval: Double) {
        guard let box = pictureBox(shot) else { throw PreviewNotFound() }
        let shown = crop(shot, box)
        let oval = OvalGeometry(FaceOval.standard, frameWidth: frame.width, frameHeight: frame.height)
        let r = PreviewRenderer(scaleType: .fill, mirrored: true, oval: oval, outline: RGB(0x4F, 0xC3, 0xF7), overlay: RGB(0, 0, 0))
        let (grid, _) = try #require(r.composite(frame, gridWidth: box.w, gridHeight: box.h, lineWidth: 3))
        let expected = PreviewImage(grid: grid, width: box.w, height: box.h)
        let g = r.geometry(imageWidth: frame.width, imageHeight: frame.height, gridWidth: box.w, gridHeight: box.h)
        let inner = (x: Int(g.ocx - g.oax / 2), y: Int(g.ocy - g.oay / 2), w: Int(g.oax), h: Int(g.oay))
        var bare = r; bare.showsOval = false
        let (plain, _) = try #require(bare.composite(frame, gridWidth: box.w, gridHeight: box.h))
        let plainImage = PreviewImage(grid: plain, width: box.w, height: box.h)
        return (PreviewFidelity.ssim(expected, shown), PreviewFidelity.ssim(crop(plainImage, inner), crop(shown, inner)))
    }

    @Test(.enabled(if: ready, why))
    func sixelInXtermShowsTheFrame() async throws {
        let dir = Harness.tempDir("sc-xterm")
        guard let shot = try await Self.screenshot(mode: "sixel", dir: dir, display: 97), let frame = PreviewImage(ppm: dir + "/frame.ppm") else {
            Issue.record("no screenshot in \(dir)"); return
        }
        let f = try Self.fidelity(shot, frame: frame)
        print("xterm sixel: SSIM whole preview \(f.whole), inside the oval \(f.oval)")
        #expect(f.whole >= 0.85)
        #expect(f.oval >= 0.85)
    }

    /// Symbols in xterm (TERM=xterm-256color): the bar, 0.3, is under what was measured (0.48 on
    /// 2026-12-01 on the terminal's black, 0.40 once the dark theme paints #121212 around it; DECISIONS): xterm's default fixed font has no sextant glyphs (drawn as the
    /// background) and 256 colours quantise the face.
    @Test(.enabled(if: ready, why))
    func symbolsInXtermShowTheFrame() async throws {
        let dir = Harness.tempDir("sc-xterm")
        guard let shot = try await Self.screenshot(mode: "symbols", dir: dir, display: 98), let frame = PreviewImage(ppm: dir + "/frame.ppm") else {
            Issue.record("no screenshot in \(dir)"); return
        }
        let f = try Self.fidelity(shot, frame: frame)
        print("xterm symbols: SSIM whole preview \(f.whole), inside the oval \(f.oval)")
        #expect(f.whole >= 0.3)
    }
}

struct PreviewNotFound: Error, CustomStringConvertible { var description: String { "no preview found in the screenshot" } }

extension XtermPreviewTests {
    static let kittyReady = ready && Harness.tool("kitty") != nil

    /// kitty under Xvfb (Mesa llvmpipe, LIBGL_ALWAYS_SOFTWARE=1) with `--preview-mode auto`: the
    /// start-up probe must find kitty graphics (the `a=q` reply) and the picture, sent through
    /// shared memory (a local terminal), must show the frame.
    @Test(.enabled(if: kittyReady, "needs kitty besides the xterm test's tools"))
    func kittyAutoDetectedShowsTheFrame() async throws {
        let dir = Harness.tempDir("sc-kitty")
        guard let shot = try await Self.screenshot(mode: "auto", dir: dir, display: 96, kitty: true), let frame = PreviewImage(ppm: dir + "/frame.ppm") else {
            Issue.record("no screenshot in \(dir)"); return
        }
        let f = try Self.fidelity(shot, frame: frame)
        print("kitty (auto): SSIM whole preview \(f.whole), inside the oval \(f.oval)")
        #expect(f.whole >= 0.85)
        #expect(f.oval >= 0.85)
    }
}

extension PreviewImage {
    /// A screenshot or decoded picture read with `TestSupport.PPM`.
    init?(ppm path: String) {
        guard let p = PPM.read(path) else { return nil }
        self.init(width: p.width, height: p.height, rgb: p.rgb)
    }
}

extension XtermPreviewTests {
    /// Issue #27: kitty without shared memory (`SSH_CONNECTION` set: the pixels travel in the
    /// stream, zlib-compressed) on a moving video: in a series of 20 screenshots the picture is
    /// visible in every one (it was in 5 of 20 when each frame replaced image 1, which blanked
    /// it for the whole upload). Visible: at least a fifth of the preview's area is lit (any
    /// channel above 40; a blank preview is the placeholders' near-black).
    @Test(.enabled(if: kittyReady && TestSupport.shared("media/approach.avi") != nil, "needs kitty, Xvfb, ImageMagick and ../shared/media/approach.avi"))
    func kittyStreamPictureVisibleInEveryShot() async throws {
        let bin = try #require(Harness.binary), src = try #require(TestSupport.shared("media/approach.avi"))
        let dir = Harness.tempDir("sc-kitty-stream")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let display = 95
        let script = """
        set -u
        cd '\(dir)'
        Xvfb :\(display) -screen 0 800x600x24 -nolisten tcp >/dev/null 2>&1 & XP=$!
        trap 'kill $TP 2>/dev/null; kill $XP 2>/dev/null' EXIT
        for i in $(seq 100); do [ -e /tmp/.X11-unix/X\(display) ] && break; sleep 0.05; done
        DISPLAY=:\(display) LIBGL_ALWAYS_SOFTWARE=1 kitty --config NONE -o remember_window_size=no -o initial_window_width=80c \
          -o initial_window_height=24c -o background=#000000 env -u NO_COLOR -u COLORTERM LANG=C.UTF-8 SSH_CONNECTION='10.0.0.1 5 10.0.0.2 22' \
          '\(bin)' capture --source '\(src)' --loop --no-instructions --camera-consent --preview-mode kitty \
          --events ev.jsonl --output out >/dev/null 2>&1 & TP=$!
        for i in $(seq 300); do grep -q cameraReady ev.jsonl 2>/dev/null && break; sleep 0.05; done
        sleep 2
        for i in $(seq 20); do
          DISPLAY=:\(display) import -window root -depth 8 ppm:shot-$i.ppm 2>/dev/null
          sleep 0.3
        done
        """
        let r = try await Harness.run("/bin/bash", ["-c", script], load: .terminal, timeout: 120)
        #expect(r.code == 0, "\(r.err)")
        // The preview: the left part of the terminal window, below the first rows (the side
        // layout at 80×24 puts it on the left); the window is the non-black bounding box.
        var visible = 0, lines: [String] = []
        for i in 1...20 {
            guard let s = PreviewImage(ppm: dir + "/shot-\(i).ppm") else { lines.append("shot \(i): missing"); continue }
            var winW = 0, winH = 0
            for y in 0..<s.height { for x in 0..<s.width {
                let p = (y * s.width + x) * 3
                if s.rgb[p] > 8 || s.rgb[p + 1] > 8 || s.rgb[p + 2] > 8 { winW = max(winW, x + 1); winH = max(winH, y + 1) }
            } }
            let x1 = max(1, winW * 55 / 100), y0 = winH / 10, y1 = max(y0 + 1, winH * 9 / 10)
            var lit = 0
            for y in y0..<y1 { for x in 0..<x1 {
                let p = (y * s.width + x) * 3
                if s.rgb[p] > 40 || s.rgb[p + 1] > 40 || s.rgb[p + 2] > 40 { lit += 1 }
            } }
            let share = Double(lit) / Double(x1 * (y1 - y0))
            lines.append("shot \(i): \(Int(share * 100)) % lit")
            if share >= 0.2 { visible += 1 }
        }
        print("kitty stream: picture visible in \(visible) of 20 (\(lines.joined(separator: ", ")))")
        #expect(visible == 20, "\(lines)")
    }
}
