import CV4L2
import Camera
import Glibc
import Media
import CaptureModel

/// A scripted V4L2 device behind the `V4L2System` seam: capabilities, formats/sizes/rates,
/// driver adjustments on S_FMT, granted buffer count, frames (payload bytes, e.g. the JPEG chunks
/// of a shared AVI), poll results and errno injection at any named call.
public final class FakeWebcam: V4L2System {
    public init() {}
    public struct Format {
        public var fourcc: FourCC; public var sizes: [(w: Int, h: Int, fps: [Int])]
        public init(fourcc: FourCC, sizes: [(w: Int, h: Int, fps: [Int])]) { self.fourcc = fourcc; self.sizes = sizes }
    }
    public enum PollResult { case ready, timeout, error(Int16) }

    public var path = "/dev/video0"
    /// `bus_info` is empty unless a test sets it (as some drivers leave it).
    public var driver = "uvcvideo", card = "Fake Webcam", busInfo = ""
    public var capabilities: UInt32 = CV4L2_CAP_VIDEO_CAPTURE | CV4L2_CAP_STREAMING
    public var formats: [Format] = []
    /// Driver's answer to S_FMT (default: grants what was asked).
    public var adjust: (FourCC, Int, Int) -> (FourCC, Int, Int) = { ($0, $1, $2) }
    public var grantedBuffers = 4
    /// Bytes a driver adds at the end of each row (`bytesperline` = natural + padding; V4L-07).
    public var padding = 0
    /// Payloads delivered in order by DQBUF (optionally with a bytesused override).
    public var frames: [(bytes: [UInt8], bytesUsed: Int?)] = []
    /// Poll script consumed per call; when empty: ready if frames remain, else timeout.
    public var polls: [PollResult] = []
    /// Injected failures: call name → (errno, index of the call that fails first, how many times).
    public var failures: [String: (errno: Int32, at: Int, times: Int)] = [:]

    // Observations.
    public private(set) var calls: [String: Int] = [:]
    public private(set) var requested: (FourCC, Int, Int)?
    public private(set) var requestedBuffers = 0
    public private(set) var mapped: [Int: UnsafeMutableRawPointer] = [:]
    public private(set) var unmappedCount = 0
    public private(set) var openFDs: Set<Int32> = []
    public private(set) var streaming = false
    public private(set) var lastPollTimeout: Int32 = -1
    public private(set) var openFlags: Int32 = 0
    private var granted: (FourCC, Int, Int) = (FourCC.yuyv, 0, 0)
    private var bufferLength = 0
    private var queued: [Int] = []
    private var nextFrame = 0
    public var lastErrno: Int32 = 0

    /// Every call by name, in order (for the order rules of V4L-09).
    public private(set) var log: [String] = []

    private func fail(_ name: String) -> Bool {
        log.append(name)
        let n = calls[name, default: 0]
        calls[name] = n + 1
        if let f = failures[name], n >= f.at, n < f.at + f.times { lastErrno = f.errno; return true }
        return false
    }

    public func open(_ path: String, flags: Int32) -> Int32 {
        if fail("open") { return -1 }
        guard path == self.path else { lastErrno = ENOENT; return -1 }
        openFlags = flags
        let fd: Int32 = 100 + Int32(openFDs.count)
        openFDs.insert(fd)
        return fd
    }
    public func close(_ fd: Int32) -> Int32 {
        openFDs.remove(fd)
        if fail("close") { return -1 }
        return 0
    }
    public func poll(_ fd: Int32, events: Int16, timeoutMs: Int32, revents: inout Int16) -> Int32 {
        lastPollTimeout = timeoutMs
        if fail("poll") { return -1 }
        let r: PollResult = polls.isEmpty ? (nextFrame < frames.count ? .ready : .timeout) : polls.removeFirst()
        switch r {
        case .ready: revents = Int16(POLLIN); return 1
        case .timeout: revents = 0; return 0
        case .error(let e): revents = e; return 1
        }
    }
    public func mmap(length: Int, fd: Int32, offset: Int64) -> UnsafeMutableRawPointer? {
        if fail("mmap") { return nil }
        let i = Int(offset) / 0x10000
        let p = UnsafeMutableRawPointer.allocate(byteCount: length, alignment: 16)
        mapped[i] = p
        return p
    }
    public func munmap(_ address: UnsafeMutableRawPointer, length: Int) -> Int32 {
        unmappedCount += 1
        for (k, v) in mapped where v == address { mapped[k] = nil; v.deallocate() }
        if fail("munmap") { return -1 }
        return 0
    }
    public func deviceNodes() -> [String] { [path] }

    private func name(_ r: UInt) -> String {
        switch r {
        case CV4L2_VIDIOC_QUERYCAP: return "VIDIOC_QUERYCAP"
        case CV4L2_VIDIOC_ENUM_FMT: return "VIDIOC_ENUM_FMT"
        case CV4L2_VIDIOC_ENUM_FRAMESIZES: return "VIDIOC_ENUM_FRAMESIZES"
        case CV4L2_VIDIOC_ENUM_FRAMEINTERVALS: return "VIDIOC_ENUM_FRAMEINTERVALS"
        case CV4L2_VIDIOC_S_FMT: return "VIDIOC_S_FMT"
        case CV4L2_VIDIOC_G_FMT: return "VIDIOC_G_FMT"
        case CV4L2_VIDIOC_S_PARM: return "VIDIOC_S_PARM"
        case CV4L2_VIDIOC_G_PARM: return "VIDIOC_G_PARM"
        case CV4L2_VIDIOC_REQBUFS: return "VIDIOC_REQBUFS"
        case CV4L2_VIDIOC_QUERYBUF: return "VIDIOC_QUERYBUF"
        case CV4L2_VIDIOC_QBUF: return "VIDIOC_QBUF"
        case CV4L2_VIDIOC_DQBUF: return "VIDIOC_DQBUF"
        case CV4L2_VIDIOC_STREAMON: return "VIDIOC_STREAMON"
        case CV4L2_VIDIOC_STREAMOFF: return "VIDIOC_STREAMOFF"
        default: return "unknown"
        }
    }

    public static func bytesPerLine(_ f: FourCC, _ w: Int) -> Int { f == .yuyv ? 2 * w : (f == .rgb24 ? 3 * w : (f == .mjpeg ? 0 : w)) }
    public static func imageSize(_ f: FourCC, _ w: Int, _ h: Int, bytesPerLine bpl: Int = 0) -> Int {
        let ch = (h + 1) / 2
        switch f {
        case .yuyv: return max(bpl, 2 * w) * h
        case .nv12: return max(bpl, w) * (h + ch)
        case .i420: return max(bpl, w) * h + 2 * (max(bpl, w) / 2) * ch
        case .rgb24: return max(bpl, 3 * w) * h
        case .grey: return max(bpl, w) * h
        default: return max(w * h, 65536)
        }
    }

    public func ioctl(_ fd: Int32, _ request: UInt, _ arg: UnsafeMutableRawPointer) -> Int32 {
        let n = name(request)
        guard openFDs.contains(fd) else { lastErrno = EBADF; return -1 }
        if fail(n) { return -1 }
        switch request {
        case CV4L2_VIDIOC_QUERYCAP:
            let c = arg.assumingMemoryBound(to: v4l2_capability.self)
            c.pointee = v4l2_capability()
            withUnsafeMutableBytes(of: &c.pointee.driver) { b in for (i, ch) in driver.utf8.prefix(15).enumerated() { b[i] = ch } }
            withUnsafeMutableBytes(of: &c.pointee.card) { b in for (i, ch) in card.utf8.prefix(31).enumerated() { b[i] = ch } }
            withUnsafeMutableBytes(of: &c.pointee.bus_info) { b in for (i, ch) in busInfo.utf8.prefix(31).enumerated() { b[i] = ch } }
            c.pointee.capabilities = capabilities | CV4L2_CAP_DEVICE_CAPS
            c.pointee.device_caps = capabilities
            return 0
        case CV4L2_VIDIOC_ENUM_FMT:
            let f = arg.assumingMemoryBound(to: v4l2_fmtdesc.self)
            let i = Int(f.pointee.index)
            guard i < formats.count else { lastErrno = EINVAL; return -1 }
            f.pointee.pixelformat = formats[i].fourcc.code
            let d = formats[i].fourcc.description
            withUnsafeMutableBytes(of: &f.pointee.description) { b in for (k, ch) in d.utf8.enumerated() { b[k] = ch } }
            return 0
        case CV4L2_VIDIOC_ENUM_FRAMESIZES:
            let s = arg.assumingMemoryBound(to: v4l2_frmsizeenum.self)
            guard let f = formats.first(where: { $0.fourcc.code == s.pointee.pixel_format }), Int(s.pointee.index) < f.sizes.count else {
                lastErrno = EINVAL; return -1
            }
            let sz = f.sizes[Int(s.pointee.index)]
            s.pointee.type = CV4L2_FRMSIZE_TYPE_DISCRETE
            s.pointee.discrete.width = UInt32(sz.w)
            s.pointee.discrete.height = UInt32(sz.h)
            return 0
        case CV4L2_VIDIOC_ENUM_FRAMEINTERVALS:
            let v = arg.assumingMemoryBound(to: v4l2_frmivalenum.self)
            guard let f = formats.first(where: { $0.fourcc.code == v.pointee.pixel_format }),
                  let sz = f.sizes.first(where: { $0.w == Int(v.pointee.width) && $0.h == Int(v.pointee.height) }),
                  Int(v.pointee.index) < sz.fps.count else { lastErrno = EINVAL; return -1 }
            v.pointee.type = CV4L2_FRMIVAL_TYPE_DISCRETE
            v.pointee.discrete.numerator = 1
            v.pointee.discrete.denominator = UInt32(sz.fps[Int(v.pointee.index)])
            return 0
        case CV4L2_VIDIOC_S_FMT:
            let f = arg.assumingMemoryBound(to: v4l2_format.self)
            let req = (FourCC(f.pointee.fmt.pix.pixelformat), Int(f.pointee.fmt.pix.width), Int(f.pointee.fmt.pix.height))
            requested = req
            granted = adjust(req.0, req.1, req.2)
            f.pointee.fmt.pix.pixelformat = granted.0.code
            f.pointee.fmt.pix.width = UInt32(granted.1)
            f.pointee.fmt.pix.height = UInt32(granted.2)
            let natural = Self.bytesPerLine(granted.0, granted.1)
            let bpl = natural > 0 ? natural + padding : 0
            f.pointee.fmt.pix.bytesperline = UInt32(bpl)
            bufferLength = Self.imageSize(granted.0, granted.1, granted.2, bytesPerLine: bpl)
            f.pointee.fmt.pix.sizeimage = UInt32(bufferLength)
            return 0
        case CV4L2_VIDIOC_S_PARM:
            return 0   // keeps the requested timeperframe
        case CV4L2_VIDIOC_REQBUFS:
            let r = arg.assumingMemoryBound(to: v4l2_requestbuffers.self)
            requestedBuffers = Int(r.pointee.count)
            r.pointee.count = UInt32(min(grantedBuffers, Int(r.pointee.count)))
            return 0
        case CV4L2_VIDIOC_QUERYBUF:
            let b = arg.assumingMemoryBound(to: v4l2_buffer.self)
            b.pointee.length = UInt32(bufferLength)
            b.pointee.m.offset = b.pointee.index * 0x10000
            return 0
        case CV4L2_VIDIOC_QBUF:
            queued.append(Int(arg.assumingMemoryBound(to: v4l2_buffer.self).pointee.index))
            return 0
        case CV4L2_VIDIOC_DQBUF:
            guard streaming, nextFrame < frames.count, !queued.isEmpty else { lastErrno = EAGAIN; return -1 }
            let b = arg.assumingMemoryBound(to: v4l2_buffer.self)
            let i = queued.removeFirst()
            let (bytes, used) = frames[nextFrame]
            nextFrame += 1
            if let p = mapped[i] { bytes.prefix(bufferLength).withUnsafeBytes { p.copyMemory(from: $0.baseAddress!, byteCount: $0.count) } }
            b.pointee.index = UInt32(i)
            b.pointee.bytesused = UInt32(used ?? min(bytes.count, bufferLength))
            b.pointee.timestamp.tv_sec = 1000
            b.pointee.timestamp.tv_usec = nextFrame * 33_333
            return 0
        case CV4L2_VIDIOC_STREAMON: streaming = true; return 0
        case CV4L2_VIDIOC_STREAMOFF: streaming = false; return 0
        default:
            lastErrno = ENOTTY; return -1
        }
    }
}

/// Ready-made fake webcams and frames for the camera and app tests.
public enum FakeWebcams {
    public static func mjpegFrames(_ n: Int, w: Int = 64, h: Int = 48) throws -> [(bytes: [UInt8], bytesUsed: Int?)] {
        try (0..<n).map { i in
            var px = [UInt8](repeating: UInt8(40 + i * 10), count: w * h * 3)
            for k in stride(from: 0, to: px.count, by: 3) { px[k] = UInt8(k / 3 % w * 255 / w) }
            return (try JPEGCodec.encode(Image(width: w, height: h, layout: .rgb, pixels: px)), nil)
        }
    }
    public static func yuyvFrame(w: Int, h: Int, y: UInt8 = 235) -> [UInt8] {
        var b = [UInt8](repeating: 128, count: 2 * w * h)
        for i in stride(from: 0, to: b.count, by: 2) { b[i] = y }
        return b
    }
    public static func webcam() -> FakeWebcam {
        let f = FakeWebcam()
        f.formats = [
            .init(fourcc: .yuyv, sizes: [(640, 480, [30, 15]), (1280, 720, [10, 5])]),
            .init(fourcc: .mjpeg, sizes: [(640, 480, [30, 15]), (1280, 720, [30, 15]), (1920, 1080, [30])]),
        ]
        return f
    }
    public static func options(_ fake: FakeWebcam, _ q: [VideoQuality] = [.hd], target: TargetResolution? = nil,
                        clock: MediaClock = ManualClock()) -> CameraOptions {
        CameraOptions(qualities: q, targetResolution: target, system: fake, clock: clock)
    }
}
