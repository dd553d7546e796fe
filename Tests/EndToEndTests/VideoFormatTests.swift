import Foundation
import Testing
import TestSupport

/// `--video-format avi|mp4` (issue #12) on the built binary, headless: the MP4 of a real run
/// checked with ffprobe against result.json and the source, its pictures against the AVI of the
/// same run (ffmpeg's psnr filter), its size, and that no abort leaves an .mp4 or a temporary file.
@Suite(.serialized) struct VideoFormatTests {
    static let bin = Harness.binary
    static let ffprobe = Harness.tool("ffprobe"), ffmpeg = Harness.tool("ffmpeg")
    static let ready = bin != nil && TestSupport.shared("media/approach.avi") != nil && ffprobe != nil && ffmpeg != nil
    static let why = "needs the built binary, ../shared/media and ffprobe/ffmpeg (not found: skipped)"

    struct Run {
        var result: Harness.Result
        var events: [[String: Any]]
        var output: String
        var json: [String: Any]
    }

    static func capture(_ format: String, _ extra: [String] = [], clip: String = "approach") throws -> Run {
        let dir = Harness.tempDir("sc-\(format)")
        let out = dir + "/out", events = dir + "/events.jsonl"
        let src = try #require(TestSupport.shared("media/\(clip).avi"))
        let r = try Harness.run(try #require(bin), ["--source", src, "--pace", "fast", "--output", out, "--events", events,
                                                    "--video-format", format] + extra, timeout: 300)
        let text = (try? String(contentsOfFile: events, encoding: .utf8)) ?? ""
        let parsed = text.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
        let data = (try? Data(contentsOf: URL(fileURLWithPath: out + "/result.json"))) ?? Data()
        let json = ((try? JSONSerialization.jsonObject(with: data)) as? [String: Any]) ?? [:]
        return Run(result: r, events: parsed, output: out, json: json)
    }

    /// ffprobe's `key=value` lines for the first video stream, frames counted.
    static func probe(_ path: String) throws -> [String: String] {
        let p = try Harness.run(try #require(ffprobe), ["-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                                                        "stream=codec_name,pix_fmt,r_frame_rate,nb_read_frames:format=duration",
                                                        "-of", "default=noprint_wrappers=1", path])
        #expect(p.code == 0, "ffprobe: \(p.err)")
        var d: [String: String] = [:]
        for line in p.out.split(separator: "\n") {
            let kv = line.split(separator: "=", maxSplits: 1).map(String.init)
            if kv.count == 2 { d[kv[0]] = kv[1] }
        }
        return d
    }

    /// PSNR (dB, average over R, G, B) between frame `n` of two videos, from ffmpeg's psnr filter;
    /// both are converted to rgb24 first (the AVI is full-range 4:2:2 JPEG, the MP4 limited-range
    /// 4:2:0), so the figure is about the pictures, not the pixel formats.
    static func psnr(_ a: String, _ b: String, frame n: Int) throws -> Double? {
        let graph = "[0:v]select=eq(n\\,\(n)),format=rgb24[a];[1:v]select=eq(n\\,\(n)),format=rgb24[b];[a][b]psnr"
        let r = try Harness.run(try #require(ffmpeg), ["-hide_banner", "-i", a, "-i", b, "-filter_complex", graph,
                                                       "-frames:v", "1", "-f", "null", "-"])
        guard let line = r.err.split(separator: "\n").last(where: { $0.contains("PSNR") }),
              let range = line.range(of: "average:") else { return nil }
        return Double(line[range.upperBound...].prefix { $0 != " " })
    }

    static func named(_ name: String, _ events: [[String: Any]]) -> [[String: Any]] {
        events.filter { $0["event"] as? String == name }
    }

    /// The entries directly in `path`, sorted, hidden ones (a `.video.mp4.partial`) included.
    static func topLevel(_ path: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }

    /// Every file and folder under `path`, relative, sorted (hidden ones included).
    static func tree(_ path: String) -> [String] {
        guard let e = FileManager.default.enumerator(atPath: path) else { return [] }
        return (e.allObjects as? [String] ?? []).sorted()
    }

    /// The same capture in both formats: the MP4 is H.264 yuv420p at the source's frame rate,
    /// holds result.json's frameCount frames over its durationMs (within one frame), matches the
    /// AVI's frames 0 and middle at ≥ 38 dB, and is at most 25 % of its size. result.json and
    /// `videoRecordEnded` name container and codec.
    @Test(.enabled(if: ready, .init(rawValue: why)))
    func mp4MatchesTheSourceAndTheAVI() throws {
        let mp4 = try Self.capture("mp4", ["--renderer", "null"])
        let avi = try Self.capture("avi", ["--renderer", "null"])
        #expect(mp4.result.code == 0, "stderr: \(mp4.result.err)")
        #expect(avi.result.code == 0, "stderr: \(avi.result.err)")
        let mp4Path = mp4.output + "/video.mp4", aviPath = avi.output + "/video.avi"

        // result.json: the old keys, and the video's container and codec.
        #expect(mp4.json["videoFilePath"] as? String == mp4Path)
        let video = try #require(mp4.json["video"] as? [String: Any])
        #expect(video["path"] as? String == mp4Path && video["container"] as? String == "mp4" && video["codec"] as? String == "h264")
        #expect((avi.json["video"] as? [String: Any])?["container"] as? String == "avi")
        #expect((avi.json["video"] as? [String: Any])?["codec"] as? String == "mjpeg")
        #expect((mp4.json["settings"] as? [String: Any])?["videoFormat"] as? String == "mp4")
        let ended = try #require(Self.named("videoRecordEnded", mp4.events).first)
        #expect(ended["container"] as? String == "mp4" && ended["codec"] as? String == "h264")
        #expect(Self.named("videoRecordEnded", avi.events).first?["codec"] as? String == "mjpeg")

        // ffprobe against the source and result.json.
        let frameCount = try #require(mp4.json["frameCount"] as? Int)
        let durationMs = try #require(mp4.json["durationMs"] as? Int)
        #expect(frameCount == avi.json["frameCount"] as? Int && frameCount > 1)
        let source = try Self.probe(try #require(TestSupport.shared("media/approach.avi")))
        let p = try Self.probe(mp4Path)
        #expect(p["codec_name"] == "h264" && p["pix_fmt"] == "yuv420p", "ffprobe: \(p)")
        #expect(p["r_frame_rate"] == source["r_frame_rate"] && p["r_frame_rate"] == "15/1", "ffprobe: \(p) source: \(source)")
        #expect(p["nb_read_frames"] == String(frameCount), "ffprobe: \(p)")
        let duration = try #require(p["duration"].flatMap(Double.init))
        #expect(abs(duration * 1000 - Double(durationMs)) <= 1000.0 / 15, "duration \(duration) s vs \(durationMs) ms")

        // Pictures: frame 0 and the middle frame against the AVI of the same run.
        for n in [0, frameCount / 2] {
            let db = try #require(try Self.psnr(mp4Path, aviPath, frame: n))
            #expect(db >= 38, "frame \(n): PSNR \(db) dB")
            print("mp4 vs avi frame \(n): PSNR \(db) dB")
        }

        // Size: at most a quarter of the AVI's.
        let mp4Bytes = try #require(try FileManager.default.attributesOfItem(atPath: mp4Path)[.size] as? Int)
        let aviBytes = try #require(try FileManager.default.attributesOfItem(atPath: aviPath)[.size] as? Int)
        #expect(Double(mp4Bytes) <= 0.25 * Double(aviBytes), "mp4 \(mp4Bytes) B vs avi \(aviBytes) B")
        print("1 s 640x480: mp4 \(mp4Bytes) B, avi \(aviBytes) B (\(Int((100 * Double(mp4Bytes) / Double(aviBytes)).rounded())) %)")
        #expect(video["bytes"] as? Int == mp4Bytes)

        // Files: 0600, no temporary file, no AVI.
        #expect(Self.topLevel(mp4.output) == ["frames", "manifest.json", "reference.jpg", "result.json", "video.mp4"], "\(Self.tree(mp4.output))")
        // The manifest lists the MP4 and the folder verifies.
        let manifest = (try? String(contentsOfFile: mp4.output + "/manifest.json", encoding: .utf8)) ?? ""
        #expect(manifest.contains("\"video.mp4\""), "manifest: \(manifest.prefix(400))")
        let verify = try Harness.run(try #require(Self.bin), ["verify", mp4.output])
        #expect(verify.code == 0, "verify: \(verify.err)")
        #expect(try FileManager.default.attributesOfItem(atPath: mp4Path)[.posixPermissions] as? Int == 0o600)
    }

    /// q or Ctrl-C during an MP4 recording: exit 130, and neither an .mp4 nor a temporary file
    /// (nor the output folder the run created) is left.
    @Test(.enabled(if: ready, .init(rawValue: why)), arguments: ["q", "ctrl-c"])
    func cancelDuringRecordingLeavesNoMP4(key: String) throws {
        let run = try Self.capture("mp4", ["--renderer", "null",
                                           "--keys", "enter; enter; wait-for cameraReady; s; wait-for videoRecordProgress; \(key)"])
        #expect(run.result.code == 130, "stderr: \(run.result.err)")
        #expect(!Self.named("videoRecordProgress", run.events).isEmpty, "it was recording")
        #expect(Self.named("videoRecordEnded", run.events).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: run.output), "left: \(Self.tree(run.output))")
    }
}
