import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Places the preview picture of a pixel mode on the terminal, after curses' refresh (issue #13).
///
/// - The picture goes at the preview rectangle's top-left cell between DECSC and DECRC, so the
///   cursor and SGR state curses believes in are unchanged.
/// - Only a changed picture is sent, or any picture after curses repainted the rectangle (resize,
///   a full redraw), since that erased it.
/// - Never blocks the loop: the stream is written non-blocking; what the terminal does not take
///   stays pending and is finished by later calls before curses writes again. A new picture
///   starts only when nothing is pending and the tty's output queue (TIOCOUTQ) has drained
///   below `drainedBytes`, so over a slow link (SSH) preview frames are skipped, never queued:
///   the preview's frame rate follows what the terminal drains.
public final class PicturePlacer {
    public let mode: PreviewMode
    let fd: Int32
    let tmux: Bool
    let kittyTransfer: KittyGraphics.Transfer
    /// The output queue counts as drained below this many bytes (default 1024).
    public var drainedBytes = 1024
    private var pending: [UInt8] = []
    private var pendingOffset = 0
    private var shown: PreviewPicture?
    private var serial = 0
    /// The kitty image id on screen (`KittyGraphics.imageIDs`); the next picture takes the other.
    private var kittyShownID: Int?
    /// Bytes written (pictures only), pictures started, preview frames skipped (not drained).
    public private(set) var bytesWritten: UInt64 = 0
    public private(set) var picturesSent = 0
    public private(set) var framesSkipped = 0
    /// The size of the last picture's stream in bytes (the bytes-per-frame figure).
    public private(set) var lastFrameBytes = 0
    /// Whether the last `place` call skipped its picture.
    public private(set) var lastSkipped = false

    /// Each picture ends with a DA1 query (`CSI c`); the next starts only once the terminal
    /// answered it (or `ackTimeoutMs` passed). Terminals answer in order, so the answer means the
    /// picture was read and processed, however slow the link or the terminal's drawing (a pty's
    /// TIOCOUTQ is always 0: the kernel hands the bytes to the terminal at once). Off for a
    /// terminal that did not answer the probe's DA1.
    public let ackWithDA1: Bool
    public var ackTimeoutMs = 2000
    private var awaitingAckSince: Int?

    /// The terminal answered a DA1 query (`CursesBackend` filters the reply from the keys).
    public func acknowledge() { awaitingAckSince = nil }

    /// The last shared-memory object handed to kitty (kitty unlinks it once read; one still
    /// there when the next is made was not read and is removed).
    private var lastSharedMemory: String?

    /// - Parameters: `fd` the terminal; `tmux` wrap streams in tmux passthrough; `environment`
    ///   decides kitty's transfer (`KittyGraphics.transfer`); `kittyConfirmed`: the probe got a
    ///   kitty graphics reply (shared memory is used only then: an unconfirmed terminal might
    ///   never read, and unlink, the objects).
    public init(mode: PreviewMode, fd: Int32, tmux: Bool, environment: [String: String], kittyConfirmed: Bool = false,
                ackWithDA1: Bool = false) {
        self.mode = mode; self.fd = fd; self.tmux = tmux; self.ackWithDA1 = ackWithDA1
        kittyTransfer = tmux || !kittyConfirmed ? .direct : KittyGraphics.transfer(environment: environment)
    }

    private func unlinkUnread() {
        if let name = lastSharedMemory { shm_unlink(name); lastSharedMemory = nil }
    }

    /// True while a picture's stream is partly written (curses must not write meanwhile).
    public var busy: Bool { pendingOffset < pending.count }

    /// Writes more of a pending stream without blocking. Returns true when nothing is pending.
    @discardableResult
    public func pump() -> Bool {
        guard busy else { return true }
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 && flags & O_NONBLOCK == 0 { _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
        defer { if flags >= 0 && flags & O_NONBLOCK == 0 { _ = fcntl(fd, F_SETFL, flags) } }
        while pendingOffset < pending.count {
            let n = pending.withUnsafeBufferPointer { write(fd, $0.baseAddress! + pendingOffset, pending.count - pendingOffset) }
            if n > 0 { pendingOffset += n; bytesWritten += UInt64(n); continue }
            if n < 0 && errno == EINTR { continue }
            break   // EAGAIN: the terminal is not draining; finish later
        }
        if !busy { pending = []; pendingOffset = 0 }
        return !busy
    }

    /// Bytes in the tty's output queue, or 0 when unknown.
    func outputQueue() -> Int {
        var n: Int32 = 0
        return ioctl(fd, UInt(TIOCOUTQ), &n) == 0 ? Int(n) : 0
    }

    /// True when nothing is pending and the tty's output queue is below `drainedBytes`. Ask
    /// before curses writes the frame's text (its own bytes would count).
    public func drained() -> Bool {
        if let since = awaitingAckSince {
            guard TTYProbeChannel.monotonicMs() - since > ackTimeoutMs else { return false }
            awaitingAckSince = nil
        }
        return !busy && outputQueue() < drainedBytes
    }

    /// Shows `picture` if it changed (or `force`, after curses repainted its cells) and the
    /// terminal had drained the previous one (`drained`, asked before curses wrote); else
    /// counts a skipped frame.
    public func place(_ picture: PreviewPicture, force: Bool, drained: Bool) {
        lastSkipped = false
        guard force || picture != shown else { return }
        guard !busy, drained else { framesSkipped += 1; lastSkipped = true; return }
        let body: [UInt8]
        switch mode {
        case .kitty:
            var name: String?
            if kittyTransfer == .sharedMemory {
                unlinkUnread()
                serial += 1
                name = KittyGraphics.sharedMemory(picture.image, serial: serial)
                lastSharedMemory = name
            }
            // The new picture under the other id, then the old one deleted: never a blank between frames.
            let id = kittyShownID.map(KittyGraphics.otherID) ?? KittyGraphics.imageID
            body = KittyGraphics.transmit(picture.image, cols: picture.rect.width, rows: picture.rect.height, sharedMemoryName: name,
                                          id: id, replacing: kittyShownID)
            kittyShownID = id
        default:
            body = ChafaPreview.encode(picture, mode: mode)
        }
        guard !body.isEmpty else { return }
        var out: [UInt8] = Array("\u{1B}7\u{1B}[\(picture.rect.y + 1);\(picture.rect.x + 1)H".utf8)
        out += tmux ? TmuxPassthrough.wrap(body) : body
        out += Array("\u{1B}8".utf8)
        if ackWithDA1 {
            out += Array("\u{1B}[c".utf8)
            awaitingAckSince = TTYProbeChannel.monotonicMs()
        }
        lastFrameBytes = out.count
        pending = out
        pendingOffset = 0
        shown = picture
        picturesSent += 1
        pump()
    }

    /// The picture is no longer on screen (another screen, or curses repainted its cells).
    public func forget() { shown = nil }

    /// Removes the picture: kitty deletes its image (curses repaints the cells, which erases
    /// sixel and iTerm2 pixels). Finishes a pending stream first (blocking at most ~1 s).
    public func clear() {
        guard shown != nil || busy else { return }
        var spins = 0
        while busy && spins < 100 { pump(); if busy { usleep(10_000) }; spins += 1 }
        pending = []; pendingOffset = 0
        if mode == .kitty {
            unlinkUnread()
            let bytes = tmux ? TmuxPassthrough.wrap(KittyGraphics.deleteBytes) : KittyGraphics.deleteBytes
            _ = bytes.withUnsafeBufferPointer { write(fd, $0.baseAddress!, $0.count) }
            kittyShownID = nil
        }
        shown = nil
    }
}
