// `bench-ui --preview [FRAME.ppm]`: the preview modes (issue #13) at 80×24 and 200×60 on one
// core: render ms per frame (compose + cells or escape stream), bytes per frame, and fidelity
// (SSIM of what the terminal would show against the source frame), with the `chafa` CLI on the
// same frame, in the same run, as the anchor.
import Foundation
import Glibc
import TerminalUI

enum PreviewBench {
    /// A terminal's cell in pixels for the fidelity figures (xterm's 8×16-ish fonts).
    static let cell = CellGeometry(width: 8, height: 16, measured: true)

    static func run(_ args: [String]) {
        let frame = args.first.flatMap(readPPM) ?? cameraFrame(0)
        print("preview bench: frame \(frame.width)×\(frame.height)\(args.first.map { " (\($0))" } ?? " (synthetic)"), cells \(cell.width)×\(cell.height) px, one core")
        print(pad("mode", 16) + pad("size", 9) + lpad("ms/frame", 10) + lpad("fps", 9) + lpad("bytes/frame", 13) + lpad("SSIM", 8)
              + lpad("CPU ms", 9))
        for (cols, rows) in [(80, 24), (200, 60)] {
            let rect = PreviewRenderer.previewRect(in: CellRect(x: 0, y: 0, width: cols, height: rows - 6))
            let reference = compose(frame, w: rect.width * cell.width, h: rect.height * cell.height, oval: false)
            for mode in [PreviewMode.halfBlocks, .symbols, .sixel, .kitty, .iterm] {
                let r = measure(mode, frame: frame, rect: rect, reference: reference)
                row(mode.rawValue, cols, rows, r.ms, r.bytes, r.ssim, cpu: r.cpu)
            }
            if let a = chafaAnchor(frame: frame, rect: rect, reference: reference) {
                row("chafa-CLI sym", cols, rows, a.symbols.ms, a.symbols.bytes, a.symbols.ssim, cpu: a.symbols.cpu)
                row("chafa-CLI sixel", cols, rows, a.sixel.ms, a.sixel.bytes, nil)
            } else {
                print("chafa CLI not found: no anchor")
            }
        }
    }

    /// One row; `cpu` is CPU time per frame (user + system, every thread, ms): what a loaded
    /// machine inflates less than wall time (the chafa CLI's includes its process start).
    static func row(_ name: String, _ cols: Int, _ rows: Int, _ ms: Double, _ bytes: Int, _ ssim: Double?, cpu: Double? = nil) {
        print(pad(name, 16) + pad("\(cols)x\(rows)", 9) + lpad(String(format: "%.2f", ms), 10)
              + lpad(String(format: "%.1f", 1000 / max(ms, 0.001)), 9) + lpad("\(bytes)", 13) + lpad(ssim.map { String(format: "%.3f", $0) } ?? "–", 8)
              + lpad(cpu.map { String(format: "%.2f", $0) } ?? "–", 9))
    }

    static func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s + " " : s + String(repeating: " ", count: n - s.count) }
    static func lpad(_ s: String, _ n: Int) -> String { s.count >= n ? " " + s : String(repeating: " ", count: n - s.count) + s
    }

    static let renderer = PreviewRenderer(scaleType: .fill, mirrored: false, oval: .standard, outline: RGB(0x4F, 0xC3, 0xF7),
                                          overlay: RGB(0, 0, 0))

    static func compose(_ frame: PreviewImage, w: Int, h: Int, oval: Bool = true) -> PreviewImage {
        var r = renderer; r.showsOval = oval
        let (grid, _) = r.composite(frame, gridWidth: w, gridHeight: h, lineWidth: max(1, h / 100))!
        var px = [UInt8](repeating: 0, count: w * h * 3)
        for i in 0..<(w * h) { px[3 * i] = grid[i].r; px[3 * i + 1] = grid[i].g; px[3 * i + 2] = grid[i].b }
        return PreviewImage(width: w, height: h, rgb: px)
    }

    static func now() -> Double {
        var ts = timespec(); clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) * 1000 + Double(ts.tv_nsec) / 1e6
    }

    /// CPU time (ms) of this process, every thread (`children`: of its waited-for children).
    static func cpuNow(children: Bool = false) -> Double {
        var ru = rusage(); getrusage(children ? RUSAGE_CHILDREN.rawValue : RUSAGE_SELF.rawValue, &ru)
        let user: Double = Double(ru.ru_utime.tv_sec) * 1000 + Double(ru.ru_utime.tv_usec) / 1000
        let system: Double = Double(ru.ru_stime.tv_sec) * 1000 + Double(ru.ru_stime.tv_usec) / 1000
        return user + system
    }

    /// Renders `n` frames (the source with a changing noise pixel, so nothing is cached) in
    /// `mode`; fidelity is measured without the oval (the image alone against the source).
    /// The app's symbol renderer: libchafa's canvas (`ChafaPreview.symbols`).
    static let appSymbols: PreviewSymbolRenderer = ChafaPreview.symbols

    static func measure(_ mode: PreviewMode, frame: PreviewImage, rect: CellRect, reference: PreviewImage,
                        symbols: PreviewSymbolRenderer = appSymbols) -> (ms: Double, bytes: Int, ssim: Double?, cpu: Double) {
        let n = rect.width > 100 ? 8 : 24
        var bytes = 0
        var shown: PreviewImage?
        let t0 = now(), c0 = cpuNow()
        var rasterMs = 0.0
        for k in 0..<n {
            var f = frame
            f.rgb[(k * 31) % f.rgb.count] &+= 1
            switch mode {
            case .halfBlocks, .symbols:
                var canvas = Canvas(width: rect.width, height: rect.height)
                var r = renderer; r.showsOval = k < n - 1
                let local = CellRect(x: 0, y: 0, width: rect.width, height: rect.height)
                if mode == .halfBlocks {
                    r.render(f, into: local, canvas: &canvas, mode: .direct, glyphs: .unicode)
                } else {
                    let g = cell.symbolGrid(cols: rect.width, rows: rect.height)
                    let (grid, _) = r.composite(f, gridWidth: g.width, gridHeight: g.height)!
                    var px = [UInt8](repeating: 0, count: g.width * g.height * 3)
                    for i in 0..<grid.count { px[3 * i] = grid[i].r; px[3 * i + 1] = grid[i].g; px[3 * i + 2] = grid[i].b }
                    let cells = symbols(PreviewImage(width: g.width, height: g.height, rgb: px), rect.width, rect.height, .direct)!
                    for (i, cell) in cells.enumerated() { canvas.set(i % rect.width, i / rect.width, cell.text ?? " ", cell.style) }
                }
                bytes = sgrBytes(canvas)
                if k == n - 1 {
                    let r0 = cpuNow()
                    shown = PreviewFidelity.rasterize(canvas.cells, cols: rect.width, rows: rect.height, cellWidth: cell.width, cellHeight: cell.height)
                    rasterMs = cpuNow() - r0
                }
            case .sixel, .kitty, .iterm:
                let p = cell.pictureSize(cols: rect.width, rows: rect.height)
                let pic = compose(f, w: p.width, h: p.height, oval: k < n - 1)
                let picture = PreviewPicture(rect: rect, image: pic, cellWidth: p.cellWidth, cellHeight: p.cellHeight)
                let stream = mode == .kitty ? KittyGraphics.transmit(pic, cols: rect.width, rows: rect.height) : ChafaPreview.encode(picture, mode: mode)
                bytes = stream.count
                if k == n - 1 {
                    // kitty and iTerm2 carry the picture losslessly; sixel is decoded by sixel2png.
                    shown = mode == .sixel ? decodeSixel(stream) : pic
                }
            }
        }
        let ms = (now() - t0) / Double(n), cpu = (cpuNow() - c0 - rasterMs) / Double(n)
        return (ms, bytes, shown.map { PreviewFidelity.ssim(reference, $0) }, cpu)
    }

    /// Bytes of a full repaint of `canvas` in truecolor SGR (`38;2`/`48;2` only where the
    /// colour changes, the glyph in UTF-8): what a cell mode costs when every cell changes.
    static func sgrBytes(_ canvas: Canvas) -> Int {
        var n = 0
        var fg: Color?, bg: Color?
        for y in 0..<canvas.height {
            n += 8   // cursor position
            for x in 0..<canvas.width {
                let c = canvas[x, y]
                if c.style.fg != fg { fg = c.style.fg; n += 19 }
                if c.style.bg != bg { bg = c.style.bg; n += 19 }
                n += String(c.text ?? " ").utf8.count
            }
        }
        return n
    }

    static func decodeSixel(_ stream: [UInt8]) -> PreviewImage? {
        let dir = NSTemporaryDirectory() + "preview-bench-\(getpid())"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        _ = FileManager.default.createFile(atPath: dir + "/f.six", contents: Data(stream))
        guard shell("sixel2png -i \(dir)/f.six -o \(dir)/f.png && convert \(dir)/f.png -depth 8 ppm:\(dir)/f.ppm") == 0 else { return nil }
        return readPPM(dir + "/f.ppm")
    }

    /// The `chafa` CLI on the same frame at the preview's cell size: symbols (truecolor, the
    /// same symbol classes) parsed back into cells for SSIM, and sixel; ms per run includes
    /// process start and reading the PNG (what a shell pipeline would pay).
    static func chafaAnchor(frame: PreviewImage, rect: CellRect, reference: PreviewImage)
        -> (symbols: (ms: Double, bytes: Int, ssim: Double?, cpu: Double), sixel: (ms: Double, bytes: Int))? {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/chafa") else { return nil }
        let dir = NSTemporaryDirectory() + "preview-bench-chafa-\(getpid())"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // The frame cropped to the preview's shape (fill), as the preview shows it.
        let ref = compose(frame, w: rect.width * cell.width, h: rect.height * cell.height, oval: false)
        writePPM(ref, dir + "/f.ppm")
        guard shell("convert \(dir)/f.ppm \(dir)/f.png") == 0 else { return nil }
        let size = "\(rect.width)x\(rect.height)"
        let symCmd = "chafa -f symbols -c full --symbols sextant+quad+half+block+space+solid --animate off --polite on --stretch -s \(size) \(dir)/f.png > \(dir)/sym.txt"
        let sixCmd = "chafa -f sixels --animate off --stretch -s \(size) \(dir)/f.png > \(dir)/f.six"
        var t0 = now()
        let runs = 5, c0 = cpuNow(children: true)
        for _ in 0..<runs { _ = shell(symCmd) }
        let symMs = (now() - t0) / Double(runs), symCpu = (cpuNow(children: true) - c0) / Double(runs)
        t0 = now()
        for _ in 0..<runs { _ = shell(sixCmd) }
        let sixMs = (now() - t0) / Double(runs)
        let symBytes = (try? Data(contentsOf: URL(fileURLWithPath: dir + "/sym.txt"))) ?? Data()
        let sixBytes = (try? Data(contentsOf: URL(fileURLWithPath: dir + "/f.six")))?.count ?? 0
        let cells = parseSGR(Array(symBytes), cols: rect.width, rows: rect.height)
        let ssim = cells.map { PreviewFidelity.ssim(reference, PreviewFidelity.rasterize($0, cols: rect.width, rows: rect.height,
                                                                                           cellWidth: cell.width, cellHeight: cell.height)) }
        return ((symMs, symBytes.count, ssim, symCpu), (sixMs, sixBytes))
    }

    /// Cells from chafa's symbol output: SGR 38;2/48;2 (and 0, 7), glyphs, newlines.
    static func parseSGR(_ b: [UInt8], cols: Int, rows: Int) -> [Cell]? {
        var cells: [Cell] = []
        var fg = Color.terminalDefault, bg = Color.terminalDefault, inverse = false
        let text = String(decoding: b, as: UTF8.self)
        var it = text.unicodeScalars.makeIterator()
        var rowCells: [Cell] = []
        while let s = it.next() {
            if s == "\u{1B}" {
                guard let open = it.next() else { break }
                var params = ""
                var final: Unicode.Scalar = " "
                if open == "[" {
                    while let c = it.next() { if (0x40...0x7E).contains(c.value) { final = c; break }; params.unicodeScalars.append(c) }
                }
                guard final == "m" else { continue }
                let p = params.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }
                var i = 0
                while i < p.count {
                    switch p[i] {
                    case 0: fg = .terminalDefault; bg = .terminalDefault; inverse = false
                    case 7: inverse = true
                    case 27: inverse = false
                    case 39: fg = .terminalDefault
                    case 49: bg = .terminalDefault
                    case 38 where i + 4 < p.count && p[i + 1] == 2:
                        fg = .rgb(RGB(UInt8(clamping: p[i + 2]), UInt8(clamping: p[i + 3]), UInt8(clamping: p[i + 4]))); i += 4
                    case 48 where i + 4 < p.count && p[i + 1] == 2:
                        bg = .rgb(RGB(UInt8(clamping: p[i + 2]), UInt8(clamping: p[i + 3]), UInt8(clamping: p[i + 4]))); i += 4
                    default: break
                    }
                    i += 1
                }
            } else if s == "\n" {
                if !rowCells.isEmpty { cells += rowCells.prefix(cols); rowCells = [] }
            } else if s.value >= 0x20 {
                rowCells.append(Cell(Character(s), style: inverse ? Style(fg: bg, bg: fg) : Style(fg: fg, bg: bg)))
            }
        }
        if !rowCells.isEmpty { cells += rowCells.prefix(cols) }
        return cells.count == cols * rows ? cells : nil
    }

    @discardableResult
    static func shell(_ cmd: String) -> Int32 {
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/sh"), strdup("-c"), strdup(cmd + " 2>/dev/null"), nil]
        defer { for a in argv { free(a) } }
        guard posix_spawn(&pid, "/bin/sh", nil, nil, argv, environ) == 0 else { return -1 }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        return (status >> 8) & 0xFF
    }

    static func readPPM(_ path: String) -> PreviewImage? {
        var p = path
        if !path.hasSuffix(".ppm") {
            p = NSTemporaryDirectory() + "preview-bench-src-\(getpid()).ppm"
            guard shell("convert '\(path)' -resize '640x480!' -depth 8 ppm:\(p)") == 0 else { return nil }
        }
        guard let d = FileManager.default.contents(atPath: p) else { return nil }
        let bytes = [UInt8](d)
        var fields: [String] = [], i = 0, cur = ""
        while fields.count < 4 && i < bytes.count {
            let b = bytes[i]; i += 1
            if b == 32 || b == 10 || b == 13 || b == 9 { if !cur.isEmpty { fields.append(cur); cur = "" } } else { cur.append(Character(Unicode.Scalar(b))) }
        }
        guard fields.count == 4, fields[0] == "P6", let w = Int(fields[1]), let h = Int(fields[2]), bytes.count - i >= w * h * 3 else { return nil }
        return PreviewImage(width: w, height: h, rgb: Array(bytes[i..<(i + w * h * 3)]))
    }

    static func writePPM(_ img: PreviewImage, _ path: String) {
        var d = Data("P6\n\(img.width) \(img.height)\n255\n".utf8)
        d.append(contentsOf: img.rgb)
        _ = FileManager.default.createFile(atPath: path, contents: d)
    }
}
