import Testing
import Foundation
import CaptureModel
import TestSupport
@testable import TerminalUI

/// A synthetic face-like frame with detail finer than a half-block pixel: gradient background,
/// a skin ellipse, dark eyes with white glints, 2-pixel hair stripes, a thin mouth line.
enum DetailFrame {
    static func make(width: Int = 320, height: Int = 240) -> PreviewImage {
        var px = [UInt8](repeating: 0, count: width * height * 3)
        // Texture: a fixed mosaic of 3–10 pixel tiles (a room behind the person).
        var rng = SplitMix(seed: 13)
        var tiles = [RGB](repeating: RGB(0, 0, 0), count: 64 * 64)
        for i in tiles.indices { tiles[i] = RGB(UInt8(truncatingIfNeeded: rng.next()), UInt8(truncatingIfNeeded: rng.next()), UInt8(truncatingIfNeeded: rng.next())) }
        for y in 0..<height {
            for x in 0..<width {
                var c = tiles[((y / (3 + (x / 40) % 8)) % 64) * 64 + (x / (3 + (y / 30) % 8)) % 64]
                let fx = Double(x) / Double(width), fy = Double(y) / Double(height)
                let dx = (fx - 0.5) / 0.22, dy = (fy - 0.52) / 0.36
                if dx * dx + dy * dy <= 1 {
                    c = RGB(225, 180, 150)
                    if fy < 0.3, (x / 2) % 2 == 0 { c = RGB(70, 45, 30) }   // hair stripes
                    for ex in [0.42, 0.58] {
                        let ddx = (fx - ex) / 0.035, ddy = (fy - 0.45) / 0.03
                        if ddx * ddx + ddy * ddy <= 1 { c = (abs(fx - ex) < 0.008 && abs(fy - 0.44) < 0.008) ? RGB(255, 255, 255) : RGB(20, 20, 30) }
                    }
                    if abs(fy - 0.68) < 0.006, abs(fx - 0.5) < 0.08 { c = RGB(120, 30, 40) }
                }
                let i = (y * width + x) * 3
                px[i] = c.r; px[i + 1] = c.g; px[i + 2] = c.b
            }
        }
        return PreviewImage(width: width, height: height, rgb: px)
    }
}

@Suite struct PreviewModesTests {
    static let frame = DetailFrame.make()
    static let plain = PreviewRenderer(scaleType: .fit, mirrored: false, oval: .standard, outline: RGB(255, 0, 0), overlay: RGB(0, 0, 0))

    /// The source as a terminal of `cols × rows` 8×16 cells could show it at most.
    static func reference(cols: Int, rows: Int) -> PreviewImage {
        var r = plain; r.showsOval = false
        let (grid, _) = r.composite(frame, gridWidth: cols * 8, gridHeight: rows * 16)!
        return PreviewImage(grid: grid, width: cols * 8, height: rows * 16)
    }

    @Test func sextantAndQuadrantShapes() {
        // 🬀 SEXTANT-1: top-left only; 🬋 SEXTANT-34: the middle row; 🬻 SEXTANT-23456 (the last).
        #expect(PreviewFidelity.ink("\u{1FB00}", x: 0, y: 0, w: 8, h: 12) && !PreviewFidelity.ink("\u{1FB00}", x: 7, y: 0, w: 8, h: 12))
        #expect(PreviewFidelity.ink("\u{1FB0B}", x: 1, y: 6, w: 8, h: 12) && !PreviewFidelity.ink("\u{1FB0B}", x: 1, y: 1, w: 8, h: 12))
        #expect(!PreviewFidelity.ink("\u{1FB3B}", x: 0, y: 0, w: 8, h: 12) && PreviewFidelity.ink("\u{1FB3B}", x: 7, y: 0, w: 8, h: 12))
        #expect(PreviewFidelity.ink("▀", x: 3, y: 2, w: 8, h: 16) && !PreviewFidelity.ink("▀", x: 3, y: 10, w: 8, h: 16))
        #expect(PreviewFidelity.ink("▚", x: 1, y: 1, w: 8, h: 16) && PreviewFidelity.ink("▚", x: 7, y: 15, w: 8, h: 16)
                && !PreviewFidelity.ink("▚", x: 7, y: 1, w: 8, h: 16))
        // SSIM of a picture with itself is 1, with its negative well below (flat areas still
        // score on luminance alone).
        #expect(abs(PreviewFidelity.ssim(Self.frame, Self.frame) - 1) < 1e-9)
        var neg = Self.frame; neg.rgb = neg.rgb.map { 255 - $0 }
        #expect(PreviewFidelity.ssim(Self.frame, neg) < 0.8)
    }

    /// Issue #13 goal: symbols at least 0.05 SSIM above half blocks at the same cell count.
    @Test func symbolsShowMoreThanHalfBlocksAtTheSameCellCount() throws {
        let cols = 40, rows = 15
        let rect = CellRect(x: 0, y: 0, width: cols, height: rows)
        var r = Self.plain; r.showsOval = false
        var canvas = Canvas(width: cols, height: rows)
        r.render(Self.frame, into: rect, canvas: &canvas, mode: .direct, glyphs: .unicode)
        let half = PreviewFidelity.rasterize(canvas.cells, cols: cols, rows: rows)
        let g = CellGeometry.fallback.symbolGrid(cols: cols, rows: rows)
        let (grid, _) = try #require(r.composite(Self.frame, gridWidth: g.width, gridHeight: g.height))
        let cells = try #require(ChafaPreview.symbols(PreviewImage(grid: grid, width: g.width, height: g.height), cols, rows, .direct))
        let sym = PreviewFidelity.rasterize(cells, cols: cols, rows: rows)
        let ref = Self.reference(cols: cols, rows: rows)
        let sHalf = PreviewFidelity.ssim(ref, half), sSym = PreviewFidelity.ssim(ref, sym)
        print("SSIM half blocks \(sHalf), symbols \(sSym)")
        #expect(sSym >= sHalf + 0.05, "symbols \(sSym) vs half blocks \(sHalf)")
        #expect(cells.contains { ($0.text?.unicodeScalars.first?.value ?? 0) >= 0x1FB00 }, "no sextant used")
    }

    /// The kitty stream we write carries the picture exactly (decoded here as kitty would).
    @Test func kittyStreamDecodesToThePicture() throws {
        let pic = PreviewImage(width: 123, height: 77, rgb: (0..<(123 * 77 * 3)).map { UInt8(truncatingIfNeeded: $0 * 7) })
        let stream = KittyGraphics.transmit(pic, cols: 20, rows: 6, compress: false)
        let text = String(decoding: stream, as: UTF8.self)
        var payload = "", keys: [String] = []
        for chunk in text.components(separatedBy: "\u{1B}\\") where chunk.hasPrefix("\u{1B}_G") {
            let body = chunk.dropFirst(3)
            let parts = body.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
            keys.append(String(parts[0]))
            payload += parts.count > 1 ? String(parts[1]) : ""
            #expect(parts.count < 2 || parts[1].count <= 4096)
        }
        #expect(keys.first?.contains("a=T,i=1,p=1,f=24,s=123,v=77,c=20,r=6,C=1,q=2") == true)
        #expect(keys.last == "m=0")
        #expect(keys.dropLast().allSatisfy { $0.hasSuffix("m=1") })
        let data = try #require(Data(base64Encoded: payload))
        #expect(Array(data) == pic.rgb)
        #expect(KittyGraphics.transfer(environment: ["SSH_CONNECTION": "1.2.3.4 5 6.7.8.9 22"]) == .direct)
        #expect(KittyGraphics.transfer(environment: ["TERM": "xterm-kitty"]) == .sharedMemory)
    }

    /// libchafa's sixel stream, decoded by libsixel's `sixel2png`, matches the picture.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/sixel2png") && FileManager.default.isExecutableFile(atPath: "/usr/bin/convert"),
                   "sixel2png (libsixel-bin) or convert (imagemagick) is not installed"))
    func sixelStreamDecodesToThePicture() throws {
        let rect = CellRect(x: 0, y: 0, width: 40, height: 15)
        let p = CellGeometry(width: 8, height: 16, measured: true).pictureSize(cols: rect.width, rows: rect.height)
        let (grid, _) = try #require(Self.plain.composite(Self.frame, gridWidth: p.width, gridHeight: p.height, lineWidth: 4))
        let pic = PreviewPicture(rect: rect, image: PreviewImage(grid: grid, width: p.width, height: p.height),
                                 cellWidth: p.cellWidth, cellHeight: p.cellHeight)
        let stream = ChafaPreview.encode(pic, mode: .sixel)
        #expect(stream.starts(with: Array("\u{1B}P".utf8)))
        let dir = try TestSupport.tempTree(["README": "sixel round trip"])
        let six = dir + "/frame.six", png = dir + "/frame.png", ppm = dir + "/frame.ppm"
        try Data(stream).write(to: URL(fileURLWithPath: six))
        let r1 = try ChildProcess.run("/usr/bin/sixel2png", ["-i", six, "-o", png], timeout: 20)
        #expect(r1.code == 0, "\(String(decoding: r1.err, as: UTF8.self))")
        let r2 = try ChildProcess.run("/usr/bin/convert", [png, "-depth", "8", "ppm:" + ppm], timeout: 20)
        #expect(r2.code == 0)
        let decoded = try #require(PreviewImage(ppm: ppm))
        #expect(decoded.width == p.width)
        let s = PreviewFidelity.ssim(pic.image, decoded)
        print("sixel round trip SSIM \(s)")
        #expect(s >= 0.85)
    }

    @Test func pixelModeScreenHasPlaceholdersAndAPictureWithTheOval() throws {
        var c = RenderContext(size: Size(cols: 80, rows: 24), strings: StubStrings(locale: "en"), theme: .dark)
        c.previewMode = .sixel
        c.cellGeometry = CellGeometry(width: 8, height: 16, measured: true)
        let oval = OvalGeometry(FaceOval.standard, frameWidth: Self.frame.width, frameHeight: Self.frame.height)
        let view = ScreenView.capture(CaptureViewState(image: Self.frame, oval: oval, phase: .positioning, isValid: false))
        let screen = Screens.render(view, context: c)
        let pic = try #require(screen.picture)
        #expect(pic.image.width == pic.rect.width * pic.cellWidth && pic.image.height == pic.rect.height * pic.cellHeight)
        for y in pic.rect.y..<pic.rect.maxY {
            for x in pic.rect.x..<pic.rect.maxX { #expect(screen.canvas[x, y].style == PreviewPicture.placeholderStyle) }
        }
        // The outline (the theme's secondary colour: not valid) is in the picture, around its middle row.
        let outline = Screens.rgb(Theme.dark.secondary, fallback: RGB(0, 0, 0))
        let mid = pic.image.height / 2
        let row = (0..<pic.image.width).map { x -> RGB in
            let i = (mid * pic.image.width + x) * 3
            return RGB(pic.image.rgb[i], pic.image.rgb[i + 1], pic.image.rgb[i + 2])
        }
        #expect(row.filter { $0 == outline }.count >= 2)
        // Half blocks: no picture.
        c.previewMode = .halfBlocks
        #expect(Screens.render(view, context: c).picture == nil)
    }

    /// Issue #17 in pixel modes: the picture covers the cells, so the oval's state mark (✓/✗) is
    /// painted into it. Valid and invalid differ by shape, not only by colour: with a theme whose
    /// two state colours are the same, the two pictures still differ, and only near the oval's top.
    @Test func pixelModeMarkDiffersByShape() throws {
        var theme = Theme.dark
        theme.secondary = theme.primary
        var c = RenderContext(size: Size(cols: 80, rows: 24), strings: StubStrings(locale: "en"), theme: theme)
        c.previewMode = .kitty
        c.cellGeometry = CellGeometry(width: 8, height: 16, measured: true)
        let oval = OvalGeometry(FaceOval.standard, frameWidth: Self.frame.width, frameHeight: Self.frame.height)
        func picture(_ valid: Bool) throws -> PreviewPicture {
            try #require(Screens.render(.capture(CaptureViewState(image: Self.frame, oval: oval, phase: .positioning, isValid: valid)),
                                        context: c).picture)
        }
        let ok = try picture(true), no = try picture(false)
        #expect(ok.image.width == no.image.width && ok.image.height == no.image.height)
        var changedRows = Set<Int>()
        for i in stride(from: 0, to: ok.image.rgb.count, by: 3) where ok.image.rgb[i..<i + 3] != no.image.rgb[i..<i + 3] {
            changedRows.insert(i / 3 / ok.image.width)
        }
        #expect(!changedRows.isEmpty)
        #expect((changedRows.max() ?? .max) < ok.image.height / 3)
    }

    /// tmux(1) passthrough: `DCS tmux; … ST` with every ESC of the inner sequence doubled.
    @Test func tmuxPassthroughDoublesEscapes() {
        let inner = Array("\u{1B}_Ga=d,d=I,i=1,q=2\u{1B}\\".utf8)
        let wrapped = String(decoding: TmuxPassthrough.wrap(inner), as: UTF8.self)
        #expect(wrapped == "\u{1B}Ptmux;\u{1B}\u{1B}_Ga=d,d=I,i=1,q=2\u{1B}\u{1B}\\\u{1B}\\")
    }

    @Test func modeChoiceFollowsProbeEnvironmentAndCapabilities() {
        let sixel = TerminalProbeResult(da1Attributes: [63, 4])
        #expect(PreviewModeChoice.auto.resolve(probe: sixel, environment: [:], colorMode: .direct, glyphs: .unicode) == .sixel)
        #expect(PreviewModeChoice.auto.resolve(probe: .none, environment: [:], colorMode: .palette256, glyphs: .unicode) == .symbols)
        #expect(PreviewModeChoice.auto.resolve(probe: .none, environment: [:], colorMode: .none, glyphs: .unicode) == .halfBlocks)
        #expect(PreviewModeChoice.auto.resolve(probe: sixel, environment: [:], colorMode: .none, glyphs: .unicode) == .halfBlocks)
        #expect(PreviewModeChoice.auto.resolve(probe: sixel, environment: [:], colorMode: .direct, glyphs: .asciiOnly) == .sixel)
        // The Linux console and VTs: a console font has half blocks, no sextants (auto keeps half blocks).
        #expect(PreviewModeChoice.auto.resolve(probe: .none, environment: ["TERM": "linux"], colorMode: .palette256, glyphs: .unicode) == .halfBlocks)
        #expect(PreviewModeChoice.auto.resolve(probe: .none, environment: ["TERM": "vt220"], colorMode: .ansi16, glyphs: .unicode) == .halfBlocks)
        #expect(PreviewModeChoice.auto.resolve(probe: .none, environment: ["TERM": "xterm-256color"], colorMode: .palette256, glyphs: .unicode) == .symbols)
        #expect(PreviewModeChoice.symbols.resolve(probe: .none, environment: [:], colorMode: .direct, glyphs: .asciiOnly) == .halfBlocks)
        #expect(PreviewModeChoice.kitty.resolve(probe: .none, environment: [:], colorMode: .direct, glyphs: .unicode) == .kitty)
        #expect(PreviewModeChoice.halfblocks.resolve(probe: sixel, environment: [:], colorMode: .direct, glyphs: .unicode) == .halfBlocks)
    }

    @Test func cellGeometryKeepsTheFaceProportions() {
        // A 1:3 font gets 3/2 the grid rows of a 2:1 font (IMG-03); the default is 2:1.
        #expect(CellGeometry.fallback.symbolGrid(cols: 10, rows: 10) == (20, 40))
        #expect(CellGeometry(width: 6, height: 18, measured: true).symbolGrid(cols: 10, rows: 10) == (20, 60))
        #expect(CellGeometry.from(winsizePixels: (0, 0), cols: 80, rows: 24, probe: .none) == .fallback)
        // Pictures never exceed 640 × 480 pixels' worth, and keep the cell's shape.
        let p = CellGeometry(width: 10, height: 20, measured: true).pictureSize(cols: 200, rows: 60)
        #expect(p.width * p.height <= 640 * 480 && p.cellWidth * 2 == p.cellHeight)
        let small = CellGeometry(width: 8, height: 16, measured: true).pictureSize(cols: 40, rows: 15)
        #expect(small.width == 320 && small.height == 240)
        // The preview rectangle keeps 4:3 with the measured aspect.
        let area = CellRect(x: 0, y: 0, width: 100, height: 20)
        #expect(PreviewRenderer.previewRect(in: area, cellAspect: 2).width == 53)
        #expect(PreviewRenderer.previewRect(in: area, cellAspect: 2.5).width == 67)
    }

    /// New-user trial: sixel in the side-by-side layout (100×30, 120×40) was sheared and grey,
    /// and the texts beside it scrolled away. In every layout and measured cell size the picture
    /// stays inside its rectangle (the sixel stream's raster attributes `"Pan;Pad;Ph;Pv` within
    /// rect × cell), keeps off the screen's last row (a sixel there scrolls the screen), and
    /// decodes to itself (no shear: libchafa read RGB rows whose stride was not a multiple of 4
    /// wrongly, e.g. 61 cells × 6 px = 366). Issue #27: it fills its rectangle, ≥ 95 % of
    /// rect × cell pixels (it was capped at 640 × 480 px: in `xterm -ti vt340 -geometry 160x50`
    /// about 60 % of the preview stayed black).
    @Test func sixelPictureFillsAndStaysInItsRectangleInEveryLayout() throws {
        let decode = FileManager.default.isExecutableFile(atPath: "/usr/bin/sixel2png") && FileManager.default.isExecutableFile(atPath: "/usr/bin/convert")
        if !decode { print("sixel2png or convert missing: decode skipped") }
        let dir = try TestSupport.tempTree(["README": "sixel layouts"])
        for (cols, rows) in [(100, 30), (120, 40), (80, 24), (160, 50)] {
            for cell in [CellGeometry(width: 6, height: 13, measured: true), CellGeometry(width: 9, height: 18, measured: true)] {
                var c = RenderContext(size: Size(cols: cols, rows: rows), strings: StubStrings(locale: "en"), theme: .dark)
                c.previewMode = .sixel
                c.cellGeometry = cell
                let view = ScreenView.capture(CaptureViewState(image: Self.frame, phase: .positioning, isValid: false))
                let pic = try #require(Screens.render(view, context: c).picture)
                let at = "\(cols)×\(rows) cell \(cell.width)×\(cell.height) rect \(pic.rect)"
                let maxW = pic.rect.width * cell.width, maxH = pic.rect.height * cell.height
                #expect(pic.rect.x >= 0 && pic.rect.y >= 0 && pic.rect.maxX <= cols, "\(at)")
                #expect(pic.rect.maxY < rows, "a sixel on the last row scrolls the screen: \(at)")
                // Composed at most 640 × 480 (bytes and time), encoded at the terminal's cells.
                #expect(pic.image.width <= maxW && pic.image.height <= maxH && pic.image.width * pic.image.height <= 640 * 480, "\(at)")
                #expect(pic.cellWidth == cell.width && pic.cellHeight == cell.height, "\(at)")
                let stream = ChafaPreview.encode(pic, mode: .sixel)
                let text = String(decoding: stream.prefix(64), as: UTF8.self)
                let raster = try #require(text.split(separator: "\"").dropFirst().first?.prefix { $0 != "#" }
                    .split(separator: ";").compactMap { Int($0) }, "\(at)")
                #expect(raster.count == 4, "\(at): \(text.debugDescription)")
                guard raster.count == 4 else { continue }
                #expect(raster[2] > 0 && raster[2] <= maxW && raster[3] > 0 && raster[3] <= maxH, "\(at): raster \(raster)")
                let fill = Double(raster[2] * raster[3]) / Double(maxW * maxH)
                print("sixel \(at): \(raster[2])×\(raster[3]) of \(maxW)×\(maxH), \(Int(fill * 100)) %")
                #expect(fill >= 0.95, "\(at): fills \(fill)")
                guard decode else { continue }
                let six = dir + "/p.six", png = dir + "/p.png", ppm = dir + "/p.ppm"
                try Data(stream).write(to: URL(fileURLWithPath: six))
                #expect(try ChildProcess.run("/usr/bin/sixel2png", ["-i", six, "-o", png], timeout: 20).code == 0)
                // Scaled back to the composed size (ImageMagick) to compare: no shear.
                #expect(try ChildProcess.run("/usr/bin/convert", [png, "-crop", "\(raster[2])x\(raster[3])+0+0", "+repage",
                                                                  "-resize", "\(pic.image.width)x\(pic.image.height)!", "-depth", "8", "ppm:" + ppm],
                                             timeout: 20).code == 0)
                let decoded = try #require(PreviewImage(ppm: ppm))
                #expect(decoded.width == pic.image.width && decoded.height == pic.image.height, "\(at)")
                if decoded.width == pic.image.width && decoded.height == pic.image.height {
                    let s = PreviewFidelity.ssim(pic.image, decoded)
                    #expect(s >= 0.85, "\(at): SSIM \(s) (sheared?)")
                }
            }
        }
    }
}

extension PreviewImage {
    /// A screenshot or decoded picture read with `TestSupport.PPM`.
    init?(ppm path: String) {
        guard let p = PPM.read(path) else { return nil }
        self.init(width: p.width, height: p.height, rgb: p.rgb)
    }
}
