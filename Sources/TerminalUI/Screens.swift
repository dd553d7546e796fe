import CaptureModel
import Foundation
import Localization

/// What the loading screen shows.
public struct LoadingViewState: Sendable, Equatable {
    public var stage: LoadingStage
    /// 0...1 when known (e.g. a model download), else nil.
    public var progress: Double?
    /// A message replacing the stage's text (from `LoadingView.onPreFeatureLoading`).
    public var message: String?
    /// How long the current stage has been going, in ms (shown as seconds): the face model's
    /// load, then the camera's opening.
    public var elapsedMs: Int?
    /// The face model's load time in ms, once it has loaded (shown on the camera stage).
    public var modelLoadMs: Int?
    public init(stage: LoadingStage = .model, progress: Double? = nil, message: String? = nil,
                elapsedMs: Int? = nil, modelLoadMs: Int? = nil) {
        self.stage = stage; self.progress = progress; self.message = message
        self.elapsedMs = elapsedMs; self.modelLoadMs = modelLoadMs
    }
}

/// The capture screen's state (built from the state machine plus the latest preview frame).
public struct CaptureViewState: Sendable, Equatable {
    public var image: PreviewImage?
    public var mirrored: Bool
    public var scaleType: PreviewScaleType
    public var oval: OvalGeometry
    public var phase: CapturePhase
    public var hint: Hint?
    /// The oval's state: `GuidanceResult.ovalValid` (the debounced hint's, at most three changes
    /// a second, WCAG 2.1 SC 2.3.1); nil before the first judged frame.
    public var isValid: Bool?
    public var countdownRemaining: Int?
    public var progress: Double
    /// Why the capture just restarted; while set, its message replaces the hint line.
    public var restartReason: Hint?
    public var showStartButton: Bool
    public var recordingDurationMs: Int
    public var inputsToTheRight: Bool
    /// Whole seconds the source has been silent (no frame), when it has been for at least a
    /// second (the runtime's `sourceWaitNoticeMs`); while set, "Waiting for the camera… (N s)"
    /// replaces the hint line (V4L-13, a stalled pipe).
    public var sourceWaitSeconds: Int? = nil
    /// The source is a camera (else a file, pipe or the demo: "the video" in the texts, issue #18).
    public var sourceIsCamera = true
    /// The running challenge step's instruction key (`selfie_capture_challenge_left|right|up`,
    /// issue #25); while set it replaces "Recording" on the hint line, after an arrow.
    public var challengeKey: String? = nil

    public init(image: PreviewImage? = nil, mirrored: Bool = true, scaleType: PreviewScaleType = .fill,
                oval: OvalGeometry = .standard, phase: CapturePhase = .ready, hint: Hint? = nil, isValid: Bool? = nil,
                countdownRemaining: Int? = nil, progress: Double = 0, restartReason: Hint? = nil,
                showStartButton: Bool = true, recordingDurationMs: Int = 1000, inputsToTheRight: Bool = true) {
        self.image = image; self.mirrored = mirrored; self.scaleType = scaleType; self.oval = oval; self.phase = phase
        self.hint = hint; self.isValid = isValid; self.countdownRemaining = countdownRemaining; self.progress = progress
        self.restartReason = restartReason; self.showStartButton = showStartButton
        self.recordingDurationMs = recordingDurationMs; self.inputsToTheRight = inputsToTheRight
    }

    /// The view of the flow's capture screen with `image` as the latest frame. The oval is the
    /// shared `FaceOval` (default `.standard`, the guidance rules' value) for the image's size,
    /// or `OvalGeometry.standard` before the first frame.
    /// `oval`, when given, is used as is (already converted for the frame).
    public init(flow m: FlowView, image: PreviewImage?, mirrored: Bool = true, oval: OvalGeometry? = nil,
                faceOval: FaceOval = .standard) {
        let oval = oval ?? image.map { OvalGeometry(faceOval, frameWidth: $0.width, frameHeight: $0.height) } ?? .standard
        self.init(image: image, mirrored: mirrored, scaleType: m.previewScaleType, oval: oval,
                  phase: m.phase, hint: Self.shownHint(m), isValid: m.ovalValid,
                  countdownRemaining: m.countdownRemaining, progress: m.recordingProgress, restartReason: m.restartReason,
                  showStartButton: m.showsStartButton, recordingDurationMs: m.recordingDurationMs,
                  inputsToTheRight: m.inputsToTheRight)
        challengeKey = m.challengeKey
    }

    /// The arrow for a challenge step as the preview shows it: the person's left is the
    /// screen's left in a mirrored preview, its right without mirroring.
    public static func challengeArrow(_ key: String, mirrored: Bool) -> String {
        if key.hasSuffix("_up") { return "↑" }
        let left = key.hasSuffix("_left")
        return left == mirrored ? "←" : "→"
    }

    /// The hint to show: "hold still" during the countdown and the recording (the face is valid
    /// and still by then, while the debounced hint can lag by up to 200 ms and contradict the
    /// countdown), else the machine's current hint.
    static func shownHint(_ m: FlowView) -> Hint? {
        m.phase == .countdown || m.phase == .recording ? .holdStill : m.hint
    }
}

/// What the result screen shows.
public struct ResultViewState: Sendable, Equatable {
    public var savedPaths: [String]
    public var durationSeconds: Double
    public var frameCount: Int
    public var collectedCount: Int
    /// Stills asked for (`--frames-to-collect`); when more than `collectedCount`, the screen
    /// says that fewer were possible (a recording shorter than the asked count of frames).
    public var askedCount: Int
    /// The capture's folder (shown as "Folder: …"); nil to list only `savedPaths`.
    public var folder: String?
    /// A still of the capture (the reference frame, or the middle collected frame until the
    /// reference frame exists), drawn like the preview; nil draws none.
    public var thumbnail: PreviewImage?
    /// Draw the thumbnail mirrored, as the preview showed the person.
    public var mirrored = true
    public init(savedPaths: [String], durationSeconds: Double, frameCount: Int, collectedCount: Int, askedCount: Int = 0,
                folder: String? = nil, thumbnail: PreviewImage? = nil) {
        self.savedPaths = savedPaths; self.durationSeconds = durationSeconds; self.frameCount = frameCount; self.collectedCount = collectedCount
        self.askedCount = askedCount; self.folder = folder; self.thumbnail = thumbnail
    }
}

/// What the failed screen shows.
public struct FailedViewState: Sendable, Equatable {
    public var reason: FailureReason
    /// Offer `[ Try again ]` (Enter/Space) beside exit (q/Esc); else only exit, any key.
    public var canTryAgain: Bool
    /// The attempt that failed (from 1) and how many the run may make; "Attempt N of M" is shown
    /// when Try again is offered or an earlier attempt failed (not for a first, final failure).
    public var attempt: Int
    public var maxAttempts: Int
    /// The source is a camera (else a file, pipe or the demo): the words and advice follow it (issue #18).
    public var sourceIsCamera = true
    public init(reason: FailureReason, canTryAgain: Bool = false, attempt: Int = 1, maxAttempts: Int = 1) {
        self.reason = reason; self.canTryAgain = canTryAgain; self.attempt = attempt; self.maxAttempts = maxAttempts
    }
}

/// One screen's state.
public enum ScreenView: Sendable, Equatable {
    case loading(LoadingViewState)
    case instructions
    case cameraPermission(pending: Bool)
    case cameraPermissionDenied(devicePath: String)
    case capture(CaptureViewState)
    case result(ResultViewState)
    case failed(FailedViewState)
}

/// Everything a screen needs besides its state.
public struct RenderContext: Sendable {
    public var size: Size
    public var strings: any Localizing
    public var theme: Theme
    public var layout: Layout
    public var colorMode: ColorMode
    public var glyphs: Glyphs
    /// Whether Esc/Backspace does anything on the screen shown (`CaptureStateMachine.backGoesSomewhere`);
    /// the footer lists "Esc: back" only then.
    public var canGoBack: Bool
    /// The status line's figures (toggled with `i`); nil hides it.
    public var statusLine: StatusLineInfo?
    /// A one-line notice the app must show before the capture (string files it could not use);
    /// drawn on the loading, instructions and permission screens (`Screens.noticed`). nil: none.
    public var notice: String?
    /// `--reduced-motion` (issue #17): nothing counts or moves by itself; the loading screen
    /// shows a static progress line (its stage) instead of its running seconds.
    public var reducedMotion = false
    /// Whether keys answer the screens (false: `--unattended`, or no terminal to read them
    /// from): the result screen then leaves out "Press Enter to finish", which nothing waits for.
    public var keysAnswer = true
    /// How the capture preview is drawn, the terminal's cell size in pixels, and the symbol
    /// renderer (libchafa, `ChafaPreview.symbols`) for `.symbols`; half blocks when it is nil.
    public var previewMode: PreviewMode = .halfBlocks
    public var cellGeometry: CellGeometry = .fallback
    public var symbolRenderer: PreviewSymbolRenderer?
    public init(size: Size, strings: any Localizing, theme: Theme, layout: Layout = Layout(),
                colorMode: ColorMode = .direct, glyphs: Glyphs = .unicode, canGoBack: Bool = true,
                statusLine: StatusLineInfo? = nil) {
        self.size = size; self.strings = strings; self.theme = theme; self.layout = layout
        self.colorMode = colorMode; self.glyphs = glyphs; self.canGoBack = canGoBack; self.statusLine = statusLine
    }
}

/// How the preview is drawn (`--preview-mode`, issue #13); the status line names it.
public enum PreviewMode: String, Sendable, Equatable, CaseIterable {
    /// `▀` with the upper pixel as foreground and the lower as background (ASCII ramp without colour).
    case halfBlocks = "half-blocks"
    /// libchafa symbol art (sextants, quadrants, half blocks) read back into cells.
    case symbols
    /// Pictures through libchafa: DEC sixel, the kitty graphics protocol, iTerm2 inline images.
    case sixel, kitty, iterm
}

/// The figures of the status line (htop/mc style, toggled with `i`, on from the start with
/// `--debug-overlay`). Measured values are nil until known.
public struct StatusLineInfo: Sendable, Equatable {
    /// The source as given (`demo`, `/dev/video0`, a file name) and its kind (`camera`, `file`, `pipe`, `demo`).
    public var source: String
    public var kind: String
    /// The frames' size in pixels.
    public var width: Int, height: Int
    /// Frames per second read from the source, measured over the last second or so.
    public var fps: Double?
    public var colorMode: ColorMode
    public var previewMode: PreviewMode
    /// Screens drawn per second (measured) and the cap asked for (`--preview-fps`).
    public var previewFps: Double?
    /// Bytes written to the terminal per second (measured; nil when the backend does not count).
    public var bytesPerSecond: Double?
    /// Camera-to-screen latency in ms, p50...p95 (issue #16; nil until measured, and with `--pace fast`).
    public var latencyMs: ClosedRange<Int>?
    public init(source: String, kind: String, width: Int, height: Int, fps: Double?, colorMode: ColorMode,
                previewMode: PreviewMode = .halfBlocks, previewFps: Double?, bytesPerSecond: Double?) {
        self.source = source; self.kind = kind; self.width = width; self.height = height; self.fps = fps
        self.colorMode = colorMode; self.previewMode = previewMode; self.previewFps = previewFps
        self.bytesPerSecond = bytesPerSecond
    }

    /// The colour mode as `--colors` names it: `none`, `16`, `256`, `truecolor`.
    public static func colorName(_ m: ColorMode) -> String {
        switch m {
        case .none: return "none"
        case .ansi16: return "16"
        case .palette256: return "256"
        case .direct: return "truecolor"
        }
    }

    /// `950 B`, `12.3 kB`, `1.25 MB` (SI units, as `ls -h --si`).
    public static func bytes(_ v: Double) -> String {
        if v < 1000 { return "\(Int(v.rounded())) B" }
        if v < 1_000_000 { return String(format: "%.1f kB", v / 1000) }
        return String(format: "%.2f MB", v / 1_000_000)
    }
}

/// A drawn screen: the cells, plus its text for the plain renderer (the screen's fixed text in
/// reading order, and a status line that changes: hint, countdown, progress).
public struct RenderedScreen: Sendable, Equatable {
    public var canvas: Canvas
    public var lines: [String]
    public var status: String?
    /// In a pixel preview mode, the picture the backend places over the preview rectangle
    /// (whose cells hold `PreviewPicture.placeholderStyle` spaces); nil otherwise.
    public var picture: PreviewPicture?
    public init(canvas: Canvas, lines: [String], status: String?) { self.canvas = canvas; self.lines = lines; self.status = status }
}

/// The screens: pure functions of (view state, context) → `RenderedScreen`.
public enum Screens {
    /// Smallest usable terminal: 40 columns × 12 rows; below, a short message is shown instead.
    public static let minimumSize = Size(cols: 40, rows: 12)

    /// Renders `view` at `context.size`.
    /// The context as the terminal can show it: at 8/16 colours the theme fitted to the ANSI
    /// palette (issue #27, `Theme.fittedToANSI`). Every screen renderer starts here (the screens
    /// and the keys help), so none draws the 256-colour theme quantised to a palette.
    public static func shown(_ context: RenderContext) -> RenderContext {
        var c = context
        if c.colorMode == .ansi16 { c.theme = c.theme.fittedToANSI() }
        return c
    }

    public static func render(_ view: ScreenView, context: RenderContext) -> RenderedScreen {
        let c = shown(context)
        if c.size.cols < minimumSize.cols || c.size.rows < minimumSize.rows { return tooSmall(c) }
        switch view {
        case .loading(let s): return noticed(loading(s, c), c)
        case .instructions: return noticed(instructions(c), c)
        case .cameraPermission(let pending): return noticed(permission(denied: nil, pending: pending, c), c)
        case .cameraPermissionDenied(let path): return noticed(permission(denied: path, pending: false, c), c)
        case .capture(let s): return capture(s, c)
        case .result(let s): return result(s, c)
        case .failed(let s): return failed(s, c)
        }
    }

    /// `screen` with `c.notice` added: drawn centred (cut to the width) in the secondary colour on
    /// the lowest row of the screen's lower half that is still empty (above the keys line and
    /// buttons; the loading screen's bottom row), and appended to the text lines. When no row is
    /// free it is in the text lines only.
    static func noticed(_ screen: RenderedScreen, _ c: RenderContext) -> RenderedScreen {
        guard let notice = c.notice, !notice.isEmpty else { return screen }
        var s = screen
        s.lines.append(notice)
        for y in stride(from: c.size.rows - 1, through: c.size.rows / 2, by: -1)
        where (0..<c.size.cols).allSatisfy({ s.canvas[$0, y].text == " " }) {
            s.canvas.putCentered(DisplayWidth.truncate(notice, to: max(1, c.size.cols - 2)), in: CellRect(x: 0, y: y, width: c.size.cols, height: 1),
                                 y: y, style: c.theme.style(.label, fg: c.theme.secondary))
            break
        }
        return s
    }

    static func blank(_ c: RenderContext) -> Canvas {
        Canvas(width: c.size.cols, height: c.size.rows, fill: Style(fg: c.theme.text, bg: c.theme.background))
    }

    static func full(_ c: RenderContext, margin: Int = 2) -> CellRect {
        CellRect(x: margin, y: 0, width: max(1, c.size.cols - 2 * margin), height: c.size.rows)
    }

    /// "Enlarge the window to at least 40×12", wrapped and centred.
    public static func tooSmall(_ c: RenderContext) -> RenderedScreen {
        var canvas = blank(c)
        let text = c.strings.text("selfie_capture_too_small", [.int(minimumSize.cols), .int(minimumSize.rows)])
        let rect = CellRect(x: 0, y: 0, width: c.size.cols, height: c.size.rows)
        let lines = DisplayWidth.wrap(text, width: max(1, c.size.cols))
        Widgets.paragraph(&canvas, text, rect: rect, y: max(0, (c.size.rows - lines.count) / 2), maxLines: max(1, c.size.rows),
                          style: c.theme.style(.body))
        return RenderedScreen(canvas: canvas, lines: [text], status: nil)
    }

    static func loading(_ s: LoadingViewState, _ c: RenderContext) -> RenderedScreen {
        var canvas = blank(c)
        let r = full(c)
        let title = c.strings.text("selfie_capture_loading_title")
        let message = s.message ?? c.strings.text(s.stage == .model ? "selfie_capture_loading_model" : "selfie_capture_loading_camera")
        let mid = c.size.rows / 2
        canvas.putCentered(title, in: r, y: mid - 2, style: c.theme.style(.headline, fg: c.theme.primary))
        Widgets.paragraph(&canvas, message, rect: r, y: mid, maxLines: 2, style: c.theme.style(.body))
        if let p = s.progress {
            let w = min(40, r.width)
            Widgets.progressBar(&canvas, rect: CellRect(x: r.x + (r.width - w) / 2, y: mid + 2, width: w, height: 1),
                                fraction: p, percentText: c.strings.text("selfie_capture_recording_progress", [.int(Int((p * 100).rounded()))]),
                                theme: c.theme, glyphs: c.glyphs)
        }
        var lines = [title, message]
        // The model's load time once known; while it loads, the time so far (drawn only: the
        // plain renderer would print every tick).
        let timeY = mid + (s.progress == nil ? 2 : 4)
        if c.reducedMotion {
            // A static progress line: the stage (1 of 2: the model, 2 of 2: the camera), no
            // running seconds.
            if s.progress == nil {
                let w = min(40, r.width)
                let step = s.stage == .model ? 1 : 2
                Widgets.progressBar(&canvas, rect: CellRect(x: r.x + (r.width - w) / 2, y: timeY, width: w, height: 1),
                                    fraction: Double(step) / 2, percentText: "\(step)/2", theme: c.theme, glyphs: c.glyphs)
            }
        } else if let ms = s.modelLoadMs {
            let ready = c.strings.text("selfie_capture_loading_model_ready", [.double(Double(ms) / 1000)])
            canvas.putCentered(ready, in: r, y: timeY, style: c.theme.style(.label))
            lines.append(ready)
            // The camera stage counts too while the source opens (a pipe can take its time).
            if let e = s.elapsedMs, e >= 0, timeY + 1 < r.y + r.height {
                canvas.putCentered(c.strings.text("selfie_capture_loading_elapsed", [.double(Double(e) / 1000)]), in: r, y: timeY + 1,
                                   style: c.theme.style(.label))
            }
        } else if let ms = s.elapsedMs, ms >= 0 {
            canvas.putCentered(c.strings.text("selfie_capture_loading_elapsed", [.double(Double(ms) / 1000)]), in: r, y: timeY,
                               style: c.theme.style(.label))
        }
        return RenderedScreen(canvas: canvas, lines: lines, status: nil)
    }

    static func keysHelp(_ canvas: inout Canvas, _ key: String, _ c: RenderContext, y: Int) -> String {
        let text = c.strings.text(key)
        canvas.putCentered(text, in: CellRect(x: 0, y: y, width: c.size.cols, height: 1), y: y, style: c.theme.style(.label))
        return text
    }

    /// Separator between the footer's key items (as in the key strings: `s: start · q: quit`).
    static let footerSeparator = " · "

    /// The footer's key items packed into lines of at most `width` cells, breaking only between
    /// items (an item longer than a line is cut with `…`).
    static func footerLines(_ items: [String], width: Int) -> [String] {
        var lines: [String] = [], line = ""
        for item in items {
            let candidate = line.isEmpty ? item : line + footerSeparator + item
            if line.isEmpty || DisplayWidth.of(candidate) <= width { line = candidate; continue }
            lines.append(DisplayWidth.truncate(line, to: width))
            line = item
        }
        if !line.isEmpty { lines.append(DisplayWidth.truncate(line, to: width)) }
        return lines
    }

    /// The keys that do something in this capture phase: `s: start` only while the Start
    /// button waits, `Esc: back` only where Esc does something (`RenderContext.canGoBack`),
    /// and during the recording what `q` does to it (`q: cancel and delete`).
    static func captureKeyItems(_ s: CaptureViewState, _ c: RenderContext) -> [String] {
        var items: [String] = []
        if s.phase == .ready && s.showStartButton { items.append(c.strings.text("selfie_capture_key_start")) }
        if c.canGoBack { items.append(c.strings.text("selfie_capture_key_back")) }
        let recording = s.phase == .recording || s.phase == .finished
        items.append(c.strings.text(recording ? "selfie_capture_key_cancel_delete" : "selfie_capture_key_quit"))
        return items
    }

    /// The key items of the instructions (Enter, q: the first screen has nowhere to go back to)
    /// and permission screens (Enter, Esc when it goes back, q).
    static func screenKeyItems(_ c: RenderContext, back: Bool) -> [String] {
        [c.strings.text("selfie_capture_key_continue")] + (back ? [c.strings.text("selfie_capture_key_back")] : [])
            + [c.strings.text("selfie_capture_key_quit")]
    }

    /// Draws footer lines centred across the screen, the last on the bottom row.
    /// - Returns: the lines joined as one text (for the plain renderer).
    @discardableResult
    static func footer(_ canvas: inout Canvas, _ items: [String], _ c: RenderContext, maxLines: Int = 2) -> String {
        var lines = footerLines(items, width: c.size.cols)
        if lines.count > maxLines { lines = [DisplayWidth.truncate(items.joined(separator: footerSeparator), to: c.size.cols)] }
        for (i, line) in lines.enumerated() {
            let y = c.size.rows - lines.count + i
            canvas.putCentered(line, in: CellRect(x: 0, y: y, width: c.size.cols, height: 1), y: y, style: c.theme.style(.label))
        }
        return items.joined(separator: footerSeparator)
    }

    /// The status line on the top row, across the screen: source (kind), size, measured fps,
    /// colour mode, preview mode and fps, bytes per second to the terminal; without the source
    /// when that does not fit, then cut with `…`.
    /// The preview mode it names is the one drawn (`PreviewMode.drawn`: symbols under line
    /// spacing or at 8/16 colours are half blocks), not only the one asked.
    static func statusLine(_ canvas: inout Canvas, _ info: StatusLineInfo, _ c: RenderContext) {
        let shown = info.previewMode.drawn(colorMode: c.theme.noColor ? .none : info.colorMode, cellGeometry: c.cellGeometry)
        let text = c.strings.text("selfie_capture_status_line", [
            .string(info.source), .string(info.kind), .int(info.width), .int(info.height), .double(info.fps ?? 0),
            .string(StatusLineInfo.colorName(info.colorMode)), .string(shown.rawValue), .double(info.previewFps ?? 0),
            .string(info.bytesPerSecond.map(StatusLineInfo.bytes) ?? "–"),
        ]) + (info.latencyMs.map { " · " + c.strings.text("selfie_capture_status_latency", [.int($0.lowerBound), .int($0.upperBound)]) } ?? "")
        // Reverse video of the terminal's own colours: readable on any background, as htop's bar.
        let style = Style(attrs: .reverse)
        canvas.fill(CellRect(x: 0, y: 0, width: c.size.cols, height: 1), style: style)
        canvas.put(shortenedStatus(text, cols: c.size.cols), x: 0, y: 0, style: style, maxX: c.size.cols)
    }

    /// The status line's text for `cols` columns (issue #27): the source stays first (it says
    /// what is shown; a long name is cut in the middle to a third of the line), and the figures
    /// after it give way while it is too wide: the frame size first, then the colour mode, then
    /// the source's fps; what still does not fit is cut with `…`. Fields are the format's
    /// ` · `-separated parts (`selfie_capture_status_line`), the source the first, the frame size
    /// the second, fps the third, colours the fourth.
    static func shortenedStatus(_ text: String, cols: Int) -> String {
        var fields = text.components(separatedBy: " · ")
        func joined() -> String { " " + fields.joined(separator: " · ") }
        guard DisplayWidth.of(joined()) > cols, fields.count > 1 else { return DisplayWidth.truncate(joined(), to: cols) }
        fields[0] = DisplayWidth.truncateMiddle(fields[0], to: max(8, cols / 3))
        // Indexes into the original fields, dropped one at a time: size, colours, source fps.
        for drop in [1, 3, 2] where DisplayWidth.of(joined()) > cols {
            let original = text.components(separatedBy: " · ")
            guard drop < original.count, let i = fields.firstIndex(of: original[drop]), i > 0 else { continue }
            fields.remove(at: i)
        }
        return DisplayWidth.truncate(joined(), to: cols)
    }

    static func instructions(_ c: RenderContext) -> RenderedScreen {
        var canvas = blank(c)
        let r = full(c)
        let title = c.strings.text("selfie_capture_instructions_title")
        let subtitle = c.strings.text("selfie_capture_instructions_subtitle")
        let items: [(Pictogram, String)] = [
            (.faceVisible, c.strings.text("selfie_capture_instruction_face_visible")),
            (.neutralExpression, c.strings.text("selfie_capture_instruction_neutral_expression")),
            (.goodLight, c.strings.text("selfie_capture_instruction_good_light")),
        ]
        let button = c.strings.text("selfie_capture_continue")
        let roomy = c.size.rows >= 20
        var y = roomy ? 1 : 0
        y = Widgets.paragraph(&canvas, title, rect: r, y: y, maxLines: 2, style: c.theme.style(.headline, fg: c.theme.primary))
        y = Widgets.paragraph(&canvas, subtitle, rect: r, y: y + (roomy ? 1 : 0), maxLines: 2, style: c.theme.style(.body))
        y += 1
        let textWidthLimit = min(r.width, 60)
        let blockX = r.x + (r.width - textWidthLimit) / 2
        for (p, text) in items {
            if roomy {
                let art = (c.glyphs.ascii ? Theme.asciiPictograms[p] : c.theme.pictograms[p]) ?? []
                let artW = art.map { DisplayWidth.of($0) }.max() ?? 0
                Widgets.pictogram(&canvas, art, x: blockX, y: y, style: c.theme.style(.body, fg: c.theme.primary), maxX: r.maxX)
                let textRect = CellRect(x: blockX + artW + 2, y: y, width: max(1, textWidthLimit - artW - 2), height: 3)
                let lines = DisplayWidth.wrap(text, width: textRect.width)
                let top = y + max(0, (max(3, art.count) - min(lines.count, 3)) / 2)
                Widgets.paragraph(&canvas, text, rect: textRect, y: top, maxLines: 3, style: c.theme.style(.title), centered: false)
                y += max(3, art.count) + 1
            } else {
                let bullet = c.glyphs.ascii ? "* " : "• "
                canvas.put(bullet, x: r.x, y: y, style: c.theme.style(.body, fg: c.theme.primary))
                let textRect = CellRect(x: r.x + 2, y: y, width: r.width - 2, height: 2)
                y = Widgets.paragraph(&canvas, text, rect: textRect, y: y, maxLines: 2, style: c.theme.style(.body), centered: false)
            }
        }
        let buttonY = min(c.size.rows - 2, max(y, c.size.rows - 3))
        Widgets.button(&canvas, label: button, rect: r, y: buttonY, theme: c.theme)
        let help = footer(&canvas, screenKeyItems(c, back: false), c, maxLines: 1)
        return RenderedScreen(canvas: canvas, lines: [title, subtitle] + items.map { "- " + $0.1 } + ["[\(button)]", help], status: nil)
    }

    static func permission(denied path: String?, pending: Bool, _ c: RenderContext) -> RenderedScreen {
        var canvas = blank(c)
        let r = full(c)
        let title = c.strings.text(path == nil ? "selfie_capture_permission_title" : "selfie_capture_permission_denied_title")
        let body = path.map { c.strings.text("selfie_capture_permission_denied_help", [.string($0)]) }
            ?? c.strings.text("selfie_capture_permission_explanation")
        let button = c.strings.text(path == nil ? "selfie_capture_permission_request" : "selfie_capture_permission_retry")
        var y = c.size.rows >= 20 ? 2 : 0
        y = Widgets.paragraph(&canvas, title, rect: r, y: y, maxLines: 2,
                              style: c.theme.style(.headline, fg: path == nil ? c.theme.primary : c.theme.secondary))
        let bodyRect = CellRect(x: r.x + max(0, (r.width - 64) / 2), y: 0, width: min(r.width, 64), height: 0)
        Widgets.paragraph(&canvas, body, rect: bodyRect, y: y + 1, maxLines: max(1, c.size.rows - y - 5), style: c.theme.style(.body))
        if !pending { Widgets.button(&canvas, label: button, rect: r, y: c.size.rows - 3, theme: c.theme) }
        let help = footer(&canvas, screenKeyItems(c, back: c.canGoBack), c, maxLines: 2)
        return RenderedScreen(canvas: canvas, lines: [title, body, "[\(button)]", help], status: nil)
    }

    /// The oval's state by more than its colour (issue #17; WCAG 2.1 SC 1.4.1, Use of Color): a
    /// mark on the top of the outline, ` ✓ ` when the face is placed well and ` ✗ ` when not
    /// (` OK ` and ` X ` in ASCII), in the outline's colour reversed, bold; the same marks in
    /// monochrome (NO_COLOR, `TERM=vt100`), where the outline itself cannot change colour.
    static func ovalMark(_ canvas: inout Canvas, valid: Bool, renderer: PreviewRenderer, image: PreviewImage?,
                         rect: CellRect, _ c: RenderContext) {
        guard !rect.isEmpty, renderer.showsOval else { return }
        // The oval's top in the grid the preview was drawn on (square pixels for the measured
        // cells: half blocks `cols × rows·aspect`, symbols `CellGeometry.symbolGrid`), as a cell.
        let symbols = c.previewMode.drawn(colorMode: c.theme.noColor ? .none : c.colorMode, cellGeometry: c.cellGeometry) == .symbols
        let (gw, gh) = symbols ? c.cellGeometry.symbolGrid(cols: rect.width, rows: rect.height)
            : (rect.width, max(1, Int((Double(rect.height) * c.cellGeometry.aspect).rounded())))
        let g = renderer.geometry(imageWidth: image?.width, imageHeight: image?.height, gridWidth: gw, gridHeight: gh)
        let mark = c.glyphs.ascii ? (valid ? " OK " : " X ") : (valid ? " \u{2713} " : " \u{2717} ")
        let y = rect.y + max(0, Int(((g.ocy - g.oay) * Double(rect.height) / Double(gh)).rounded(.down)))
        let x = rect.x + Int(g.ocx * Double(rect.width) / Double(gw)) - DisplayWidth.of(mark) / 2
        guard y < rect.maxY, x >= rect.x, x + DisplayWidth.of(mark) <= rect.maxX else { return }
        let color = valid ? c.theme.primary : c.theme.secondary
        let style = c.theme.noColor || c.colorMode == .none
            ? Style(attrs: valid ? [.bold, .reverse] : [.bold])
            : c.theme.lowColor ? Style(fg: color, bg: c.theme.background, attrs: [.bold, .reverse])
            : Style(fg: c.theme.background == .terminalDefault ? .rgb(RGB(0, 0, 0)) : c.theme.background, bg: color, attrs: .bold)
        canvas.put(mark, x: x, y: y, style: style, maxX: rect.maxX)
    }

    /// `ovalMark` for a pixel mode's picture: ✓ or ✗ from `BigDigits`' 3×5 font, about one cell
    /// high, in the background colour on a box of the state's colour, centred above the oval's
    /// top as the cell mark is.
    static func pictureMark(_ picture: inout PreviewPicture, valid: Bool, renderer: PreviewRenderer,
                            image: PreviewImage?, _ c: RenderContext) {
        guard renderer.showsOval else { return }
        var img = picture.image
        let g = renderer.geometry(imageWidth: image?.width, imageHeight: image?.height, gridWidth: img.width, gridHeight: img.height)
        // The picture's own cell height (the composed grid's, not the terminal's: a sixel's
        // cells are scaled up when encoded).
        let cellH = max(1, img.height / max(1, picture.rect.height))
        let scale = max(1, cellH / 6)
        let b = BigDigits.bitmap(valid ? "\u{2713}" : "\u{2717}", scale: scale)
        let pad = scale
        let w = b.width + 2 * pad, h = b.height + 2 * pad
        let x0 = Int(g.ocx.rounded()) - w / 2
        // Centred on the oval's top in the picture's own pixels (issue #27: halving them, as
        // for the half-block grid, floated it about 4 rows above the oval).
        let y0 = max(0, Int((g.ocy - g.oay).rounded(.down)) - h / 2)
        guard x0 >= 0, x0 + w <= img.width, y0 + h <= img.height, img.rgb.count >= img.width * img.height * 3 else { return }
        let box = rgb(valid ? c.theme.primary : c.theme.secondary,
                      fallback: c.theme.assumedForeground ?? (valid ? RGB(255, 255, 255) : RGB(128, 128, 128)))
        let ink = rgb(c.theme.background, fallback: c.theme.assumedBackground ?? RGB(0, 0, 0))
        for y in 0..<h {
            for x in 0..<w {
                let on = b[x - pad, y - pad]
                let col = on ? ink : box
                let i = ((y0 + y) * img.width + x0 + x) * 3
                img.rgb[i] = col.r; img.rgb[i + 1] = col.g; img.rgb[i + 2] = col.b
            }
        }
        picture.image = img
    }

    /// The status-dependent outline colour: primary when valid (or not judged yet), secondary otherwise.
    static func rgb(_ color: Color, fallback: RGB) -> RGB {
        if case .rgb(let v) = color { return v }
        return fallback
    }

    static func capture(_ s: CaptureViewState, _ c: RenderContext) -> RenderedScreen {
        var canvas = blank(c)
        let theme = c.theme
        let view = c.layout.registry.make(CaptureContentView.self)
        let aspect = s.image.map { Double($0.width) / Double(max(1, $0.height)) } ?? 4.0 / 3.0
        let frames = view.arrange(CaptureArrangeContext(size: c.size, overrides: c.layout.overrides,
                                                        inputsToTheRight: s.inputsToTheRight, frameAspect: aspect))
        let recording = s.phase == .recording || s.phase == .finished
        // The countdown's digits, or a challenge step's arrow (issue #25), inside the oval.
        let digits = s.phase == .countdown ? s.countdownRemaining.map { String(max(0, $0)) }
            : recording ? s.challengeKey.map { CaptureViewState.challengeArrow($0, mirrored: s.mirrored) } : nil
        // Preview and oval: the outline follows the face's state from the first judged frame,
        // before Start too; the countdown's digits go inside the oval when it holds them, and the
        // recording's progress runs round it as a ring.
        let primary = rgb(theme.primary, fallback: theme.assumedForeground ?? RGB(0x4F, 0xC3, 0xF7))
        let outline = s.isValid == false ? rgb(theme.secondary, fallback: theme.assumedForeground ?? RGB(0xFF, 0xB7, 0x4D)) : primary
        let renderer = PreviewRenderer(scaleType: s.scaleType, mirrored: s.mirrored, oval: s.oval, outline: outline,
                                       overlay: rgb(theme.overlayBackground, fallback: theme.assumedBackground ?? RGB(0, 0, 0)), digits: digits,
                                       ring: recording ? s.progress : nil, accent: primary,
                                       ringTrack: rgb(theme.cardBackground, fallback: RGB(0x60, 0x60, 0x60)))
        let mode: ColorMode = theme.noColor ? .none : c.colorMode
        let previewRect = PreviewRenderer.previewRect(in: frames.preview, cellAspect: c.cellGeometry.aspect)
        var picture = preview(renderer, s.image, into: previewRect, canvas: &canvas, mode: mode, c)
        if let valid = s.isValid {
            // A pixel mode's picture covers the cells: its mark is painted into the picture.
            if picture != nil {
                pictureMark(&picture!, valid: valid, renderer: renderer, image: s.image, c)
            } else {
                ovalMark(&canvas, valid: valid, renderer: renderer, image: s.image, rect: previewRect, c)
            }
        }
        if let d = digits {
            let inside = renderer.digitScale(d, imageSize: s.image.map { ($0.width, $0.height) }, rect: previewRect)
            if inside < PreviewRenderer.minimumDigitScale {
                bigDigitsBeside(&canvas, d, preview: previewRect, area: frames.preview, c)
            }
        }

        // Title and duration.
        let title = c.strings.text("selfie_capture_capture_title")
        let seconds = max(1, (s.recordingDurationMs + 500) / 1000)
        let duration = c.strings.text("selfie_capture_recording_duration", [.int(seconds)])
        canvas.putCentered(title, in: frames.title, y: frames.title.y, style: theme.style(.headline, fg: theme.primary))
        canvas.putCentered(duration, in: frames.title, y: frames.title.y + 1, style: theme.style(.body))

        // Hint and status.
        var hintText: String?
        var statusText: String?
        switch s.phase {
        case .waitingForCamera:
            statusText = c.strings.text(s.sourceIsCamera ? "selfie_capture_loading_camera" : "selfie_capture_loading_video")
        case .ready:
            // Hints before Start only when asked for (`guideBeforeStart`, Amplify's behaviour).
            if c.layout.overrides.guideBeforeStart { hintText = s.hint.map { c.strings.text($0.stringKey) } }
        case .positioning:
            // One message that says why, in place of the hint (not under a different one).
            hintText = s.restartReason.map { Self.restartMessage($0, c) } ?? s.hint.map { c.strings.text($0.stringKey) }
        case .countdown:
            hintText = s.restartReason.map { Self.restartMessage($0, c) } ?? s.hint.map { c.strings.text($0.stringKey) }
            statusText = c.strings.text("selfie_capture_countdown", [.int(s.countdownRemaining ?? 0)])
        case .recording, .finished:
            hintText = s.challengeKey.map { CaptureViewState.challengeArrow($0, mirrored: s.mirrored) + " " + c.strings.text($0) }
                ?? c.strings.text("selfie_capture_recording")
        }
        if let w = s.sourceWaitSeconds {
            hintText = c.strings.text(s.sourceIsCamera ? "selfie_capture_waiting_source" : "selfie_capture_waiting_video", [.int(w)])
        }
        if let h = hintText {
            Widgets.hintLine(&canvas, h, rect: frames.hint, style: theme.style(.title, fg: s.isValid == false ? theme.secondary : theme.text))
        }
        if recording {
            let w = min(frames.status.width, 50)
            Widgets.progressBar(&canvas, rect: CellRect(x: frames.status.x + (frames.status.width - w) / 2, y: frames.status.y, width: w, height: 1),
                                fraction: s.progress,
                                percentText: c.strings.text("selfie_capture_recording_progress", [.int(Int((s.progress * 100).rounded()))]),
                                theme: theme, glyphs: c.glyphs)
            statusText = c.strings.text("selfie_capture_recording_progress", [.int(Int((s.progress * 100).rounded()))])
        } else if let st = statusText {
            let color = s.phase == .countdown ? theme.primary : theme.secondary
            canvas.putCentered(st, in: frames.status, y: frames.status.y, style: theme.style(.title, fg: color))
        }

        // Toolbar: the Start button while it waits, then the keys of this phase, wrapped between
        // items into the rows no other part uses: under the button (and below the toolbar where
        // the layout leaves rows empty), else the button's row when no button is shown, else the
        // unused status row above it, else without `s: start` beside the Start button; a footer
        // that still does not fit is one line cut with `…`.
        let start = c.strings.text("selfie_capture_start")
        let showButton = s.showStartButton && s.phase == .ready
        let items = captureKeyItems(s, c)
        let tb = frames.toolbar
        var lines = footerLines(items, width: tb.width)
        var used = [frames.title, frames.preview]
        if hintText != nil { used.append(frames.hint) }
        if recording || statusText != nil { used.append(frames.status) }
        func free(_ y: Int) -> Bool {
            y >= 0 && y < c.size.rows && !used.contains { r in
                r.height > 0 && y >= r.y && y < r.maxY && r.x < tb.maxX && tb.x < r.maxX
            }
        }
        var freeBelow = 0
        while free(tb.maxY + freeBelow) { freeBelow += 1 }
        let room = max(1, tb.height - 1) + freeBelow
        var helpY = tb.y + 1, buttonY = tb.y
        if lines.count > room {
            if !showButton && lines.count <= room + 1 {
                helpY = tb.y
            } else if showButton && lines.count <= room + 1 && free(tb.y - 1) {
                buttonY = tb.y - 1
                helpY = tb.y
            } else if showButton, footerLines(Array(items.dropFirst()), width: tb.width).count <= room {
                // The button shows what `s` does; the other keys are the ones to keep.
                lines = footerLines(Array(items.dropFirst()), width: tb.width)
            } else {
                lines = [DisplayWidth.truncate(items.joined(separator: footerSeparator), to: tb.width)]
            }
        }
        if showButton { Widgets.button(&canvas, label: start, rect: tb, y: buttonY, theme: theme) }
        for (i, line) in lines.enumerated() {
            canvas.putCentered(line, in: tb, y: helpY + i, style: theme.style(.label))
        }
        if let info = c.statusLine { statusLine(&canvas, info, c) }

        var screenLines = [title, duration]
        if showButton { screenLines.append("[\(start)]") }
        let status = [hintText, s.phase == .recording ? nil : statusText].compactMap { $0 }.joined(separator: " · ")
        var screen = RenderedScreen(canvas: canvas, lines: screenLines, status: status.isEmpty ? nil : status)
        screen.picture = picture
        return screen
    }

    /// The countdown's big digits beside a preview too small to hold them: in the wider free
    /// side of `area` (left or right of `preview`), as large as fits (font scale 2, else 1),
    /// vertically centred on the preview. Nothing is drawn when neither side has room.
    static func bigDigitsBeside(_ canvas: inout Canvas, _ digits: String, preview: CellRect, area: CellRect, _ c: RenderContext) {
        let left = preview.x - area.x, right = area.maxX - preview.maxX
        let room = max(left, right) - 2
        for scale in [2, 1] {
            let b = BigDigits.bitmap(digits, scale: scale)
            let rows = BigDigits.cells(b, ascii: c.glyphs.ascii)
            guard b.width <= room, rows.count <= preview.height else { continue }
            let x = right >= left ? preview.maxX + (right - b.width) / 2 : area.x + (left - b.width) / 2
            let y = preview.y + (preview.height - rows.count) / 2
            for (i, row) in rows.enumerated() {
                canvas.put(row, x: x, y: y + i, style: c.theme.style(.headline, fg: c.theme.primary))
            }
            return
        }
    }

    /// The result screen: title; a thumbnail of the capture (left, drawn like the preview, when
    /// given); the folder, the files (paths shortened from the middle so the file names stay
    /// whole), duration, frame counts and a line when fewer stills than asked could be
    /// collected; the exit line on the last row.
    static func result(_ s: ResultViewState, _ c: RenderContext) -> RenderedScreen {
        var canvas = blank(c)
        var r = full(c)
        let title = c.strings.text("selfie_capture_result_title")
        let exitText = c.keysAnswer ? c.strings.text("selfie_capture_result_exit") : ""
        var y = c.size.rows >= 20 ? 2 : 0
        y = Widgets.paragraph(&canvas, title, rect: r, y: y, maxLines: 1, style: c.theme.style(.headline, fg: c.theme.primary)) + 1
        var picture: PreviewPicture?
        if let img = s.thumbnail {
            // Left column: at most a third of the width, the image's aspect in square pixels.
            let rows = max(1, c.size.rows - y - 2)
            let aspect = Double(img.width) / Double(max(1, img.height))
            let cell = c.cellGeometry.aspect
            let w = max(1, min(c.size.cols / (c.size.cols < 60 ? 4 : 3), Int((Double(rows) * cell * aspect).rounded())))
            let h = max(1, min(rows, Int((Double(w) / aspect / cell).rounded())))
            let rect = CellRect(x: r.x, y: y, width: w, height: h)
            let renderer = PreviewRenderer(scaleType: .fit, mirrored: s.mirrored, oval: .standard, outline: RGB(0, 0, 0),
                                           overlay: RGB(0, 0, 0), overlayAmount: 0)
            var thumb = renderer
            thumb.showsOval = false
            // Drawn like the preview (issue #27): a picture in a pixel mode, symbols, half blocks.
            picture = preview(thumb, img, into: rect, canvas: &canvas, mode: c.theme.noColor ? .none : c.colorMode, c)
            r = CellRect(x: rect.maxX + 2, y: r.y, width: max(1, r.maxX - rect.maxX - 2), height: r.height)
        }
        // The plain renderer gets the whole paths; the screen shortens them to its width.
        func lines(_ shorten: (String, Int) -> String) -> [String] {
            var body: [String] = []
            if let f = s.folder {
                // The folder once (on one line with its label), then the files by their names in it.
                // The label's width as formatted with the path itself (a pseudo-locale such as
                // en-XA pads in proportion to the whole text, so an empty argument under-measures).
                let label = max(0, DisplayWidth.of(c.strings.text("selfie_capture_result_folder", [.string(f)])) - DisplayWidth.of(f))
                body.append(c.strings.text("selfie_capture_result_folder", [.string(shorten(f, label))]))
                let names = s.savedPaths.map { p in p.hasPrefix(f + "/") ? String(p.dropFirst(f.count + 1)) : shorten(p, 0) }
                body.append(c.strings.text("selfie_capture_result_files", [.string(names.joined(separator: ", "))]))
            } else {
                body += s.savedPaths.map { p in
                    let label = max(0, DisplayWidth.of(c.strings.text("selfie_capture_result_saved", [.string(p)])) - DisplayWidth.of(p))
                    return c.strings.text("selfie_capture_result_saved", [.string(shorten(p, label))])
                }
            }
            // Fewer stills than asked is said before the counts, so a small screen keeps it.
            if s.askedCount > s.collectedCount {
                body.append(c.strings.text("selfie_capture_result_collected_fewer", [.int(s.collectedCount), .int(s.askedCount)]))
            }
            body.append(c.strings.text("selfie_capture_result_duration", [.double(s.durationSeconds)]))
            body.append(c.strings.text("selfie_capture_result_frames", [.int(s.frameCount)]))
            body.append(c.strings.text("selfie_capture_result_collected", [.int(s.collectedCount)]))
            return body
        }
        let textWidth = r.width
        // Whole paths when the free rows hold them (each line in at most 3 rows, a path broken
        // after `/` or `-`; issue #27: at 80×24 the folder was shortened with 10 rows empty
        // below), else each line on its own, paths shortened from the middle.
        let whole = lines { p, _ in p }
        let wrapped = whole.map { Self.wrapPath($0, width: textWidth) }
        let fitsWhole = c.size.rows >= 20 && wrapped.allSatisfy { $0.count <= 3 } && y + wrapped.map(\.count).reduce(0, +) <= c.size.rows - 2
        if fitsWhole {
            for row in wrapped.joined() {
                if s.thumbnail == nil { canvas.putCentered(row, in: r, y: y, style: c.theme.style(.body)) } else {
                    canvas.put(row, x: r.x, y: y, style: c.theme.style(.body), maxX: r.maxX)
                }
                y += 1
            }
        } else {
            for line in lines({ DisplayWidth.truncateMiddle($0, to: max(8, textWidth - $1)) }) where y < c.size.rows - 2 {
                y = Widgets.paragraph(&canvas, line, rect: r, y: y, maxLines: max(1, min(3, c.size.rows - 2 - y)), style: c.theme.style(.body),
                                      centered: s.thumbnail == nil)
            }
        }
        canvas.putCentered(exitText, in: full(c), y: c.size.rows - 1, style: c.theme.style(.label))
        var screen = RenderedScreen(canvas: canvas, lines: [title] + whole + (exitText.isEmpty ? [] : [exitText]), status: nil)
        screen.picture = picture
        return screen
    }

    /// `text` in lines of at most `width` cells, nothing lost: each line broken at the last space
    /// that fits, else after the last `/`, else after the last `-`, else at the width. So a label
    /// and its path break between them, a path between its folders, and a folder's own name
    /// (`selfie-capture-20261202-093851`) only when it is wider than the line: a new-user trial
    /// copied a path broken at its `-` from the screen and got a wrong one.
    static func wrapPath(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var out: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var rest = Substring(line)
            while DisplayWidth.of(String(rest)) > width {
                // The longest prefix that fits, then back to its last break character.
                var cut = rest.startIndex, w = 0
                while cut < rest.endIndex, w + DisplayWidth.of(rest[cut]) <= width { w += DisplayWidth.of(rest[cut]); cut = rest.index(after: cut) }
                let head = rest[..<cut]
                for breaker: Character in [" ", "/", "-"] {
                    if let b = head.lastIndex(of: breaker), b > head.startIndex { cut = rest.index(after: b); break }
                }
                out.append(String(rest[..<cut]).trimmingCharacters(in: .whitespaces))
                rest = rest[cut...].drop { $0 == " " }
            }
            out.append(String(rest))
        }
        return out
    }

    /// Why the capture restarted: "You moved: hold still", "Face lost", "Too dark", else
    /// "Capture restarted: <the hint>".
    static func restartMessage(_ r: Hint, _ c: RenderContext) -> String {
        let s = r.restartSentence   // the one table (CaptureFlow), shared with the announcer
        return s.hintKey.map { c.strings.text(s.key, [.string(c.strings.text($0))]) } ?? c.strings.text(s.key)
    }

    /// The failed screen: title, why, what to do, "Attempt N of M" when retries are involved, then
    /// either `[ Try again ]` with the keys (Enter: try again · q: exit) or the exit line.
    static func failed(_ s: FailedViewState, _ c: RenderContext) -> RenderedScreen {
        var canvas = blank(c)
        let r = full(c)
        let title = c.strings.text("selfie_capture_failed_title")
        var body: [String] = []
        // Words that say what happened, and advice only where it fits (issue #18): a camera is
        // not "disconnected" when it was never there, and a file that ended needs no camera check.
        switch s.reason {
        case .camera(let m):
            body.append(c.strings.text(s.sourceIsCamera ? "selfie_capture_failed_camera" : "selfie_capture_failed_video"))
            body.append(c.strings.text("selfie_capture_failed_reason", [.string(m)]))
            if s.sourceIsCamera { body.append(c.strings.text("selfie_capture_failed_help_camera")) }
        case .timeout:
            body.append(c.strings.text("selfie_capture_failed_timeout"))
            body.append(c.strings.text("selfie_capture_failed_help_face"))
        case .sourceEnded: body.append(c.strings.text("selfie_capture_failed_source_ended"))
        case .faceLost:
            body.append(c.strings.text("selfie_capture_failed_face_lost"))
            body.append(c.strings.text("selfie_capture_failed_help_face"))
        case .challengeFailed:
            body.append(c.strings.text("selfie_capture_failed_challenge"))
        }
        if s.canTryAgain || s.attempt > 1 {
            body.append(c.strings.text("selfie_capture_failed_attempt", [.int(s.attempt), .int(s.maxAttempts)]))
        }
        // The button takes the row above the keys line (as on the permission screen).
        let bottom = s.canTryAgain ? c.size.rows - 3 : c.size.rows - 2
        var y = c.size.rows >= 20 ? 2 : 0
        y = Widgets.paragraph(&canvas, title, rect: r, y: y, maxLines: 1, style: c.theme.style(.headline, fg: c.theme.secondary)) + 1
        for line in body where y < bottom {
            y = Widgets.paragraph(&canvas, line, rect: r, y: y, maxLines: max(1, min(4, bottom - y)), style: c.theme.style(.body))
        }
        guard s.canTryAgain else {
            let help = keysHelp(&canvas, "selfie_capture_result_exit", c, y: c.size.rows - 1)
            return RenderedScreen(canvas: canvas, lines: [title] + body + [help], status: nil)
        }
        let button = c.strings.text("selfie_capture_failed_try_again")
        Widgets.button(&canvas, label: button, rect: r, y: c.size.rows - 3, theme: c.theme)
        let help = keysHelp(&canvas, "selfie_capture_failed_keys_help", c, y: c.size.rows - 1)
        return RenderedScreen(canvas: canvas, lines: [title] + body + ["[\(button)]", help], status: nil)
    }
}

extension ScreenView {
    /// The view for the flow's current screen (`CaptureStateMachine.view`).
    /// - Parameters:
    ///   - image: the latest camera frame as RGB (nil before the first frame).
    ///   - oval: the drawn oval already converted for the frame; nil = `faceOval` for the image's size.
    ///   - loading: the loading view's state (`TerminalLoadingView.state`); default from the machine's stage.
    ///   - result: what the runtime saved (paths, counts); required for a meaningful result screen.
    public static func from(_ m: FlowView, image: PreviewImage?, mirrored: Bool = true,
                            oval: OvalGeometry? = nil, faceOval: FaceOval = .standard, loading: LoadingViewState? = nil,
                            result: ResultViewState? = nil) -> ScreenView {
        switch m.screen {
        case .loading: return .loading(loading ?? LoadingViewState(stage: m.loadingStage))
        case .instructions: return .instructions
        case .cameraPermission: return .cameraPermission(pending: m.permissionRequestPending)
        case .cameraPermissionDenied: return .cameraPermissionDenied(devicePath: m.deniedDevicePath ?? "/dev/video0")
        case .capture: return .capture(CaptureViewState(flow: m, image: image, mirrored: mirrored, oval: oval, faceOval: faceOval))
        case .result:
            return .result(result ?? ResultViewState(savedPaths: [], durationSeconds: Double(m.recordingDurationMs) / 1000,
                                                     frameCount: m.recordedFrameCount, collectedCount: m.collectedFrameCount,
                                                     askedCount: m.askedFrameCount))
        case .failed:
            return .failed(FailedViewState(reason: m.failure ?? .timeout, canTryAgain: m.canTryAgain,
                                           attempt: m.attempt, maxAttempts: m.maxAttempts))
        }
    }
}
