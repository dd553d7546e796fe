import CaptureModel
import CV4L2
import Media
#if canImport(Glibc)
import Glibc
#endif

/// Camera failures in the terms the app reports (DESIGN.md "Exit codes").
public enum CameraError: Error, Equatable, Sendable {
    /// No such device node (exit 66).
    case notFound(path: String)
    /// The device is in use by another program: EBUSY at open, S_FMT, REQBUFS or STREAMON
    /// (exit 69, bug report V4L-06).
    case busy(path: String)
    /// EACCES/EPERM opening the node (exit 77): the user is not in the `video` group.
    case permissionDenied(path: String)
    /// The node is not a capture device with streaming I/O, or offers no format we can read
    /// (exit 69).
    case unsupported(path: String, reason: String)
    /// The camera went away mid-stream (ENODEV, POLLERR/POLLHUP, or repeated EIO) (exit 69;
    /// bug reports V4L-01/03).
    case disconnected(path: String)
    /// No frame arrived within the poll timeout. Recoverable: calling `nextFrame()` again waits
    /// again (bug report V4L-13).
    case timeout(path: String, ms: Int)
    /// No frame for `ms` although streaming was restarted (`CameraOptions.maxStreamRestarts`
    /// times): the camera is streaming nothing (exit 69, bug report V4L-13).
    case noFrames(path: String, ms: Int)
    /// Any other failing call, with its name and errno (exit 69).
    case system(path: String, V4L2Error)

    /// The sysexits code the app uses.
    public var exitCodeHint: Int32 {
        switch self {
        case .notFound: return 66
        case .permissionDenied: return 77
        case .busy, .unsupported, .disconnected, .timeout, .noFrames, .system: return 69
        }
    }
}

/// What `VIDIOC_QUERYCAP` and the enumerations report for one device.
public struct CameraDescription: Sendable, Equatable {
    public var path: String
    public var driver: String
    public var card: String
    public var busInfo: String
    /// Device capabilities (`device_caps` when `V4L2_CAP_DEVICE_CAPS`, else `capabilities`).
    public var capabilities: UInt32
    public var formats: [FormatModes]
    /// True with VIDEO_CAPTURE and STREAMING.
    public var isCaptureDevice: Bool {
        capabilities & CV4L2_CAP_VIDEO_CAPTURE != 0 && capabilities & CV4L2_CAP_STREAMING != 0
    }
}

/// Options for opening a camera.
public struct CameraOptions {
    /// Resolution preference (RecordingConfig.qualities), first wins.
    public var qualities: [VideoQuality]
    /// `--target-resolution`, tried before `qualities`.
    public var targetResolution: TargetResolution?
    /// Highest frame rate to ask for.
    public var maxFPS: Double
    /// Buffers to request (≥ 4 per issue #4; fewer granted is accepted, bug report V4L-08).
    public var bufferCount: Int
    /// How long `nextFrame` waits in `poll` before `CameraError.timeout` (2 s, issue #4).
    public var pollTimeoutMs: Int
    /// Consecutive EIO results from DQBUF tolerated (skipped and counted, V4L-14) before
    /// streaming is restarted.
    public var maxConsecutiveEIO: Int
    /// Consecutive poll timeouts before streaming is restarted (STREAMOFF, re-queue every
    /// buffer, STREAMON; V4L-13, as ustreamer does): 2, i.e. 4 s without a frame at the 2 s
    /// poll timeout (a webcam sends 15–30 frames a second; its auto-exposure can slow it to
    /// 5 fps in the dark, still far under 4 s).
    public var timeoutsBeforeRestart: Int
    /// Restarts tried within one stall (timeouts or EIO) before giving up
    /// (`CameraError.noFrames`, or `.disconnected` for EIO): 2, so a dead stream is
    /// reported after about 12 s (3 × 2 timeouts × 2 s).
    public var maxStreamRestarts: Int
    public var system: V4L2System
    /// Clock for timestamps when the driver gives none.
    public var clock: MediaClock

    public init(qualities: [VideoQuality] = [.hd, .sd, .highest], targetResolution: TargetResolution? = nil,
                maxFPS: Double = 30, bufferCount: Int = 4, pollTimeoutMs: Int = 2000, maxConsecutiveEIO: Int = 3,
                timeoutsBeforeRestart: Int = 2, maxStreamRestarts: Int = 2,
                system: V4L2System = LibV4L2System(), clock: MediaClock = SystemClock()) {
        self.qualities = qualities; self.targetResolution = targetResolution; self.maxFPS = maxFPS
        self.bufferCount = bufferCount; self.pollTimeoutMs = pollTimeoutMs; self.maxConsecutiveEIO = maxConsecutiveEIO
        self.timeoutsBeforeRestart = max(1, timeoutsBeforeRestart); self.maxStreamRestarts = max(0, maxStreamRestarts)
        self.system = system; self.clock = clock
    }
}

func cString<T>(_ tuple: T) -> String {
    withUnsafeBytes(of: tuple) { raw in String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self) }
}

/// Maps an errno from opening/configuring to the app-level error.
func cameraError(_ e: V4L2Error, path: String) -> CameraError {
    switch e.errno {
    case ENOENT, ENXIO: return .notFound(path: path)
    case EACCES, EPERM: return .permissionDenied(path: path)
    case EBUSY: return .busy(path: path)
    case ENODEV: return .disconnected(path: path)
    case ENOTTY: return .unsupported(path: path, reason: "not a V4L2 device")   // libv4l2's open or QUERYCAP
    default:
        if case .notACaptureDevice = e { return .unsupported(path: path, reason: "not a video capture device") }
        return .system(path: path, e)
    }
}

/// Device enumeration (`selfie-capture devices`).
public enum V4L2Devices {
    /// Queries capabilities and enumerates formats, sizes and frame intervals of an open device.
    /// - Throws: `V4L2Error` from QUERYCAP (ENUM_* stop at EINVAL, the end marker).
    public static func describe(_ dev: V4L2Device) throws -> CameraDescription {
        var cap = v4l2_capability()
        try dev.ioctl("VIDIOC_QUERYCAP", CV4L2_VIDIOC_QUERYCAP, &cap)
        let caps = cap.capabilities & CV4L2_CAP_DEVICE_CAPS != 0 ? cap.device_caps : cap.capabilities
        var d = CameraDescription(path: dev.path, driver: cString(cap.driver), card: cString(cap.card),
                                  busInfo: cString(cap.bus_info), capabilities: caps, formats: [])
        guard d.isCaptureDevice else { return d }
        var i: UInt32 = 0
        while i < 64 {
            var f = v4l2_fmtdesc()
            f.index = i
            f.type = CV4L2_BUF_TYPE_VIDEO_CAPTURE
            guard (try? dev.ioctl("VIDIOC_ENUM_FMT", CV4L2_VIDIOC_ENUM_FMT, &f)) != nil else { break }
            let fourcc = FourCC(f.pixelformat)
            d.formats.append(FormatModes(fourcc: fourcc, description: cString(f.description),
                                         emulated: f.flags & 0x0002 != 0, sizes: sizes(dev, fourcc)))
            i += 1
        }
        return d
    }

    static func sizes(_ dev: V4L2Device, _ fourcc: FourCC) -> [SizeModes] {
        var out: [SizeModes] = []
        var i: UInt32 = 0
        while i < 256 {
            var s = v4l2_frmsizeenum()
            s.index = i
            s.pixel_format = fourcc.code
            guard (try? dev.ioctl("VIDIOC_ENUM_FRAMESIZES", CV4L2_VIDIOC_ENUM_FRAMESIZES, &s)) != nil else { break }
            if s.type == CV4L2_FRMSIZE_TYPE_DISCRETE {
                let size = FrameSize(width: Int(s.discrete.width), height: Int(s.discrete.height))
                out.append(SizeModes(size: size, fps: rates(dev, fourcc, size)))
                i += 1
            } else {
                // Stepwise/continuous: offer the common sizes inside the range, plus max and min.
                let sw = s.stepwise
                let common = [(160, 120), (320, 240), (640, 480), (1280, 720), (1920, 1080), (3840, 2160)]
                var cand = common.map { FrameSize(width: $0.0, height: $0.1) }
                cand += [FrameSize(width: Int(sw.min_width), height: Int(sw.min_height)),
                         FrameSize(width: Int(sw.max_width), height: Int(sw.max_height))]
                for c in Set(cand).sorted(by: { $0.width * $0.height < $1.width * $1.height })
                where c.width >= Int(sw.min_width) && c.width <= Int(sw.max_width) &&
                      c.height >= Int(sw.min_height) && c.height <= Int(sw.max_height) {
                    out.append(SizeModes(size: c, fps: rates(dev, fourcc, c)))
                }
                break
            }
        }
        return out
    }

    static func rates(_ dev: V4L2Device, _ fourcc: FourCC, _ size: FrameSize) -> [Double] {
        var out: [Double] = []
        var i: UInt32 = 0
        while i < 64 {
            var v = v4l2_frmivalenum()
            v.index = i
            v.pixel_format = fourcc.code
            v.width = UInt32(size.width)
            v.height = UInt32(size.height)
            guard (try? dev.ioctl("VIDIOC_ENUM_FRAMEINTERVALS", CV4L2_VIDIOC_ENUM_FRAMEINTERVALS, &v)) != nil else { break }
            if v.type == CV4L2_FRMIVAL_TYPE_DISCRETE {
                if v.discrete.numerator > 0 { out.append(Double(v.discrete.denominator) / Double(v.discrete.numerator)) }
                i += 1
            } else {
                let sw = v.stepwise
                if sw.min.numerator > 0 { out.append(Double(sw.min.denominator) / Double(sw.min.numerator)) }
                if sw.max.numerator > 0 { out.append(Double(sw.max.denominator) / Double(sw.max.numerator)) }
                break
            }
        }
        return Array(Set(out)).sorted(by: >)
    }

    /// Describes every `/dev/video*` node. Nodes that fail to open are returned as errors.
    public static func list(system: V4L2System = LibV4L2System()) -> [Result<CameraDescription, CameraError>] {
        system.deviceNodes().map { path in
            do {
                let dev = try V4L2Device(path: path, system: system)
                defer { dev.close() }
                return .success(try describe(dev))
            } catch let e as V4L2Error {
                return .failure(cameraError(e, path: path))
            } catch {
                return .failure(.unsupported(path: path, reason: "\(error)"))
            }
        }
    }

    /// The first capture device, or nil when none (the app then suggests `--source demo`).
    public static func firstCaptureDevice(system: V4L2System = LibV4L2System()) -> String? {
        for case .success(let d) in list(system: system) where d.isCaptureDevice && !d.formats.isEmpty { return d.path }
        return nil
    }
}

/// A V4L2 camera as a `FrameSource`: negotiates a format, streams with ≥ 4 mmap buffers on a
/// non-blocking fd, waits with `poll` (2 s), converts MJPEG/YUYV/NV12/YU12/RGB/GREY to RGB.
///
/// Bug reports followed: V4L-01 (non-blocking + poll), V4L-02 (teardown tolerates ENODEV),
/// V4L-03 (ENODEV is terminal), V4L-06 (EBUSY named), V4L-07 (format read back after S_FMT),
/// V4L-08 (fewer buffers accepted), V4L-14 (a lone EIO is skipped), JPG-05 (JPEG size checked
/// against the negotiated size), JPG-11 (`bytesused`, trimmed at EOI).
public final class V4L2CameraSource: FrameSource {
    public private(set) var info: SourceInfo
    /// Frames read: the device's own counts (raw formats, driver errors) plus the MJPEG decoder's.
    public var stats: SourceStats { ownStats + decoder.stats }
    private var ownStats = SourceStats()
    /// What the driver granted (read back after S_FMT).
    public private(set) var granted: FormatChoice
    public private(set) var bytesPerLine: Int
    /// The device's description (driver, card, formats).
    public let description: CameraDescription
    /// Buffers the driver granted.
    public var bufferCount: Int { buffers.count }

    private let device: V4L2Device
    private let options: CameraOptions
    private var buffers: [(address: UnsafeMutableRawPointer, length: Int)] = []
    private var streaming = false
    private var closed = false
    private var delivered = 0
    private var firstStampUs: Int?
    private var firstClockMs: Int?
    /// Times (µs, driver or clock) of the first and the latest delivered frame, and how many
    /// were delivered since the first, for `measuredFPS`.
    private var firstDeliveredUs: Int?
    private var lastDeliveredUs = 0
    private var deliveredSinceFirst = 0
    private var consecutiveEIO = 0
    private var consecutiveTimeouts = 0
    private var restartsThisStall = 0
    /// Times streaming was restarted (STREAMOFF/STREAMON) over the session (V4L-13/14).
    public private(set) var streamRestarts = 0
    /// Things the operator should know that do not stop the capture (V4L-08: fewer than 2
    /// buffers granted).
    public private(set) var warnings: [String] = []
    private var decoder: JPEGFrameDecoder

    /// Opens and starts streaming.
    /// - Throws: `CameraError` (notFound, permissionDenied, busy, unsupported, system).
    public init(path: String, options: CameraOptions = CameraOptions()) throws {
        self.options = options
        do {
            device = try V4L2Device(path: path, system: options.system)
        } catch let e as V4L2Error { throw cameraError(e, path: path) }
        do {
            description = try V4L2Devices.describe(device)
        } catch let e as V4L2Error { device.close(); throw cameraError(e, path: path) }
        guard description.isCaptureDevice else {
            device.close()
            throw CameraError.unsupported(path: path, reason: "not a video capture device with streaming I/O")
        }
        guard let choice = FormatNegotiation.choose(from: description.formats, qualities: options.qualities,
                                                    target: options.targetResolution, maxFPS: options.maxFPS) else {
            device.close()
            throw CameraError.unsupported(path: path, reason: "no supported pixel format (offers: \(description.formats.map { $0.fourcc.description }.joined(separator: ", ")))")
        }
        granted = choice
        bytesPerLine = 0
        decoder = JPEGFrameDecoder()
        info = SourceInfo(kind: .camera, width: 0, height: 0, fps: 30, description: "", deliversJPEG: false)
        do {
            try configure(choice)
            try startStreaming()
        } catch let e as V4L2Error {
            teardown()
            throw cameraError(e, path: path)
        } catch {
            teardown()
            throw error
        }
    }

    private func configure(_ choice: FormatChoice) throws {
        var fmt = v4l2_format()
        fmt.type = CV4L2_BUF_TYPE_VIDEO_CAPTURE
        fmt.fmt.pix.width = UInt32(choice.size.width)
        fmt.fmt.pix.height = UInt32(choice.size.height)
        fmt.fmt.pix.pixelformat = choice.fourcc.code
        fmt.fmt.pix.field = CV4L2_FIELD_ANY
        try device.ioctl("VIDIOC_S_FMT", CV4L2_VIDIOC_S_FMT, &fmt)
        // Drivers change the request silently (V4L-07): use what came back.
        let got = FourCC(fmt.fmt.pix.pixelformat)
        guard FormatNegotiation.preference.contains(got), fmt.fmt.pix.width > 0, fmt.fmt.pix.height > 0 else {
            throw CameraError.unsupported(path: device.path, reason: "driver granted unsupported format \(got) \(fmt.fmt.pix.width)x\(fmt.fmt.pix.height)")
        }
        let size = FrameSize(width: Int(fmt.fmt.pix.width), height: Int(fmt.fmt.pix.height))
        bytesPerLine = Int(fmt.fmt.pix.bytesperline)
        var fps = choice.fps ?? 30
        if let want = choice.fps {
            var parm = v4l2_streamparm()
            parm.type = CV4L2_BUF_TYPE_VIDEO_CAPTURE
            parm.parm.capture.timeperframe.numerator = 1000
            parm.parm.capture.timeperframe.denominator = UInt32((want * 1000).rounded())
            if (try? device.ioctl("VIDIOC_S_PARM", CV4L2_VIDIOC_S_PARM, &parm)) != nil {
                let t = parm.parm.capture.timeperframe
                if t.numerator > 0 && t.denominator > 0 { fps = Double(t.denominator) / Double(t.numerator) }
            }
        }
        granted = FormatChoice(fourcc: got, size: size, fps: fps, reason: choice.reason)
        let isJPEG = got == .mjpeg || got == .jpeg
        decoder.expectedWidth = size.width
        decoder.expectedHeight = size.height
        info = SourceInfo(kind: .camera, width: size.width, height: size.height, fps: fps,
                          description: "\(device.path) (\(description.card), \(got) \(size) @ \(Int(fps.rounded())) fps)",
                          deliversJPEG: isJPEG)
    }

    private func startStreaming() throws {
        var req = v4l2_requestbuffers()
        req.count = UInt32(max(1, options.bufferCount))
        req.type = CV4L2_BUF_TYPE_VIDEO_CAPTURE
        req.memory = CV4L2_MEMORY_MMAP
        try device.ioctl("VIDIOC_REQBUFS", CV4L2_VIDIOC_REQBUFS, &req)
        guard req.count >= 1 else {
            throw CameraError.unsupported(path: device.path, reason: "driver granted no capture buffers")
        }
        if req.count < 2 {
            // V4L-08: accepted, but with one buffer the driver has nowhere to capture while we
            // hold it, so frames are dropped.
            warnings.append("\(device.path): the driver granted \(req.count) capture buffer of \(max(1, options.bufferCount)) asked; frames will be dropped while one is processed")
        }
        for i in 0..<req.count {
            var buf = v4l2_buffer()
            buf.index = i
            buf.type = CV4L2_BUF_TYPE_VIDEO_CAPTURE
            buf.memory = CV4L2_MEMORY_MMAP
            try device.ioctl("VIDIOC_QUERYBUF", CV4L2_VIDIOC_QUERYBUF, &buf)
            guard let p = device.system.mmap(length: Int(buf.length), fd: device.fd, offset: Int64(buf.m.offset)) else {
                throw V4L2Error.mmap(errno: device.system.lastErrno)
            }
            buffers.append((p, Int(buf.length)))
        }
        try queueAllBuffers()
        var type = Int32(bitPattern: CV4L2_BUF_TYPE_VIDEO_CAPTURE)
        try device.ioctl("VIDIOC_STREAMON", CV4L2_VIDIOC_STREAMON, &type)
        streaming = true
    }

    /// A poll timeout (V4L-13): recoverable (`CameraError.timeout`); every
    /// `timeoutsBeforeRestart`-th in a row restarts streaming first, and once
    /// `maxStreamRestarts` restarts brought nothing, `CameraError.noFrames`.
    private func timedOut() throws -> Never {
        consecutiveTimeouts += 1
        if consecutiveTimeouts % options.timeoutsBeforeRestart == 0 {
            guard restartsThisStall < options.maxStreamRestarts else {
                throw CameraError.noFrames(path: device.path, ms: consecutiveTimeouts * options.pollTimeoutMs)
            }
            do { try restartStreaming() } catch let e as V4L2Error {
                throw e.errno == ENODEV ? CameraError.disconnected(path: device.path) : CameraError.system(path: device.path, e)
            }
        }
        throw CameraError.timeout(path: device.path, ms: options.pollTimeoutMs)
    }

    /// STREAMOFF (which returns every buffer to us), QBUF each buffer again, STREAMON: the
    /// recovery the V4L2 spec allows without reopening the device (V4L-13/14).
    private func restartStreaming() throws {
        restartsThisStall += 1
        streamRestarts += 1
        var type = Int32(bitPattern: CV4L2_BUF_TYPE_VIDEO_CAPTURE)
        try device.ioctl("VIDIOC_STREAMOFF", CV4L2_VIDIOC_STREAMOFF, &type)
        streaming = false
        try queueAllBuffers()
        try device.ioctl("VIDIOC_STREAMON", CV4L2_VIDIOC_STREAMON, &type)
        streaming = true
    }

    /// QBUF every mapped buffer (at start, and after STREAMOFF, which returns them all to us).
    private func queueAllBuffers() throws {
        for i in 0..<buffers.count {
            var buf = v4l2_buffer()
            buf.index = UInt32(i)
            buf.type = CV4L2_BUF_TYPE_VIDEO_CAPTURE
            buf.memory = CV4L2_MEMORY_MMAP
            try device.ioctl("VIDIOC_QBUF", CV4L2_VIDIOC_QBUF, &buf)
        }
    }

    /// The file descriptor to poll from a run loop (readable when a frame is ready).
    public var fileDescriptor: Int32 { device.fd }

    /// Waits (poll, `pollTimeoutMs`) for the next good frame.
    /// - Throws: `CameraError.timeout` (recoverable), `.disconnected`, `.system`.
    public func nextFrame() throws -> VideoFrame? {
        guard !closed else { return nil }
        let path = device.path
        let deadline = options.clock.nowMs() + options.pollTimeoutMs
        while true {
            let remaining = max(0, deadline - options.clock.nowMs())
            var revents: Int16 = 0
            let r = device.system.poll(device.fd, events: Int16(POLLIN), timeoutMs: Int32(remaining), revents: &revents)
            if r < 0 {
                let e = device.system.lastErrno
                if e == EINTR { continue }
                throw CameraError.system(path: path, .poll(errno: e))
            }
            if r == 0 { try timedOut() }
            if revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 && revents & Int16(POLLIN) == 0 {
                throw CameraError.disconnected(path: path)
            }
            var buf = v4l2_buffer()
            buf.type = CV4L2_BUF_TYPE_VIDEO_CAPTURE
            buf.memory = CV4L2_MEMORY_MMAP
            do {
                try device.ioctl("VIDIOC_DQBUF", CV4L2_VIDIOC_DQBUF, &buf)
            } catch let e as V4L2Error {
                switch e.errno {
                case EAGAIN:
                    if options.clock.nowMs() >= deadline { try timedOut() }
                    continue
                case EIO:
                    // V4L-14: the spec lets EIO be ignored; a run of them restarts streaming,
                    // and only a run that survives the restarts ends the capture.
                    consecutiveEIO += 1
                    ownStats.skip(.deviceError)
                    if consecutiveEIO >= options.maxConsecutiveEIO {
                        guard restartsThisStall < options.maxStreamRestarts else { throw CameraError.disconnected(path: path) }
                        consecutiveEIO = 0
                        try restartStreaming()
                    }
                    continue
                case ENODEV: throw CameraError.disconnected(path: path)
                default: throw CameraError.system(path: path, e)
                }
            }
            consecutiveEIO = 0
            consecutiveTimeouts = 0
            restartsThisStall = 0
            var frame = convert(buf)
            frame?.captureMicros = Self.captureMicros(buf)
            var q = buf
            do {
                try device.ioctl("VIDIOC_QBUF", CV4L2_VIDIOC_QBUF, &q)
            } catch let e as V4L2Error {
                throw e.errno == ENODEV ? CameraError.disconnected(path: path) : CameraError.system(path: path, e)
            }
            if let f = frame { return f }
        }
    }

    private func convert(_ buf: v4l2_buffer) -> VideoFrame? {
        let i = Int(buf.index)
        guard i < buffers.count, buf.flags & CV4L2_BUF_FLAG_ERROR == 0 || granted.fourcc == .mjpeg else {
            ownStats.skip(.deviceError)
            return nil
        }
        let used = min(Int(buf.bytesused), buffers[i].length)
        guard used > 0 else { ownStats.skip(.deviceError); return nil }
        let bytes = Array(UnsafeRawBufferPointer(start: buffers[i].address, count: used))
        let w = granted.size.width, h = granted.size.height
        let rgb: Image?
        switch granted.fourcc {
        case .mjpeg, .jpeg:
            // The decoder trims to the last SOI before the scan and the EOI (JPG-03, JPG-11),
            // inserts missing Huffman tables (JPG-01) and counts skips by reason.
            // Gray at the analysis scale, in the DCT domain (issue #16); the JPEG is kept whole.
            guard let d = decoder.decodeForAnalysis(bytes) else { return nil }
            let t = timestampMs(buf)
            defer { delivered += 1 }
            return d.frame(index: delivered, timestampMs: t)
        case .yuyv:
            rgb = PixelConvert.yuyvToRGB(bytes[...], width: w, height: h, bytesPerLine: bytesPerLine > 0 ? bytesPerLine : nil)
        case .nv12, .i420:
            // Rows `bytesperline` apart (V4L-07), packed before converting.
            let nv12 = granted.fourcc == .nv12
            rgb = PixelConvert.unpad420(bytes[...], width: w, height: h, bytesPerLine: bytesPerLine, nv12: nv12).flatMap {
                nv12 ? PixelConvert.nv12ToRGB($0[...], width: w, height: h) : PixelConvert.i420ToRGB($0[...], width: w, height: h)
            }
        case .rgb24, .bgr24:
            let bpl = bytesPerLine > 0 ? bytesPerLine : 3 * w
            if bytes.count >= bpl * (h - 1) + 3 * w {
                var px = [UInt8](repeating: 0, count: w * h * 3)
                for row in 0..<h { for k in 0..<(3 * w) { px[row * 3 * w + k] = bytes[row * bpl + k] } }
                if granted.fourcc == .bgr24 { for p in 0..<(w * h) { px.swapAt(3 * p, 3 * p + 2) } }
                rgb = Image(width: w, height: h, layout: .rgb, pixels: px)
            } else { rgb = nil }
        case .grey:
            rgb = PixelConvert.unpad(bytes[...], rowBytes: w, stride: max(bytesPerLine, w), rows: h)
                .map { PixelConvert.rgb(Image(width: w, height: h, layout: .gray, pixels: $0)) }
        default:
            rgb = nil
        }
        guard let image = rgb else { ownStats.skip(.shortBuffer); return nil }
        ownStats.deliveredFrames += 1
        let t = timestampMs(buf)
        defer { delivered += 1 }
        // YUYV / NV12 / I420: the analysis luma is shrunk from the Y samples in one pass, not
        // converted from the full RGB picture (issue #16).
        let ad = AnalysisScale.denominator(width: w, height: h)
        let luma: Image?
        switch granted.fourcc {
        case .yuyv:
            luma = PixelConvert.lumaShrunk(bytes[...], width: w, height: h, rowStride: bytesPerLine > 0 ? bytesPerLine : 2 * w,
                                           sampleStep: 2, denominator: ad)
        case .nv12, .i420:
            luma = PixelConvert.lumaShrunk(bytes[...], width: w, height: h, rowStride: max(bytesPerLine, w), sampleStep: 1,
                                           denominator: ad)
        default:
            luma = nil
        }
        if let luma { return VideoFrame(index: delivered, timestampMs: t, rgb: image, gray: luma, grayDenominator: ad) }
        return VideoFrame(index: delivered, timestampMs: t, rgb: image)
    }

    /// When the buffer was captured, CLOCK_MONOTONIC µs: the driver's timestamp when it is
    /// monotonic (`V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC`, what UVC gives: the start of the frame's
    /// capture), else now (dequeued). For the camera-to-screen latency (issue #16).
    static func captureMicros(_ buf: v4l2_buffer) -> Int {
        let us = Int(buf.timestamp.tv_sec) * 1_000_000 + Int(buf.timestamp.tv_usec)
        if buf.flags & CV4L2_BUF_FLAG_TIMESTAMP_MASK == CV4L2_BUF_FLAG_TIMESTAMP_MONOTONIC, us > 0 { return us }
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int(ts.tv_sec) * 1_000_000 + Int(ts.tv_nsec) / 1000
    }

    private func timestampMs(_ buf: v4l2_buffer) -> Int {
        let us = Int(buf.timestamp.tv_sec) * 1_000_000 + Int(buf.timestamp.tv_usec)
        if us > 0 {
            let first = firstStampUs ?? us
            firstStampUs = first
            noteDelivered(us: us)
            return (us - first) / 1000
        }
        let now = options.clock.nowMs()
        let first = firstClockMs ?? now
        firstClockMs = first
        noteDelivered(us: now * 1000)
        return now - first
    }

    private func noteDelivered(us: Int) {
        if firstDeliveredUs == nil { firstDeliveredUs = us; deliveredSinceFirst = 0 } else { deliveredSinceFirst += 1 }
        lastDeliveredUs = us
    }

    /// Frames per second measured over the frames delivered since streaming started (from the
    /// driver's buffer timestamps, else the clock): (n − 1) / (last − first). nil before two
    /// frames, or when they carry the same time. A camera may deliver fewer frames than it
    /// negotiated (auto exposure in low light, a busy USB bus): this is what it really did.
    public var measuredFPS: Double? {
        guard let first = firstDeliveredUs, deliveredSinceFirst > 0, lastDeliveredUs > first else { return nil }
        return Double(deliveredSinceFirst) * 1_000_000 / Double(lastDeliveredUs - first)
    }

    private func teardown() {
        if streaming {
            var type = Int32(bitPattern: CV4L2_BUF_TYPE_VIDEO_CAPTURE)
            try? device.ioctl("VIDIOC_STREAMOFF", CV4L2_VIDIOC_STREAMOFF, &type)   // ENODEV tolerated (V4L-02)
            streaming = false
        }
        for b in buffers { _ = device.system.munmap(b.address, length: b.length) }
        buffers = []
        device.close()
    }

    /// Stops streaming, unmaps and closes; tolerant of an unplugged device.
    public func close() {
        guard !closed else { return }
        closed = true
        teardown()
    }

    deinit { close() }
}

extension V4L2Devices {
    /// The text `selfie-capture devices` prints for `list` (one block per node; sizes with their
    /// frame rates; formats by FourCC). With no nodes: a single line saying so and suggesting
    /// `--source demo`.
    public static func report(_ list: [Result<CameraDescription, CameraError>]) -> String {
        guard !list.isEmpty else {
            return "No V4L2 video devices found (no /dev/video* nodes).\nUse --source demo, or a video file (--source FILE.avi|FILE.mjpeg|FILE.y4m).\n"
        }
        var out = ""
        for item in list {
            switch item {
            case .failure(let e):
                switch e {
                case .permissionDenied(let p):
                    out += "\(p): permission denied (add your user to the 'video' group: sudo usermod -aG video $USER, then log in again)\n"
                case .busy(let p): out += "\(p): in use by another program\n"
                case .notFound(let p): out += "\(p): no such device\n"
                case .unsupported(let p, let r): out += "\(p): \(r)\n"
                case .disconnected(let p): out += "\(p): disconnected\n"
                case .timeout(let p, _), .noFrames(let p, _): out += "\(p): no response\n"
                case .system(let p, let err): out += "\(p): \(err)\n"
                }
            case .success(let d):
                guard d.isCaptureDevice else {
                    out += "\(d.path): \(d.card) (\(d.driver)): not a video capture node (e.g. metadata)\n"
                    continue
                }
                out += "\(d.path): \(d.card) (driver \(d.driver)\(d.busInfo.isEmpty ? "" : ", \(d.busInfo)"))\n"
                if d.formats.isEmpty { out += "  no formats\n" }
                for f in d.formats {
                    out += "  \(f.fourcc)  \(f.description)\(f.emulated ? " (emulated by libv4l2)" : "")\n"
                    for s in f.sizes {
                        let rates = s.fps.map { $0 == $0.rounded() ? String(Int($0)) : String(format1($0)) }.joined(separator: ", ")
                        let name = s.size.description
                        out += "    " + name + String(repeating: " ", count: max(1, 11 - name.count)) + (rates.isEmpty ? "\n" : "\(rates) fps\n")
                    }
                }
            }
        }
        return out
    }

    static func format1(_ v: Double) -> String {
        let t = Int((v * 100).rounded())
        return "\(t / 100).\(String(format2(t % 100)))"
    }
    static func format2(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
}
