import Foundation
import Media
import Testing
import TestSupport

/// Bad MJPEG frames through the whole app (issue #14, bug reports JPG-01..06): a camera-like
/// `.mjpeg` stream made from a shared clip, with the Huffman tables stripped from every frame, a
/// truncated frame before every 25th, a doubled SOI and an odd-sized first frame. The capture
/// must still record; every skip is counted by reason in the `frameCounts` event and in
/// result.json; every saved JPEG (video and stills) carries Huffman tables.
@Suite(.serialized) struct FrameFaultTests {
    static let bin = Harness.binary
    static let ffmpeg = Harness.tool("ffmpeg")
    static let clip = TestSupport.shared("media/approach.avi")
    static let ready = bin != nil && clip != nil && ffmpeg != nil
    static let why = "needs the built binary, ../shared/media/approach.avi and ffmpeg (not found: skipped)"

    /// The clip's JPEG frames, as stored (ffmpeg `-c copy -f mjpeg`).
    static func frames(_ dir: String) throws -> [[UInt8]] {
        let raw = dir + "/raw.mjpeg"
        let r = try Harness.run(try #require(ffmpeg), ["-v", "error", "-i", try #require(clip), "-c", "copy", "-f", "mjpeg", "-y", raw])
        #expect(r.code == 0, "\(r.err)")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: raw)))
        return MJPEGStreamParser.split(bytes).filter(\.complete).map { Array(bytes[$0.range]) }
    }

    /// `jpeg` without its DHT segments (a UVC camera may omit them).
    static func stripDHT(_ j: [UInt8]) -> [UInt8] {
        var out = Array(j[0..<2]), p = 2
        while p + 3 < j.count, j[p] == 0xFF {
            let m = j[p + 1], len = Int(j[p + 2]) << 8 | Int(j[p + 3])
            if m == 0xDA { break }
            if m != 0xC4 { out += j[p..<(p + 2 + len)] }
            p += 2 + len
        }
        return out + j[p...]
    }

    func events(_ path: String) -> [[String: Any]] {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
    }

    @Test(.enabled(if: ready, .init(rawValue: why))) func damagedStreamRecordsAndCountsEverything() throws {
        let dir = Harness.tempDir("sc-faults")
        let good = try Self.frames(dir)
        try #require(good.count > 50)
        // The stream as items, so the expected counts follow from how far the run read.
        enum Kind { case odd, good, truncated }
        var items: [(bytes: [UInt8], kind: Kind)] = [
            (try JPEGCodec.encode(Image(width: 32, height: 32, layout: .gray, pixels: .init(repeating: 90, count: 1024))), .odd)]
        for (i, j) in good.enumerated() {
            let bare = Self.stripDHT(j)
            if i % 25 == 12 { items.append((Array(bare.prefix(bare.count * 2 / 3)), .truncated)) }
            // Each frame twice: the .mjpeg source runs at 30 fps, the clip was made at 15.
            items.append(((i == 7 ? [0xFF, 0xD8] : []) + bare, .good))
            items.append((bare, .good))
        }
        let src = dir + "/damaged.mjpeg", out = dir + "/out", ev = dir + "/events.jsonl"
        try Data(items.flatMap(\.bytes)).write(to: URL(fileURLWithPath: src))
        let r = try Harness.run(try #require(Self.bin), ["--source", src, "--pace", "fast", "--renderer", "null",
                                                         "--output", out, "--events", ev], timeout: 300)
        #expect(r.code == 0, "\(r.err)")
        let counts = try #require(events(ev).last { $0["event"] as? String == "frameCounts" })
        // The run stops reading once it has recorded: count what the first `read` items hold.
        let read = try #require(counts["read"] as? Int)
        let seen = items.prefix(read)
        let truncated = seen.filter { $0.kind == .truncated }.count
        #expect(truncated >= 2, "the run read past two truncated frames")
        #expect(counts["skippedTruncated"] as? Int == truncated)
        #expect(counts["skippedWrongSize"] as? Int == 1)
        #expect(counts["skipped"] as? Int == truncated + 1)
        #expect(counts["delivered"] as? Int == seen.filter { $0.kind == .good }.count)
        // Every delivered frame lacked tables, the doubled-SOI one included (not dropped).
        #expect(counts["huffmanInserted"] as? Int == counts["delivered"] as? Int)
        #expect(r.err.contains("skipped (") && r.err.contains("truncated"), "\(r.err)")
        // result.json carries the same counts (as of the moment it was written).
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/result.json"))) as? [String: Any])
        let sf = try #require(json["sourceFrames"] as? [String: Any])
        #expect((sf["skippedByReason"] as? [String: Int])?["wrongSize"] == 1)
        #expect((sf["analysed"] as? Int ?? 0) > 0)
        // Every JPEG saved carries Huffman tables: the video's chunks and the stills.
        let avi = try AVIFileSource(path: out + "/video.avi")
        var n = 0
        while let f = try avi.nextFrame() { n += 1; #expect(JPEGHuffman.tables(in: try #require(f.jpeg))?.count == 4) }
        #expect(n > 0 && avi.stats.huffmanInsertedFrames == 0)
        let stills = try FileManager.default.contentsOfDirectory(atPath: out + "/frames")
        #expect(!stills.isEmpty)
        for s in stills {
            let b = try [UInt8](Data(contentsOf: URL(fileURLWithPath: out + "/frames/" + s)))
            #expect(JPEGHuffman.tables(in: b)?.count == 4, "\(s)")
        }
    }

    /// A stream none of whose frames decodes: "no decodable frame in …", exit 65 (bad data),
    /// not "ended before the capture completed".
    @Test(.enabled(if: bin != nil, "needs the built binary")) func noDecodableFrame() throws {
        let dir = Harness.tempDir("sc-faults")
        let j = try JPEGCodec.encode(Image(width: 64, height: 48, layout: .gray, pixels: .init(repeating: 90, count: 64 * 48)))
        let cut = Array(j.prefix(j.count / 2))
        let src = dir + "/cut.mjpeg", avi = dir + "/cut.avi"
        try Data(cut + cut + cut).write(to: URL(fileURLWithPath: src))
        let w = try MJPEGAVIWriter(path: avi, width: 64, height: 48, fps: 10)
        for _ in 0..<4 { try w.append(jpeg: cut) }
        try w.finalize()
        for path in [src, avi] {
            let r = try Harness.run(try #require(Self.bin), ["--source", path, "--pace", "fast", "--renderer", "null",
                                                             "--output", dir + "/out"], timeout: 120)
            #expect(r.code == 65, "\(path): \(r.code) \(r.err)")
            #expect(r.err.contains("no decodable frame in"), "\(r.err)")
            #expect(!FileManager.default.fileExists(atPath: dir + "/out/result.json"))
        }
    }
}
