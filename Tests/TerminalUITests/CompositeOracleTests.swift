import CaptureModel
import Testing
@testable import TerminalUI

/// `PreviewRenderer.composite` computes its oval test and source spans once per row and column
/// (issue #28); the picture and the kinds must be what the per-pixel form gave, pixel for pixel.
/// The oracle below is that form, kept as it was (the main loop only: the overlay, ring and
/// digits that follow it are shared).
@Suite struct CompositeOracleTests {
    static func perPixel(_ r: PreviewRenderer, _ image: PreviewImage?, gridWidth gw: Int, gridHeight gh: Int,
                         lineWidth: Int) -> (grid: [RGB], kind: [UInt8]) {
        let iw = image?.width ?? gw, ih = image?.height ?? gh
        let g = r.geometry(imageWidth: image?.width, imageHeight: image?.height, gridWidth: gw, gridHeight: gh)
        let s = g.s, ox = g.ox, oy = g.oy, step = max(1, Int(1 / s / 3))
        let pix = image?.rgb ?? []
        let hasPixels = pix.count >= iw * ih * 3
        func inside(_ x: Int, _ y: Int) -> Bool {
            let dx = (Double(x) + 0.5 - g.ocx) / g.oax, dy = (Double(y) + 0.5 - g.ocy) / g.oay
            return dx * dx + dy * dy <= 1
        }
        var grid = [RGB](repeating: r.letterbox, count: gw * gh)
        var kind = [UInt8](repeating: 0, count: gw * gh)
        for gy in 0..<gh {
            let v0 = (Double(gy) - oy) / s, v1 = (Double(gy + 1) - oy) / s
            let y0 = max(0, Int(v0)), y1 = min(ih, Int(v1.rounded(.up)))
            for gx in 0..<gw {
                let i = gy * gw + gx
                if !r.showsOval {
                    kind[i] = 1
                } else if inside(gx, gy) {
                    let edge: Bool
                    if lineWidth <= 1 {
                        edge = !inside(gx - 1, gy) || !inside(gx + 1, gy) || !inside(gx, gy - 1) || !inside(gx, gy + 1)
                    } else {
                        let dx = (Double(gx) + 0.5 - g.ocx) / g.oax, dy = (Double(gy) + 0.5 - g.ocy) / g.oay
                        edge = (dx * dx + dy * dy).squareRoot() >= 1 - Double(lineWidth) / max(1, min(g.oax, g.oay))
                    }
                    kind[i] = edge ? 2 : 1
                }
                guard hasPixels, y0 < y1 else { continue }
                let u0 = (Double(gx) - ox) / s, u1 = (Double(gx + 1) - ox) / s
                var x0 = max(0, Int(u0)), x1 = min(iw, Int(u1.rounded(.up)))
                guard x0 < x1 else { continue }
                if r.mirrored { let m0 = iw - x1, m1 = iw - x0; x0 = m0; x1 = m1 }
                var rr = 0, gg = 0, bb = 0, n = 0
                var yy = y0
                while yy < y1 {
                    var xx = x0
                    while xx < x1 {
                        let p = (yy * iw + xx) * 3
                        rr += Int(pix[p]); gg += Int(pix[p + 1]); bb += Int(pix[p + 2]); n += 1
                        xx += step
                    }
                    yy += step
                }
                if n > 0 { grid[i] = RGB(UInt8(rr / n), UInt8(gg / n), UInt8(bb / n)) }
            }
        }
        for i in 0..<grid.count {
            switch kind[i] {
            case 0: grid[i] = grid[i].blended(with: r.overlay, amount: r.overlayAmount)
            case 2: grid[i] = r.outline
            default: break
            }
        }
        return (grid, kind)
    }

    @Test(arguments: [(400, 240, 1), (160, 96, 1), (1600, 960, 4), (81, 47, 1), (250, 500, 3), (33, 7, 1)])
    func sameAsPerPixel(size: (Int, Int, Int)) throws {
        let (gw, gh, line) = size
        let frame = DetailFrame.make(width: 320, height: 240)
        for mirrored in [false, true] {
            for scale in [PreviewScaleType.fit, .fill] {
                for shows in [true, false] {
                    for image in [frame, nil] as [PreviewImage?] {
                        var r = PreviewRenderer(scaleType: scale, mirrored: mirrored, oval: .standard, outline: RGB(255, 0, 0),
                                                overlay: RGB(0, 0, 0))
                        r.showsOval = shows
                        let got = try #require(r.composite(image, gridWidth: gw, gridHeight: gh, lineWidth: line))
                        let want = Self.perPixel(r, image, gridWidth: gw, gridHeight: gh, lineWidth: line)
                        #expect(got.grid == want.grid && got.kind == want.kind,
                                "\(gw)×\(gh) line \(line) mirrored \(mirrored) \(scale) oval \(shows) image \(image != nil)")
                    }
                }
            }
        }
    }
}

/// The mean's division by multiplication (`PreviewRenderer.quotient`) is the integer division
/// for every sum of `n` samples of 0…255, `n` up to 256 (and beyond, where it divides).
@Suite struct CompositeQuotientTests {
    @Test func exactForEverySum() {
        var wrong = 0
        for n in 1...300 {
            for sum in 0...(255 * n) where Int(PreviewRenderer.quotient(sum, n)) != sum / n { wrong += 1 }
        }
        #expect(wrong == 0)
    }
}
