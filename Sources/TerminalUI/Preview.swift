import CaptureFlow
// Camera preview in half blocks (▀: foreground = upper pixel, background = lower pixel), so one
// cell shows two square-ish pixels (cells are about 1:2, bug report IMG-01), with the oval drawn
// over it and the outside dimmed.

/// An RGB image for the preview, independent of the Media module: `width × height` pixels,
/// 3 bytes each (R, G, B), row-major, no padding.
public struct PreviewImage: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var rgb: [UInt8]
    /// - Precondition: `rgb.count >= width * height * 3` (shorter buffers render as black).
    public init(width: Int, height: Int, rgb: [UInt8]) { self.width = width; self.height = height; self.rgb = rgb }

    /// A uniform image (tests, placeholders).
    public static func solid(width: Int, height: Int, _ c: RGB) -> PreviewImage {
        var px = [UInt8](repeating: 0, count: width * height * 3)
        for i in 0..<(width * height) { px[3 * i] = c.r; px[3 * i + 1] = c.g; px[3 * i + 2] = c.b }
        return PreviewImage(width: width, height: height, rgb: px)
    }
}

/// The oval the face must fill, in coordinates normalised to the camera frame as the user sees
/// it (0...1 across and down). The guidance rules own the real value; this is the UI default.
public struct OvalGeometry: Sendable, Equatable {
    public var centerX: Double, centerY: Double
    /// Horizontal semi-axis as a fraction of the frame width.
    public var semiAxisX: Double
    /// Vertical semi-axis as a fraction of the frame height.
    public var semiAxisY: Double
    public init(centerX: Double, centerY: Double, semiAxisX: Double, semiAxisY: Double) {
        self.centerX = centerX; self.centerY = centerY; self.semiAxisX = semiAxisX; self.semiAxisY = semiAxisY
    }
    /// Centre (0.5, 0.5), semi-axes 0.27 of the width and 0.36 of the height: the UI's fallback
    /// when no frame size is known. With a frame, use `init(_:frameWidth:frameHeight:)`.
    public static let standard = OvalGeometry(centerX: 0.5, centerY: 0.5, semiAxisX: 0.27, semiAxisY: 0.36)

    /// The drawn ellipse of the shared `FaceOval` (the guidance rules' value) for a
    /// `frameWidth × frameHeight` frame, as fractions of that frame.
    public init(_ oval: FaceOval, frameWidth: Int, frameHeight: Int) {
        let w = Double(max(1, frameWidth)), h = Double(max(1, frameHeight))
        let e = oval.ellipse(width: w, height: h)
        self.init(centerX: e.cx / w, centerY: e.cy / h, semiAxisX: e.rx / w, semiAxisY: e.ry / h)
    }
}

/// How many colours the backend can show (bug reports IMG-06/07/08).
public enum ColorMode: String, Sendable, CaseIterable {
    /// No colour (NO_COLOR or a monochrome terminal): the preview is a gray ASCII ramp.
    case none
    /// 16 ANSI colours.
    case ansi16
    /// The xterm 256-colour palette (6×6×6 cube + 24 grays).
    case palette256
    /// 24-bit colour.
    case direct
}

/// Characters used for drawing; ASCII when the locale cannot show UTF-8.
public struct Glyphs: Sendable, Equatable {
    public var upperHalf: Character?
    public var barFull: Character
    public var barEmpty: Character
    public var outline: Character
    public var horizontal: Character
    public var ascii: Bool
    public static let unicode = Glyphs(upperHalf: "▀", barFull: "█", barEmpty: "░", outline: "•", horizontal: "─", ascii: false)
    public static let asciiOnly = Glyphs(upperHalf: nil, barFull: "#", barEmpty: "-", outline: "o", horizontal: "-", ascii: true)
}

/// Renders the preview and oval into a canvas rectangle.
public struct PreviewRenderer: Sendable {
    public var scaleType: PreviewScaleType
    public var mirrored: Bool
    public var oval: OvalGeometry
    /// Outline colour (by face status).
    public var outline: RGB
    /// Colour mixed over the outside of the oval, and how much (0...1).
    public var overlay: RGB
    public var overlayAmount: Double
    /// Behind a letterboxed (`fit`) image.
    public var letterbox: RGB

    public init(scaleType: PreviewScaleType, mirrored: Bool, oval: OvalGeometry, outline: RGB, overlay: RGB,
                overlayAmount: Double = 0.55, letterbox: RGB = RGB(0, 0, 0)) {
        self.scaleType = scaleType; self.mirrored = mirrored; self.oval = oval; self.outline = outline
        self.overlay = overlay; self.overlayAmount = overlayAmount; self.letterbox = letterbox
    }

    static let asciiRamp = Array(" .:-=+*#%@")

    /// The largest centred part of `area` whose pixel aspect (cells are 1 × 2 pixels) is at most
    /// `maxAspect` (width / height): the preview never gets wider than a 4:3 frame by default.
    public static func previewRect(in area: CellRect, maxAspect: Double = 4.0 / 3.0) -> CellRect {
        let maxW = Int((Double(area.height * 2) * maxAspect).rounded())
        guard area.width > maxW else { return area }
        return CellRect(x: area.x + (area.width - maxW) / 2, y: area.y, width: maxW, height: area.height)
    }

    /// Draws `image` (or a letterbox colour when nil) into `rect` of `canvas`.
    /// Pixel grid: `rect.width × 2·rect.height` square pixels; an odd source height is handled by
    /// sampling (no row is read past the end, bug report IMG-04).
    public func render(_ image: PreviewImage?, into rect: CellRect, canvas: inout Canvas, mode: ColorMode, glyphs: Glyphs) {
        guard !rect.isEmpty else { return }
        let gw = rect.width, gh = rect.height * 2
        let iw = image?.width ?? gw, ih = image?.height ?? gh
        guard iw > 0, ih > 0 else { return }
        // Scale: grid pixels per image pixel.
        let sx = Double(gw) / Double(iw), sy = Double(gh) / Double(ih)
        let s = scaleType == .fill ? max(sx, sy) : min(sx, sy)
        let dispW = Double(iw) * s, dispH = Double(ih) * s
        let ox = (Double(gw) - dispW) / 2, oy = (Double(gh) - dispH) / 2
        let step = max(1, Int(1 / s / 3))  // sample at most ~3×3 points per grid pixel
        let pix = image?.rgb ?? []
        let hasPixels = pix.count >= iw * ih * 3

        // Oval in grid coordinates: normalised to the whole frame and mapped with the frame's own
        // fit/fill transform, so it stays on the same image pixels the guidance rules judge
        // (CaptureFlow.FaceOval). Before the first frame the preview area stands for the frame.
        let ocx = ox + oval.centerX * dispW, ocy = oy + oval.centerY * dispH
        let oax = max(0.5, oval.semiAxisX * dispW), oay = max(0.5, oval.semiAxisY * dispH)
        @inline(__always) func inside(_ x: Int, _ y: Int) -> Bool {
            let dx = (Double(x) + 0.5 - ocx) / oax, dy = (Double(y) + 0.5 - ocy) / oay
            return dx * dx + dy * dy <= 1
        }

        var grid = [RGB](repeating: letterbox, count: gw * gh)
        var kind = [UInt8](repeating: 0, count: gw * gh)  // 0 outside, 1 inside, 2 outline
        for gy in 0..<gh {
            let v0 = (Double(gy) - oy) / s, v1 = (Double(gy + 1) - oy) / s
            let y0 = max(0, Int(v0)), y1 = min(ih, Int(v1.rounded(.up)))
            for gx in 0..<gw {
                let i = gy * gw + gx
                let ins = inside(gx, gy)
                if ins {
                    let edge = !inside(gx - 1, gy) || !inside(gx + 1, gy) || !inside(gx, gy - 1) || !inside(gx, gy + 1)
                    kind[i] = edge ? 2 : 1
                }
                guard hasPixels, y0 < y1 else { continue }
                let u0 = (Double(gx) - ox) / s, u1 = (Double(gx + 1) - ox) / s
                var x0 = max(0, Int(u0)), x1 = min(iw, Int(u1.rounded(.up)))
                guard x0 < x1 else { continue }
                if mirrored { let m0 = iw - x1, m1 = iw - x0; x0 = m0; x1 = m1 }
                var r = 0, g = 0, b = 0, n = 0
                var yy = y0
                while yy < y1 {
                    var xx = x0
                    let row = yy * iw
                    while xx < x1 {
                        let p = (row + xx) * 3
                        r += Int(pix[p]); g += Int(pix[p + 1]); b += Int(pix[p + 2]); n += 1
                        xx += step
                    }
                    yy += step
                }
                if n > 0 { grid[i] = RGB(UInt8(r / n), UInt8(g / n), UInt8(b / n)) }
            }
        }
        for i in 0..<grid.count {
            switch kind[i] {
            case 0: grid[i] = grid[i].blended(with: overlay, amount: overlayAmount)
            case 2: grid[i] = outline
            default: break
            }
        }

        for cy in 0..<rect.height {
            let top = 2 * cy * gw, bottom = (2 * cy + 1) * gw
            for cx in 0..<gw {
                let up = grid[top + cx], low = grid[bottom + cx]
                let x = rect.x + cx, y = rect.y + cy
                if mode == .none || glyphs.upperHalf == nil {
                    let k0 = kind[top + cx], k1 = kind[bottom + cx]
                    if k0 == 2 || k1 == 2 {
                        canvas.set(x, y, glyphs.outline, Style(attrs: .bold))
                    } else {
                        let l = (up.luma + low.luma) / 2
                        let ch = Self.asciiRamp[min(Self.asciiRamp.count - 1, l * Self.asciiRamp.count / 256)]
                        canvas.set(x, y, ch, Style(attrs: (k0 == 0 && k1 == 0) ? .dim : []))
                    }
                } else if let half = glyphs.upperHalf {
                    canvas.set(x, y, half, Style(fg: .rgb(up), bg: .rgb(low)))
                }
            }
        }
    }
}

