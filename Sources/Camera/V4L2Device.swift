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
    /// The node is not a video capture device with streaming I/O (V4L2 spec §4.1: QUERYCAP).
    case notACaptureDevice(path: String)

    /// The errno carried by the error, if any.
    public var errno: Int32? {
        switch self {
        case .open(_, let e), .ioctl(_, let e), .mmap(let e): return e
        case .notACaptureDevice: return nil
        }
    }
}

/// The system calls V4L2 code makes, as a seam: the real one goes to libv4l2; tests pass a fake
/// webcam (scripted capabilities, formats, frames and injected errors).
public protocol V4L2System: Sendable {
    /// `v4l2_open`; returns a file descriptor or -1 with `lastErrno` set.
    func open(_ path: String, flags: Int32) -> Int32
    func close(_ fd: Int32) -> Int32
    /// `v4l2_ioctl` with one pointer argument; -1 with `lastErrno` set on failure.
    func ioctl(_ fd: Int32, _ request: UInt, _ arg: UnsafeMutableRawPointer) -> Int32
    /// The errno of the last failing call on this thread.
    var lastErrno: Int32 { get }
}

/// The real system: libv4l2 through the `CV4L2` shim.
public struct LibV4L2System: V4L2System {
    public init() {}
    public func open(_ path: String, flags: Int32) -> Int32 { cv4l2_open(path, flags) }
    public func close(_ fd: Int32) -> Int32 { cv4l2_close(fd) }
    public func ioctl(_ fd: Int32, _ request: UInt, _ arg: UnsafeMutableRawPointer) -> Int32 {
        cv4l2_ioctl(fd, request, arg)
    }
    public var lastErrno: Int32 { Glibc.errno }
}

/// An open V4L2 device node. Owns its file descriptor: closed on `close()` or deinit.
public final class V4L2Device {
    public let path: String
    public let fd: Int32
    private let system: V4L2System
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

    /// Closes the device; tolerant of ENODEV after an unplug (bug report V4L-02).
    public func close() {
        guard isOpen else { return }
        isOpen = false
        _ = system.close(fd)
    }

    deinit { close() }
}
