import CaptureModel

// The start-up terminal probe, pure part: the query bytes, an incremental parser of the replies,
// and the decisions taken from the replies plus the environment (issue #13). The I/O part (raw
// mode, deadline, restoring termios) is `TerminalProbeIO` in TerminalProbeIO.swift.
//
// One round of queries, DA1 last: every VT100-compatible terminal answers DA1 and answers in
// order, so the DA1 reply means every other answer that will come has come (the technique of
// notcurses, chafa's CLI and vim). Terminals that do not know a query stay silent on it.

/// What the terminal answered to the start-up queries. Every answer is optional: nil means no
/// (recognised) answer before the DA1 reply or the deadline.
public struct TerminalProbeResult: Sendable, Equatable {
    /// XTVERSION (`CSI > 0 q`) reply text, e.g. `XTerm(380)`, `tmux 3.3a`, `kitty(0.26.5)`,
    /// `WezTerm 20230712-...` (xterm ctlseqs "XTVERSION": `DCS > | text ST`).
    public var xtversion: String?
    /// The kitty graphics protocol answered the `a=q` query: true for `OK`, false for an error
    /// reply (e.g. `ENOTSUPPORTED`); nil when nothing answered (kitty docs, "Querying support").
    public var kittyGraphics: Bool?
    /// Text area size in pixels from `CSI 4 ; height ; width t` (reply to `CSI 14 t`).
    public var textAreaPixels: (width: Int, height: Int)?
    /// One cell's size in pixels from `CSI 6 ; height ; width t` (reply to `CSI 16 t`).
    public var cellPixels: (width: Int, height: Int)?
    /// Background colour from the OSC 11 reply, each channel 0...255 (`rgb:RRRR/GGGG/BBBB`,
    /// `rgb:RR/GG/BB`, 1 to 4 hex digits per channel, scaled as XParseColor does).
    public var backgroundRGB: (r: Int, g: Int, b: Int)?
    /// DA1 (`CSI c`) reply attributes, e.g. `[62, 4, 22]` from `CSI ? 62 ; 4 ; 22 c`; nil when
    /// no DA1 reply came (a terminal that answers nothing, or a slow link).
    public var da1Attributes: [Int]?
    /// True when the deadline passed before the DA1 reply.
    public var deadlineExpired: Bool

    public init(xtversion: String? = nil, kittyGraphics: Bool? = nil, textAreaPixels: (width: Int, height: Int)? = nil,
                cellPixels: (width: Int, height: Int)? = nil, backgroundRGB: (r: Int, g: Int, b: Int)? = nil,
                da1Attributes: [Int]? = nil, deadlineExpired: Bool = false) {
        self.xtversion = xtversion; self.kittyGraphics = kittyGraphics; self.textAreaPixels = textAreaPixels
        self.cellPixels = cellPixels; self.backgroundRGB = backgroundRGB; self.da1Attributes = da1Attributes
        self.deadlineExpired = deadlineExpired
    }

    /// Nothing answered (the probe was not run, or the deadline passed in silence).
    public static let none = TerminalProbeResult(deadlineExpired: true)

    /// DA1 attribute 4: the terminal draws sixel graphics (VT340/xterm ctlseqs "Send Device Attributes").
    public var sixel: Bool { da1Attributes?.contains(4) ?? false }

    public static func == (a: TerminalProbeResult, b: TerminalProbeResult) -> Bool {
        a.xtversion == b.xtversion && a.kittyGraphics == b.kittyGraphics
            && a.textAreaPixels?.width == b.textAreaPixels?.width && a.textAreaPixels?.height == b.textAreaPixels?.height
            && a.cellPixels?.width == b.cellPixels?.width && a.cellPixels?.height == b.cellPixels?.height
            && a.backgroundRGB?.r == b.backgroundRGB?.r && a.backgroundRGB?.g == b.backgroundRGB?.g
            && a.backgroundRGB?.b == b.backgroundRGB?.b
            && a.da1Attributes == b.da1Attributes && a.deadlineExpired == b.deadlineExpired
    }
}

/// The probe's queries, reply parser and decisions. No I/O here.
public enum TerminalProbe {
    /// Default deadline for the whole round, in milliseconds: about 150 ms (issue #13). A local
    /// terminal answers in 1–5 ms; over SSH the round trip is the link's.
    public static let defaultDeadlineMs = 150

    /// The kitty graphics image id used by the `a=q` query (any id works; the reply echoes it).
    static let kittyQueryID = 31

    /// The queries, in one write: XTVERSION (`CSI > 0 q`), kitty graphics `a=q` with a 1×1 RGB
    /// pixel, `CSI 14 t`, `CSI 16 t`, OSC 11 `?` (ST-terminated), and DA1 (`CSI c`) last.
    public static let queryBytes: [UInt8] = Array((
        "\u{1B}[>0q"
        + "\u{1B}_Gi=\(kittyQueryID),s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\"
        + "\u{1B}[14t"
        + "\u{1B}[16t"
        + "\u{1B}]11;?\u{1B}\\"
        + "\u{1B}[c"
    ).utf8)

    /// An incremental parser of the terminal's replies. Feed bytes as they are read (in any
    /// pieces); recognised replies go into `result`, every other byte (keys typed meanwhile,
    /// including escape sequences of arrow keys) into `passthrough`, in order.
    public struct Parser: Sendable {
        public private(set) var result = TerminalProbeResult()
        /// Bytes that are not replies, in the order they arrived (hand them to the key input).
        public var passthrough: [UInt8] = []
        /// The DA1 reply has arrived (the round is complete).
        public private(set) var done = false
        /// DA1 replies seen so far (a picture's acknowledgement, `PicturePlacer`).
        public private(set) var da1Replies = 0

        enum State: Sendable { case ground, escape, csi, ss3, string(kind: UInt8), stringEscape(kind: UInt8) }
        private var state = State.ground
        private var pending: [UInt8] = []

        public init() {}

        /// Parses `bytes`, continuing any sequence left open by the previous call.
        public mutating func feed<S: Sequence>(_ bytes: S) where S.Element == UInt8 {
            for b in bytes { feed(byte: b) }
        }

        mutating func feed(byte b: UInt8) {
            switch state {
            case .ground:
                if b == 0x1B { pending = [b]; state = .escape } else { passthrough.append(b) }
            case .escape:
                pending.append(b)
                switch b {
                case UInt8(ascii: "["): state = .csi
                case UInt8(ascii: "O"): state = .ss3
                case UInt8(ascii: "]"), UInt8(ascii: "P"), UInt8(ascii: "_"): state = .string(kind: b)
                case 0x1B:
                    // Esc pressed twice: the first is a key on its own.
                    passthrough.append(0x1B); pending = [0x1B]
                default:
                    passthrough += pending; pending = []; state = .ground   // Alt+key
                }
            case .ss3:
                pending.append(b); passthrough += pending; pending = []; state = .ground
            case .csi:
                pending.append(b)
                if (0x40...0x7E).contains(b) {
                    if !csiReply(pending) { passthrough += pending }
                    pending = []; state = .ground
                } else if !(0x20...0x3F).contains(b) {
                    // Not a CSI sequence after all: give everything back as keys.
                    passthrough += pending; pending = []; state = .ground
                } else if pending.count > 64 {
                    passthrough += pending; pending = []; state = .ground
                }
            case .string(let kind):
                if b == 0x07 && kind == UInt8(ascii: "]") {
                    stringReply(kind: kind, body: Array(pending.dropFirst(2)))
                    pending = []; state = .ground
                } else if b == 0x1B {
                    state = .stringEscape(kind: kind)
                } else {
                    pending.append(b)
                    if pending.count > 4096 { pending = []; state = .ground }   // runaway string: drop it
                }
            case .stringEscape(let kind):
                if b == UInt8(ascii: "\\") {
                    stringReply(kind: kind, body: Array(pending.dropFirst(2)))
                    pending = []; state = .ground
                } else {
                    // ESC inside a string that is not ST: the string was cut; start over at this ESC.
                    pending = [0x1B]; state = .escape
                    feed(byte: b)
                }
            }
        }

        /// At the deadline: a lone ESC still pending is the Esc key; a reply cut short is dropped.
        public mutating func flush() {
            if case .escape = state, pending == [0x1B] { passthrough.append(0x1B) }
            pending = []; state = .ground
        }

        /// When input pauses: a lone ESC still pending is the Esc key (a reply's ESC comes with
        /// the rest of its sequence); a sequence in progress stays pending.
        public mutating func flushLoneEscape() {
            if case .escape = state, pending == [0x1B] { passthrough.append(0x1B); pending = []; state = .ground }
        }

        /// Takes the passthrough bytes collected so far.
        public mutating func takePassthrough() -> [UInt8] {
            defer { passthrough = [] }
            return passthrough
        }

        /// Marks the round as having run out of time.
        public mutating func expire() { result.deadlineExpired = true }

        /// A whole CSI sequence (ESC [ … final): records DA1 and `t` replies; false for others.
        private mutating func csiReply(_ seq: [UInt8]) -> Bool {
            guard let final = seq.last else { return false }
            let body = seq.dropFirst(2).dropLast()
            if final == UInt8(ascii: "c"), body.first == UInt8(ascii: "?") {
                result.da1Attributes = Self.numbers(body.dropFirst())
                done = true
                da1Replies += 1
                return true
            }
            if final == UInt8(ascii: "t"), body.first.map({ (0x30...0x39).contains($0) }) == true {
                let n = Self.numbers(body)
                guard n.count == 3, n[1] > 0, n[2] > 0 else { return n.first == 4 || n.first == 6 }
                if n[0] == 4 { result.textAreaPixels = (n[2], n[1]); return true }
                if n[0] == 6 { result.cellPixels = (n[2], n[1]); return true }
            }
            return false
        }

        private mutating func stringReply(kind: UInt8, body: [UInt8]) {
            let text = String(decoding: body, as: UTF8.self)
            switch kind {
            case UInt8(ascii: "P"):
                if text.hasPrefix(">|") { result.xtversion = String(text.dropFirst(2)) }
            case UInt8(ascii: "_"):
                guard text.hasPrefix("G") else { return }
                let parts = text.dropFirst().split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
                let keys = parts.first.map { $0.split(separator: ",") } ?? []
                guard keys.contains("i=\(TerminalProbe.kittyQueryID)") else { return }
                result.kittyGraphics = parts.count > 1 && parts[1] == "OK"
            case UInt8(ascii: "]"):
                if text.hasPrefix("11;"), let c = TerminalProbe.parseColor(String(text.dropFirst(3))) {
                    result.backgroundRGB = c
                }
            default: break
            }
        }

        static func numbers<C: Collection>(_ bytes: C) -> [Int] where C.Element == UInt8 {
            String(decoding: Array(bytes), as: UTF8.self).split(separator: ";", omittingEmptySubsequences: false)
                .map { Int($0.split(separator: ":").first ?? "") ?? 0 }
        }
    }

    /// Parses an X11 colour specification as terminals send it in OSC 10/11 replies:
    /// `rgb:R/G/B` with 1 to 4 hex digits per channel, each scaled to 0...255 as XParseColor does
    /// (`v / (16^n − 1) · 255`, rounded). nil for any other form.
    public static func parseColor(_ spec: String) -> (r: Int, g: Int, b: Int)? {
        guard spec.hasPrefix("rgb:") else { return nil }
        let parts = spec.dropFirst(4).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        var out: [Int] = []
        for p in parts {
            guard (1...4).contains(p.count), let v = Int(p, radix: 16) else { return nil }
            let maxV = (1 << (4 * p.count)) - 1
            out.append((v * 255 + maxV / 2) / maxV)
        }
        return (out[0], out[1], out[2])
    }

    /// Keys from bytes typed during the probe, as curses would deliver them to `readInput`:
    /// Enter (CR, LF), Space, Esc, Backspace (BS, DEL), Ctrl-C (interrupt), printable UTF-8
    /// characters; escape sequences (arrow and function keys) and other controls are skipped,
    /// as `CursesBackend.readInput` skips them.
    public static func keys(from bytes: [UInt8]) -> [Key] {
        var out: [Key] = []
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            switch b {
            case 10, 13: out.append(.enter); i += 1
            case 32: out.append(.space); i += 1
            case 8, 127: out.append(.backspace); i += 1
            case 3: out.append(.interrupt); i += 1
            case 0x1B:
                // A lone ESC (or one followed by another ESC) is the key; ESC [ … / ESC O x are sequences.
                if i + 1 >= bytes.count || bytes[i + 1] == 0x1B { out.append(.escape); i += 1; continue }
                if bytes[i + 1] == UInt8(ascii: "[") {
                    var j = i + 2
                    while j < bytes.count, !(0x40...0x7E).contains(bytes[j]) { j += 1 }
                    i = j + 1
                } else if bytes[i + 1] == UInt8(ascii: "O") {
                    i += 3
                } else {
                    i += 2   // Alt+key: skipped (no screen binds one)
                }
            case 0..<32: i += 1
            default:
                let len = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1
                let end = min(bytes.count, i + len)
                if let s = String(validating: bytes[i..<end], as: UTF8.self), let c = s.first, len > 1 || b > 32 {
                    out.append(.character(c))
                }
                i = end
            }
        }
        return out
    }
}

/// Which pixel protocol, if any, the terminal showed it speaks (from the probe), or its
/// environment announces.
public enum TerminalGraphics: String, Sendable, Equatable, CaseIterable {
    case kitty, sixel, iterm
    /// No pixel protocol known: draw with symbols.
    case none
}

extension TerminalProbe {
    /// True when running inside tmux: `TMUX` set, or XTVERSION answered `tmux …`.
    public static func insideTmux(_ r: TerminalProbeResult, environment: [String: String]) -> Bool {
        if let t = environment["TMUX"], !t.isEmpty { return true }
        return r.xtversion?.lowercased().hasPrefix("tmux") ?? false
    }

    /// The pixel protocol to use in `auto` mode, from the probe first, then environment hints.
    ///
    /// Rules (issue #13):
    /// 1. Probe: kitty graphics `a=q` answered `OK` → kitty; DA1 attribute 4 → sixel; XTVERSION
    ///    `iTerm2`/`mintty` → iterm (both draw iTerm2 inline images; iTerm2 3.5 also answers 4).
    /// 2. Environment, when the probe decided nothing: `KITTY_WINDOW_ID` or `TERM=xterm-kitty`
    ///    or `TERM_PROGRAM=ghostty` → kitty; `TERM_PROGRAM=iTerm.app`/`mintty` → iterm;
    ///    `TERM_PROGRAM=WezTerm`, `TERM=foot*`/`mlterm*` → sixel.
    /// 3. Inside tmux (`TMUX`, or XTVERSION `tmux …`): the queries reach tmux, not the outer
    ///    terminal, and pixel protocols pass only through `allow-passthrough`, which loses the
    ///    image on pane switches and redraws. So: sixel only when tmux itself answers DA1 with 4
    ///    (tmux ≥ 3.4 built with sixel draws sixel in the pane); never kitty or iterm; the
    ///    outer terminal's environment variables (inherited by tmux) are not trusted.
    /// 4. Otherwise none (the caller uses symbols). GNU screen (`TERM=screen*` without TMUX)
    ///    passes no graphics: none.
    public static func graphics(_ r: TerminalProbeResult, environment env: [String: String]) -> TerminalGraphics {
        if insideTmux(r, environment: env) { return r.sixel ? .sixel : .none }
        let term = env["TERM"] ?? ""
        if term.hasPrefix("screen") { return .none }
        if r.kittyGraphics == true { return .kitty }
        if r.sixel { return .sixel }
        let version = r.xtversion?.lowercased() ?? ""
        if version.hasPrefix("iterm2") || version.hasPrefix("mintty") { return .iterm }
        // The probe answered DA1 without sixel and without kitty: the terminal said what it is.
        if r.da1Attributes != nil, !r.deadlineExpired { return environmentGraphics(env, answeredDA1: true) }
        return environmentGraphics(env, answeredDA1: false)
    }

    /// Environment hints. When the terminal answered DA1 (so it would have answered the kitty
    /// query and announced sixel if it could), only hints of protocols the queries do not cover
    /// (iTerm2 inline images) are taken.
    static func environmentGraphics(_ env: [String: String], answeredDA1: Bool) -> TerminalGraphics {
        let term = env["TERM"] ?? "", program = env["TERM_PROGRAM"] ?? ""
        if program == "iTerm.app" || program == "mintty" { return .iterm }
        if answeredDA1 { return .none }
        if (env["KITTY_WINDOW_ID"].map { !$0.isEmpty } ?? false) || term == "xterm-kitty" || program == "ghostty" { return .kitty }
        if program == "WezTerm" || term.hasPrefix("foot") || term.hasPrefix("mlterm") { return .sixel }
        return .none
    }

    /// Whether to probe a terminal of type `TERM`: not for `dumb`, and not for the Linux console
    /// (`linux`), which has no alternate screen to hide what it does not understand (its OSC
    /// parser reads `ESC ] P`/`R` as palette commands).
    public static func shouldProbe(environment env: [String: String]) -> Bool {
        let term = env["TERM"] ?? ""
        return !term.isEmpty && term != "dumb" && term != "linux" && !term.hasPrefix("linux-")
    }

    /// One cell's size in pixels: from TIOCGWINSZ `ws_xpixel/ws_ypixel` divided by columns/rows
    /// when the kernel knows them, else the `CSI 16 t` reply, else `CSI 14 t` divided by the
    /// cell counts; nil when none is known (callers use 2:1, bug report IMG-03).
    public static func cellSize(winsizePixels: (width: Int, height: Int)?, cols: Int, rows: Int,
                                probe: TerminalProbeResult) -> (width: Int, height: Int)? {
        if let p = winsizePixels, p.width > 0, p.height > 0, cols > 0, rows > 0, p.width >= cols, p.height >= rows {
            return (p.width / cols, p.height / rows)
        }
        if let c = probe.cellPixels, c.width > 0, c.height > 0 { return c }
        if let t = probe.textAreaPixels, cols > 0, rows > 0, t.width >= cols, t.height >= rows {
            return (t.width / cols, t.height / rows)
        }
        return nil
    }
}
