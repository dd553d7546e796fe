import CFFmpeg
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes H.264 in MP4 (`--video-format mp4`) through FFmpeg's libraries (libavcodec's libx264
/// encoder, libavformat's `mp4` muxer, libswscale for RGB → YUV); never the `ffmpeg` program.
/// The libraries are loaded by the first writer or `checkEncoder` (`FFmpegLibrary`, issue #28).
///
/// Settings for biometric review (DECISIONS.md 2026-12-01 "MP4 video"):
/// - `yuv420p` (what every H.264 decoder plays; x264's default for RGB input would be 4:4:4),
///   BT.601 limited range, tagged as such (`colorspace` smpte170m, `color_range` tv), which is
///   the matrix libswscale converts with;
/// - constant frame rate equal to the source's: frame *n* has `pts = n` in a time base of
///   1/fps, every frame appended is encoded (no frame dropping, no duplication), packets carry
///   explicit durations, so B-frame reordering cannot shift or merge timestamps;
/// - a keyframe (IDR) at the start: frame 0 is sent as `AV_PICTURE_TYPE_I` with `forced-idr`;
/// - CRF `crf` (23, libx264's own default: "visually transparent" for most content; measured
///   on approach.avi ≥ 38 dB PSNR against the MJPEG source at about a tenth of its size),
///   preset `preset` (see its doc);
/// - `movflags +faststart`: the index (moov) goes before the data so the file streams.
///
/// Frames whose width or height is odd lose their last column/row (4:2:0 needs even sizes).
/// The file is written as `.<name>.partial` (0600) and published by `finalize()` through
/// `PartialFile`, like the AVI; `abort()` or deinit without finalize removes it.
public final class MP4Writer: VideoWriter {
    /// libx264's constant rate factor (0 lossless … 51; lower is better). 23 is libx264's default.
    public static let crf = 23
    /// libx264 speed preset. `veryfast`: at 1280×720 it encodes a frame in a fraction of a 30 fps
    /// frame period on one core (see `make bench`, Benchmarks/mp4.sh), leaving the CPU to face
    /// analysis; slower presets save a few percent of size at CRF 23 for 2–4× the time.
    public static let preset = "veryfast"
    /// The FFmpeg encoder used for H.264.
    public static let defaultEncoder = "libx264"

    public let path: String
    public let temporaryPath: String
    /// Size stored in the file (the frames' size rounded down to even numbers).
    public let width: Int
    public let height: Int
    /// The size frames are expected at (others are scaled to it first).
    public let sourceWidth: Int
    public let sourceHeight: Int
    /// Frame rate as a fraction (`rate.num / rate.den` frames per second).
    public let rateNum: Int
    public let rateDen: Int
    public let encoderName: String
    public var format: VideoFormat { .mp4 }
    public private(set) var frameCount = 0
    /// Packets the muxer received (equals `frameCount` after `finalize()`).
    public private(set) var packetCount = 0

    private var codec: UnsafeMutablePointer<AVCodecContext>?
    private var muxer: UnsafeMutablePointer<AVFormatContext>?
    private var stream: UnsafeMutablePointer<AVStream>?
    private var picture: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var scaler: OpaquePointer?
    private var finished = false
    private var headerWritten = false

    /// FFmpeg logs to stderr by default, which would draw over the curses screen; errors come
    /// back as return codes and are reported through `MediaError` instead.
    private static let quietLogs: Void = { cff_av_log_set_level(cff_log_quiet()) }()

    /// Opens the encoder and the muxer and creates the temporary file.
    /// - Parameters:
    ///   - width, height: the frames' size in pixels (≥ 2 each).
    ///   - fps: frames per second (> 0); stored exactly when integral, else as the nearest
    ///     fraction with a denominator ≤ 100 000 (29.97 → 30000/1001).
    ///   - encoder: the FFmpeg encoder's name (tests pass a missing one).
    /// - Throws: `MediaError.encoderUnavailable` (encoder missing or refusing the settings),
    ///   `.cannotCreateOutput` (file exists, cannot create), `.libraryMissing` (FFmpeg not installed).
    public init(path: String, width: Int, height: Int, fps: Double, encoder: String = MP4Writer.defaultEncoder) throws {
        precondition(width >= 2 && height >= 2 && fps > 0, "MP4Writer: bad geometry")
        try FFmpegLibrary.load()
        _ = Self.quietLogs
        self.path = path
        self.temporaryPath = PartialFile.temporaryPath(for: path)
        self.sourceWidth = width; self.sourceHeight = height
        self.width = width & ~1; self.height = height & ~1
        self.encoderName = encoder
        let rate = Self.rational(fps)
        rateNum = Int(rate.num); rateDen = Int(rate.den)
        do {
            codec = try Self.openEncoder(name: encoder, width: self.width, height: self.height, rate: rate, globalHeader: true)
            try openMuxer(rate: rate)
            try allocateFrames()
        } catch {
            abort()
            throw error
        }
    }

    deinit { if !finished { abort() } }

    /// Checks that the H.264 encoder opens with the writer's settings (at 64×64, 30 fps), so
    /// `--video-format mp4` fails before the screen starts rather than at the recording.
    /// - Throws: `MediaError.encoderUnavailable`, `.libraryMissing` (FFmpeg not installed).
    public static func checkEncoder(_ encoder: String = MP4Writer.defaultEncoder) throws {
        try FFmpegLibrary.load()
        _ = quietLogs
        var ctx: UnsafeMutablePointer<AVCodecContext>? = try openEncoder(name: encoder, width: 64, height: 64,
                                                                          rate: AVRational(num: 30, den: 1), globalHeader: true)
        cff_avcodec_free_context(&ctx)
    }

    /// `fps` as a rational: exact when integral, else `av_d2q` (denominator ≤ 100 000).
    static func rational(_ fps: Double) -> AVRational {
        if fps == fps.rounded(), fps < Double(Int32.max) { return AVRational(num: Int32(fps), den: 1) }
        // Called after `FFmpegLibrary.load()` (init); a failed load was thrown there.
        try? FFmpegLibrary.load()
        return cff_av_d2q(fps, 100_000)
    }

    /// FFmpeg's message for an error code.
    static func message(_ code: Int32) -> String {
        var buf = [CChar](repeating: 0, count: 256)
        cff_av_strerror(code, &buf, buf.count)
        return String(decoding: buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func openEncoder(name: String, width: Int, height: Int, rate: AVRational,
                                    globalHeader: Bool) throws -> UnsafeMutablePointer<AVCodecContext> {
        func fail(_ why: String) -> MediaError { .encoderUnavailable(encoder: name, reason: why) }
        guard let encoder = cff_avcodec_find_encoder_by_name(name) else {
            throw fail("FFmpeg's libavcodec has no encoder '\(name)'")
        }
        guard let ctx = cff_avcodec_alloc_context3(encoder) else { throw fail("avcodec_alloc_context3 failed") }
        ctx.pointee.width = Int32(width)
        ctx.pointee.height = Int32(height)
        ctx.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        ctx.pointee.time_base = AVRational(num: rate.den, den: rate.num)
        ctx.pointee.framerate = rate
        ctx.pointee.color_range = AVCOL_RANGE_MPEG
        ctx.pointee.colorspace = AVCOL_SPC_SMPTE170M
        ctx.pointee.thread_count = 0   // FFmpeg picks (libx264: frame threads, one per core and a half)
        if globalHeader { ctx.pointee.flags |= cff_codec_flag_global_header() }
        if let priv = ctx.pointee.priv_data {
            // Options of libx264 only; another encoder (tests) ignores what it does not know.
            _ = cff_av_opt_set(priv, "crf", String(crf), 0)
            _ = cff_av_opt_set(priv, "preset", preset, 0)
            _ = cff_av_opt_set(priv, "forced-idr", "1", 0)
        }
        let r = cff_avcodec_open2(ctx, encoder, nil)
        guard r >= 0 else {
            var c: UnsafeMutablePointer<AVCodecContext>? = ctx
            cff_avcodec_free_context(&c)
            throw fail("avcodec_open2: \(message(r))")
        }
        return ctx
    }

    private func openMuxer(rate: AVRational) throws {
        var fmt: UnsafeMutablePointer<AVFormatContext>?
        var r = cff_avformat_alloc_output_context2(&fmt, nil, "mp4", temporaryPath)
        guard r >= 0, let fmt else {
            throw MediaError.encoderUnavailable(encoder: "mp4", reason: "avformat_alloc_output_context2: \(Self.message(r))")
        }
        muxer = fmt
        guard let st = cff_avformat_new_stream(fmt, nil), let codec else {
            throw MediaError.encoderUnavailable(encoder: "mp4", reason: "avformat_new_stream failed")
        }
        stream = st
        st.pointee.time_base = codec.pointee.time_base
        st.pointee.avg_frame_rate = rate
        st.pointee.r_frame_rate = rate
        r = cff_avcodec_parameters_from_context(st.pointee.codecpar, codec)
        guard r >= 0 else {
            throw MediaError.encoderUnavailable(encoder: encoderName, reason: "avcodec_parameters_from_context: \(Self.message(r))")
        }
        // The file is created here, 0600, so libavformat opens an existing file (it would create
        // one 0666 & ~umask).
        Glibc.close(try PartialFile.create(temporary: temporaryPath, for: path))
        r = cff_avio_open(&fmt.pointee.pb, temporaryPath, cff_avio_flag_write())
        guard r >= 0 else { throw MediaError.cannotCreateOutput(path: path, reason: "avio_open: \(Self.message(r))") }
        var opts: OpaquePointer?
        cff_av_dict_set(&opts, "movflags", "+faststart", 0)
        r = cff_avformat_write_header(fmt, &opts)
        cff_av_dict_free(&opts)
        guard r >= 0 else { throw writeError("avformat_write_header", r) }
        headerWritten = true
    }

    private func allocateFrames() throws {
        guard let f = cff_av_frame_alloc(), let p = cff_av_packet_alloc() else {
            throw MediaError.encoderUnavailable(encoder: encoderName, reason: "av_frame_alloc failed")
        }
        picture = f; packet = p
        f.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        f.pointee.width = Int32(width)
        f.pointee.height = Int32(height)
        let r = cff_av_frame_get_buffer(f, 0)
        guard r >= 0 else { throw MediaError.encoderUnavailable(encoder: encoderName, reason: "av_frame_get_buffer: \(Self.message(r))") }
        // Same size in and out: the odd last column/row, if any, is left out (cropped).
        scaler = cff_sws_getContext(Int32(width), Int32(height), AV_PIX_FMT_RGB24, Int32(width), Int32(height),
                                AV_PIX_FMT_YUV420P, cff_sws_bilinear(), nil, nil, nil)
        guard scaler != nil else { throw MediaError.encoderUnavailable(encoder: encoderName, reason: "sws_getContext failed") }
    }

    /// A write error: an errno from libavformat's I/O becomes `.writeFailed` (73), anything else
    /// the muxer's own failure.
    private func writeError(_ call: String, _ r: Int32) -> MediaError {
        if r < 0 && -r < 4096 { return .writeFailed(path: path, errno: -r) }
        return .cannotCreateOutput(path: path, reason: "\(call): \(Self.message(r))")
    }

    /// Appends a frame (its RGB picture; a source JPEG is decoded, never stored as is).
    /// - Throws: `MediaError.encoderUnavailable` / `.writeFailed`, `JPEGError`.
    public func append(_ frame: VideoFrame) throws {
        try append(image: frame.rgb)
    }

    /// Converts an RGB image to yuv420p and encodes it as the next frame (pts = frame number).
    /// An image of another size than the writer's is scaled to it first (`Scale.area`).
    public func append(image: Image) throws {
        precondition(!finished, "MP4Writer: append after finalize/abort")
        precondition(image.layout == .rgb, "MP4Writer: RGB images only")
        let sized = (image.width == sourceWidth && image.height == sourceHeight) ? image
            : Scale.area(image, width: sourceWidth, height: sourceHeight)
        guard let f = picture else { return }
        var r = cff_av_frame_make_writable(f)
        guard r >= 0 else { throw MediaError.encoderUnavailable(encoder: encoderName, reason: "av_frame_make_writable: \(Self.message(r))") }
        sized.pixels.withUnsafeBufferPointer { px in
            var src: [UnsafePointer<UInt8>?] = [px.baseAddress, nil, nil, nil]
            var srcStride: [Int32] = [Int32(sized.stride), 0, 0, 0]
            withUnsafeMutablePointer(to: &f.pointee.data) { data in
                data.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 8) { dst in
                    withUnsafeMutablePointer(to: &f.pointee.linesize) { ls in
                        ls.withMemoryRebound(to: Int32.self, capacity: 8) { dstStride in
                            _ = cff_sws_scale(scaler, &src, &srcStride, 0, Int32(height), dst, dstStride)
                        }
                    }
                }
            }
        }
        f.pointee.pts = Int64(frameCount)
        f.pointee.pict_type = frameCount == 0 ? AV_PICTURE_TYPE_I : AV_PICTURE_TYPE_NONE
        r = cff_avcodec_send_frame(codec, f)
        guard r >= 0 else { throw MediaError.encoderUnavailable(encoder: encoderName, reason: "avcodec_send_frame: \(Self.message(r))") }
        frameCount += 1
        try drain()
    }

    /// Writes every packet the encoder has ready (all of them once it is flushed).
    private func drain() throws {
        guard let codec, let packet, let stream, let muxer else { return }
        while true {
            var r = cff_avcodec_receive_packet(codec, packet)
            if r == cff_error_again() || r == cff_error_eof() { return }
            guard r >= 0 else { throw MediaError.encoderUnavailable(encoder: encoderName, reason: "avcodec_receive_packet: \(Self.message(r))") }
            packet.pointee.stream_index = stream.pointee.index
            if packet.pointee.duration == 0 { packet.pointee.duration = 1 }   // one frame, in 1/fps
            cff_av_packet_rescale_ts(packet, codec.pointee.time_base, stream.pointee.time_base)
            r = cff_av_interleaved_write_frame(muxer, packet)   // takes the packet's reference
            guard r >= 0 else { throw writeError("av_interleaved_write_frame", r) }
            packetCount += 1
        }
    }

    /// Flushes the encoder, writes the index (moved to the front: faststart), and publishes the
    /// file (fsync, rename).
    /// - Throws: `MediaError` (the temporary file is removed), including when the encoder gave
    ///   back fewer frames than it was given.
    @discardableResult
    public func finalize() throws -> VideoSummary {
        precondition(!finished, "MP4Writer: finalize twice")
        do {
            let r0 = cff_avcodec_send_frame(codec, nil)
            guard r0 >= 0 else { throw MediaError.encoderUnavailable(encoder: encoderName, reason: "cff_avcodec_send_frame(flush): \(Self.message(r0))") }
            try drain()
            guard packetCount == frameCount else {
                throw MediaError.encoderUnavailable(encoder: encoderName,
                                                    reason: "\(frameCount) frames in, \(packetCount) out (a frame was dropped)")
            }
            let r = cff_av_write_trailer(muxer)
            guard r >= 0 else { throw writeError("av_write_trailer", r) }
            if let m = muxer {
                let c = cff_avio_closep(&m.pointee.pb)
                guard c >= 0 else { throw writeError("avio_closep", c) }
            }
            let fd = Glibc.open(temporaryPath, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw MediaError.writeFailed(path: path, errno: errno) }
            try PartialFile.publish(fd: fd, temporary: temporaryPath, to: path)
            finished = true
            release()
        } catch {
            abort()
            throw error
        }
        var st = stat()
        let bytes = stat(path, &st) == 0 ? Int(st.st_size) : 0
        let fps = Double(rateNum) / Double(rateDen)
        return VideoSummary(path: path, frameCount: frameCount, width: width, height: height, fps: fps,
                            durationMs: durationMs, bytes: bytes, format: .mp4)
    }

    /// Frees the encoder, the muxer (closing its file) and the buffers.
    private func release() {
        if let m = muxer {
            if m.pointee.pb != nil { cff_avio_closep(&m.pointee.pb) }
            cff_avformat_free_context(m)
            muxer = nil
            stream = nil
        }
        cff_avcodec_free_context(&codec)
        cff_av_frame_free(&picture)
        cff_av_packet_free(&packet)
        if let s = scaler { cff_sws_freeContext(s); scaler = nil }
    }

    /// Stops and removes the temporary file. Safe to call more than once.
    public func abort() {
        release()
        if !finished { unlink(temporaryPath) }
        finished = true
    }
}
