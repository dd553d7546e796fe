import CChafa
import SharedLibraries
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// libchafa or glib could not be loaded (`ChafaLibrary.load`): the library (soname or path) and
/// the dynamic loader's message.
public struct ChafaLibraryError: Error, Equatable, CustomStringConvertible {
    public var library: String
    public var reason: String
    public init(library: String, reason: String) { self.library = library; self.reason = reason }
    public var description: String {
        "libchafa unavailable: cannot load \(library) (\(reason)); symbols, sixel and iTerm2 previews need libchafa0 (apt install libchafa0)"
    }
}

/// libchafa and glib, loaded on first use (issue #28): the binary does not link them, since the
/// loading and instructions screens draw no picture. `load()` dlopens `libglib-2.0.so.0` and
/// `libchafa.so.0` (libchafa 1.12's soname) and resolves every function `CChafa` calls; the
/// first canvas (`ChafaPreview.symbols`, `ChafaPreview.encode`) loads them too.
public enum ChafaLibrary {
    /// The sonames loaded, in order (glib first: libchafa needs it).
    public static var defaultNames: [String] {
        (0..<Int(CCHAFA_LIBRARY_COUNT)).map { cchafa_default_library(Int32($0)).map { String(cString: $0) } ?? "?" }
    }

    /// True once the default libraries are loaded (does not load them).
    public static var isLoaded: Bool { cchafa_loaded() != 0 }

    /// Loads libchafa (once per process; later calls return at once).
    /// - Throws: `ChafaLibraryError` naming the library that could not be opened or lacks a
    ///   function, with the dynamic loader's message.
    public static func load() throws { try load(names: nil) }

    /// Opens `names` (sonames or paths, in `defaultNames`' order) and checks that they hold every
    /// function the shim calls, without keeping them; nil: `load()`. For tests of a missing
    /// library.
    /// - Throws: `ChafaLibraryError`.
    public static func load(names: [String]?) throws {
        if let names {
            precondition(names.count == Int(CCHAFA_LIBRARY_COUNT), "ChafaLibrary.load: \(CCHAFA_LIBRARY_COUNT) names")
        }
        if let failure = SharedLibraries.open(names, defaults: defaultNames, fallback: "libchafa", loader: cchafa_load) {
            throw ChafaLibraryError(library: failure.library, reason: failure.reason)
        }
    }
}

/// libchafa (Debian libchafa-dev 1.12) for the preview: symbol art read back into cells, and
/// pixel pictures (sixel, kitty, iTerm2) as escape streams. The only Swift file that calls
/// libchafa; the decisions and geometry are in PreviewModes.swift.
public enum ChafaPreview {
    /// Symbols used in `symbols` mode: sextants (2×3 per cell, Unicode 13 "Symbols for Legacy
    /// Computing"), quadrants, half blocks, the other block elements, space and full block.
    public static var symbolTags: UInt32 {
        cchafa_tag_sextant() | cchafa_tag_quad() | cchafa_tag_half() | cchafa_tag_block() | cchafa_tag_space() | cchafa_tag_solid()
    }

    /// chafa's work factor for symbols (0...1; libchafa 1.12 tries `Int(10 · factor + 0.5)`
    /// candidate symbols per cell, at least 1, picked from the cell's two-colour bitmap): 0.1,
    /// one candidate. 0.3 (three) measured the same SSIM as 1.0 (0.967 at 80×24) in a quarter of
    /// the time (make bench, 2026-12-01); 0.1 costs 0.001 of SSIM at 200×60 (0.986 → 0.985, the
    /// chafa CLI 0.988: within issue #28's 0.01) for ~12 % less of chafa's CPU (DECISIONS
    /// 2026-12-02, "Symbols at 200×60").
    static let symbolWorkFactor: Float = 0.1
    /// chafa's work factor for the pixel modes (sixel, kitty, iTerm2): 0.3, as before issue #28.
    static let pixelWorkFactor: Float = 0.3

    /// chafa's canvas mode for a colour mode: truecolor; 240 indexed colours for 256 (the 16
    /// ANSI ones vary by theme; chafa's own CLI does the same); 16.
    static func canvasMode(_ m: ColorMode) -> Int32 {
        switch m {
        case .direct: return 0
        case .palette256: return 2
        case .ansi16: return 3
        case .none: return 4
        }
    }

    /// One canvas kept between frames per configuration (creating one builds chafa's symbol
    /// tables). Guarded by a lock: screens may render on any thread.
    final class Cache: @unchecked Sendable {
        struct Key: Hashable { var pixelMode: Int32, canvasMode: Int32, cols: Int32, rows: Int32, cw: Int32, ch: Int32 }
        let lock = NSLock()
        var key: Key?
        var canvas: OpaquePointer?
        /// The last picture at chafa's working size (`cellBlocks`), reused between frames.
        var blocks: [UInt8] = []
        deinit { if let canvas { cchafa_canvas_free(canvas) } }

        func with<T>(_ k: Key, _ body: (OpaquePointer, inout [UInt8]) -> T) -> T? {
            lock.lock(); defer { lock.unlock() }
            if key != k {
                if let canvas { cchafa_canvas_free(canvas) }
                // Dithering only where colours are few.
                let dither: Int32 = k.canvasMode == 0 ? 0 : 1
                canvas = cchafa_canvas_new(k.pixelMode, k.canvasMode, k.cols, k.rows, k.cw, k.ch,
                                           k.pixelMode == 0 ? ChafaPreview.symbolTags : 0, dither,
                                           k.pixelMode == 0 ? ChafaPreview.symbolWorkFactor : ChafaPreview.pixelWorkFactor)
                key = canvas == nil ? nil : k
            }
            guard let canvas else { return nil }
            return body(canvas, &blocks)
        }
    }
    static let symbolCache = Cache()
    static let pixelCache = Cache()

    /// `PreviewSymbolRenderer` through libchafa: the picture drawn into a `cols × rows` symbol
    /// canvas, each cell's character and colours read back (chafa packed RGB; -1, a transparent
    /// colour, becomes the terminal default).
    public static let symbols: PreviewSymbolRenderer = { picture, cols, rows, mode in
        symbolCells(picture, cols: cols, rows: rows, mode: mode)
    }

    /// Whether libchafa 1.12's direct RGBA8 pass gives the cells its RGB8 path gives in colour
    /// `mode`: yes for truecolor and 240/256 colours. Not for 16 colours (or none): there chafa
    /// normalises by a histogram that its nearest pass leaves uninitialised (fixed upstream in
    /// chafa 1.16, commit 86e02fa "pixops: Fix uninitialized histogram in nearest-neighbor
    /// interp"; Debian 12 ships 1.12.4), so those modes keep the RGB8 path.
    static func rgbaSamplesAlike(_ mode: ColorMode) -> Bool { mode == .direct || mode == .palette256 }

    /// `symbols`' work. `blocksAsRGBA` false draws the cell blocks as RGB8 through libchafa's
    /// smooth scaler, as before issue #28's RGBA8 pass: the oracle `ChafaPreviewTests` compares
    /// the RGBA8 cells with.
    static func symbolCells(_ picture: PreviewImage, cols: Int, rows: Int, mode: ColorMode,
                            blocksAsRGBA: Bool = true) -> [Cell]? {
        guard cols > 0, rows > 0, picture.width > 0, picture.height > 0,
              picture.rgb.count >= picture.width * picture.height * 3 else { return nil }
        let key = Cache.Key(pixelMode: 0, canvasMode: canvasMode(mode), cols: Int32(cols), rows: Int32(rows), cw: 8, ch: 16)
        return symbolCache.with(key) { canvas, blocks -> [Cell] in
            let rgba = blocksAsRGBA && rgbaSamplesAlike(mode)
            if cellBlocks(picture, cols: cols, rows: rows, channels: rgba ? 4 : 3, into: &blocks) {
                blocks.withUnsafeBufferPointer {
                    if rgba {
                        cchafa_canvas_draw_rgba(canvas, $0.baseAddress, Int32(cols * 8), Int32(rows * 8), Int32(cols * 8 * 4))
                    } else {
                        cchafa_canvas_draw_rgb(canvas, $0.baseAddress, Int32(cols * 8), Int32(rows * 8), Int32(cols * 8 * 3))
                    }
                }
            } else {
                picture.rgb.withUnsafeBufferPointer {
                    cchafa_canvas_draw_rgb(canvas, $0.baseAddress, Int32(picture.width), Int32(picture.height), Int32(picture.width * 3))
                }
            }
            var cells = [Cell]()
            cells.reserveCapacity(cols * rows)
            var fg: Int32 = 0, bg: Int32 = 0
            for y in 0..<rows {
                for x in 0..<cols {
                    let ch = cchafa_canvas_char_at(canvas, Int32(x), Int32(y))
                    cchafa_canvas_colors_at(canvas, Int32(x), Int32(y), &fg, &bg)
                    let c = Unicode.Scalar(ch).map(Character.init) ?? " "
                    cells.append(Cell(c, style: Style(fg: color(fg), bg: color(bg))))
                }
            }
            return cells
        }
    }

    /// `picture` at libchafa's working size for a `cols × rows` symbol canvas (8 × 8 pixels per
    /// cell, `CHAFA_SYMBOL_WIDTH_PIXELS`/`HEIGHT_PIXELS`), each picture pixel repeated as a
    /// block, written to `out` as RGB8 (`channels` 3) or opaque RGBA8 (4, alpha 255); false (nothing written) when the
    /// picture does not divide that size exactly. Why: chafa resamples whatever it gets to 8 × 8
    /// per cell, smoothing a small grid into gradients it then sorts per cell
    /// (`chafa_work_cell_get_contrasting_color_pair`); exact blocks skip the resampling and are
    /// cheaper to sort (issue #28: 200×60 at `CellGeometry.symbolGrid`'s 2 px per cell, 0.7× the
    /// time of the picture given as is). RGBA8 at the symbol work factor (< 0.25) lets libchafa
    /// 1.12 copy the pixels (its "nearest" pass) instead of running its smooth scaler at 1:1,
    /// which gives the same pixels where `rgbaSamplesAlike` (`ChafaPreviewTests` checks the
    /// cells are the same) for 5–20 % less CPU per symbols frame at 200×60 (bench-ui --preview,
    /// interleaved A/B on a loaded machine: least of 6, 34.7 → 27.5 ms; median of 5, 46.9 →
    /// 43.2 ms); at 80×24 within the noise (DECISIONS 2026-12-02).
    static func cellBlocks(_ picture: PreviewImage, cols: Int, rows: Int, channels: Int = 4, into out: inout [UInt8]) -> Bool {
        let n = channels == 3 ? 3 : 4
        let w = cols * 8, h = rows * 8
        guard picture.width > 0, picture.height > 0, w % picture.width == 0, h % picture.height == 0,
              picture.rgb.count >= picture.width * picture.height * 3 else { return false }
        let fx = w / picture.width, fy = h / picture.height, rowBytes = w * n
        if out.count != w * h * n { out = [UInt8](repeating: 255, count: w * h * n) }
        out.withUnsafeMutableBufferPointer { o in
            picture.rgb.withUnsafeBufferPointer { s in
                guard let ob = o.baseAddress, let sb = s.baseAddress else { return }
                for y in 0..<picture.height {
                    let row = ob + y * fy * rowBytes
                    var d = row, p = sb + y * picture.width * 3
                    for _ in 0..<picture.width {
                        let r = p[0], g = p[1], b = p[2]
                        if n == 4 {
                            for _ in 0..<fx { d[0] = r; d[1] = g; d[2] = b; d[3] = 255; d += 4 }
                        } else {
                            for _ in 0..<fx { d[0] = r; d[1] = g; d[2] = b; d += 3 }
                        }
                        p += 3
                    }
                    for k in 1..<max(fy, 1) { (row + k * rowBytes).update(from: row, count: rowBytes) }
                }
            }
        }
        return true
    }

    static func color(_ packed: Int32) -> Color {
        guard packed >= 0 else { return .terminalDefault }
        return .rgb(RGB(UInt8((packed >> 16) & 0xFF), UInt8((packed >> 8) & 0xFF), UInt8(packed & 0xFF)))
    }

    /// `picture`'s RGB rows padded to a 4-byte-aligned stride (libchafa 1.12's pixel encoders
    /// read packed RGB8 rows as if their stride were a multiple of 4: a width ≡ 2 (mod 4), e.g.
    /// 61 cells × 6 px = 366, came out sheared diagonally and grey). Unchanged when aligned.
    static func alignedRows(_ img: PreviewImage) -> (pixels: [UInt8], stride: Int) {
        let packed = img.width * 3, stride = (packed + 3) & ~3
        guard stride != packed else { return (img.rgb, packed) }
        var out = [UInt8](repeating: 0, count: stride * img.height)
        for y in 0..<img.height {
            out.replaceSubrange(y * stride..<y * stride + packed, with: img.rgb[y * packed..<(y + 1) * packed])
        }
        return (out, stride)
    }

    /// The escape stream that draws `picture` in `mode` (sixel, kitty or iterm) from the cursor
    /// position, as libchafa prints it (kitty: direct transmission `t=d`, base64 RGB in chunks;
    /// sixel: 256 colour registers; iTerm2: an inline TIFF). Empty for cell modes or on failure.
    public static func encode(_ picture: PreviewPicture, mode: PreviewMode) -> [UInt8] {
        let pm: Int32
        switch mode {
        case .sixel: pm = 1
        case .kitty: pm = 2
        case .iterm: pm = 3
        case .halfBlocks, .symbols: return []
        }
        let img = picture.image
        guard img.width > 0, img.height > 0, img.rgb.count >= img.width * img.height * 3 else { return [] }
        let key = Cache.Key(pixelMode: pm, canvasMode: 0, cols: Int32(picture.rect.width), rows: Int32(picture.rect.height),
                            cw: Int32(picture.cellWidth), ch: Int32(picture.cellHeight))
        return pixelCache.with(key) { canvas, _ -> [UInt8] in
            let (pixels, stride) = alignedRows(img)
            pixels.withUnsafeBufferPointer {
                cchafa_canvas_draw_rgb(canvas, $0.baseAddress, Int32(img.width), Int32(img.height), Int32(stride))
            }
            var n = 0
            guard let p = cchafa_canvas_print(canvas, &n) else { return [] }
            defer { free(p) }
            return p.withMemoryRebound(to: UInt8.self, capacity: n) { Array(UnsafeBufferPointer(start: $0, count: n)) }
        } ?? []
    }
}
