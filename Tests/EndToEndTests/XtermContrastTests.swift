import Foundation
import Testing
import TestSupport

/// Issue #17: `--theme auto` in a real xterm under Xvfb, once with a white and once with a black
/// background, neither setting COLORFGBG. The app asks xterm for its background (OSC 11, the
/// start-up probe) and must draw readable text: in a screenshot (xwd), the text rows of the
/// capture screen (title, duration, footer) have ink of at least 4.5:1 against the background
/// painted behind them (WCAG 2.1 SC 1.4.3), measured on the pixels with the WCAG formula.
@Suite(.serialized) struct XtermContrastTests {
    static let tools = ["Xvfb", "xterm", "xwd", "convert", "tmux"].allSatisfy { Harness.tool($0) != nil }
    static let ready = tools && Harness.binary != nil && TestSupport.shared("media/approach.avi") != nil

    /// An RGB image read from binary PPM (P6, maxval 255).
    struct Image {
        var width = 0, height = 0
        var pixels: [UInt8] = []
        init?(ppm data: Data) {
            guard let p = PPM.parse(data) else { return nil }
            width = p.width; height = p.height; pixels = p.rgb
        }
        func rgb(_ x: Int, _ y: Int) -> UInt32 {
            let p = (y * width + x) * 3
            return UInt32(pixels[p]) << 16 | UInt32(pixels[p + 1]) << 8 | UInt32(pixels[p + 2])
        }
    }

    /// WCAG 2.1 relative luminance and contrast ratio (the test's own, independent of the app's).
    static func luminance(_ c: UInt32) -> Double {
        func lin(_ v: UInt32) -> Double { let s = Double(v) / 255; return s <= 0.03928 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4) }
        return 0.2126 * lin(c >> 16 & 0xFF) + 0.7152 * lin(c >> 8 & 0xFF) + 0.0722 * lin(c & 0xFF)
    }
    static func ratio(_ a: UInt32, _ b: UInt32) -> Double {
        let la = luminance(a), lb = luminance(b)
        return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
    }

    /// In the band of rows `y0..<y1` and columns `x0..<x1`: the background (the most common
    /// colour) and the ink (of the colours covering at least 8 pixels, the one contrasting most
    /// with the background: a glyph's fully covered pixels, not its anti-aliased edge).
    static func inkContrast(_ img: Image, x0: Int, x1: Int, y0: Int, y1: Int) -> (bg: UInt32, ink: UInt32, ratio: Double)? {
        var counts: [UInt32: Int] = [:]
        for y in max(0, y0)..<min(img.height, y1) { for x in max(0, x0)..<min(img.width, x1) { counts[img.rgb(x, y), default: 0] += 1 } }
        guard let bg = counts.max(by: { $0.value < $1.value })?.key else { return nil }
        let inks = counts.filter { $0.key != bg && $0.value >= 8 }
        guard let ink = inks.max(by: { ratio($0.key, bg) < ratio($1.key, bg) })?.key else { return nil }
        return (bg, ink, ratio(ink, bg))
    }

    @Test(.enabled(if: ready, "needs Xvfb, xterm, xwd, ImageMagick convert, tmux, the binary and ../shared/media"),
          arguments: ["white", "black"])
    func autoThemeIsReadableOnXtermsBackground(background: String) async throws {
        let bin = try #require(Harness.binary), src = try #require(TestSupport.shared("media/approach.avi"))
        let dir = Harness.tempDir("xterm-\(background)")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let display = ":\(70 + Int(getpid() % 100) + (background == "white" ? 0 : 100))"
        let events = dir + "/events.jsonl"
        let session = try await TmuxSession.started(cols: 120, rows: 10)
        defer { session.kill() }
        try session.type("Xvfb \(display) -screen 0 1000x700x24 -nolisten tcp 2>/dev/null & echo xvfb-started")
        // xterm with DejaVu Sans Mono (Xft; the core bitmap fonts of a bare Xvfb lack ▀ and ✓),
        // 100×30 cells at the top left; no COLORFGBG, as xterm itself sets none.
        let fg = background == "white" ? "black" : "white"
        let app = "env -u COLORFGBG TERM=xterm-256color LANG=C.UTF-8 \(bin) --source \(src) --loop --pace realtime --output \(dir)/out --events \(events) --keys 'enter; enter; wait-for cameraReady; wait 60s'"
        try session.type("sleep 1; DISPLAY=\(display) xterm -fa 'DejaVu Sans Mono' -fs 10 -geometry 100x30+0+0 -bg \(background) -fg \(fg) -e sh -c \"\(app)\" &")
        defer { _ = try? session.type("kill %2 %1") }
        #expect(await session.waitUntil(60) { eventLogContains(events, "cameraReady") }, "\(session.dump())")
        // Let a few screens be drawn after the camera is ready.
        try? await Task.sleep(nanoseconds: 1_500_000_000)
        let ppm = dir + "/shot.ppm"
        let shot = try Harness.run("/bin/sh", ["-c", "xwd -root -silent -display \(display) | convert xwd:- -depth 8 ppm:\(ppm)"], timeout: 60)
        #expect(shot.code == 0, "\(shot.err)")
        let img = try #require(Image(ppm: try Data(contentsOf: URL(fileURLWithPath: ppm))))
        // The terminal's area: the bounding box of what is not the root window's black (every
        // built-in theme paints its background, #121212 at darkest).
        var winW = 0, winH = 0
        for y in 0..<img.height { for x in 0..<img.width where img.rgb(x, y) != 0 { winW = max(winW, x + 1); winH = max(winH, y + 1) } }
        // Text rows: the right part (beside the preview, where the title, duration, Start and
        // the keys are drawn); bands of a tenth of the window's height each.
        let x0 = winW * 65 / 100, x1 = winW - 4
        var checked = 0
        for band in 0..<10 {
            // (4 px in from the window's edge: xterm's own border, in its own background colour.)
            let y0 = max(4, winH * band / 10), y1 = min(winH - 4, winH * (band + 1) / 10)
            guard let c = Self.inkContrast(img, x0: x0, x1: x1, y0: y0, y1: y1) else { continue }
            checked += 1
            print("xterm -bg \(background), band \(band): ink #\(String(c.ink, radix: 16)) on #\(String(c.bg, radix: 16)): \(String(format: "%.2f", c.ratio)):1")
            #expect(c.ratio >= 4.5, "band \(band): ink #\(String(c.ink, radix: 16)) on #\(String(c.bg, radix: 16)): \(c.ratio):1 (\(background) xterm)")
        }
        #expect(checked >= 2, "no text found beside the preview (\(background) xterm, window \(winW)×\(winH))")
        // And the theme followed the terminal: the text area's background is light on white, dark on black.
        if let c = Self.inkContrast(img, x0: x0, x1: x1, y0: 4, y1: winH - 4) {
            let light = Self.luminance(c.bg) > 0.179
            #expect(light == (background == "white"), "background #\(String(c.bg, radix: 16)) on a \(background) xterm")
        }
    }
}

extension XtermContrastTests {
    /// Issue #27: `xterm` with its defaults (TERM=xterm: 8 colours; black on white), `--source
    /// demo`: the text beside the preview (title, duration, Start, keys) has ink ≥ 4.5:1 on its
    /// background in the screenshot (was bright cyan on grey90, about 1.0:1).
    @Test(.enabled(if: tools && Harness.binary != nil, "needs Xvfb, xterm, xwd, ImageMagick convert, tmux and the binary"))
    func defaultXtermWith8ColoursIsReadable() async throws {
        let bin = try #require(Harness.binary)
        let demo = TestSupport.projectRoot().appendingPathComponent("Resources/demo/astronaut.png").path
        try #require(FileManager.default.fileExists(atPath: demo), "Resources/demo (make setup)")
        let dir = Harness.tempDir("xterm-8")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let display = ":\(60 + Int(getpid() % 50))"
        let events = dir + "/events.jsonl"
        let session = try await TmuxSession.started(cols: 120, rows: 10)
        defer { session.kill() }
        try session.type("Xvfb \(display) -screen 0 1000x700x24 -nolisten tcp 2>/dev/null & echo xvfb-started")
        let app = "env -u COLORFGBG -u COLORTERM TERM=xterm LANG=C.UTF-8 \(bin) --source demo --output \(dir)/out --events \(events) --keys 'enter; enter; wait-for cameraReady; wait 60s'"
        try session.type("sleep 1; DISPLAY=\(display) xterm -fa 'DejaVu Sans Mono' -fs 10 -geometry 100x30+0+0 -e sh -c \"\(app)\" &")
        defer { _ = try? session.type("kill %2 %1") }
        #expect(await session.waitUntil(60) { eventLogContains(events, "cameraReady") }, "\(session.dump())")
        try? await Task.sleep(nanoseconds: 1_500_000_000)
        let ppm = dir + "/shot.ppm"
        let shot = try Harness.run("/bin/sh", ["-c", "xwd -root -silent -display \(display) | convert xwd:- -depth 8 ppm:\(ppm)"], timeout: 60)
        #expect(shot.code == 0, "\(shot.err)")
        let img = try #require(Image(ppm: try Data(contentsOf: URL(fileURLWithPath: ppm))))
        var winW = 0, winH = 0
        for y in 0..<img.height { for x in 0..<img.width where img.rgb(x, y) != 0 { winW = max(winW, x + 1); winH = max(winH, y + 1) } }
        let x0 = winW * 65 / 100, x1 = winW - 4
        var checked = 0
        for band in 0..<10 {
            let y0 = max(4, winH * band / 10), y1 = min(winH - 4, winH * (band + 1) / 10)
            guard let c = Self.inkContrast(img, x0: x0, x1: x1, y0: y0, y1: y1) else { continue }
            checked += 1
            print("default xterm (8 colours), band \(band): ink #\(String(c.ink, radix: 16)) on #\(String(c.bg, radix: 16)): \(String(format: "%.2f", c.ratio)):1")
            #expect(c.ratio >= 4.5, "band \(band): ink #\(String(c.ink, radix: 16)) on #\(String(c.bg, radix: 16)): \(c.ratio):1")
        }
        #expect(checked >= 2, "no text found beside the preview (window \(winW)×\(winH))")
    }
}
