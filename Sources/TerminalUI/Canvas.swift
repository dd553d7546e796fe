import Localization
// The cell grid every screen draws into. Backends turn it into terminal output; tests compare it
// as text plus a style layer (DESIGN.md "Screens").

/// A 24-bit colour.
public struct RGB: Hashable, Sendable, CustomStringConvertible {
    public var r: UInt8, g: UInt8, b: UInt8
    public init(_ r: UInt8, _ g: UInt8, _ b: UInt8) { self.r = r; self.g = g; self.b = b }
    /// Parses `#RRGGBB` (or `RRGGBB`); nil otherwise.
    public init?(hex: String) {
        let s = hex.hasPrefix("#") ? String(hex.dropFirst()) : hex
        guard s.count == 6, let v = UInt32(s, radix: 16) else { return nil }
        self.init(UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF))
    }
    /// `#rrggbb`.
    public var description: String {
        let h = String((Int(r) << 16 | Int(g) << 8 | Int(b)) | 0x1000000, radix: 16)
        return "#" + h.dropFirst()
    }
    /// Rec. 601 luma 0...255.
    public var luma: Int { (299 * Int(r) + 587 * Int(g) + 114 * Int(b)) / 1000 }
    /// `self` mixed with `other`: `amount` 0 = self, 1 = other.
    public func blended(with other: RGB, amount: Double) -> RGB {
        func mix(_ a: UInt8, _ b: UInt8) -> UInt8 { UInt8(clamping: Int((Double(a) * (1 - amount) + Double(b) * amount).rounded())) }
        return RGB(mix(r, other.r), mix(g, other.g), mix(b, other.b))
    }
}

/// A cell colour: the terminal's own default, or an RGB value the backend quantises to what the
/// terminal supports.
public enum Color: Hashable, Sendable, CustomStringConvertible {
    case terminalDefault
    case rgb(RGB)
    public var description: String {
        switch self {
        case .terminalDefault: return "default"
        case .rgb(let c): return c.description
        }
    }
}

/// Text attributes.
public struct Attributes: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let bold = Attributes(rawValue: 1)
    public static let dim = Attributes(rawValue: 2)
    public static let underline = Attributes(rawValue: 4)
    public static let reverse = Attributes(rawValue: 8)
    public static let italic = Attributes(rawValue: 16)

    /// Names in a fixed order, e.g. `bold+underline`; empty for none.
    public var names: String {
        var n: [String] = []
        if contains(.bold) { n.append("bold") }
        if contains(.dim) { n.append("dim") }
        if contains(.underline) { n.append("underline") }
        if contains(.reverse) { n.append("reverse") }
        if contains(.italic) { n.append("italic") }
        return n.joined(separator: "+")
    }
}

/// Foreground, background and attributes of a cell.
public struct Style: Hashable, Sendable {
    public var fg: Color
    public var bg: Color
    public var attrs: Attributes
    public init(fg: Color = .terminalDefault, bg: Color = .terminalDefault, attrs: Attributes = []) {
        self.fg = fg; self.bg = bg; self.attrs = attrs
    }
    public static let plain = Style()
}

/// One terminal cell. A wide character occupies its cell and the next, which holds `""`
/// (a continuation cell that backends skip).
public struct Cell: Hashable, Sendable {
    public var text: Character?
    public var style: Style
    public init(_ text: Character? = " ", style: Style = .plain) { self.text = text; self.style = style }
    /// True for the right half of a wide character.
    public var isContinuation: Bool { text == nil }
}

/// Display width of characters in terminal cells, as terminals lay them out (bug reports TUI-10,
/// TUI-11): 2 for East_Asian_Width W and F (UAX #11) and for Emoji_Presentation characters
/// (UTS #51); 0 for combining marks, ZWJ/ZWNJ and variation selectors (General_Category Mn, Me,
/// Cf); 1 for everything else, including characters a libc `wcwidth` would call -1 (newer than
/// its tables), so column arithmetic never goes negative. The ranges are `UnicodeWidthTable`,
/// generated from the Unicode 15.0.0 data files by `scripts/gen-width-table.py`. Pure Swift,
/// so layout does not depend on the process locale.
public enum DisplayWidth {
    /// The Unicode version of the width table.
    public static var unicodeVersion: String { UnicodeWidthTable.unicodeVersion }

    /// Width of one scalar: 0, 1 or 2 (`UnicodeWidthTable`).
    public static func of(_ s: Unicode.Scalar) -> Int {
        let v = s.value
        if v < 0x300 { return 1 }
        if contains(UnicodeWidthTable.zero, v) { return 0 }
        return contains(UnicodeWidthTable.wide, v) ? 2 : 1
    }

    /// Binary search of sorted, disjoint closed ranges.
    static func contains(_ ranges: [(UInt32, UInt32)], _ v: UInt32) -> Bool {
        var lo = 0, hi = ranges.count - 1
        while lo <= hi {
            let mid = (lo + hi) / 2
            if v < ranges[mid].0 { hi = mid - 1 } else if v > ranges[mid].1 { lo = mid + 1 } else { return true }
        }
        return false
    }

    /// Width of a grapheme: the widest of its scalars (a base plus combining marks is 1).
    public static func of(_ c: Character) -> Int {
        var w = 0
        for s in c.unicodeScalars { w = max(w, of(s)) }
        return c.unicodeScalars.isEmpty ? 0 : max(w, c.unicodeScalars.count == 1 ? w : 1)
    }

    /// Width of a string in cells.
    public static func of(_ s: String) -> Int { s.reduce(0) { $0 + of($1) } }

    /// The longest prefix of `s` that fits in `width` cells; adds `…` when cut (if it fits).
    public static func truncate(_ s: String, to width: Int) -> String {
        guard width > 0 else { return "" }
        if of(s) <= width { return s }
        var out = "", used = 0
        for c in s {
            let w = of(c)
            if used + w > width - 1 { break }
            out.append(c); used += w
        }
        return out + "…"
    }

    /// `s` wrapped into lines of at most `width` cells at the line-break opportunities of UAX #14
    /// (`Localization.LineBreaks`, ICU's line-break iterator): between words, and between
    /// ideographs in Chinese and Japanese text without spaces. Spaces at a break are dropped;
    /// `\n` starts a new line. A piece with no opportunity inside that is wider than a line (a
    /// long path or URL) starts a line and is broken across as many lines as it needs, after
    /// the last `/` or `-` that fits, else at the width: no character is lost (before issue
    /// #27's follow-up it was cut with `…`). ICU's UAX #14 gives no break after `/` before a
    /// letter, hence the folder rule here.
    public static func wrap(_ s: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        for paragraph in s.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = "", lineW = 0, pendingSpaces = 0
            // Starts `w` on the (empty) current line; an over-long word fills whole lines first.
            func start(_ w: String) {
                var rest = Substring(w)
                while of(String(rest)) > width {
                    var cut = rest.startIndex, used = 0
                    while cut < rest.endIndex, used + of(rest[cut]) <= width { used += of(rest[cut]); cut = rest.index(after: cut) }
                    if cut == rest.startIndex { cut = rest.index(after: cut) }   // a wide character on a 1-cell line
                    // A path or URL breaks after its last `/` or `-` that fits, between folders.
                    if let b = rest[..<cut].lastIndex(where: { $0 == "/" || $0 == "-" }), b > rest.startIndex {
                        cut = rest.index(after: b)
                    }
                    lines.append(String(rest[..<cut]))
                    rest = rest[cut...]
                }
                line = String(rest); lineW = of(line)
            }
            for segment in LineBreaks.segments(String(paragraph)) {
                var word = Substring(segment)
                var trailing = 0
                while word.last == " " { word = word.dropLast(); trailing += 1 }
                let w = String(word), ww = of(w)
                if lineW == 0 && line.isEmpty {
                    start(w)
                } else if lineW + pendingSpaces + ww <= width {
                    line += String(repeating: " ", count: pendingSpaces) + w; lineW += pendingSpaces + ww
                } else {
                    lines.append(line)
                    start(w)
                }
                pendingSpaces = line.isEmpty ? 0 : trailing
            }
            lines.append(line)
        }
        return lines
    }
}

/// A rectangle of cells.
public struct CellRect: Equatable, Sendable {
    public var x: Int, y: Int, width: Int, height: Int
    public init(x: Int, y: Int, width: Int, height: Int) { self.x = x; self.y = y; self.width = width; self.height = height }
    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var isEmpty: Bool { width <= 0 || height <= 0 }
}

/// Terminal size in cells.
public struct Size: Equatable, Hashable, Sendable {
    public var cols: Int, rows: Int
    public init(cols: Int, rows: Int) { self.cols = cols; self.rows = rows }
}

/// A grid of cells, row-major. Writes outside the grid are clipped.
public struct Canvas: Equatable, Sendable {
    public let width: Int
    public let height: Int
    public private(set) var cells: [Cell]

    /// A canvas filled with spaces in `fill`.
    public init(width: Int, height: Int, fill: Style = .plain) {
        self.width = max(0, width); self.height = max(0, height)
        cells = Array(repeating: Cell(" ", style: fill), count: self.width * self.height)
    }

    public var size: Size { Size(cols: width, rows: height) }

    /// Replaces all cells at once (same count; ignored otherwise).
    public mutating func replaceCells(_ new: [Cell]) {
        guard new.count == cells.count else { return }
        cells = new
    }

    public subscript(x: Int, y: Int) -> Cell {
        get { cells[y * width + x] }
        set { cells[y * width + x] = newValue }
    }

    /// Sets one cell without width handling (used by the preview for 1-cell glyphs).
    @inline(__always)
    public mutating func set(_ x: Int, _ y: Int, _ ch: Character, _ style: Style) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        cells[y * width + x] = Cell(ch, style: style)
    }

    /// Writes `text` from (x, y), wide characters taking two cells, clipped at `maxX` (default
    /// the right edge). A wide character that would straddle the edge becomes a space.
    /// - Returns: the column after the last written cell.
    @discardableResult
    public mutating func put(_ text: String, x: Int, y: Int, style: Style, maxX: Int? = nil) -> Int {
        guard y >= 0, y < height else { return x }
        let limit = min(maxX ?? width, width)
        var col = x
        for ch in text {
            let w = DisplayWidth.of(ch)
            if w == 0 {
                // Combining mark: attach to the previous cell's character.
                if col - 1 >= 0, col - 1 < limit, let prev = self[col - 1, y].text {
                    self[col - 1, y].text = Character(String(prev) + String(ch))
                }
                continue
            }
            if col + w > limit {
                if w == 2, col < limit, col >= 0 { self[col, y] = Cell(" ", style: style) }
                break
            }
            if col >= 0 {
                clearWide(at: col, y: y)
                self[col, y] = Cell(ch, style: style)
                if w == 2 {
                    clearWide(at: col + 1, y: y)
                    self[col + 1, y] = Cell(nil, style: style)
                }
            }
            col += w
        }
        return col
    }

    /// Before overwriting (x, y): if it is half of a wide character, blank the other half.
    private mutating func clearWide(at x: Int, y: Int) {
        guard x >= 0, x < width else { return }
        if self[x, y].isContinuation, x > 0 { self[x - 1, y].text = " " }
        if x + 1 < width, self[x + 1, y].isContinuation, !self[x, y].isContinuation { self[x + 1, y].text = " " }
    }

    /// Writes `text` centred in `rect`'s row `y`, truncated with `…` to fit.
    public mutating func putCentered(_ text: String, in rect: CellRect, y: Int, style: Style) {
        let t = DisplayWidth.truncate(text, to: rect.width)
        let x = rect.x + max(0, (rect.width - DisplayWidth.of(t)) / 2)
        put(t, x: x, y: y, style: style, maxX: rect.maxX)
    }

    /// Fills `rect` with spaces in `style`.
    public mutating func fill(_ rect: CellRect, style: Style) {
        let x0 = max(0, rect.x), x1 = min(width, rect.maxX), y0 = max(0, rect.y), y1 = min(height, rect.maxY)
        guard x0 < x1, y0 < y1 else { return }
        for y in y0..<y1 { for x in x0..<x1 { cells[y * width + x] = Cell(" ", style: style) } }
    }

    /// The rows as text, one per line, each quoted so trailing spaces show; continuation cells
    /// are skipped, so a row's text has the display width of the canvas.
    public func textRows() -> [String] {
        (0..<height).map { y in
            var s = ""
            for x in 0..<width { if let t = self[x, y].text { s.append(t) } }
            return s
        }
    }

    /// Snapshot text: quoted rows, then a style layer (one letter per cell, `.` for the plain
    /// style) and its legend (`letter: fg bg attrs`).
    public func snapshot() -> String {
        var out = textRows().map { "\"" + $0 + "\"" }
        var legend: [Style: Character] = [.plain: "."]
        var order: [Style] = []
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        var styleRows: [String] = []
        for y in 0..<height {
            var row = ""
            for x in 0..<width {
                let st = self[x, y].style
                if let l = legend[st] { row.append(l); continue }
                let l: Character = order.count < letters.count ? letters[order.count] : "?"
                legend[st] = l; order.append(st); row.append(l)
            }
            styleRows.append(row)
        }
        out.append("-- styles")
        out += styleRows
        out.append("-- legend")
        for st in order {
            let attrs = st.attrs.names
            out.append("\(legend[st] ?? "?"): fg \(st.fg) bg \(st.bg)" + (attrs.isEmpty ? "" : " " + attrs))
        }
        return out.joined(separator: "\n") + "\n"
    }
}

extension DisplayWidth {
    /// `s` shortened from the middle to at most `width` cells, keeping both ends: a third for
    /// the start and two thirds for the end, where a path names its file or folder
    /// (`/home/…/selfie-capture-20261201-143000`); unchanged when it fits.
    public static func truncateMiddle(_ s: String, to width: Int) -> String {
        guard width > 0 else { return "" }
        if of(s) <= width { return s }
        if width == 1 { return "…" }
        let chars = Array(s)
        let headBudget = (width - 1) / 3, tailBudget = width - 1 - headBudget
        var head = "", used = 0
        for c in chars { let w = of(c); if used + w > headBudget { break }; head.append(c); used += w }
        var tail: [Character] = [], tailUsed = 0
        for c in chars.reversed() { let w = of(c); if tailUsed + w > tailBudget { break }; tail.insert(c, at: 0); tailUsed += w }
        return head + "…" + String(tail)
    }
}
