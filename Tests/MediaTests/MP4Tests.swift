import Foundation
import Testing
import TestSupport
@testable import Media

/// `MP4Writer` on synthetic frames, checked with ffprobe/ffmpeg as oracles.
@Suite struct MP4WriterTests {
    /// ffprobe's `key=value` lines for the first video stream (frames counted).
    static func probe(_ path: String, entries: String = "stream=codec_name,pix_fmt,width,height,r_frame_rate,avg_frame_rate,nb_read_frames,color_space,color_range:format=duration,format_name") throws -> [String: String] {
        let (status, out, err) = try Tools.run(Tools.ffprobe!, ["-v", "error", "-count_frames", "-select_streams", "v:0",
                                                               "-show_entries", entries, "-of", "default=noprint_wrappers=1", path])
        #expect(status == 0, "\(err)")
        var d: [String: String] = [:]
        for line in String(decoding: out, as: UTF8.self).split(separator: "\n") {
            let kv = line.split(separator: "=", maxSplits: 1).map(String.init)
            if kv.count == 2 { d[kv[0]] = kv[1] }
        }
        return d
    }

    /// Frame `i` of a moving gradient: smooth colour ramps that slide `4 i` pixels right and
    /// down (no hard colour edges, which 4:2:0 chroma blurs by design).
    static func gradient(width: Int, height: Int, frame i: Int) -> Image {
        var px = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let o = (y * width + x) * 3, xs = x + 4 * i, ys = y + 4 * i
                px[o] = UInt8(40 + (xs * 170 / max(1, width)) % 170)
                px[o + 1] = UInt8(40 + (ys * 170 / max(1, height)) % 170)
                px[o + 2] = UInt8(40 + ((xs + ys) * 85 / max(1, width + height)) % 170)
            }
        }
        return Image(width: width, height: height, layout: .rgb, pixels: px)
    }

    /// Writes `frames` frames of the moving gradient.
    static func write(_ path: String, frames: Int, width: Int, height: Int, fps: Double) throws -> (MP4Writer, VideoSummary) {
        let w = try MP4Writer(path: path, width: width, height: height, fps: fps)
        for i in 0..<frames { try w.append(image: gradient(width: width, height: height, frame: i)) }
        return (w, try w.finalize())
    }

    /// 30 frames at 1280×720, 30 fps: h264 yuv420p in MP4, 30/1 fps, every frame there, 1 s
    /// long, the first frame a keyframe, the index before the data (faststart), 0600 and no
    /// temporary file left.
    @Test(.enabled(if: Tools.haveFFmpeg, "ffprobe absent"))
    func syntheticClipProbes() throws {
        let dir = Tools.tempDir()
        let path = dir + "/video.mp4"
        let (w, s) = try Self.write(path, frames: 30, width: 1280, height: 720, fps: 30)
        #expect(s == VideoSummary(path: path, frameCount: 30, width: 1280, height: 720, fps: 30, durationMs: 1000,
                                  bytes: s.bytes, format: .mp4))
        #expect(w.packetCount == 30)
        let p = try Self.probe(path)
        #expect(p["codec_name"] == "h264" && p["pix_fmt"] == "yuv420p", "\(p)")
        #expect(p["width"] == "1280" && p["height"] == "720")
        #expect(p["r_frame_rate"] == "30/1" && p["avg_frame_rate"] == "30/1", "\(p)")
        #expect(p["nb_read_frames"] == "30", "\(p)")
        #expect(p["color_space"] == "smpte170m" && p["color_range"] == "tv", "\(p)")
        #expect(p["format_name"]?.contains("mp4") == true)
        let duration = try #require(p["duration"].flatMap(Double.init))
        #expect(abs(duration - 1.0) <= 1.0 / 30 + 1e-6, "duration \(duration)")
        #expect(s.bytes == Tools.readBytes(path).count)

        // Frame 0 is a keyframe (IDR): ffprobe's first frame.
        let (_, frames, _) = try Tools.run(Tools.ffprobe!, ["-v", "error", "-select_streams", "v:0", "-read_intervals", "%+#1",
                                                           "-show_entries", "frame=key_frame,pict_type,pts",
                                                           "-of", "csv=p=0", path])
        // csv columns: key_frame, pts, pict_type (then side data).
        let first = String(decoding: frames, as: UTF8.self).split(separator: "\n").first ?? ""
        #expect(first.hasPrefix("1,0,I"), "first frame: \(first)")

        // faststart: 'moov' comes before 'mdat' among the top-level boxes.
        let bytes = Tools.readBytes(path)
        let boxes = Self.topLevelBoxes(bytes)
        let moov = try #require(boxes.firstIndex(of: "moov")), mdat = try #require(boxes.firstIndex(of: "mdat"))
        #expect(moov < mdat, "boxes \(boxes)")

        let attrs = try FileManager.default.attributesOfItem(atPath: path)
        #expect(attrs[.posixPermissions] as? Int == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["video.mp4"])
    }

    /// The top-level box types of an MP4 file, in order.
    static func topLevelBoxes(_ b: [UInt8]) -> [String] {
        var out: [String] = [], i = 0
        while i + 8 <= b.count {
            var size = Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3])
            out.append(String(decoding: b[i + 4..<i + 8], as: UTF8.self))
            if size == 1, i + 16 <= b.count { size = b[i + 8..<i + 16].reduce(0) { $0 << 8 | Int($1) } }
            guard size >= 8 else { break }
            i += size
        }
        return out
    }

    /// The pictures survive: frame 15 decoded by ffmpeg matches what was written at ≥ 38 dB.
    @Test(.enabled(if: Tools.haveFFmpeg, "ffmpeg absent"))
    func decodesCloseToTheInput() throws {
        let dir = Tools.tempDir()
        let path = dir + "/video.mp4"
        _ = try Self.write(path, frames: 30, width: 320, height: 240, fps: 30)
        let (status, raw, err) = try Tools.run(Tools.ffmpeg!, ["-v", "error", "-i", path, "-vf", "select=eq(n\\,15)",
                                                              "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
        #expect(status == 0, "\(err)")
        let decoded = Image(width: 320, height: 240, layout: .rgb, pixels: [UInt8](raw))
        let psnr = try #require(ImageMetrics.psnr(decoded, Self.gradient(width: 320, height: 240, frame: 15)))
        #expect(psnr >= 38, "PSNR \(psnr) dB")
    }

    /// Odd sizes lose their last column and row; a fractional rate is stored as a fraction.
    @Test(.enabled(if: Tools.haveFFmpeg, "ffprobe absent"))
    func oddSizeAndNTSCRate() throws {
        let dir = Tools.tempDir()
        let path = dir + "/video.mp4"
        let (_, s) = try Self.write(path, frames: 5, width: 321, height: 241, fps: 30000.0 / 1001)
        #expect(s.width == 320 && s.height == 240 && s.frameCount == 5)
        let p = try Self.probe(path)
        #expect(p["width"] == "320" && p["height"] == "240" && p["r_frame_rate"] == "30000/1001" && p["nb_read_frames"] == "5", "\(p)")
    }

    /// abort (and dropping an unfinished writer) leaves neither the video nor its temporary file.
    @Test func abortLeavesNothing() throws {
        let dir = Tools.tempDir()
        let w = try MP4Writer(path: dir + "/video.mp4", width: 64, height: 48, fps: 15)
        try w.append(image: Tools.picture(width: 64, height: 48))
        #expect(FileManager.default.fileExists(atPath: w.temporaryPath))
        #expect((try FileManager.default.attributesOfItem(atPath: w.temporaryPath))[.posixPermissions] as? Int == 0o600)
        w.abort()
        w.abort()
        do {
            let dropped = try MP4Writer(path: dir + "/other.mp4", width: 64, height: 48, fps: 15)
            try dropped.append(image: Tools.picture(width: 64, height: 48))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == [])
    }

    /// An encoder that is not there is a named error (exit 78 in the app), before any file exists.
    @Test func missingEncoderIsANamedError() throws {
        let dir = Tools.tempDir()
        #expect(throws: MediaError.encoderUnavailable(encoder: "no-such-encoder", reason: "FFmpeg's libavcodec has no encoder 'no-such-encoder'")) {
            try MP4Writer(path: dir + "/video.mp4", width: 64, height: 48, fps: 15, encoder: "no-such-encoder")
        }
        #expect(throws: MediaError.self) { try MP4Writer.checkEncoder("no-such-encoder") }
        #expect(MediaError.encoderUnavailable(encoder: "x", reason: "y").exitCodeHint == 78)
        try MP4Writer.checkEncoder()
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == [])
    }

    /// FFmpeg is loaded on first use (issue #28): the sonames come from the headers the package
    /// was built against (FFmpeg 5.1 on Debian 12), and a library that cannot be opened is a
    /// named error carrying the dynamic loader's message (exit 78), also after FFmpeg loaded.
    @Test func missingLibraryIsANamedError() throws {
        #expect(FFmpegLibrary.defaultNames == ["libavutil.so.57", "libavcodec.so.59", "libavformat.so.59", "libswscale.so.6"])
        try FFmpegLibrary.load()
        var names = FFmpegLibrary.defaultNames
        names[2] = "libavformat.so.0-not-installed"
        do {
            try FFmpegLibrary.load(names: names)
            Issue.record("a missing library loaded")
        } catch let MediaError.libraryMissing(library, reason) {
            #expect(library == "libavformat.so.0-not-installed")
            #expect(reason.contains("libavformat.so.0-not-installed") && reason.contains("No such file"), "dlerror's message: \(reason)")
        }
        #expect(MediaError.libraryMissing(library: "x", reason: "y").exitCodeHint == 78)
        // A library without the writer's functions is refused the same way (libz has no av_*).
        names = FFmpegLibrary.defaultNames
        names[0] = "libz.so.1"
        #expect(throws: MediaError.self) { try FFmpegLibrary.load(names: names) }
        try MP4Writer.checkEncoder()   // the loaded FFmpeg still works
    }

    /// Never replaces a file: an existing target is refused up front.
    @Test func refusesAnExistingFile() throws {
        let dir = Tools.tempDir()
        Tools.writeBytes([1, 2, 3], dir + "/video.mp4")
        #expect(throws: MediaError.cannotCreateOutput(path: dir + "/video.mp4", reason: "file exists")) {
            try MP4Writer(path: dir + "/video.mp4", width: 64, height: 48, fps: 15)
        }
        #expect(Tools.readBytes(dir + "/video.mp4") == [1, 2, 3])
    }
}
