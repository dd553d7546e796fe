import Foundation
import Testing
import TestSupport
@testable import Media
import Glibc

@Suite struct Y4MTests {
    static func stream(_ header: String, frames: Int, frameSize: Int, fill: UInt8 = 128) -> [UInt8] {
        var b = Array((header + "\n").utf8)
        for i in 0..<frames {
            b += Array("FRAME\n".utf8)
            b += [UInt8](repeating: fill &+ UInt8(i), count: frameSize)
        }
        return b
    }

    /// Every supported chroma: plane sizes, frame rate, aspect and frame count from the header.
    @Test(arguments: [("C420jpeg", 6 * 4 + 2 * 9), ("C420paldv", 6 * 4 + 2 * 9), ("C420", 6 * 4 + 2 * 9),
                      ("C422", 6 * 4 + 2 * 12), ("C444", 6 * 4 * 3), ("Cmono", 6 * 4)])
    func chromaLayouts(chroma: String, size: Int) throws {
        // 5×4 frames: odd width exercises chroma rounding (ceil(5/2) = 3).
        let header = "YUV4MPEG2 W5 H4 F30000:1001 Ip A1:1 \(chroma) XYSCSS=420JPEG"
        let hdrSize = chroma == "Cmono" ? 20 : (chroma == "C444" ? 60 : (chroma == "C422" ? 20 + 2 * 12 : 20 + 2 * 6))
        let p = try Y4MParser(stream: ByteStream(bytes: Self.stream(header, frames: 3, frameSize: hdrSize)))
        #expect(p.header.width == 5 && p.header.height == 4)
        #expect(p.header.rateNum == 30000 && p.header.rateDen == 1001 && p.header.aspectNum == 1 && p.header.aspectDen == 1)
        #expect(p.header.frameSize == hdrSize)
        var n = 0
        while let f = p.nextFrame() { #expect(f.count == hdrSize); n += 1 }
        #expect(n == 3 && !p.truncated)
        _ = size
    }

    @Test func badHeaders() {
        #expect(throws: Y4MParseError.notY4M) { try Y4MParser(stream: ByteStream(bytes: Array("RIFF....".utf8))) }
        #expect(throws: Y4MParseError.unsupportedChroma("420p10")) { try Y4MParser.parseHeader(Array("YUV4MPEG2 W2 H2 C420p10".utf8)) }
        #expect(throws: Y4MParseError.badHeader("missing W or H")) { try Y4MParser.parseHeader(Array("YUV4MPEG2 W2".utf8)) }
        #expect(throws: Y4MParseError.badHeader("width '99999'")) { try Y4MParser.parseHeader(Array("YUV4MPEG2 W99999 H2".utf8)) }
    }

    /// A stream cut inside a frame ends cleanly with the cut frame counted as skipped.
    @Test func truncatedStream() throws {
        let dir = Tools.tempDir()
        var b = Self.stream("YUV4MPEG2 W4 H2 F15:1 C420jpeg", frames: 3, frameSize: 12)
        b.removeLast(5)
        Tools.writeBytes(b, dir + "/t.y4m")
        let src = try Y4MSource(path: dir + "/t.y4m")
        var n = 0
        while try src.nextFrame() != nil { n += 1 }
        #expect(n == 2 && src.stats.skippedFrames == 1 && src.info.fps == 15)
    }

    /// Issue #29: a y4m whose only frame is cut short delivers nothing and ends with "no
    /// decodable frame" (`MediaError.malformed`, exit 65), as an AVI or MJPEG file does.
    @Test func allFramesUndecodableIsNoDecodableFrame() throws {
        let dir = Tools.tempDir()
        var b = Self.stream("YUV4MPEG2 W4 H2 F15:1 C420jpeg", frames: 1, frameSize: 12)
        b.removeLast(5)
        Tools.writeBytes(b, dir + "/bad.y4m")
        let src = try Y4MSource(path: dir + "/bad.y4m")
        do {
            _ = try src.nextFrame()
            Issue.record("no error for a y4m with no decodable frame")
        } catch MediaError.malformed(let path, let reason) {
            #expect(path == dir + "/bad.y4m" && reason.contains("no decodable frame"), "\(reason)")
        }
    }

    /// From a pipe (as with `--source -`): frames arrive in order with timestamps from F.
    @Test func fromPipe() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let bytes = Self.stream("YUV4MPEG2 W2 H2 F10:1 Cmono", frames: 4, frameSize: 4, fill: 16)
        let writeFD = fds[1]
        let t = Thread {
            bytes.withUnsafeBytes { _ = write(writeFD, $0.baseAddress, $0.count) }
            close(writeFD)
        }
        t.start()
        let src = try Y4MSource(fileDescriptor: fds[0], name: "pipe", ownsDescriptor: true)
        var stamps: [Int] = []
        while let f = try src.nextFrame() { stamps.append(f.timestampMs) }
        src.close()
        #expect(stamps == [0, 100, 200, 300])
    }

    static let approach = TestSupport.shared("media/approach.avi")

    /// y4m written by ffmpeg in each chroma decodes like ffmpeg's own rgb24 conversion of the
    /// same stream (PSNR ≥ 40 dB on frame 1).
    @Test(.enabled(if: approach != nil && Tools.haveFFmpeg, "../shared/media/approach.avi or ffmpeg absent"),
          arguments: ["yuv420p", "yuv422p", "yuv444p", "gray"])
    func matchesFFmpeg(pixFmt: String) throws {
        let dir = Tools.tempDir()
        let y4m = dir + "/a.y4m"
        let (st, _, err) = try Tools.run(Tools.ffmpeg!, ["-v", "error", "-i", Self.approach!, "-frames:v", "3", "-vf", "scale=160:120",
                                                         "-pix_fmt", pixFmt, "-strict", "-1", "-f", "yuv4mpegpipe", y4m])
        #expect(st == 0, "\(err)")
        let (st2, raw, err2) = try Tools.run(Tools.ffmpeg!, ["-v", "error", "-i", y4m, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
        #expect(st2 == 0, "\(err2)")
        let src = try Y4MSource(path: y4m)
        #expect(src.info.width == 160 && src.info.height == 120 && src.info.fps == 15)
        let f = try #require(try src.nextFrame())
        let oracle = Image(width: 160, height: 120, layout: .rgb, pixels: [UInt8](raw))
        let psnr = try #require(ImageMetrics.psnr(f.rgb, oracle))
        #expect(psnr >= 40, "\(pixFmt): PSNR \(psnr) dB")
        var n = 1
        while try src.nextFrame() != nil { n += 1 }
        #expect(n == 3)
    }
}

@Suite struct ConvertTests {
    /// BT.601 limited range: Y=235 white, Y=16 black, (81, 90, 240) red, (145, 54, 34) green.
    @Test func yuyvKnownColours() throws {
        let data: [UInt8] = [235, 128, 16, 128,  81, 90, 81, 240,  145, 54, 145, 34]
        let img = try #require(PixelConvert.yuyvToRGB(data[...], width: 2, height: 3))
        #expect(Array(img.pixels[0..<6]) == [255, 255, 255, 0, 0, 0])
        let red = Array(img.pixels[6..<9]), green = Array(img.pixels[12..<15])
        #expect(red[0] >= 253 && red[1] <= 2 && red[2] <= 2, "\(red)")
        #expect(green[0] <= 2 && green[1] >= 253 && green[2] <= 2, "\(green)")
        let gray = try #require(PixelConvert.yuyvToGray(data[...], width: 2, height: 3))
        #expect(gray.pixels == [255, 0, 76, 76, 150, 150])   // (Y-16)·255/219: 75.7, 150.2
        // Short buffer → nil (the camera counts it as skipped).
        #expect(PixelConvert.yuyvToRGB(data[0..<10], width: 2, height: 3) == nil)
        // Driver row padding (bytesperline 8 for width 2).
        let padded: [UInt8] = [235, 128, 16, 128, 9, 9, 9, 9,  81, 90, 81, 240]
        #expect(PixelConvert.yuyvToRGB(padded[...], width: 2, height: 2, bytesPerLine: 8)?.pixels[0..<6] == [255, 255, 255, 0, 0, 0])
    }

    /// NV12 and I420 of the same picture give the same RGB.
    @Test func nv12MatchesI420() throws {
        let w = 4, h = 2
        let y: [UInt8] = [16, 60, 120, 235, 81, 145, 41, 200]
        let u: [UInt8] = [90, 54], v: [UInt8] = [240, 34]
        let i420 = try #require(PixelConvert.i420ToRGB((y + u + v)[...], width: w, height: h))
        let nv12 = try #require(PixelConvert.nv12ToRGB((y + [u[0], v[0], u[1], v[1]])[...], width: w, height: h))
        #expect(i420 == nv12)
        #expect(PixelConvert.nv12ToRGB(y[...], width: w, height: h) == nil)
    }

    @Test func areaAndNearest() {
        let img = Image(width: 4, height: 2, layout: .gray, pixels: [0, 10, 20, 30, 40, 50, 60, 71])
        #expect(Scale.area(img, width: 2, height: 1).pixels == [25, 45])   // (0+10+40+50)/4, (20+30+60+71)/4 = 45.25
        #expect(Scale.nearest(img, width: 2, height: 1).pixels == [50, 71])
        #expect(Scale.nearest(img, width: 8, height: 2).pixels[0..<8] == [0, 0, 10, 10, 20, 20, 30, 30])
        #expect(Scale.crop(img, x: 3, y: 1, width: 5, height: 5)?.pixels == [71])
        #expect(Scale.crop(img, x: 9, y: 0, width: 1, height: 1) == nil)
    }
}
