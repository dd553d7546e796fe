import Foundation

/// Where the toolbar (Start button + key help) goes on the capture screen.
public enum ToolbarPosition: String, Sendable, Codable { case top, bottom }

/// Which side the preview takes in a wide window.
public enum PreviewSide: String, Sendable, Codable { case left, right }

/// Common layout moves without code (`--layout FILE`):
/// `{"toolbar": "top|bottom", "hintPosition": 0.68 | "below", "previewSide": "left|right",
/// "guideBeforeStart": true|false}`.
public struct LayoutOverrides: Sendable, Equatable {
    public var toolbar: ToolbarPosition
    /// nil: the hint sits on its own row below the preview; a fraction 0...1: the hint is drawn
    /// over the preview area at that fraction of the screen height.
    public var hintFraction: Double?
    /// nil: from `UiConfig.showWideWindowPreviewInputsToTheRight`.
    public var previewSide: PreviewSide?
    /// Show the positioning hints (and the oval's valid/invalid colour, which follows the face
    /// from the first frame either way) before Start is pressed, as AWS Amplify Liveness does;
    /// false (Unissey's behaviour) shows hints only once the capture started. `--guide-before-start`.
    public var guideBeforeStart: Bool
    public init(toolbar: ToolbarPosition = .bottom, hintFraction: Double? = nil, previewSide: PreviewSide? = nil,
                guideBeforeStart: Bool = false) {
        self.toolbar = toolbar; self.hintFraction = hintFraction; self.previewSide = previewSide
        self.guideBeforeStart = guideBeforeStart
    }

    private enum HintValue: Decodable {
        case fraction(Double), named(String)
        init(from decoder: Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let d = try? c.decode(Double.self) { self = .fraction(d) } else { self = .named(try c.decode(String.self)) }
        }
    }
    private struct File: Decodable {
        var toolbar: String?
        var hintPosition: HintValue?
        var previewSide: String?
        var guideBeforeStart: Bool?
    }

    /// Parses layout JSON; `file` names the file in errors.
    /// - Throws: `ThemeError` naming the file and the field.
    public static func parse(_ data: Data, file: String) throws -> LayoutOverrides {
        let f: File
        do { f = try JSONDecoder().decode(File.self, from: data) } catch let DecodingError.typeMismatch(_, ctx) {
            throw ThemeError.badField(file: file, field: ctx.codingPath.map(\.stringValue).joined(separator: "."), message: "wrong type")
        } catch let DecodingError.dataCorrupted(ctx) where !ctx.codingPath.isEmpty {
            throw ThemeError.badField(file: file, field: ctx.codingPath.map(\.stringValue).joined(separator: "."), message: "wrong type")
        } catch {
            throw ThemeError.malformedJSON(file: file, reason: String(describing: error))
        }
        var o = LayoutOverrides()
        if let t = f.toolbar {
            guard let v = ToolbarPosition(rawValue: t) else { throw ThemeError.badField(file: file, field: "toolbar", message: "'\(t)' is not top or bottom") }
            o.toolbar = v
        }
        switch f.hintPosition {
        case nil: break
        case .fraction(let d)?:
            guard (0...1).contains(d) else { throw ThemeError.badField(file: file, field: "hintPosition", message: "\(d) is not within 0...1") }
            o.hintFraction = d
        case .named(let n)?:
            switch n {
            case "below": o.hintFraction = nil
            case "top": o.hintFraction = 0.15
            case "middle": o.hintFraction = 0.5
            case "bottom": o.hintFraction = 0.8
            default: throw ThemeError.badField(file: file, field: "hintPosition", message: "'\(n)' is not a fraction, below, top, middle or bottom")
            }
        }
        if let s = f.previewSide {
            guard let v = PreviewSide(rawValue: s) else { throw ThemeError.badField(file: file, field: "previewSide", message: "'\(s)' is not left or right") }
            o.previewSide = v
        }
        if let g = f.guideBeforeStart { o.guideBeforeStart = g }
        return o
    }

    /// Reads and parses a layout file.
    public static func load(path: String) throws -> LayoutOverrides {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw ThemeError.unreadable(file: path, reason: (error as NSError).localizedDescription)
        }
        return try parse(data, file: path)
    }
}

/// Where each part of the capture screen goes.
public struct CaptureFrames: Equatable, Sendable {
    /// Two rows: title, then the recording duration.
    public var title: CellRect
    public var preview: CellRect
    /// One row; may lie over the preview.
    public var hint: CellRect
    /// One row: countdown, restart reason or progress bar.
    public var status: CellRect
    /// Two rows: the Start button, then the key help.
    public var toolbar: CellRect
    public init(title: CellRect, preview: CellRect, hint: CellRect, status: CellRect, toolbar: CellRect) {
        self.title = title; self.preview = preview; self.hint = hint; self.status = status; self.toolbar = toolbar
    }
}

/// What a capture content view knows when it arranges the screen.
public struct CaptureArrangeContext: Sendable {
    public var size: Size
    public var overrides: LayoutOverrides
    /// In a wide window: whether the inputs go right of the preview.
    public var inputsToTheRight: Bool
    /// Aspect ratio (width / height) of the camera frame, for sizing the preview.
    public var frameAspect: Double
}

/// The replaceable capture content view (the Regula SDK's class overriding): subclass it,
/// override `arrange`, and register the subclass with
/// `ViewRegistry.registerClass(MyView.self, forBaseClass: CaptureContentView.self)`.
open class CaptureContentView: @unchecked Sendable {
    public required init() {}

    /// True when the window is wide enough to put the inputs beside the preview: at least 100
    /// columns and a width/height ratio of at least 2.5 cells.
    open func isWide(_ size: Size) -> Bool { size.cols >= 100 && size.cols * 10 >= size.rows * 25 }

    /// Places the parts for `context.size`. The default: title on top, preview, hint row, status
    /// row, toolbar at the bottom (or top); wide windows put the inputs in a side panel.
    open func arrange(_ context: CaptureArrangeContext) -> CaptureFrames {
        let w = context.size.cols, h = context.size.rows
        let o = context.overrides
        if isWide(context.size) {
            let panelW = max(30, w * 38 / 100)
            let previewW = w - panelW - 1
            let right = o.previewSide.map { $0 == .left } ?? context.inputsToTheRight
            let px = right ? 0 : panelW + 1
            let panelX = right ? previewW + 1 : 0
            let preview = CellRect(x: px, y: 0, width: previewW, height: h)
            let top = max(0, (h - 8) / 2)
            var hint = CellRect(x: panelX, y: top + 3, width: panelW, height: 1)
            if let f = o.hintFraction { hint.y = min(h - 1, Int(Double(h) * f)) }
            let toolbarY = o.toolbar == .top ? max(0, top - 3) : top + 6
            return CaptureFrames(title: CellRect(x: panelX, y: top, width: panelW, height: 2), preview: preview,
                                 hint: hint, status: CellRect(x: panelX, y: top + 4, width: panelW, height: 1),
                                 toolbar: CellRect(x: panelX, y: toolbarY, width: panelW, height: 2))
        }
        let full = CellRect(x: 0, y: 0, width: w, height: 0)
        func row(_ y: Int, _ n: Int = 1) -> CellRect { CellRect(x: full.x, y: y, width: w, height: n) }
        let overlayHint = o.hintFraction != nil
        if o.toolbar == .top {
            // toolbar 0-1, title 2-3, preview, [hint], status last row.
            let previewY = 4
            let previewH = h - previewY - 1 - (overlayHint ? 0 : 1)
            let hintY = o.hintFraction.map { min(h - 2, max(previewY, Int(Double(h) * $0))) } ?? (h - 2)
            return CaptureFrames(title: row(2, 2), preview: row(previewY, max(0, previewH)), hint: row(hintY),
                                 status: row(h - 1), toolbar: row(0, 2))
        }
        let previewY = 2
        let previewH = h - previewY - 3 - (overlayHint ? 0 : 1)
        let hintY = o.hintFraction.map { min(h - 4, max(previewY, Int(Double(h) * $0))) } ?? (h - 4)
        return CaptureFrames(title: row(0, 2), preview: row(previewY, max(0, previewH)), hint: row(hintY),
                             status: row(h - 3), toolbar: row(h - 2, 2))
    }
}

/// The example replacement of the seeds' docs: toolbar on top, hint at 68 % of the height.
open class ToolbarOnTopCaptureContentView: CaptureContentView, @unchecked Sendable {
    public required init() {}
    open override func arrange(_ context: CaptureArrangeContext) -> CaptureFrames {
        var c = context
        c.overrides.toolbar = .top
        c.overrides.hintFraction = 0.68
        return super.arrange(c)
    }
}

/// Replacement classes for replaceable screen parts (Regula `registerClass(_:forBaseClass:)`).
public struct ViewRegistry: @unchecked Sendable {
    private var classes: [ObjectIdentifier: CaptureContentView.Type] = [:]
    public init() {}

    /// Uses `cls` wherever `base` would be created. `cls` must be `base` or a subclass of it.
    public mutating func registerClass(_ cls: CaptureContentView.Type, forBaseClass base: CaptureContentView.Type) {
        classes[ObjectIdentifier(base)] = cls
    }

    /// An instance of the class registered for `base`, or of `base` itself.
    public func make(_ base: CaptureContentView.Type) -> CaptureContentView {
        (classes[ObjectIdentifier(base)] ?? base).init()
    }
}

/// Layout configuration handed to the screens: JSON overrides plus registered classes.
public struct Layout: Sendable {
    public var overrides: LayoutOverrides
    public var registry: ViewRegistry
    public init(overrides: LayoutOverrides = LayoutOverrides(), registry: ViewRegistry = ViewRegistry()) {
        self.overrides = overrides; self.registry = registry
    }
}
