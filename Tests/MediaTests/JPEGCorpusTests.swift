import Foundation
import Testing
@testable import Media

/// The JPG-* rows of ../shared/corpus/bug-reports.md, as small frames made here.
@Suite struct JPEGCorpusTests {
    static let picture = Tools.picture(width: 64, height: 48)
    static func jpeg() throws -> [UInt8] { try JPEGCodec.encode(picture, quality: 85) }

    /// Header segments before SOS: (marker, start index of 0xFF, end index).
    static func segments(_ j: [UInt8]) -> [(marker: UInt8, start: Int, end: Int)] {
        var out: [(UInt8, Int, Int)] = []
        var p = 2
        while p + 3 < j.count, j[p] == 0xFF {
            let m = j[p + 1]
            let len = Int(j[p + 2]) << 8 | Int(j[p + 3])
            out.append((m, p, p + 2 + len))
            if m == 0xDA { break }
            p += 2 + len
        }
        return out
    }
    static func stripDHT(_ j: [UInt8]) -> [UInt8] {
        var out = j
        for s in segments(j).reversed() where s.marker == 0xC4 { out.removeSubrange(s.start..<s.end) }
        return out
    }

    /// JPG-01/02: a webcam frame with no DHT (standard Annex K tables implied) decodes to the
    /// very same pixels as with its tables, with no warning.
    @Test("JPG-01: a frame without DHT decodes with the standard tables") func noDHTDecodes() throws {
        let j = try Self.jpeg()
        let stripped = Self.stripDHT(j)
        #expect(Self.segments(stripped).allSatisfy { $0.marker != 0xC4 } && stripped.count < j.count)
        let a = try JPEGCodec.decode(j), b = try JPEGCodec.decode(stripped)
        #expect(b.warning == nil)
        #expect(a.image == b.image)
        // Saved frames are always written with DHT (JPG-02): our encoder's output has it.
        #expect(Self.segments(j).contains { $0.marker == 0xC4 })
    }

    /// JPG-03/04/07: extraneous bytes before a marker give a *warning*: the image is still
    /// returned (same pixels) and the source counts it as warned, not skipped.
    @Test("JPG-03: extraneous bytes before a marker are a warning, not a drop") func extraneousBytesAreAWarning() throws {
        let j = try Self.jpeg()
        let sof = try #require(Self.segments(j).first { $0.marker == 0xC0 })
        var bad = j
        bad.insert(contentsOf: [0x12, 0x34], at: sof.start)
        let r = try JPEGCodec.decode(bad)
        let warning = try #require(r.warning)
        #expect(warning.contains("extraneous bytes before marker"), "\(warning)")
        #expect(r.image == (try JPEGCodec.decode(j)).image)
        var d = JPEGFrameDecoder(expectedWidth: 64, expectedHeight: 48)
        #expect(d.decode(bad) != nil)
        #expect(d.stats.skippedFrames == 0 && d.stats.warnedFrames == 1 && d.stats.deliveredFrames == 1)
    }

    /// JPG-05: a header claiming 65500×65500 is rejected at once (named error, no allocation, no
    /// hang), and a frame whose size differs from the negotiated one is skipped.
    @Test("JPG-05: a header claiming 65500×65500 or another size is rejected") func hugeHeaderRejected() throws {
        var j = try Self.jpeg()
        let sof = try #require(Self.segments(j).first { $0.marker == 0xC0 })
        j[sof.start + 5] = 0xFF; j[sof.start + 6] = 0xDC   // height 65500
        j[sof.start + 7] = 0xFF; j[sof.start + 8] = 0xDC   // width 65500
        j += [UInt8](repeating: 0x5A, count: 100)
        #expect(throws: JPEGError.unexpectedSize(width: 65500, height: 65500)) { try JPEGCodec.decode(j) }
        var d = JPEGFrameDecoder(expectedWidth: 64, expectedHeight: 48)
        #expect(d.decode(j) == nil)
        #expect(d.decode(try JPEGCodec.encode(Tools.picture(width: 32, height: 48))) == nil)   // size mismatch
        #expect(d.stats.skipped == [.wrongSize: 2] && d.stats.warnedFrames == 0)
    }

    /// JPG-06: truncated frames (cut anywhere) never crash and are never delivered half grey:
    /// each is skipped and counted, as `truncated` once it holds an SOI and more.
    @Test("JPG-06: truncated frames are skipped and counted, never a crash") func truncatedFramesAreCounted() throws {
        let j = try Self.jpeg()
        var d = JPEGFrameDecoder(expectedWidth: 64, expectedHeight: 48)
        let cuts = [0, 1, 2, 10, j.count / 3, j.count / 2, j.count - 40, j.count - 2]
        for c in cuts { #expect(d.decode(Array(j.prefix(c))) == nil, "cut at \(c)") }
        #expect(d.stats.skippedFrames == cuts.count && d.stats.deliveredFrames == 0)
        #expect(d.stats.skipped[.truncated] == 5 && d.stats.skipped[.corrupt] == 3)
        #expect(d.decode(j) != nil)   // the decoder carries no state from the bad frames
    }

    /// JPG-06 in a stream: a frame cut short in its entropy data or in its header (a DHT whose
    /// length runs into the next frame), followed by good frames, does not swallow the next good
    /// frame (the splitter ends it at the next SOI).
    @Test(arguments: [0.3, 0.8]) func truncatedFrameInStreamKeepsTheNext(cutAt fraction: Double) throws {
        let j = try Self.jpeg()
        let sos = try #require(Self.segments(j).first { $0.marker == 0xDA })
        let cut = Array(j.prefix(Int(Double(j.count) * fraction)))
        #expect((cut.count < sos.start) == (fraction < 0.5), "0.3 cuts the header, 0.8 the scan")
        let stream = j + cut + j + j
        let frames = MJPEGStreamParser.split(stream)
        let a = j.count, b = a + cut.count, c = b + j.count
        let expected: [MJPEGStreamParser.Frame] = [
            .init(range: 0..<a, complete: true), .init(range: a..<b, complete: false),
            .init(range: b..<c, complete: true), .init(range: c..<stream.count, complete: true)]
        #expect(frames == expected)
        let dir = Tools.tempDir()
        Tools.writeBytes(stream, dir + "/t.mjpeg")
        let src = try MJPEGFileSource(path: dir + "/t.mjpeg")
        var n = 0
        while try src.nextFrame() != nil { n += 1 }
        #expect(n == 3 && src.stats.skipped == [.truncated: 1] && src.stats.readFrames == 4)
    }

    /// Issue #29: a raw stream's timestamps come from each frame's place in the stream, as an
    /// AVI's do from its chunk position: with the second of four frames cut short, the three
    /// delivered frames are at positions 0, 2 and 3, i.e. 0, 67 and 100 ms at 30 fps.
    @Test func mjpegTimestampsKeepSkippedFramesPlace() throws {
        let j = try Self.jpeg()
        let cut = Array(j.prefix(Int(Double(j.count) * 0.8)))
        let dir = Tools.tempDir()
        Tools.writeBytes(j + cut + j + j, dir + "/skip.mjpeg")
        let src = try MJPEGFileSource(path: dir + "/skip.mjpeg", fps: 30)
        var times: [Int] = []
        while let f = try src.nextFrame() { times.append(f.timestampMs) }
        #expect(times == [0, 67, 100])
    }

    /// JPG-03: a frame with two SOI markers (a repeated SOI, or a header restarted after an APP
    /// segment) is decoded from the last SOI before its scan, not dropped.
    @Test("JPG-03: two SOI markers decode from the last") func twoSOIMarkers() throws {
        let j = try Self.jpeg()
        let clean = try JPEGCodec.decode(j).image
        let app0: [UInt8] = [0xFF, 0xE0, 0x00, 0x06, 0x41, 0x56, 0x49, 0x31]   // "AVI1"
        for bad in [[0xFF, 0xD8] + j, [0xFF, 0xD8] + app0 + j] {
            #expect(throws: (any Error).self) { try JPEGCodec.decode(bad) }   // libjpeg alone refuses it
            var d = JPEGFrameDecoder(expectedWidth: 64, expectedHeight: 48)
            let decoded = d.decodeFrame(bad)
            let r = try #require(decoded)
            #expect(r.image == clean && r.jpeg == j)
            #expect(d.stats.deliveredFrames == 1 && d.stats.skippedFrames == 0)
        }
    }

    /// JPG-05 in a stream: a first frame whose header claims another size does not become the
    /// stream's size; the size most early frames share does, and the odd frame is skipped.
    @Test func oddFirstFrameSize() throws {
        let good = try Self.jpeg()
        let other = try JPEGCodec.encode(Tools.picture(width: 32, height: 32))
        let dir = Tools.tempDir()
        Tools.writeBytes(other + good + good + other + good, dir + "/o.mjpeg")
        let src = try MJPEGFileSource(path: dir + "/o.mjpeg")
        var n = 0
        while try src.nextFrame() != nil { n += 1 }
        #expect(src.info.width == 64 && src.info.height == 48)
        #expect(n == 3 && src.stats.skipped == [.wrongSize: 2])
    }

    /// JPG-01/02: our table constants are byte for byte the tables libjpeg-turbo writes (its
    /// `jstdhuff.c` copy of Annex K.3), for a colour and a grey image.
    @Test func standardTablesAreLibjpegs() throws {
        let colour = try #require(JPEGHuffman.tables(in: try Self.jpeg()))
        #expect(Set(colour.map { "\($0)" }) == Set(JPEGHuffman.standard.map { "\($0)" }))
        let grey = try #require(JPEGHuffman.tables(in: try JPEGCodec.encode(PixelConvert.gray(Self.picture))))
        #expect(Set(grey.map { "\($0)" }) == Set(JPEGHuffman.standard.filter { $0.destination == 0 }.map { "\($0)" }))
    }

    /// JPG-01/02: a frame without DHT is delivered with the standard tables inserted before its
    /// SOS (so saved frames open in any viewer), same pixels; frames with tables are untouched.
    @Test("JPG-02: saved frames always carry Huffman tables") func missingTablesAreInserted() throws {
        let j = try Self.jpeg()
        let stripped = Self.stripDHT(j)
        #expect(JPEGHuffman.tables(in: stripped) == [])
        var d = JPEGFrameDecoder(expectedWidth: 64, expectedHeight: 48)
        let decoded = d.decodeFrame(stripped)
        let r = try #require(decoded)
        #expect(JPEGHuffman.tables(in: r.jpeg)?.count == 4)
        #expect(Self.segments(r.jpeg).filter { $0.marker == 0xC4 }.count == 1)
        #expect(r.image == (try JPEGCodec.decode(j)).image)
        #expect(d.stats.huffmanInsertedFrames == 1)
        let again = d.decodeFrame(j)?.jpeg
        #expect(again == j && d.stats.huffmanInsertedFrames == 1)
        // Through a source: every frame handed on (to the AVI, frames/) carries tables.
        let dir = Tools.tempDir()
        Tools.writeBytes(stripped + stripped, dir + "/n.mjpeg")
        let src = try MJPEGFileSource(path: dir + "/n.mjpeg")
        while let f = try src.nextFrame() { #expect(JPEGHuffman.tables(in: try #require(f.jpeg))?.count == 4) }
        #expect(src.stats.huffmanInsertedFrames == 2)
    }

    /// A source none of whose frames decodes says so (exit 65 in the app), for a raw stream
    /// and for an AVI whose every chunk is bad.
    @Test func noDecodableFrame() throws {
        let j = try Self.jpeg()
        let dir = Tools.tempDir()
        let cut = Array(j.prefix(j.count / 2))
        Tools.writeBytes(cut + cut + cut, dir + "/cut.mjpeg")
        #expect(throws: MediaError.self) { try MJPEGFileSource(path: dir + "/cut.mjpeg") }
        do { _ = try MJPEGFileSource(path: dir + "/cut.mjpeg") } catch let MediaError.malformed(_, reason) {
            #expect(reason.hasPrefix("no decodable frame in"), "\(reason)")
        }
        let w = try MJPEGAVIWriter(path: dir + "/bad.avi", width: 64, height: 48, fps: 10)
        for _ in 0..<3 { try w.append(jpeg: cut) }
        try w.finalize()
        let avi = try AVIFileSource(path: dir + "/bad.avi")
        #expect {
            while try avi.nextFrame() != nil {}
        } throws: { e in
            guard case MediaError.malformed(_, let reason) = e else { return false }
            return reason.contains("no decodable frame") && reason.contains("3 truncated")
        }
    }

    /// Garbage and zero-length frames are fatal errors: skipped and counted.
    @Test func garbageAndEmpty() throws {
        #expect(throws: JPEGError.decode("empty JPEG data")) { try JPEGCodec.decode([]) }
        #expect(throws: (any Error).self) { try JPEGCodec.decode([UInt8](repeating: 0x42, count: 500)) }
        var d = JPEGFrameDecoder()
        #expect(d.decode([]) == nil && d.decode([0xFF, 0xD8, 0xFF]) == nil && d.decode(Array(repeating: 7, count: 99)) == nil)
        #expect(d.stats.skippedFrames == 3)
    }

    /// JPG-09: 960×540 (540 is not a multiple of 16) decodes at full size; the last, partial MCU
    /// row matches the original (no green band).
    @Test("JPG-09: 960×540 decodes its partial MCU row") func partialMCURows() throws {
        let pic = Tools.picture(width: 960, height: 540)
        let r = try JPEGCodec.decode(try JPEGCodec.encode(pic, quality: 90))
        #expect(r.image.width == 960 && r.image.height == 540 && r.warning == nil)
        let bottom = { (i: Image) in Scale.crop(i, x: 0, y: 528, width: 960, height: 12)! }
        let psnr = try #require(ImageMetrics.psnr(bottom(r.image), bottom(pic)))
        #expect(psnr >= 30, "bottom rows PSNR \(psnr)")
    }

    /// JPG-10: several 0xFF fill bytes before EOI: decodes without error, and the stream
    /// splitter ends the frame at that EOI.
    @Test("JPG-10: 0xFF fill bytes before EOI") func fillBytesBeforeEOI() throws {
        var j = try Self.jpeg()
        j.insert(contentsOf: [0xFF, 0xFF, 0xFF, 0xFF], at: j.count - 2)
        let r = try JPEGCodec.decode(j)
        let clean = try JPEGCodec.decode(try Self.jpeg()).image
        #expect(r.warning == nil && r.image == clean)
        let frames = MJPEGStreamParser.split(j + j)
        #expect(frames == [.init(range: 0..<j.count, complete: true), .init(range: j.count..<(2 * j.count), complete: true)])
    }

    /// JPG-11: padding/junk after EOI is ignored by the decoder and trimmed by the splitter.
    @Test("JPG-11: junk after EOI is ignored and trimmed") func junkAfterEOI() throws {
        let j = try Self.jpeg()
        let padded = j + [0x00, 0x00, 0x12, 0xFF, 0x00, 0xAB]
        let r = try JPEGCodec.decode(padded)
        let clean = try JPEGCodec.decode(j).image
        #expect(r.warning == nil && r.image == clean)
        #expect(MJPEGStreamParser.endOfImage(padded, soi: 0) == j.count)
    }

    /// JPG-13: YUV black (Y=16, U=V=128) converts to RGB black, not green.
    @Test("JPG-13: YUV black is black, not green") func yuvBlackIsBlack() throws {
        let img = try #require(PixelConvert.i420ToRGB(ArraySlice([16, 16, 16, 16, 128, 128]), width: 2, height: 2))
        #expect(img.pixels == [UInt8](repeating: 0, count: 12))
    }

    /// Decoding straight to gray and scaled by 1/2 and 1/4 (sizes round up).
    @Test func grayAndScaled() throws {
        let j = try JPEGCodec.encode(Tools.picture(width: 66, height: 50), quality: 95)
        let full = try JPEGCodec.decode(j, layout: .gray).image
        #expect(full.layout == .gray && full.width == 66)
        let fromRGB = PixelConvert.gray(try JPEGCodec.decode(j).image)
        #expect(try #require(ImageMetrics.psnr(full, fromRGB)) > 40)
        #expect(try JPEGCodec.decode(j, layout: .gray, scaleDenominator: 2).image.width == 33)
        let q = try JPEGCodec.decode(j, layout: .gray, scaleDenominator: 4).image
        #expect(q.width == 17 && q.height == 13)
        let f = VideoFrame(index: 0, timestampMs: 0, rgb: try JPEGCodec.decode(j).image, jpeg: j)
        #expect(f.gray(scaleDenominator: 4) == q)
        #expect(f.gray == full)
    }

    /// An MJPEG frame holds gray from the start and decodes RGB when asked, at the scale a
    /// preview of a given pixel size needs (libjpeg's 1/8…1 sizes, rounded up).
    @Test func lazyRGBAtPreviewScale() throws {
        let j = try JPEGCodec.encode(Tools.picture(width: 640, height: 480), quality: 90)
        let f = VideoFrame(index: 0, timestampMs: 0, jpeg: j, gray: try JPEGCodec.decode(j, layout: .gray).image)
        #expect(f.width == 640 && f.height == 480)
        let eighth = f.rgb(covering: 80, 48)
        #expect(eighth.width == 80 && eighth.height == 60 && eighth.layout == .rgb)
        #expect(eighth == (try JPEGCodec.decode(j, layout: .rgb, scaleDenominator: 8).image))
        #expect(f.rgb(covering: 100, 60).width == 160)     // 1/8 is 80 wide: too small
        #expect(f.rgb(covering: 320, 240).width == 320)
        #expect(f.rgb(covering: 700, 10).width == 640)     // larger than the frame: full size
        #expect(f.rgb == (try JPEGCodec.decode(j).image))
        // A raw frame scales its RGB by area averaging.
        let raw = VideoFrame(index: 0, timestampMs: 0, rgb: Tools.picture(width: 64, height: 48))
        #expect(raw.rgb(covering: 8, 6) == Scale.area(raw.rgb, width: 8, height: 6))
    }

    /// An .mjpeg stream mixing good, warned, oversized and garbage frames: 3 delivered, 1 warned,
    /// 1 skipped, timestamps at the nominal 30 fps from each frame's place in the stream (the
    /// skipped fourth frame keeps its place: the last good frame is at 3 × 33.3 ms, issue #29).
    @Test func mjpegStreamCounts() throws {
        let good = try Self.jpeg()
        var warned = good
        let sof = try #require(Self.segments(good).first { $0.marker == 0xC0 })
        warned.insert(contentsOf: [0x12, 0x34], at: sof.start)
        let other = try JPEGCodec.encode(Tools.picture(width: 32, height: 32))
        let stream = good + [0, 1, 2] + warned + Array("garbage".utf8) + other + good
        let dir = Tools.tempDir()
        Tools.writeBytes(stream, dir + "/s.mjpeg")
        let src = try MJPEGFileSource(path: dir + "/s.mjpeg")
        var stamps: [Int] = []
        while let f = try src.nextFrame() { stamps.append(f.timestampMs); #expect(f.jpeg != nil) }
        #expect(stamps == [0, 33, 100])
        #expect(src.stats.skipped == [.wrongSize: 1] && src.stats.warnedFrames == 1 && src.stats.deliveredFrames == 3)
        #expect(src.info.kind == .mjpegStream && src.info.width == 64 && src.info.fps == 30)
    }
}

/// JPG rows about libjpeg warnings, named by id.
@Suite struct JPEGWarningRowTests {
    static func warned() throws -> [UInt8] {
        let j = try JPEGCorpusTests.jpeg()
        let sof = try #require(JPEGCorpusTests.segments(j).first { $0.marker == 0xC0 })
        var bad = j
        bad.insert(contentsOf: [0x12, 0x34], at: sof.start)
        return bad
    }

    @Test("JPG-04: a warning is not a failure when decoding to grey (the error code is checked, not -1)")
    func warningToGrey() throws {
        let r = try JPEGCodec.decode(try Self.warned(), layout: .gray)
        #expect(r.warning != nil)
        #expect(r.image == (try JPEGCodec.decode(try JPEGCorpusTests.jpeg(), layout: .gray)).image)
    }

    @Test("JPG-07: a stream whose every frame warns is usable: all delivered, all counted as warned")
    func everyFrameWarns() throws {
        let w = try Self.warned()
        let dir = Tools.tempDir()
        Tools.writeBytes(Array([[UInt8]](repeating: w, count: 5).joined()), dir + "/w.mjpeg")
        let src = try MJPEGFileSource(path: dir + "/w.mjpeg")
        var n = 0
        while try src.nextFrame() != nil { n += 1 }
        #expect(n == 5 && src.stats.warnedFrames == 5 && src.stats.skippedFrames == 0)
    }
}

/// JPG-01/02 with partial tables: an empty DHT segment, or one defining only some tables, gets
/// the missing standard ones (found by the JPEG-frame fuzzer: an empty DHT used to pass as
/// "has tables"). Pixels unchanged.
@Suite struct PartialHuffmanTests {
    @Test("JPG-01: an empty or partial DHT gets the missing standard tables")
    func partialTables() throws {
        let j = try JPEGCorpusTests.jpeg()
        let bare = JPEGCorpusTests.stripDHT(j)
        let sos = try #require(JPEGCorpusTests.segments(bare).first { $0.marker == 0xDA })
        let dcOnly = JPEGHuffman.dhtSegment(JPEGHuffman.standard.filter { $0.tableClass == 0 })
        for header: [UInt8] in [[0xFF, 0xC4, 0x00, 0x02], dcOnly] {
            var frame = bare
            frame.insert(contentsOf: header, at: sos.start)
            let r = JPEGHuffman.withStandardTables(frame)
            #expect(r.inserted)
            let tables = try #require(JPEGHuffman.tables(in: r.jpeg))
            #expect(Set(tables.map { "\($0)" }) == Set(JPEGHuffman.standard.map { "\($0)" }))
            #expect((try JPEGCodec.decode(r.jpeg)).image == (try JPEGCodec.decode(j)).image)
        }
    }
}
