import CV4L2
#if canImport(Glibc)
import Glibc
#endif

/// Errors from V4L2 calls, each carrying the call's name and `errno` (DESIGN.md "C").
public enum V4L2Error: Error, Equatable, Sendable {
    /// `v4l2_open` failed (ENOENT: no such device; EACCES: permission; EBUSY: in use).
    case open(path: String, errno: Int32)
    /// An ioctl failed; `request` is the VIDIOC_* name.
    case ioctl(String, errno: Int32)
    /// `v4l2_mmap` failed.
    case mmap(errno: Int32)
    /// `poll` failed.
    case poll(errno: Int32)
    /// The node is not a video capture device with streaming I/O (V4L2 spec §4.1: QUERYCAP).
    case notACaptureDevice(path: String)

    /// The errno carried by the error, if any.
    public var errno: Int32? {
        switch self {
        case .open(_, let e), .ioctl(_, let e), .mmap(let e), .poll(let e): return e
        case .notACaptureDevice: return nil
        }
    }
}

/// The system calls V4L2 code makes, as a seam: the real one goes to libv4l2; tests pass a fake
/// webcam (scripted capabilities, formats, frames and injected errors).
public protocol V4L2System: AnyObject {
    /// `v4l2_open`; returns a file descriptor or -1 with `lastErrno` set.
    func open(_ path: String, flags: Int32) -> Int32
    func close(_ fd: Int32) -> Int32
    /// `v4l2_ioctl` with one pointer argument; -1 with `lastErrno` set on failure.
    func ioctl(_ fd: Int32, _ request: UInt, _ arg: UnsafeMutableRawPointer) -> Int32
    /// `poll` on one fd for `events`; returns -1 (errno), 0 (timeout) or 1 with `revents`.
    func poll(_ fd: Int32, events: Int16, timeoutMs: Int32, revents: inout Int16) -> Int32
    /// `v4l2_mmap(NULL, length, PROT_READ|PROT_WRITE, MAP_SHARED, fd, offset)`; nil on failure.
    func mmap(length: Int, fd: Int32, offset: Int64) -> UnsafeMutableRawPointer?
    func munmap(_ address: UnsafeMutableRawPointer, length: Int) -> Int32
    /// Paths of candidate device nodes (`/dev/video*`), sorted by number.
    func deviceNodes() -> [String]
    /// The errno of the last failing call on this thread.
    var lastErrno: Int32 { get }
}

/// The real system: libv4l2 through the `CV4L2` shim.
///
/// libv4l2 and libv4lconvert print diagnostics to stderr, which would corrupt the curses screen:
/// with `quiet` (default) stderr is pointed at /dev/null for the duration of each libv4l2 call.
public final class LibV4L2System: V4L2System {
    private let quiet: Bool
    private var savedErrno: Int32 = 0
    private let devNull: Int32

    public init(quiet: Bool = true) {
        self.quiet = quiet
        devNull = quiet ? Glibc.open("/dev/null", O_WRONLY | O_CLOEXEC) : -1
    }
    deinit { if devNull >= 0 { Glibc.close(devNull) } }

    /// Runs `body` with fd 2 redirected to /dev/null, keeping the call's errno.
    private func silenced<T>(_ body: () -> T) -> T {
        guard quiet, devNull >= 0 else {
            let r = body(); savedErrno = Glibc.errno; return r
        }
        let saved = dup(2)
        if saved >= 0 { dup2(devNull, 2) }
        let r = body()
        savedErrno = Glibc.errno
        if saved >= 0 { dup2(saved, 2); Glibc.close(saved) }
        return r
    }

    public func open(_ path: String, flags: Int32) -> Int32 { silenced { cv4l2_open(path, flags) } }
    public func close(_ fd: Int32) -> Int32 { silenced { cv4l2_close(fd) } }
    public func ioctl(_ fd: Int32, _ request: UInt, _ arg: UnsafeMutableRawPointer) -> Int32 {
        silenced { cv4l2_ioctl(fd, request, arg) }
    }
    public func poll(_ fd: Int32, events: Int16, timeoutMs: Int32, revents: inout Int16) -> Int32 {
        var p = pollfd(fd: fd, events: events, revents: 0)
        let r = Glibc.poll(&p, 1, timeoutMs)
        savedErrno = Glibc.errno
        revents = p.revents
        return r
    }
    public func mmap(length: Int, fd: Int32, offset: Int64) -> UnsafeMutableRawPointer? {
        let p = silenced { cv4l2_mmap(length, fd, offset) }
        return p == nil || p == cv4l2_map_failed() ? nil : p
    }
    public func munmap(_ address: UnsafeMutableRawPointer, length: Int) -> Int32 {
        silenced { cv4l2_munmap(address, length) }
    }
    public func deviceNodes() -> [String] {
        guard let dir = opendir("/dev") else { return [] }
        defer { closedir(dir) }
        var nums: [Int] = []
        while let e = readdir(dir) {
            let name = withUnsafeBytes(of: e.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name.hasPrefix("video"), let n = Int(name.dropFirst(5)) { nums.append(n) }
        }
        return nums.sorted().map { "/dev/video\($0)" }
    }
    public var lastErrno: Int32 { savedErrno }
}

/// An open V4L2 device node. Owns its file descriptor: closed on `close()` or deinit.
public final class V4L2Device {
    public let path: String
    public let fd: Int32
    public let system: V4L2System
    private var isOpen = true

    /// Opens `path` non-blocking read/write (so an unplug never hangs a read: bug report V4L-01).
    /// - Throws: `V4L2Error.open` with the errno (ENOENT, EACCES, EBUSY, …).
    public init(path: String, system: V4L2System = LibV4L2System()) throws {
        let fd = system.open(path, flags: O_RDWR | O_NONBLOCK)
        guard fd >= 0 else { throw V4L2Error.open(path: path, errno: system.lastErrno) }
        self.path = path
        self.fd = fd
        self.system = system
    }

    /// `ioctl` on a typed struct; throws `V4L2Error.ioctl(name, errno)` on -1 (EINTR retried).
    public func ioctl<T>(_ name: String, _ request: UInt, _ value: inout T) throws {
        while true {
            let r = withUnsafeMutableBytes(of: &value) { system.ioctl(fd, request, $0.baseAddress!) }
            if r >= 0 { return }
            let e = system.lastErrno
            if e == EINTR { continue }
            throw V4L2Error.ioctl(name, errno: e)
        }
    }

    /// Closes the device; tolerant of ENODEV after an unplug (bug report V4L-02).
    public func close() {
        guard isOpen else { return }
        isOpen = false
        _ = system.close(fd)
    }

    deinit { close() }
}
