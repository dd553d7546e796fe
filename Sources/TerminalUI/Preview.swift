import CaptureModel
import Foundation
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
    /// Countdown digits to paint inside the oval (`BigDigits`), in `accent` with a dark edge;
    /// drawn only when the oval holds them at `minimumDigitScale` or more (see `digitScale`).
    public var digits: String?
    /// Recording progress 0...1 drawn as a ring along the oval, clockwise from the top: the done
    /// part in `accent`, the rest in `ringTrack` (Amplify Liveness draws its progress this way).
    public var ring: Double?
    public var accent: RGB
    public var ringTrack: RGB
    /// Draw the oval (outline, dimmed outside); false draws the image alone (the result
    /// screen's thumbnail).
    public var showsOval = true
    /// The terminal's cell height over width (`CellGeometry.aspect`; 2 when not measured): the
    /// picture is composed on square pixels for cells of this shape, so a circle stays round
    /// (issue #27, bug report IMG-03: with 8×26 px cells half blocks drew it 1.6× taller).
    public var cellAspect: Double = 2
    /// One pixel per cell, drawn as a space on its colour, instead of two per cell with `▀`:
    /// the fallback where line spacing leaves a gap under the glyph (bug report IMG-02,
    /// `CellGeometry.lineSpacing`).
    public var fullBlocks = false

    public init(scaleType: PreviewScaleType, mirrored: Bool, oval: OvalGeometry, outline: RGB, overlay: RGB,
                overlayAmount: Double = 0.55, letterbox: RGB = RGB(0, 0, 0), digits: String? = nil, ring: Double? = nil,
                accent: RGB = RGB(0xFF, 0xFF, 0xFF), ringTrack: RGB = RGB(0x60, 0x60, 0x60)) {
        self.scaleType = scaleType; self.mirrored = mirrored; self.oval = oval; self.outline = outline
        self.overlay = overlay; self.overlayAmount = overlayAmount; self.letterbox = letterbox
        self.digits = digits; self.ring = ring; self.accent = accent; self.ringTrack = ringTrack
    }

    /// Smallest font scale (grid pixels per font pixel) drawn inside the oval: 2, so a digit is
    /// at least 6 cells wide and 5 rows high; below that the screen draws the digits beside the
    /// preview.
    public static let minimumDigitScale = 2

    /// The font scale at which `digits` fit inside the oval drawn in `rect`: the digit takes at
    /// most half the oval's height and 70 % of its width; 0 when no preview is drawn.
    public func digitScale(_ digits: String, imageSize: (width: Int, height: Int)?, rect: CellRect) -> Int {
        guard !rect.isEmpty else { return 0 }
        let g = geometry(imageWidth: imageSize?.width, imageHeight: imageSize?.height, rect: rect)
        let one = BigDigits.bitmap(digits, scale: 1)
        guard one.width > 0 else { return 0 }
        let byHeight = Int(g.oay * 2 * 0.5) / one.height
        let byWidth = Int(g.oax * 2 * 0.7) / one.width
        return max(0, min(byHeight, byWidth))
    }

    /// The image's placement in the grid and the oval's centre and semi-axes, in grid pixels.
    func geometry(imageWidth: Int?, imageHeight: Int?, rect: CellRect)
        -> (s: Double, ox: Double, oy: Double, dispW: Double, dispH: Double, ocx: Double, ocy: Double, oax: Double, oay: Double) {
        geometry(imageWidth: imageWidth, imageHeight: imageHeight, gridWidth: rect.width, gridHeight: rect.height * 2)
    }

    /// The same for a grid of `gridWidth × gridHeight` square pixels.
    func geometry(imageWidth: Int?, imageHeight: Int?, gridWidth gw: Int, gridHeight gh: Int)
        -> (s: Double, ox: Double, oy: Double, dispW: Double, dispH: Double, ocx: Double, ocy: Double, oax: Double, oay: Double) {
        let iw = max(1, imageWidth ?? gw), ih = max(1, imageHeight ?? gh)
        let sx = Double(gw) / Double(iw), sy = Double(gh) / Double(ih)
        let s = scaleType == .fill ? max(sx, sy) : min(sx, sy)
        let dispW = Double(iw) * s, dispH = Double(ih) * s
        let ox = (Double(gw) - dispW) / 2, oy = (Double(gh) - dispH) / 2
        return (s, ox, oy, dispW, dispH, ox + oval.centerX * dispW, oy + oval.centerY * dispH,
                max(0.5, oval.semiAxisX * dispW), max(0.5, oval.semiAxisY * dispH))
    }

    static let asciiRamp = Array(" .:-=+*#%@")

    /// The largest centred part of `area` whose pixel aspect (cells are 1 × 2 pixels) is at most
    /// `maxAspect` (width / height): the preview never gets wider than a 4:3 frame by default.
    public static func previewRect(in area: CellRect, maxAspect: Double = 4.0 / 3.0, cellAspect: Double = 2) -> CellRect {
        let maxW = Int((Double(area.height) * cellAspect * maxAspect).rounded())
        guard area.width > maxW else { return area }
        return CellRect(x: area.x + (area.width - maxW) / 2, y: area.y, width: maxW, height: area.height)
    }

    /// Draws `image` (or a letterbox colour when nil) into `rect` of `canvas`.
    /// Pixel grid: `rect.width × 2·rect.height` square pixels; an odd source height is handled by
    /// sampling (no row is read past the end, bug report IMG-04).
    public func render(_ image: PreviewImage?, into rect: CellRect, canvas: inout Canvas, mode: ColorMode, glyphs: Glyphs) {
        guard !rect.isEmpty else { return }
        let rowsPerCell = fullBlocks ? 1 : 2
        let gw = rect.width, gh = rect.height * rowsPerCell
        // Square pixels for the cells' shape: `rows · aspect` of them down (2 per cell at 2:1).
        let sq = max(1, Int((Double(rect.height) * cellAspect).rounded()))
        var digitScale = digits.map { self.digitScale($0, imageSize: image.map { ($0.width, $0.height) }, rect: rect) } ?? 0
        if digitScale >= Self.minimumDigitScale { digitScale = max(Self.minimumDigitScale, digitScale * sq / (2 * rect.height)) }
        guard let (square, squareKind) = composite(image, gridWidth: gw, gridHeight: sq, lineWidth: max(1, sq / gh),
                                                   digitScale: digitScale) else { return }
        let (grid, kind) = sq == gh ? (square, squareKind) : Self.resampleRows(square, squareKind, width: gw, from: sq, to: gh)
        cells(grid: grid, kind: kind, into: rect, canvas: &canvas, mode: mode, glyphs: glyphs, rowsPerCell: rowsPerCell)
    }

    /// `grid` (`width × from` rows) averaged to `to` rows; a row that takes in digit ink or the
    /// outline takes its colour and kind (the highest kind), so the outline never fades.
    static func resampleRows(_ grid: [RGB], _ kind: [UInt8], width: Int, from: Int, to: Int) -> ([RGB], [UInt8]) {
        var out = [RGB](repeating: RGB(0, 0, 0), count: width * to)
        var outKind = [UInt8](repeating: 0, count: width * to)
        for t in 0..<to {
            let y0 = t * from / to, y1 = max(y0 + 1, (t + 1) * from / to)
            for x in 0..<width {
                var r = 0, g = 0, b = 0, n = 0, k: UInt8 = 0, marked: RGB?
                for y in y0..<min(from, y1) {
                    let i = y * width + x
                    let c = grid[i]
                    r += Int(c.r); g += Int(c.g); b += Int(c.b); n += 1
                    if kind[i] >= 2, kind[i] >= k { marked = c }
                    k = max(k, kind[i])
                }
                let o = t * width + x
                outKind[o] = k
                out[o] = marked ?? (n > 0 ? RGB(UInt8(r / n), UInt8(g / n), UInt8(b / n)) : RGB(0, 0, 0))
            }
        }
        return (out, outKind)
    }

    /// `sum / n` for a mean of `n` samples of 0…255 (`sum` ≤ 255·`n`): a multiplication by
    /// ⌈2³²/n⌉ and a shift for `n` ≤ 256 (exact there: checked for every such sum and `n` in
    /// CompositeOracleTests), a division beyond.
    @inline(__always) static func quotient(_ sum: Int, _ n: Int) -> UInt8 {
        n <= 256 ? UInt8(truncatingIfNeeded: (sum &* reciprocals[n]) >> 32) : UInt8(truncatingIfNeeded: sum / n)
    }
    /// ⌈2³²/n⌉ for n in 1...256 (index 0 unused).
    static let reciprocals: [Int] = (0...256).map { $0 == 0 ? 0 : ((1 << 32) + $0 - 1) / $0 }

    /// The preview as a `gridWidth × gridHeight` picture of square pixels: `image` scaled
    /// (fit/fill, mirrored), the outside of the oval dimmed, the outline `lineWidth` pixels
    /// thick, the recording ring and the countdown digits at `digitScale` grid pixels per font
    /// pixel (drawn when ≥ `minimumDigitScale`). The half-block grid is `cols × 2·rows`; pixel
    /// modes use the preview rectangle's size in terminal pixels, so every mode shows the same
    /// overlay. `kind` per pixel: 0 outside, 1 inside, 2 outline or ring, 3 digit ink.
    /// nil when the grid or the image is empty.
    public func composite(_ image: PreviewImage?, gridWidth gw: Int, gridHeight gh: Int, lineWidth: Int = 1,
                          digitScale: Int = 0) -> (grid: [RGB], kind: [UInt8])? {
        guard gw > 0, gh > 0 else { return nil }
        let iw = image?.width ?? gw, ih = image?.height ?? gh
        guard iw > 0, ih > 0 else { return nil }
        // Scale (grid pixels per image pixel), the image's placement and the oval, in grid pixels.
        let g = geometry(imageWidth: image?.width, imageHeight: image?.height, gridWidth: gw, gridHeight: gh)
        let s = g.s, ox = g.ox, oy = g.oy
        let step = max(1, Int(1 / s / 3))  // sample at most ~3×3 points per grid pixel
        let pix = image?.rgb ?? []
        let hasPixels = pix.count >= iw * ih * 3

        // Oval in grid coordinates: normalised to the whole frame and mapped with the frame's own
        // fit/fill transform, so it stays on the same image pixels the guidance rules judge
        // (CaptureFlow.FaceOval). Before the first frame the preview area stands for the frame.
        let ocx = g.ocx, ocy = g.ocy, oax = g.oax, oay = g.oay

        var grid = [RGB](repeating: letterbox, count: gw * gh)
        var kind = [UInt8](repeating: 0, count: gw * gh)  // 0 outside, 1 inside, 2 outline, 3 ink
        // Once per column and per row instead of per pixel (issue #28: this loop was most of the
        // Swift side of a 200×60 symbol frame): the oval test's squared terms (the same products
        // `inside` forms, added in the same order) for x in -1...gw and y in -1...gh, and each
        // column's source span (mirrored; empty when none).
        var qx = [Double](repeating: 0, count: gw + 2), qy = [Double](repeating: 0, count: gh + 2)
        for x in -1...gw { let d = (Double(x) + 0.5 - ocx) / oax; qx[x + 1] = d * d }
        for y in -1...gh { let d = (Double(y) + 0.5 - ocy) / oay; qy[y + 1] = d * d }
        var spanX0 = [Int](repeating: 0, count: gw), spanX1 = [Int](repeating: 0, count: gw)
        for gx in 0..<gw {
            let u0 = (Double(gx) - ox) / s, u1 = (Double(gx + 1) - ox) / s
            var x0 = max(0, Int(u0)), x1 = min(iw, Int(u1.rounded(.up)))
            guard x0 < x1 else { continue }
            if mirrored { let m0 = iw - x1, m1 = iw - x0; x0 = m0; x1 = m1 }
            spanX0[gx] = x0; spanX1[gx] = x1
        }
        let edgeLimit = 1 - Double(lineWidth) / max(1, min(oax, oay)), step3 = step * 3
        grid.withUnsafeMutableBufferPointer { gp in
        kind.withUnsafeMutableBufferPointer { kp in
        pix.withUnsafeBufferPointer { pp in
            for gy in 0..<gh {
                let v0 = (Double(gy) - oy) / s, v1 = (Double(gy + 1) - oy) / s
                let y0 = max(0, Int(v0)), y1 = min(ih, Int(v1.rounded(.up)))
                let qyUp = qy[gy], qyHere = qy[gy + 1], qyDown = qy[gy + 2]
                for gx in 0..<gw {
                    let i = gy * gw + gx
                    let q = qx[gx + 1]
                    if !showsOval {
                        kp[i] = 1
                    } else if q + qyHere <= 1 {
                        let edge: Bool
                        if lineWidth <= 1 {
                            edge = !(qx[gx] + qyHere <= 1) || !(qx[gx + 2] + qyHere <= 1) || !(q + qyUp <= 1) || !(q + qyDown <= 1)
                        } else {
                            edge = (q + qyHere).squareRoot() >= edgeLimit
                        }
                        kp[i] = edge ? 2 : 1
                    }
                    guard hasPixels, y0 < y1 else { continue }
                    let x0 = spanX0[gx], x1 = spanX1[gx]
                    guard x0 < x1 else { continue }
                    var r = 0, g = 0, b = 0, n = 0
                    var yy = y0
                    while yy < y1 {
                        var p = (yy * iw + x0) * 3
                        let end = (yy * iw + x1) * 3
                        while p < end {
                            r &+= Int(pp[p]); g &+= Int(pp[p + 1]); b &+= Int(pp[p + 2]); n &+= 1
                            p &+= step3
                        }
                        yy += step
                    }
                    if n > 0 { gp[i] = RGB(Self.quotient(r, n), Self.quotient(g, n), Self.quotient(b, n)) }
                }
            }
        }
        }
        }
        for i in 0..<grid.count {
            switch kind[i] {
            case 0: grid[i] = grid[i].blended(with: overlay, amount: overlayAmount)
            case 2: grid[i] = outline
            default: break
            }
        }
        // The recording ring: a band at least two pixels thick just inside the outline, filled
        // clockwise from the top as far as the progress. The outline stays (issue #27: the ring
        // used to cover it, and its track, #263238 in the dark theme, left the oval at 1.3:1
        // against the dimmed outside while recording; measured on kitty, tmux, xterm screenshots).
        if let ring {
            let band = 1 - (Double(lineWidth) + max(2, 2.2 * Double(lineWidth))) / max(1, min(oax, oay))
            for gy in 0..<gh {
                for gx in 0..<gw where kind[gy * gw + gx] == 1 {
                    let dx = (Double(gx) + 0.5 - ocx) / oax, dy = (Double(gy) + 0.5 - ocy) / oay
                    guard (dx * dx + dy * dy).squareRoot() >= band else { continue }
                    var a = atan2(dx, -dy) / (2 * Double.pi)
                    if a < 0 { a += 1 }
                    grid[gy * gw + gx] = a < ring ? accent : ringTrack
                    kind[gy * gw + gx] = 2
                }
            }
        }
        // Countdown digits, centred on the oval, each ink pixel with a dark edge around it.
        if let digits {
            let scale = digitScale
            if scale >= Self.minimumDigitScale {
                let b = BigDigits.bitmap(digits, scale: scale)
                let x0 = Int((ocx - Double(b.width) / 2).rounded()), y0 = Int((ocy - Double(b.height) / 2).rounded())
                let edge = RGB(0, 0, 0)
                for by in -1...b.height {
                    for bx in -1...b.width {
                        let gx = x0 + bx, gy = y0 + by
                        guard gx >= 0, gy >= 0, gx < gw, gy < gh else { continue }
                        if b[bx, by] {
                            grid[gy * gw + gx] = accent; kind[gy * gw + gx] = 3
                        } else if b[bx - 1, by] || b[bx + 1, by] || b[bx, by - 1] || b[bx, by + 1] {
                            grid[gy * gw + gx] = edge
                        }
                    }
                }
            }
        }
        return (grid, kind)
    }

    /// The grey ramp of 8/16 colours: shades `░▒▓█` of ANSI white (#E5E5E5) over ANSI black,
    /// five levels 0, ¼, ½, ¾, 1 of the luma 0…255 (Rec. 601), each at the nearest level; the
    /// two colours exist in every 8-colour palette, so a `TERM=xterm` shows the same face.
    static func greyCell(luma: Int) -> (Character, Style) {
        let level = min(4, max(0, (luma * 4 + 127) / 255))
        let ch: Character = [" ", "\u{2591}", "\u{2592}", "\u{2593}", "\u{2588}"][level]
        return (ch, Style(fg: .rgb(ANSIPalette.xterm[7]), bg: .rgb(ANSIPalette.xterm[0])))
    }

    /// Half-block cells from a `rect.width × 2·rect.height` composite.
    func cells(grid: [RGB], kind: [UInt8], into rect: CellRect, canvas: inout Canvas, mode: ColorMode, glyphs: Glyphs,
               rowsPerCell: Int = 2) {
        let gw = rect.width
        for cy in 0..<rect.height {
            let top = rowsPerCell * cy * gw, bottom = (rowsPerCell * cy + rowsPerCell - 1) * gw
            for cx in 0..<gw {
                let up = grid[top + cx], low = grid[bottom + cx]
                let x = rect.x + cx, y = rect.y + cy
                if mode == .none || glyphs.upperHalf == nil {
                    let k0 = kind[top + cx], k1 = kind[bottom + cx]
                    if k0 == 3 || k1 == 3 {
                        canvas.set(x, y, "#", Style(attrs: .bold))
                    } else if k0 == 2 || k1 == 2 {
                        canvas.set(x, y, glyphs.outline, Style(attrs: .bold))
                    } else {
                        let l = (up.luma + low.luma) / 2
                        let ch = Self.asciiRamp[min(Self.asciiRamp.count - 1, l * Self.asciiRamp.count / 256)]
                        canvas.set(x, y, ch, Style(attrs: (k0 == 0 && k1 == 0) ? .dim : []))
                    }
                } else if mode == .ansi16, kind[top + cx] < 2, kind[bottom + cx] < 2 {
                    // 8/16 colours (issue #27): the picture as a grey ramp, not hue blotches.
                    let (ch, style) = Self.greyCell(luma: (up.luma + low.luma) / 2)
                    canvas.set(x, y, ch, style)
                } else if mode == .ansi16, let half = glyphs.upperHalf {
                    // The outline's or the digits' half in its colour, the picture's half grey.
                    func grey(_ c: RGB, _ k: UInt8) -> RGB { k >= 2 ? c : ANSIPalette.xterm[c.luma >= 115 ? 7 : 0] }
                    let u = grey(up, kind[top + cx]), l = grey(low, kind[bottom + cx])
                    canvas.set(x, y, half, Style(fg: .rgb(u), bg: .rgb(rowsPerCell == 1 ? u : l)))
                } else if rowsPerCell == 1 {
                    canvas.set(x, y, " ", Style(fg: .rgb(up), bg: .rgb(up)))
                } else if let half = glyphs.upperHalf {
                    canvas.set(x, y, half, Style(fg: .rgb(up), bg: .rgb(low)))
                }
            }
        }
    }
}

