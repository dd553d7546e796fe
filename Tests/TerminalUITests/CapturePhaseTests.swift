import Testing
import Foundation
import CaptureModel
import TestSupport
@testable import TerminalUI

/// Issue #19: the capture screen in every phase (ready, positioning, countdown 3/2/1, recording
/// at 0, 50 and 100 %) and the result screen with a thumbnail, at 40×12, 80×24 and 132×43, in
/// English and French. Snapshots pin the drawing; the behaviour tests below check the rules
/// (footer per phase, digits in or beside the oval, the ring, hints before Start, status line,
/// nothing cut) without depending on the exact picture.
enum PhaseFixture {
    static let img = quadrantImage()
    static let oval = OvalGeometry(FaceOval.standard, frameWidth: img.width, frameHeight: img.height)

    static func capture(_ phase: CapturePhase, hint: Hint? = nil, valid: Bool? = nil, remaining: Int? = nil,
                        progress: Double = 0) -> ScreenView {
        .capture(CaptureViewState(image: img, oval: oval, phase: phase, hint: hint, isValid: valid, countdownRemaining: remaining,
                                  progress: progress))
    }

    static let result = ScreenView.result(ResultViewState(
        savedPaths: ["/home/operator/captures/selfie-capture-20261201-143000/video.avi",
                     "/home/operator/captures/selfie-capture-20261201-143000/frames",
                     "/home/operator/captures/selfie-capture-20261201-143000/result.json"],
        durationSeconds: 1.0, frameCount: 15, collectedCount: 2, askedCount: 3,
        folder: "/home/operator/captures/selfie-capture-20261201-143000", thumbnail: img))

    static func phases() -> [(String, ScreenView)] {
        [
            ("ready", capture(.ready, hint: .getCloser, valid: false)),
            ("positioning", capture(.positioning, hint: .moveLeft, valid: false)),
            ("countdown-3", capture(.countdown, hint: .holdStill, valid: true, remaining: 3)),
            ("countdown-2", capture(.countdown, hint: .holdStill, valid: true, remaining: 2)),
            ("countdown-1", capture(.countdown, hint: .holdStill, valid: true, remaining: 1)),
            ("recording-0", capture(.recording, hint: .holdStill, valid: true, progress: 0)),
            ("recording-50", capture(.recording, hint: .holdStill, valid: true, progress: 0.5)),
            ("recording-100", capture(.recording, hint: .holdStill, valid: true, progress: 1)),
            ("result-thumbnail", result),
        ]
    }

    static func context(_ size: Size, _ locale: String = "en", layout: Layout = Layout(), canGoBack: Bool = true,
                        status: StatusLineInfo? = nil) -> RenderContext {
        RenderContext(size: size, strings: ProjectStrings.of(locale), theme: .dark, layout: layout, colorMode: .direct,
                      glyphs: .unicode, canGoBack: canGoBack, statusLine: status)
    }

    static func text(_ r: RenderedScreen) -> String { r.canvas.textRows().joined(separator: "\n") }
}

@Suite struct CapturePhaseSnapshotTests {
    @Test(arguments: Fixture.sizes)
    func everyPhaseEnglishFrench(size: Size) {
        for locale in ["en", "fr"] {
            let doc = Fixture.document(size: size, locale: locale, theme: .dark, screens: PhaseFixture.phases())
            if let problem = TestSupport.checkSnapshot(doc, named: "capture-phases-\(locale)-\(size.cols)x\(size.rows).txt") {
                Issue.record(Comment(rawValue: problem))
            }
        }
    }
}

@Suite struct CapturePhaseBehaviourTests {
    static let sizes = Fixture.sizes + [Size(cols: 100, rows: 30)]

    /// The footer lists only the keys that do something: `s: start` until started, `Esc: back`
    /// only where Esc goes back, and during the recording what `q` does. Every item is on
    /// screen whole (not cut) at every size, in French too.
    @Test(arguments: sizes)
    func footerMatchesThePhase(size: Size) {
        for locale in ["en", "fr"] {
            let s = ProjectStrings.of(locale)
            let start = s.text("selfie_capture_key_start"), back = s.text("selfie_capture_key_back")
            let quit = s.text("selfie_capture_key_quit"), cancel = s.text("selfie_capture_key_cancel_delete")
            for (name, view, expected, absent) in [
                ("ready", PhaseFixture.capture(.ready), [start, back, quit], [cancel]),
                ("positioning", PhaseFixture.capture(.positioning, hint: .moveLeft), [back, quit], [start, cancel]),
                ("countdown", PhaseFixture.capture(.countdown, remaining: 2), [back, quit], [start, cancel]),
                ("recording", PhaseFixture.capture(.recording, progress: 0.5), [back, cancel], [start, quit]),
            ] {
                let r = Screens.render(view, context: PhaseFixture.context(size, locale))
                let text = PhaseFixture.text(r)
                for item in expected { #expect(text.contains(item), "\(locale) \(size) \(name): '\(item)' missing or cut\n\(text)") }
                for item in absent { #expect(!text.contains(item), "\(locale) \(size) \(name): '\(item)' shown") }
            }
            // Where Esc does nothing, it is not offered.
            let r = Screens.render(PhaseFixture.capture(.ready), context: PhaseFixture.context(size, locale, canGoBack: false))
            #expect(!PhaseFixture.text(r).contains(back) && PhaseFixture.text(r).contains(start))
        }
    }

    /// The footer never draws over another part: with the toolbar at the bottom or on top, the
    /// hint below or over the preview, the title and the hint stay whole in every phase, and
    /// the keys that do something stay (only `s: start` may give way beside the Start button).
    @Test(arguments: Fixture.sizes + [Size(cols: 100, rows: 30)])
    func footerLeavesTheOtherPartsWhole(size: Size) throws {
        var top = ViewRegistry()
        top.registerClass(ToolbarOnTopCaptureContentView.self, forBaseClass: CaptureContentView.self)
        let file = try LayoutOverrides.parse(Data(#"{"toolbar": "top", "hintPosition": 0.68, "previewSide": "right"}"#.utf8), file: "l.json")
        for layout in [Layout(), Layout(registry: top), Layout(overrides: file)] {
            for locale in ["en", "fr"] {
                let s = ProjectStrings.of(locale)
                for (view, hint) in [(PhaseFixture.capture(.ready, hint: .moveLeft), nil as String?),
                                     (PhaseFixture.capture(.positioning, hint: .moveLeft), s.text(Hint.moveLeft.stringKey)),
                                     (PhaseFixture.capture(.recording, progress: 0.5), s.text("selfie_capture_recording"))] {
                    let text = PhaseFixture.text(Screens.render(view, context: PhaseFixture.context(size, locale, layout: layout)))
                    #expect(text.contains(s.text("selfie_capture_capture_title")), "\(locale) \(size): title\n\(text)")
                    if let h = hint { #expect(text.contains(h), "\(locale) \(size): hint\n\(text)") }
                    #expect(text.contains(s.text("selfie_capture_key_quit")) || text.contains(s.text("selfie_capture_key_cancel_delete")),
                            "\(locale) \(size): q\n\(text)")
                }
            }
        }
    }

    /// The instructions screen is the first: no "Esc: back" there.
    @Test func instructionsOfferNoBack() {
        let r = Screens.render(.instructions, context: PhaseFixture.context(Size(cols: 80, rows: 24)))
        #expect(!PhaseFixture.text(r).contains("Esc") && PhaseFixture.text(r).contains("Enter: continue · q: quit"))
    }

    /// With `guideBeforeStart` the hint shows while the Start button waits; without, it does
    /// not. Either way the oval's outline takes the "not valid" colour from the first frame.
    @Test(arguments: Fixture.sizes)
    func hintsBeforeStartOnlyWhenAsked(size: Size) {
        let view = PhaseFixture.capture(.ready, hint: .getCloser, valid: false)
        let hint = ProjectStrings.en.text(Hint.getCloser.stringKey)
        let plain = Screens.render(view, context: PhaseFixture.context(size))
        let guided = Screens.render(view, context: PhaseFixture.context(size, layout: Layout(overrides: LayoutOverrides(guideBeforeStart: true))))
        #expect(!PhaseFixture.text(plain).contains(hint))
        #expect(PhaseFixture.text(guided).contains(hint))
        guard case .rgb(let secondary) = Theme.dark.secondary else { Issue.record("dark theme secondary is not RGB"); return }
        for r in [plain, guided] {
            #expect(r.canvas.cells.contains { $0.style.fg == Color.rgb(secondary) || $0.style.bg == Color.rgb(secondary) },
                    "the outline shows the invalid face before Start")
        }
    }

    /// The countdown digit is drawn big: inside the oval when the preview is large enough, else
    /// beside it in block glyphs. Each digit draws differently; the status text stays.
    @Test(arguments: Fixture.sizes)
    func bigCountdownDigits(size: Size) {
        let ctx = PhaseFixture.context(size)
        let renders = [3, 2, 1].map { Screens.render(PhaseFixture.capture(.countdown, hint: .holdStill, valid: true, remaining: $0), context: ctx) }
        #expect(renders[0].canvas != renders[1].canvas && renders[1].canvas != renders[2].canvas && renders[0].canvas != renders[2].canvas,
                "3, 2 and 1 look different")
        for (r, n) in zip(renders, [3, 2, 1]) {
            #expect(r.status?.contains(ProjectStrings.en.text("selfie_capture_countdown", [.int(n)])) == true)
        }
        let frames = CaptureContentView().arrange(CaptureArrangeContext(size: size, overrides: LayoutOverrides(), inputsToTheRight: true,
                                                                        frameAspect: 4.0 / 3.0))
        let preview = PreviewRenderer.previewRect(in: frames.preview)
        let r = renders[0]
        let renderer = PreviewRenderer(scaleType: .fill, mirrored: true, oval: PhaseFixture.oval, outline: RGB(0, 0, 0), overlay: RGB(0, 0, 0))
        let inside = renderer.digitScale("3", imageSize: (PhaseFixture.img.width, PhaseFixture.img.height), rect: preview)
        if inside >= PreviewRenderer.minimumDigitScale {
            // The ink is the primary colour: against the same screen without digits, at least
            // as many more primary pixels as the scaled font has.
            guard case .rgb(let primary) = Theme.dark.primary else { return }
            func primaryPixels(_ r: RenderedScreen) -> Int {
                var n = 0
                for y in preview.y..<preview.maxY {
                    for x in preview.x..<preview.maxX {
                        let c = r.canvas[x, y]
                        if c.style.fg == .rgb(primary) { n += 1 }
                        if c.style.bg == .rgb(primary) { n += 1 }
                    }
                }
                return n
            }
            let baseline = Screens.render(PhaseFixture.capture(.positioning, hint: .holdStill, valid: true), context: ctx)
            let b = BigDigits.bitmap("3", scale: inside)
            #expect(primaryPixels(r) - primaryPixels(baseline) >= b.ink.filter { $0 }.count, "\(size): digit ink inside the oval")
        } else {
            // Beside the preview: block glyphs outside the preview's columns.
            var blocks = 0
            for y in preview.y..<preview.maxY {
                for x in 0..<size.cols where x < preview.x || x >= preview.maxX {
                    if let t = r.canvas[x, y].text, "█▀▄".contains(t) { blocks += 1 }
                }
            }
            #expect(blocks >= 5, "\(size): digit beside the small preview")
        }
    }

    /// The recording ring fills clockwise from the top: at 50 % the right half of the oval's
    /// band is the accent colour and the left half the track colour; at 0 % none, at 100 % all.
    @Test func recordingRingFollowsProgress() {
        let rect = CellRect(x: 0, y: 0, width: 64, height: 24)
        let accent = RGB(0, 255, 0), track = RGB(255, 0, 255)
        func counts(_ p: Double) -> (rightAccent: Int, leftAccent: Int, leftTrack: Int) {
            var canvas = Canvas(width: 64, height: 24)
            let r = PreviewRenderer(scaleType: .fill, mirrored: false, oval: .standard, outline: RGB(0, 0, 255), overlay: RGB(0, 0, 0),
                                    ring: p, accent: accent, ringTrack: track)
            r.render(PreviewImage.solid(width: 64, height: 48, RGB(128, 128, 128)), into: rect, canvas: &canvas, mode: .direct, glyphs: .unicode)
            var ra = 0, la = 0, lt = 0
            for y in 0..<24 {
                for x in 0..<64 {
                    let st = canvas[x, y].style
                    for c in [st.fg, st.bg] {
                        if c == .rgb(accent) { if x >= 33 { ra += 1 } else if x < 31 { la += 1 } }
                        if c == .rgb(track), x < 31 { lt += 1 }
                    }
                }
            }
            return (ra, la, lt)
        }
        let half = counts(0.5), none = counts(0), all = counts(1)
        #expect(half.rightAccent > 20 && half.leftAccent == 0 && half.leftTrack > 20)
        #expect(none.rightAccent == 0 && none.leftAccent == 0)
        #expect(all.leftTrack == 0 && all.leftAccent > 20)
    }

    /// The status line shows the source's figures on the top row.
    @Test func statusLineShowsTheFigures() {
        let info = StatusLineInfo(source: "approach.avi", kind: "file", width: 640, height: 480, fps: 15, colorMode: .palette256,
                                  previewFps: 14.9, bytesPerSecond: 12_345)
        let r = Screens.render(PhaseFixture.capture(.positioning, hint: .moveLeft), context: PhaseFixture.context(Size(cols: 132, rows: 43), status: info))
        let top = r.canvas.textRows()[0]
        for part in ["approach.avi (file)", "640×480", "15.0 fps", "colours 256", "preview half-blocks 14.9 fps", "12.3 kB/s"] {
            #expect(top.contains(part), "'\(part)' in '\(top)'")
        }
        let hidden = Screens.render(PhaseFixture.capture(.positioning, hint: .moveLeft), context: PhaseFixture.context(Size(cols: 132, rows: 43)))
        #expect(!hidden.canvas.textRows()[0].contains("640×480"))
    }

    /// The result screen keeps every file name whole at every size (long paths are shortened
    /// from the middle) and draws the thumbnail as half blocks left of the text.
    @Test(arguments: sizes)
    func resultNamesEveryFileWhole(size: Size) {
        for locale in ["en", "fr"] {
            let r = Screens.render(PhaseFixture.result, context: PhaseFixture.context(size, locale))
            let text = PhaseFixture.text(r)
            for name in ["video.avi", "result.json"] { #expect(text.contains(name), "\(locale) \(size): \(name)\n\(text)") }
            #expect(r.canvas.cells.contains { $0.text == "▀" }, "thumbnail drawn")
            #expect(r.lines.contains { $0.hasSuffix("/home/operator/captures/selfie-capture-20261201-143000") }, "plain text keeps the whole path")
        }
    }

    @Test func truncateMiddleKeepsBothEnds() {
        #expect(DisplayWidth.truncateMiddle("/home/operator/captures/video.avi", to: 20) == "/home/…res/video.avi")
        #expect(DisplayWidth.truncateMiddle("short", to: 20) == "short")
        #expect(DisplayWidth.of(DisplayWidth.truncateMiddle("/a/very/long/path/with/é/and/日本/x.avi", to: 15)) <= 15)
        #expect(DisplayWidth.truncateMiddle("abc", to: 1) == "…" && DisplayWidth.truncateMiddle("abc", to: 0) == "")
    }

    @Test func rateMeterPerSecond() {
        var m = RateMeter(windowMs: 2000)
        #expect(m.perSecond == nil)
        for i in 0...30 { m.add(atMs: i * 66) }          // a 15 fps source
        #expect(abs((m.perSecond ?? 0) - 1000.0 / 66) < 0.01)
        var b = RateMeter(windowMs: 1000)
        for i in 0...100 { b.add(i == 0 ? 0 : 500, atMs: i * 100) }   // 500 bytes every 100 ms
        #expect(b.perSecond == 5000)
    }

    @Test func bigDigitFont() {
        let one = BigDigits.bitmap("1", scale: 1)
        #expect(one.width == 3 && one.height == 5 && one.ink.filter { $0 }.count == 8)
        let ten = BigDigits.bitmap("10", scale: 2)
        #expect(ten.width == 14 && ten.height == 10)
        #expect(BigDigits.cells(BigDigits.bitmap("7", scale: 1), ascii: false) == ["▀▀█", " █ ", " ▀ "])
    }
}

@Suite struct StatusLineSourcesTests {
    /// `--colors` caps the mode at what the opened terminal shows; nil keeps the detected one.
    @Test func colorsOptionCapsTheMode() {
        #expect(CursesBackend.colorMode(detected: .palette256, requested: .ansi16) == .ansi16)
        #expect(CursesBackend.colorMode(detected: .direct, requested: .palette256) == .palette256)
        #expect(CursesBackend.colorMode(detected: .palette256, requested: .direct) == .palette256, "no 24-bit through a 256-colour entry")
        #expect(CursesBackend.colorMode(detected: .none, requested: .palette256) == .none, "NO_COLOR wins")
        #expect(CursesBackend.colorMode(detected: .direct, requested: nil) == .direct)
    }

    /// The kernel's per-thread write counter: `wchar` read from an `io` file's text, and it
    /// grows by exactly the bytes this thread writes.
    @Test func threadWriteCounter() throws {
        #expect(ThreadWriteCounter.wchar(in: "rchar: 6976\nwchar: 1234\nsyscr: 10\n") == 1234)
        #expect(ThreadWriteCounter.wchar(in: "rchar: 1\n") == nil)
        let counter = try #require(ThreadWriteCounter(), "/proc/thread-self/io is readable on Linux 3.17+")
        let fd = open("/dev/null", O_WRONLY)
        defer { close(fd) }
        let before = try #require(counter.bytes)
        let bytes = [UInt8](repeating: 7, count: 4321)
        #expect(write(fd, bytes, bytes.count) == 4321)
        #expect(try #require(counter.bytes) - before == 4321)
    }

    /// `"guideBeforeStart": true` in a layout file, like `--guide-before-start`.
    @Test func layoutFileGuidesBeforeStart() throws {
        #expect(try LayoutOverrides.parse(Data(#"{"guideBeforeStart": true}"#.utf8), file: "l.json").guideBeforeStart)
        #expect(try !LayoutOverrides.parse(Data(#"{"toolbar": "top"}"#.utf8), file: "l.json").guideBeforeStart)
        #expect(throws: ThemeError.self) { try LayoutOverrides.parse(Data(#"{"guideBeforeStart": "yes"}"#.utf8), file: "l.json") }
    }
}
