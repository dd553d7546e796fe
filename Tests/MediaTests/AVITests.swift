import Foundation
import Testing
import TestSupport
@testable import Media

@Suite struct AVIReaderTests {
    static let approach = TestSupport.shared("media/approach.avi")
    static let clips = ["approach", "no_face", "dark"].compactMap { TestSupport.shared("media/\($0).avi") }

    /// Every shared clip reads frame-exactly: the frame count equals the ground-truth JSON's
    /// `frame_count`, header 640×480 at 15 fps, no frame skipped or warned.
    @Test(.enabled(if: !clips.isEmpty, "../shared/media absent"), arguments: clips)
    func sharedClipFrameCount(path: String) throws {
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path.replacingOccurrences(of: ".avi", with: ".json")))) as? [String: Any]
        let expected = try #require(json?["frame_count"] as? Int)
        let source = try AVIFileSource(path: path)
        #expect(source.info.width == 640 && source.info.height == 480)
        #expect(source.info.fps == 15)
        #expect(source.frameCount == expected)
        // Count by reading the compressed chunks (decoding all in debug is slow); decode 3.
        var n = 0
        while n < 3, let f = try source.nextFrame() {
            #expect(f.index == n && f.timestampMs == Int((Double(n) * 1000 / 15).rounded()))
            #expect(f.jpeg != nil && f.width == 640)
            n += 1
        }
        #expect(source.stats.skippedFrames == 0)
    }

    /// Every frame of approach.avi decodes (105, as the JSON says), none skipped or warned,
    /// timestamps at 15 fps.
    @Test(.enabled(if: approach != nil, "../shared/media/approach.avi absent"))
    func decodesEveryFrame() throws {
        let source = try AVIFileSource(path: try #require(Self.approach))
        var n = 0, last = -1
        while let f = try source.nextFrame() { last = f.timestampMs; n += 1 }
        #expect(n == 105 && last == 6933)
        #expect(source.stats.skippedFrames == 0)
    }

    /// The first frame matches ffmpeg's own decode (rgb24) at PSNR ≥ 40 dB.
    @Test(.enabled(if: approach != nil && Tools.haveFFmpeg, "../shared/media/approach.avi or ffmpeg absent"))
    func firstFrameMatchesFFmpeg() throws {
        let path = try #require(Self.approach)
        let (status, raw, err) = try Tools.run(Tools.ffmpeg!, ["-v", "error", "-i", path, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
        #expect(status == 0, "\(err)")
        let oracle = Image(width: 640, height: 480, layout: .rgb, pixels: [UInt8](raw))
        let source = try AVIFileSource(path: path)
        let first = try #require(try source.nextFrame())
        let psnr = try #require(ImageMetrics.psnr(first.rgb, oracle))
        #expect(psnr >= 40, "PSNR \(psnr) dB")
        print("approach.avi frame 0 vs ffmpeg rgb24: PSNR \(psnr) dB")
    }

    @Test func rejectsNonAVI() throws {
        let dir = Tools.tempDir()
        let p = dir + "/x.avi"
        Tools.writeBytes(Array("RIFF\u{4}\0\0\0WAVEfmt ".utf8), p)
        #expect(throws: MediaError.malformed(path: p, reason: "not a readable AVI file: it does not start with a RIFF 'AVI ' header")) { try AVIFileSource(path: p) }
        #expect(throws: MediaError.fileMissing(path: dir + "/none.avi")) { try AVIFileSource(path: dir + "/none.avi") }
        #expect(MediaError.fileMissing(path: "x").exitCodeHint == 66)
        #expect(MediaError.malformed(path: "x", reason: "").exitCodeHint == 65)
    }

    /// A truncated file still yields the complete chunks and stops cleanly.
    @Test func truncatedFileReadsWhatIsThere() throws {
        let dir = Tools.tempDir()
        let w = try MJPEGAVIWriter(path: dir + "/a.avi", width: 64, height: 48, fps: 10)
        for s in 0..<5 { try w.append(image: Tools.picture(width: 64, height: 48, seed: s)) }
        try w.finalize()
        let bytes = Tools.readBytes(dir + "/a.avi")
        let idx = try AVIParser.parse(bytes)
        #expect(idx.chunks.count == 5 && !idx.truncated)
        let cut = Array(bytes.prefix(idx.chunks[3].range.lowerBound + 10))
        let idx2 = try AVIParser.parse(cut)
        #expect(idx2.truncated)
        #expect(idx2.chunks.count == 4)   // 3 whole + the clamped 4th
    }

    /// Issue #28: a regular file is indexed through `pread` (4 KiB window) rather than held in
    /// memory; the index is the one the in-memory parse gives, and the source delivers every
    /// frame with the file's own chunk bytes.
    @Test func fileIndexedByPreadIsTheInMemoryIndex() throws {
        let dir = Tools.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let w = try MJPEGAVIWriter(path: dir + "/a.avi", width: 320, height: 240, fps: 10)
        for s in 0..<12 { try w.append(image: Tools.picture(width: 320, height: 240, seed: s)) }   // > 4 KiB per chunk
        try w.finalize()
        let bytes = Tools.readBytes(dir + "/a.avi")
        let file = try #require(try InputFile.openRegular(dir + "/a.avi"))
        defer { close(file.fd) }
        #expect(file.size == bytes.count)
        let viaFile = try AVIParser.parse(InputFile.windowed(file.fd, size: file.size))
        #expect(viaFile == (try AVIParser.parse(bytes)))
        let src = try AVIFileSource(path: dir + "/a.avi")
        var n = 0
        while let f = try src.nextFrame() { #expect(f.jpeg == Array(bytes[viaFile.chunks[n].range])); n += 1 }
        #expect(n == 12)
    }
}

@Suite struct AVIWriterTests {
    /// Our AVI: header fields parse back (our own parser), passthrough keeps bytes exactly.
    @Test func writesHeaderAndIndex() throws {
        let dir = Tools.tempDir()
        let path = dir + "/video.avi"
        let w = try MJPEGAVIWriter(path: path, width: 64, height: 48, fps: 30)
        #expect(FileManager.default.fileExists(atPath: w.temporaryPath))
        #expect(!FileManager.default.fileExists(atPath: path))
        let jpegs = try (0..<7).map { try JPEGCodec.encode(Tools.picture(width: 64, height: 48, seed: $0), quality: 80) }
        for (i, j) in jpegs.enumerated() {
            try w.append(VideoFrame(index: i, timestampMs: i * 33, rgb: try JPEGCodec.decode(j).image, jpeg: j))
        }
        #expect(w.passthroughFrames == 7)
        let s = try w.finalize()
        #expect(s.frameCount == 7 && s.durationMs == 233 && s.fps == 30)
        #expect(!FileManager.default.fileExists(atPath: w.temporaryPath))
        let bytes = Tools.readBytes(path)
        let idx = try AVIParser.parse(bytes)
        #expect(idx.width == 64 && idx.height == 48 && idx.rate == 30 && idx.scale == 1)
        #expect(idx.microSecPerFrame == 33333 && idx.headerTotalFrames == 7)
        #expect(idx.compression == "MJPG" && idx.handler == "MJPG")
        #expect(idx.chunks.map { Array(bytes[$0.range]) } == jpegs)
        // RIFF size = file size - 8; idx1 present with 7 entries.
        #expect(AVIParser.u32(bytes, 4) == bytes.count - 8)
        let tail = bytes.count - 16 * 7 - 8
        #expect(AVIParser.fourCC(bytes, tail) == "idx1" && AVIParser.u32(bytes, tail + 4) == 112)
        // idx1 offsets are relative to the 'movi' FourCC: entry 0 points at the first 00dc header.
        let movi = idx.chunks[0].range.lowerBound - 8 - 4
        #expect(AVIParser.fourCC(bytes, movi) == "movi")
        #expect(AVIParser.u32(bytes, tail + 8 + 8) == idx.chunks[0].range.lowerBound - 8 - movi)
        // Mode 0600.
        let attrs = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attrs[.posixPermissions] as? Int) == 0o600)
    }

    /// ffprobe sees codec mjpeg, tag MJPG, the frame count, 30/1 and 1 s; ffmpeg decodes it with
    /// no error output.
    @Test(.enabled(if: Tools.haveFFmpeg, "ffmpeg/ffprobe absent"))
    func passesFFprobe() throws {
        let dir = Tools.tempDir()
        let path = dir + "/video.avi"
        let w = try MJPEGAVIWriter(path: path, width: 160, height: 120, fps: 30)
        for s in 0..<30 { try w.append(image: Tools.picture(width: 160, height: 120, seed: s)) }
        try w.finalize()
        let (st, out, err) = try Tools.run(Tools.ffprobe!, ["-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                                                            "stream=codec_name,codec_tag_string,width,height,r_frame_rate,nb_read_frames,duration",
                                                            "-of", "default=noprint_wrappers=1", path])
        #expect(st == 0, "\(err)")
        let text = String(decoding: out, as: UTF8.self)
        for line in ["codec_name=mjpeg", "codec_tag_string=MJPG", "width=160", "height=120", "r_frame_rate=30/1",
                     "nb_read_frames=30", "duration=1.000000"] {
            #expect(text.contains(line), "missing \(line) in \(text)")
        }
        let (st2, _, err2) = try Tools.run(Tools.ffmpeg!, ["-v", "error", "-i", path, "-f", "null", "-"])
        #expect(st2 == 0 && err2.isEmpty, "ffmpeg said: \(err2)")
    }

    /// Non-integral rates are stored as rate/scale = fps·1000/1000.
    @Test func fractionalRate() throws {
        let dir = Tools.tempDir()
        let w = try MJPEGAVIWriter(path: dir + "/v.avi", width: 16, height: 16, fps: 29.97)
        try w.append(image: Tools.picture(width: 16, height: 16))
        try w.finalize()
        let idx = try AVIParser.parse(Tools.readBytes(dir + "/v.avi"))
        #expect(idx.rate == 29970 && idx.scale == 1000 && idx.microSecPerFrame == 33367)
    }

    /// Abort (and deinit without finalize) leaves no file; an existing target is never replaced.
    @Test func abortLeavesNothing() throws {
        let dir = Tools.tempDir()
        let w = try MJPEGAVIWriter(path: dir + "/video.avi", width: 16, height: 16, fps: 10)
        try w.append(image: Tools.picture(width: 16, height: 16))
        w.abort()
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
        do {
            let w2 = try MJPEGAVIWriter(path: dir + "/video.avi", width: 16, height: 16, fps: 10)
            try w2.append(image: Tools.picture(width: 16, height: 16))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
        Tools.writeBytes([1], dir + "/video.avi")
        #expect(throws: MediaError.cannotCreateOutput(path: dir + "/video.avi", reason: "file exists")) {
            try MJPEGAVIWriter(path: dir + "/video.avi", width: 16, height: 16, fps: 10)
        }
    }

    /// Frames without JPEG (demo, y4m) or of another size are encoded at the writer's quality.
    @Test func encodesRawFrames() throws {
        let dir = Tools.tempDir()
        let w = try MJPEGAVIWriter(path: dir + "/v.avi", width: 32, height: 24, fps: 10)
        let pic = Tools.picture(width: 64, height: 48)
        try w.append(VideoFrame(index: 0, timestampMs: 0, rgb: pic))
        #expect(w.passthroughFrames == 0)
        try w.finalize()
        let src = try AVIFileSource(path: dir + "/v.avi")
        let f = try #require(try src.nextFrame())
        #expect(f.width == 32 && f.height == 24)
        let psnr = try #require(ImageMetrics.psnr(f.rgb, Scale.area(pic, width: 32, height: 24)))
        #expect(psnr > 28, "PSNR \(psnr)")
    }
}
