import CaptureFlow
import Localization

/// What the loading screen shows.
public struct LoadingViewState: Sendable, Equatable {
    public var stage: LoadingStage
    /// 0...1 when known (e.g. a model download), else nil.
    public var progress: Double?
    /// A message replacing the stage's text (from `LoadingView.onPreFeatureLoading`).
    public var message: String?
    /// How long the face model has been loading, in ms (shown as seconds while it loads).
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
    /// nil before the first judged frame.
    public var isValid: Bool?
    public var countdownRemaining: Int?
    public var progress: Double
    /// Why the capture just restarted; while set, its message replaces the hint line.
    public var restartReason: Hint?
    public var showStartButton: Bool
    public var recordingDurationMs: Int
    public var inputsToTheRight: Bool

    public init(image: PreviewImage? = nil, mirrored: Bool = true, scaleType: PreviewScaleType = .fill,
                oval: OvalGeometry = .standard, phase: CapturePhase = .ready, hint: Hint? = nil, isValid: Bool? = nil,
                countdownRemaining: Int? = nil, progress: Double = 0, restartReason: Hint? = nil,
                showStartButton: Bool = true, recordingDurationMs: Int = 1000, inputsToTheRight: Bool = true) {
        self.image = image; self.mirrored = mirrored; self.scaleType = scaleType; self.oval = oval; self.phase = phase
        self.hint = hint; self.isValid = isValid; self.countdownRemaining = countdownRemaining; self.progress = progress
        self.restartReason = restartReason; self.showStartButton = showStartButton
        self.recordingDurationMs = recordingDurationMs; self.inputsToTheRight = inputsToTheRight
    }

    /// The view of `machine`'s capture screen with `image` as the latest frame. The oval is the
    /// shared `FaceOval` (default `.standard`, the guidance rules' value) for the image's size,
    /// or `OvalGeometry.standard` before the first frame.
    /// `oval`, when given, is used as is (already converted for the frame).
    public init(machine m: CaptureStateMachine, image: PreviewImage?, mirrored: Bool = true, oval: OvalGeometry? = nil,
                faceOval: FaceOval = .standard) {
        let oval = oval ?? image.map { OvalGeometry(faceOval, frameWidth: $0.width, frameHeight: $0.height) } ?? .standard
        self.init(image: image, mirrored: mirrored, scaleType: m.settings.options.previewScaleType, oval: oval,
                  phase: m.phase, hint: Self.shownHint(m), isValid: m.guidance?.isValid,
                  countdownRemaining: m.countdownRemaining, progress: m.recordingProgress, restartReason: m.shownRestartReason,
                  showStartButton: m.showsStartButton, recordingDurationMs: m.recordingDurationMs,
                  inputsToTheRight: m.settings.session.uiConfig.showWideWindowPreviewInputsToTheRight)
    }

    /// The hint to show: "hold still" during the countdown and the recording (the face is valid
    /// and still by then, while the debounced hint can lag by up to 200 ms and contradict the
    /// countdown), else the machine's current hint.
    static func shownHint(_ m: CaptureStateMachine) -> Hint? {
        m.phase == .countdown || m.phase == .recording ? .holdStill : m.guidance?.hint
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
    public init(savedPaths: [String], durationSeconds: Double, frameCount: Int, collectedCount: Int, askedCount: Int = 0) {
        self.savedPaths = savedPaths; self.durationSeconds = durationSeconds; self.frameCount = frameCount; self.collectedCount = collectedCount
        self.askedCount = askedCount
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
    public init(size: Size, strings: any Localizing, theme: Theme, layout: Layout = Layout(),
                colorMode: ColorMode = .direct, glyphs: Glyphs = .unicode) {
        self.size = size; self.strings = strings; self.theme = theme; self.layout = layout
        self.colorMode = colorMode; self.glyphs = glyphs
    }

    /// A one-line notice the app must show before the capture (string files it could not use);
    /// drawn on the loading, instructions and permission screens (`Screens.noticed`). nil: none.
    public var notice: String?
}

/// A drawn screen: the cells, plus its text for the plain renderer (the screen's fixed text in
/// reading order, and a status line that changes: hint, countdown, progress).
public struct RenderedScreen: Sendable, Equatable {
    public var canvas: Canvas
    public var lines: [String]
    public var status: String?
    public init(canvas: Canvas, lines: [String], status: String?) { self.canvas = canvas; self.lines = lines; self.status = status }
}

/// The screens: pure functions of (view state, context) → `RenderedScreen`.
public enum Screens {
    /// Smallest usable terminal: 40 columns × 12 rows; below, a short message is shown instead.
    public static let minimumSize = Size(cols: 40, rows: 12)

    /// Renders `view` at `context.size`.
    public static func render(_ view: ScreenView, context c: RenderContext) -> RenderedScreen {
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
        if let ms = s.modelLoadMs {
            let ready = c.strings.text("selfie_capture_loading_model_ready", [.double(Double(ms) / 1000)])
            canvas.putCentered(ready, in: r, y: timeY, style: c.theme.style(.label))
            lines.append(ready)
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
        let help = keysHelp(&canvas, "selfie_capture_keys_help", c, y: c.size.rows - 1)
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
        let help = keysHelp(&canvas, "selfie_capture_keys_help", c, y: c.size.rows - 1)
        return RenderedScreen(canvas: canvas, lines: [title, body, "[\(button)]", help], status: nil)
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
        // Preview and oval.
        let outline = s.isValid == false ? rgb(theme.secondary, fallback: RGB(0xFF, 0xB7, 0x4D)) : rgb(theme.primary, fallback: RGB(0x4F, 0xC3, 0xF7))
        let renderer = PreviewRenderer(scaleType: s.scaleType, mirrored: s.mirrored, oval: s.oval, outline: outline,
                                       overlay: rgb(theme.overlayBackground, fallback: RGB(0, 0, 0)))
        let mode: ColorMode = theme.noColor ? .none : c.colorMode
        renderer.render(s.image, into: PreviewRenderer.previewRect(in: frames.preview), canvas: &canvas, mode: mode, glyphs: c.glyphs)

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
            statusText = c.strings.text("selfie_capture_loading_camera")
        case .ready:
            break
        case .positioning:
            // One message that says why, in place of the hint (not under a different one).
            hintText = s.restartReason.map { Self.restartMessage($0, c) } ?? s.hint.map { c.strings.text($0.stringKey) }
        case .countdown:
            hintText = s.restartReason.map { Self.restartMessage($0, c) } ?? s.hint.map { c.strings.text($0.stringKey) }
            statusText = c.strings.text("selfie_capture_countdown", [.int(s.countdownRemaining ?? 0)])
        case .recording, .finished:
            hintText = c.strings.text("selfie_capture_recording")
        }
        if let h = hintText {
            Widgets.hintLine(&canvas, h, rect: frames.hint, style: theme.style(.title, fg: s.isValid == false ? theme.secondary : theme.text))
        }
        if s.phase == .recording || s.phase == .finished {
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

        // Toolbar.
        let start = c.strings.text("selfie_capture_start")
        let showButton = s.showStartButton && s.phase == .ready
        if showButton { Widgets.button(&canvas, label: start, rect: frames.toolbar, y: frames.toolbar.y, theme: theme) }
        let help = c.strings.text("selfie_capture_capture_keys_help")
        canvas.putCentered(help, in: frames.toolbar, y: frames.toolbar.y + 1, style: theme.style(.label))

        var lines = [title, duration]
        if showButton { lines.append("[\(start)]") }
        let status = [hintText, s.phase == .recording ? nil : statusText].compactMap { $0 }.joined(separator: " · ")
        return RenderedScreen(canvas: canvas, lines: lines, status: status.isEmpty ? nil : status)
    }

    static func result(_ s: ResultViewState, _ c: RenderContext) -> RenderedScreen {
        var canvas = blank(c)
        let r = full(c)
        let title = c.strings.text("selfie_capture_result_title")
        var body = s.savedPaths.map { c.strings.text("selfie_capture_result_saved", [.string($0)]) }
        body.append(c.strings.text("selfie_capture_result_duration", [.double(s.durationSeconds)]))
        body.append(c.strings.text("selfie_capture_result_frames", [.int(s.frameCount)]))
        body.append(c.strings.text("selfie_capture_result_collected", [.int(s.collectedCount)]))
        if s.askedCount > s.collectedCount {
            body.append(c.strings.text("selfie_capture_result_collected_fewer", [.int(s.collectedCount), .int(s.askedCount)]))
        }
        let exitText = c.strings.text("selfie_capture_result_exit")
        var y = c.size.rows >= 20 ? 2 : 0
        y = Widgets.paragraph(&canvas, title, rect: r, y: y, maxLines: 1, style: c.theme.style(.headline, fg: c.theme.primary)) + 1
        for line in body where y < c.size.rows - 2 {
            y = Widgets.paragraph(&canvas, line, rect: r, y: y, maxLines: max(1, min(3, c.size.rows - 2 - y)), style: c.theme.style(.body))
        }
        canvas.putCentered(exitText, in: r, y: c.size.rows - 1, style: c.theme.style(.label))
        return RenderedScreen(canvas: canvas, lines: [title] + body + [exitText], status: nil)
    }

    /// Why the capture restarted: "You moved: hold still", "Face lost", "Too dark", else
    /// "Capture restarted: <the hint>".
    static func restartMessage(_ r: Hint, _ c: RenderContext) -> String {
        switch r {
        case .holdStill: return c.strings.text("selfie_capture_restart_moved")
        case .noFace: return c.strings.text("selfie_capture_restart_face_lost")
        case .tooDark: return c.strings.text("selfie_capture_restart_too_dark")
        default: return c.strings.text("selfie_capture_restarted", [.string(c.strings.text(r.stringKey))])
        }
    }

    /// The failed screen: title, why, what to do, "Attempt N of M" when retries are involved, then
    /// either `[ Try again ]` with the keys (Enter: try again · q: exit) or the exit line.
    static func failed(_ s: FailedViewState, _ c: RenderContext) -> RenderedScreen {
        var canvas = blank(c)
        let r = full(c)
        let title = c.strings.text("selfie_capture_failed_title")
        var body: [String] = []
        switch s.reason {
        case .camera(let m):
            body.append(c.strings.text("selfie_capture_failed_camera_disconnected"))
            body.append(c.strings.text("selfie_capture_failed_reason", [.string(m)]))
        case .timeout: body.append(c.strings.text("selfie_capture_failed_timeout"))
        case .sourceEnded: body.append(c.strings.text("selfie_capture_failed_source_ended"))
        case .faceLost: body.append(c.strings.text("selfie_capture_failed_face_lost"))
        }
        body.append(c.strings.text("selfie_capture_failed_help"))
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
    /// The view for the machine's current screen.
    /// - Parameters:
    ///   - image: the latest camera frame as RGB (nil before the first frame).
    ///   - oval: the drawn oval already converted for the frame; nil = `faceOval` for the image's size.
    ///   - loading: the loading view's state (`TerminalLoadingView.state`); default from the machine's stage.
    ///   - result: what the runtime saved (paths, counts); required for a meaningful result screen.
    public static func from(_ m: CaptureStateMachine, image: PreviewImage?, mirrored: Bool = true,
                            oval: OvalGeometry? = nil, faceOval: FaceOval = .standard, loading: LoadingViewState? = nil,
                            result: ResultViewState? = nil) -> ScreenView {
        switch m.screen {
        case .loading: return .loading(loading ?? LoadingViewState(stage: m.loadingStage))
        case .instructions: return .instructions
        case .cameraPermission: return .cameraPermission(pending: m.permissionRequestPending)
        case .cameraPermissionDenied: return .cameraPermissionDenied(devicePath: m.deniedDevicePath ?? "/dev/video0")
        case .capture: return .capture(CaptureViewState(machine: m, image: image, mirrored: mirrored, oval: oval, faceOval: faceOval))
        case .result:
            return .result(result ?? ResultViewState(savedPaths: [], durationSeconds: Double(m.recordingDurationMs) / 1000,
                                                     frameCount: m.recordedFrameCount, collectedCount: m.collectedFrameCount,
                                                     askedCount: m.settings.options.numberOfFrameToCollect))
        case .failed:
            return .failed(FailedViewState(reason: m.failure ?? .timeout, canTryAgain: m.canTryAgain,
                                           attempt: m.attempt, maxAttempts: m.maxAttempts))
        }
    }
}
