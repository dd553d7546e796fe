import Testing
import Foundation
import CaptureModel
@testable import TerminalUI

@Suite struct ThemeTests {
    @Test(arguments: [("0;15", true), ("15;0", false), ("0;default;7", true), ("15;8", false), ("garbage", false)])
    func autoFromCOLORFGBG(value: String, light: Bool) throws {
        let t = try ThemeLoader.load(.auto, environment: ["COLORFGBG": value])
        #expect(t == (light ? Theme.light : Theme.dark))
    }

    @Test func autoWithoutCOLORFGBGIsDark() throws {
        #expect(try ThemeLoader.load(.auto, environment: [:]) == .dark)
        #expect(ThemeChoice(argument: "light") == .light)
        #expect(ThemeChoice(argument: "my.json") == .file("my.json"))
    }

    @Test func noColorRemovesEveryColour() throws {
        let t = try ThemeLoader.load(.light, environment: ["NO_COLOR": "1"])
        #expect(t.noColor)
        #expect([t.primary, t.secondary, t.cardBackground, t.overlayBackground, t.text, t.background].allSatisfy { $0 == .terminalDefault })
        #expect(try ThemeLoader.load(.light, environment: ["NO_COLOR": ""]) == .light, "an empty NO_COLOR does not count")
    }

    @Test func themeFileOverridesColoursTypographyAndPictograms() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("theme-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try " o o \n  ^  \n \\_/ \n".write(to: dir.appendingPathComponent("face.txt"), atomically: true, encoding: .utf8)
        let json = ##"{"base": "light", "colors": {"primary": "#112233", "text": "default"}, "typography": {"label": ["normal"], "body": ["italic"]}, "pictograms": {"faceVisible": "face.txt"}}"##
        let file = dir.appendingPathComponent("theme.json")
        try json.write(to: file, atomically: true, encoding: .utf8)
        let t = try ThemeLoader.load(.file(file.path), environment: [:])
        #expect(t.primary == .rgb(RGB(0x11, 0x22, 0x33)))
        #expect(t.text == .terminalDefault)
        #expect(t.secondary == Theme.light.secondary)
        #expect(t.typography[.label] == [])
        #expect(t.typography[.body] == .italic)
        #expect(t.typography[.headline] == .bold)
        #expect(t.pictograms[.faceVisible] == [" o o ", "  ^  ", " \\_/ "])
    }

    @Test(arguments: [
        (#"{"colors": {"primary": "blue"}}"#, "t.json: error: field 'colors.primary': 'blue' is not #RRGGBB or default"),
        (##"{"colors": {"accent": "#000000"}}"##, "t.json: error: field 'colors.accent': unknown colour (primary, secondary, cardBackground, overlayBackground, text, background)"),
        (#"{"base": "sepia"}"#, "t.json: error: field 'base': 'sepia' is not light, dark, high-contrast or auto"),
        (#"{"typography": {"headline": ["blink"]}}"#, "t.json: error: field 'typography.headline': unknown attribute 'blink' (bold, normal, dim, underline, italic, reverse)"),
        (#"{"colors": {"primary": 3}}"#, "t.json: error: field 'colors.primary': wrong type"),
        (#"{"pictograms": {"goodLight": "missing.txt"}}"#, "t.json: error: field 'pictograms.goodLight': cannot read '/nowhere/missing.txt'"),
    ])
    func themeErrorsNameFileAndField(json: String, message: String) {
        do {
            _ = try ThemeLoader.parse(Data(json.utf8), file: "/nowhere/t.json")
            Issue.record("no error")
        } catch let e as ThemeError {
            #expect(e.description == "/nowhere/" + message)
        } catch { Issue.record(error) }
    }

    @Test func malformedThemeJSON() {
        #expect(throws: ThemeError.self) { try ThemeLoader.parse(Data("{".utf8), file: "x.json") }
        do {
            _ = try ThemeLoader.load(.file("/no/such.json"), environment: [:])
            Issue.record("no error")
        } catch ThemeError.unreadable(let file, _) {
            #expect(file == "/no/such.json")
        } catch { Issue.record(error) }
    }
}

@Suite struct LayoutTests {
    @Test func layoutFileValues() throws {
        let o = try LayoutOverrides.parse(Data(#"{"toolbar": "top", "hintPosition": 0.68, "previewSide": "right"}"#.utf8), file: "l.json")
        #expect(o == LayoutOverrides(toolbar: .top, hintFraction: 0.68, previewSide: .right))
        #expect(try LayoutOverrides.parse(Data(#"{"hintPosition": "below"}"#.utf8), file: "l.json") == LayoutOverrides())
        #expect(try LayoutOverrides.parse(Data("{}".utf8), file: "l.json") == LayoutOverrides())
    }

    @Test(arguments: [
        (#"{"toolbar": "middle"}"#, "l.json: error: field 'toolbar': 'middle' is not top or bottom"),
        (#"{"hintPosition": 1.5}"#, "l.json: error: field 'hintPosition': 1.5 is not within 0...1"),
        (#"{"hintPosition": "side"}"#, "l.json: error: field 'hintPosition': 'side' is not a fraction, below, top, middle or bottom"),
        (#"{"previewSide": "up"}"#, "l.json: error: field 'previewSide': 'up' is not left or right"),
        (#"{"toolbar": 1}"#, "l.json: error: field 'toolbar': wrong type"),
    ])
    func layoutErrors(json: String, message: String) {
        do {
            _ = try LayoutOverrides.parse(Data(json.utf8), file: "l.json")
            Issue.record("no error")
        } catch let e as ThemeError {
            #expect(e.description == message)
        } catch { Issue.record(error) }
    }

    func frames(_ size: Size, _ o: LayoutOverrides = LayoutOverrides(), right: Bool = true) -> CaptureFrames {
        CaptureContentView().arrange(CaptureArrangeContext(size: size, overrides: o, inputsToTheRight: right, frameAspect: 4.0 / 3.0))
    }

    @Test func wideWindowPutsInputsBesideThePreview() {
        let size = Size(cols: 132, rows: 43)
        let right = frames(size)
        #expect(right.preview == CellRect(x: 0, y: 0, width: 81, height: 43))
        #expect(right.title.x == 82 && right.hint.x == 82 && right.toolbar.x == 82)
        let left = frames(size, right: false)
        #expect(left.preview.x == 51 && left.title.x == 0)
        // The layout file's previewSide wins over UiConfig.
        let fileLeft = frames(size, LayoutOverrides(previewSide: .right), right: true)
        #expect(fileLeft.preview.x == 51)
    }

    @Test func narrowWindowStacks() {
        let f = frames(Size(cols: 80, rows: 24))
        #expect(f.title == CellRect(x: 0, y: 0, width: 80, height: 2))
        #expect(f.preview == CellRect(x: 0, y: 2, width: 80, height: 18))
        #expect(f.hint.y == 20 && f.status.y == 21 && f.toolbar == CellRect(x: 0, y: 22, width: 80, height: 2))
    }

    @Test func registeredClassReplacesTheBase() {
        var r = ViewRegistry()
        #expect(type(of: r.make(CaptureContentView.self)) == CaptureContentView.self)
        r.registerClass(ToolbarOnTopCaptureContentView.self, forBaseClass: CaptureContentView.self)
        let view = r.make(CaptureContentView.self)
        let f = view.arrange(CaptureArrangeContext(size: Size(cols: 80, rows: 24), overrides: LayoutOverrides(),
                                                   inputsToTheRight: true, frameAspect: 4.0 / 3.0))
        #expect(f.toolbar.y == 0)
        #expect(f.hint.y == 16, "68 % of 24 rows")
    }
}

@Suite struct CanvasTests {
    @Test func wideCharactersTakeTwoCells() {
        var c = Canvas(width: 10, height: 1)
        let end = c.put("a漢b", x: 0, y: 0, style: .plain)
        #expect(end == 4)
        #expect(c[1, 0].text == "漢" && c[2, 0].isContinuation && c[3, 0].text == "b")
        #expect(c.textRows() == ["a漢b      "])
        // Overwriting the right half blanks the left half.
        c.put("x", x: 2, y: 0, style: .plain)
        #expect(c.textRows() == ["a xb      "])
    }

    @Test func wideCharacterAtTheEdgeBecomesASpace() {
        var c = Canvas(width: 3, height: 1)
        c.put("ab漢", x: 0, y: 0, style: .plain)
        #expect(c.textRows() == ["ab "])
    }

    @Test func widths() {
        #expect(DisplayWidth.of("é") == 1)
        #expect(DisplayWidth.of("e\u{301}") == 1)
        #expect(DisplayWidth.of("漢字") == 4)
        #expect(DisplayWidth.of("\u{7}") == 1, "control characters count as 1, never -1")
        #expect(DisplayWidth.truncate("Bonjour tout le monde", to: 10) == "Bonjour t…")
        #expect(DisplayWidth.wrap("Keep your face straight and fully visible", width: 16) == ["Keep your face", "straight and", "fully visible"])
    }

    @Test func sharedFaceOvalInFrameFractions() {
        let g = OvalGeometry(FaceOval.standard, frameWidth: 640, frameHeight: 480)
        #expect(g.centerX == 0.5 && g.centerY == 0.5)
        #expect(abs(g.semiAxisY - 0.325) < 1e-12)                 // 0.65 × 480 / 2 / 480
        #expect(abs(g.semiAxisX - 117.0 / 640.0) < 1e-12)         // 156 px × 0.75 / 640
    }

    @Test func previewPadsOddHeightsAndMirrors() {
        // 2×3 image: left column red, right column blue; odd height must not read past the end.
        let px: [UInt8] = [255, 0, 0, 0, 0, 255, 255, 0, 0, 0, 0, 255, 255, 0, 0, 0, 0, 255]
        let img = PreviewImage(width: 2, height: 3, rgb: px)
        var c = Canvas(width: 2, height: 2)
        let r = PreviewRenderer(scaleType: .fit, mirrored: true, oval: OvalGeometry(centerX: 0.5, centerY: 0.5, semiAxisX: 5, semiAxisY: 5),
                                outline: RGB(0, 255, 0), overlay: RGB(0, 0, 0), overlayAmount: 0)
        r.render(img, into: CellRect(x: 0, y: 0, width: 2, height: 2), canvas: &c, mode: .direct, glyphs: .unicode)
        // Mirrored: blue on the left. The oval covers everything (semi-axes 5 × frame), no outline.
        #expect(c[0, 0].style.fg == .rgb(RGB(0, 0, 255)))
        #expect(c[1, 0].style.fg == .rgb(RGB(255, 0, 0)))
    }
}

@Suite struct ViewStateTests {
    @Test func loadingViewProtocol() {
        let v = TerminalLoadingView()
        let lv: any LoadingView = v
        lv.onPreFeatureLoading(message: "Downloading the face model…")
        lv.onDownloadProgressChanged(progress: 0.25)
        #expect(v.state == LoadingViewState(stage: .model, progress: 0.25, message: "Downloading the face model…"))
        lv.onDownloadProgressChanged(progress: 7)
        #expect(v.state.progress == 1)
        lv.onPostFeatureLoading()
        lv.hideLoading()
        #expect(!v.isVisible && v.state.message == nil)
    }
}

@Suite struct RendererChoiceTests {
    @Test func choice() {
        #expect(RendererChoice.resolve(requested: nil, stdoutIsTTY: true, term: "xterm-256color") == .curses)
        #expect(RendererChoice.resolve(requested: nil, stdoutIsTTY: false, term: "xterm-256color") == .plain)
        #expect(RendererChoice.resolve(requested: nil, stdoutIsTTY: true, term: "dumb") == .plain)
        #expect(RendererChoice.resolve(requested: nil, stdoutIsTTY: true, term: nil) == .plain)
        #expect(RendererChoice.resolve(requested: .null, stdoutIsTTY: true, term: "xterm") == .null)
        let ctx = RenderContext(backend: NullBackend(size: Size(cols: 50, rows: 20)), strings: ProjectStrings.en, theme: .dark)
        #expect(ctx.size == Size(cols: 50, rows: 20) && ctx.colorMode == .none)
    }
}
