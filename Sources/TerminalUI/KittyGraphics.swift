import CZlib
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The kitty graphics protocol, written by us (https://sw.kovidgoyal.net/kitty/graphics-protocol/):
/// libchafa 1.12 transmits kitty pictures as RGBA without an image id, so every frame would be a
/// new image in the terminal's store. Here the preview alternates between two image ids (issue
/// #27): each frame is uploaded and shown under the id not on screen, then the other is deleted,
/// so the old picture stays until the new one has fully arrived (replacing one id blanked it for
/// the whole upload: over a stream, kitty 0.26 showed the picture in 5 of 20 screenshots). RGB
/// (`f=24`), zlib-compressed over a stream (`o=z`), cursor not moved (`C=1`), replies
/// suppressed (`q=2`).
public enum KittyGraphics {
    /// The two image ids the preview alternates between (placement id 1 in each).
    public static let imageIDs = (1, 2)
    /// The first id used.
    public static var imageID: Int { imageIDs.0 }
    /// The id after `id`.
    public static func otherID(_ id: Int) -> Int { id == imageIDs.0 ? imageIDs.1 : imageIDs.0 }

    /// How the pixels travel: in the escape stream (`t=d`, base64, works over SSH), or through a
    /// POSIX shared-memory object the terminal reads and unlinks (`t=s`, local only).
    public enum Transfer: String, Sendable, Equatable { case direct, sharedMemory }

    /// Shared memory only when the terminal runs on this machine: no `SSH_CONNECTION`,
    /// `SSH_CLIENT` or `SSH_TTY` in the environment and not inside tmux (whose client may be
    /// remote); the kitty docs: "t=s … only works if the terminal is on the same computer".
    public static func transfer(environment env: [String: String]) -> Transfer {
        for k in ["SSH_CONNECTION", "SSH_CLIENT", "SSH_TTY", "TMUX"] where !(env[k] ?? "").isEmpty { return .direct }
        return .sharedMemory
    }

    /// zlib level for `o=z`: 1 (fastest). A camera frame's RGB shrinks to about a third of its
    /// size at any level; the higher levels cost time on every frame for a few percent more.
    static let zlibLevel: Int32 = 1

    /// An RFC 1950 zlib stream of `bytes` (zlib's compress2), nil when zlib fails.
    public static func zlib(_ bytes: [UInt8]) -> [UInt8]? {
        var out = [UInt8](repeating: 0, count: czlib_bound(bytes.count))
        var n = out.count
        let r = out.withUnsafeMutableBufferPointer { o in
            bytes.withUnsafeBufferPointer { czlib_compress(o.baseAddress, &n, $0.baseAddress, bytes.count, zlibLevel) }
        }
        guard r == 0 else { return nil }
        return Array(out.prefix(n))
    }

    /// The escape stream that shows `picture` (RGB `width × height`) stretched over `cols × rows`
    /// cells from the cursor, as image `id` (placement 1), then deletes image `replacing` (the
    /// picture shown before, under the other id) when given: the terminal draws the new
    /// picture as soon as its last chunk arrives and only then removes the old one. Direct:
    /// zlib-compressed (`o=z`, unless `compress` is false) and base64 in chunks of at most 4096
    /// bytes (`m=1` on all but the last). `sharedMemoryName`: the name of an object already
    /// holding the pixels (sent uncompressed: nothing travels).
    public static func transmit(_ picture: PreviewImage, cols: Int, rows: Int, sharedMemoryName: String? = nil,
                                id: Int = imageIDs.0, replacing: Int? = nil, compress: Bool = true) -> [UInt8] {
        let head = "a=T,i=\(id),p=1,f=24,s=\(picture.width),v=\(picture.height),c=\(cols),r=\(rows),C=1,q=2"
        let tail = replacing.map { deleteBytes(id: $0) } ?? []
        if let name = sharedMemoryName {
            let payload = Data(name.utf8).base64EncodedString()
            return Array("\u{1B}_G\(head),t=s,S=\(picture.width * picture.height * 3);\(payload)\u{1B}\\".utf8) + tail
        }
        let raw = Array(picture.rgb.prefix(picture.width * picture.height * 3))
        let packed = compress ? zlib(raw) : nil
        let b64 = Array(Data(packed ?? raw).base64EncodedString().utf8)
        var out = [UInt8]()
        out.reserveCapacity(b64.count + b64.count / 4096 * 16 + 128 + tail.count)
        var i = 0
        var first = true
        repeat {
            let end = min(b64.count, i + 4096)
            let more = end < b64.count ? 1 : 0
            out += Array("\u{1B}_G\(first ? head + ",t=d," + (packed != nil ? "o=z," : "") : "")m=\(more);".utf8)
            out += b64[i..<end]
            out += [0x1B, UInt8(ascii: "\\")]
            first = false
            i = end
        } while i < b64.count
        return out + tail
    }

    /// Deletes image `id` and its placements (`a=d,d=I`: by id, freeing the data).
    public static func deleteBytes(id: Int) -> [UInt8] { Array("\u{1B}_Ga=d,d=I,i=\(id),q=2\u{1B}\\".utf8) }

    /// Deletes both preview images.
    public static var deleteBytes: [UInt8] { deleteBytes(id: imageIDs.0) + deleteBytes(id: imageIDs.1) }

    /// Writes `picture`'s pixels into a new POSIX shared-memory object and returns its name
    /// (the terminal unlinks it after reading), or nil when shared memory is unavailable.
    public static func sharedMemory(_ picture: PreviewImage, serial: Int) -> String? {
        let name = "/selfie-capture-\(getpid())-\(serial)"
        let size = picture.width * picture.height * 3
        guard size > 0, picture.rgb.count >= size else { return nil }
        let fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0o600)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        guard ftruncate(fd, off_t(size)) == 0,
              let map = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), map != MAP_FAILED else {
            shm_unlink(name); return nil
        }
        picture.rgb.withUnsafeBytes { map.copyMemory(from: $0.baseAddress!, byteCount: size) }
        munmap(map, size)
        return name
    }
}

/// tmux passthrough: `DCS tmux; <sequence with every ESC doubled> ST`, which tmux forwards to
/// the outer terminal when `allow-passthrough` is on (tmux(1), "allow-passthrough").
public enum TmuxPassthrough {
    public static func wrap(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = Array("\u{1B}Ptmux;".utf8)
        out.reserveCapacity(bytes.count + bytes.count / 64 + 16)
        for b in bytes {
            if b == 0x1B { out.append(0x1B) }
            out.append(b)
        }
        out += [0x1B, UInt8(ascii: "\\")]
        return out
    }
}
