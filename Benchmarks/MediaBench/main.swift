// media-bench: the measuring half of Benchmarks/media.sh (release build only).
//   media-bench decode FILE.avi            decode every frame to RGB; prints "frames N seconds S"
//   media-bench decode-gray FILE.avi       decode every frame as a source does (luma at the
//                                          analysis scale); prints mean ms per frame
//   media-bench record SRC.avi OUT.avi S   paced realtime recording of S seconds at SRC's rate,
//                                          frames decoded (like the app) and stored as is;
//                                          prints "frames N dropped D seconds S"; OUT.mp4 records
//                                          H.264 through MP4Writer instead of MJPEG AVI
//   media-bench encode SRC.avi N           encode N frames (SRC's first 30 decoded to RGB
//                                          beforehand, cycled) as JPEG q90 (the MJPEG anchor)
//                                          and as H.264 (MP4Writer, finalize included); prints
//                                          "jpeg_ms_per_frame A mp4_ms_per_frame B"
import Foundation
import Media

func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

let args = CommandLine.arguments
guard args.count >= 3 else {
    FileHandle.standardError.write("usage: media-bench decode FILE.avi | record SRC.avi OUT.avi|OUT.mp4 SECONDS | encode SRC.avi N\n".data(using: .utf8)!)
    exit(64)
}
do {
    switch args[1] {
    case "decode":
        let src = try AVIFileSource(path: args[2])
        let t0 = now()
        var n = 0
        while try src.nextFrame() != nil { n += 1 }
        print("frames \(n) skipped \(src.stats.skippedFrames) seconds \(String(format: "%.3f", now() - t0))")
    case "decode-gray":
        // What a source's reader does per MJPEG frame (issue #16): validate and decode the luma at
        // the analysis scale (AnalysisScale); prints the mean ms per frame.
        let src = try AVIFileSource(path: args[2])
        let t0 = now()
        var n = 0
        while try src.nextFrame() != nil { n += 1 }
        print(String(format: "%.2f", (now() - t0) * 1000 / Double(max(n, 1))))
    case "record":
        guard args.count >= 5, let seconds = Double(args[4]) else { exit(64) }
        let spec = args[2]
        let source = try LoopingSource { try AVIFileSource(path: spec) }
        let info = source.info
        let out = args[3]
        try? FileManager.default.removeItem(atPath: out)
        let writer: any VideoWriter = out.hasSuffix(".mp4")
            ? try MP4Writer(path: out, width: info.width, height: info.height, fps: info.fps)
            : try MJPEGAVIWriter(path: out, width: info.width, height: info.height, fps: info.fps)
        let pacer = Pacer(mode: .realtime, clock: SystemClock(), resyncAfterMs: 1_000_000)
        let period = 1000 / info.fps
        let total = Int(seconds * info.fps)
        var dropped = 0, written = 0
        let t0 = now()
        var i = 0
        while i < total {
            guard let frame = try source.nextFrame() else { break }
            pacer.release(timestampMs: Int((Double(i) * period).rounded()))
            _ = frame.gray(scaleDenominator: 2)    // what the analysis would ask for
            try writer.append(frame)
            written += 1
            // A camera keeps producing: frames whose time passed while we worked are lost.
            let elapsedMs = (now() - t0) * 1000
            let next = i + 1
            let late = Int(elapsedMs / period) - next
            if late > 0 { dropped += late; i = next + late; for _ in 0..<late { _ = try source.nextFrame() } } else { i = next }
        }
        let s = try writer.finalize()
        let passthrough = (writer as? MJPEGAVIWriter)?.passthroughFrames ?? 0
        print("frames \(s.frameCount) dropped \(dropped) seconds \(String(format: "%.3f", now() - t0)) passthrough \(passthrough)")
    case "encode":
        guard args.count >= 4, let n = Int(args[3]), n > 0 else { exit(64) }
        let src = try AVIFileSource(path: args[2])
        var pictures: [Image] = []
        while pictures.count < 30, let f = try src.nextFrame() { pictures.append(f.rgb) }
        guard let first = pictures.first else { exit(65) }
        var t0 = now()
        var jpegBytes = 0
        for i in 0..<n { jpegBytes += try JPEGCodec.encode(pictures[i % pictures.count], quality: MJPEGAVIWriter.defaultQuality).count }
        let jpegMs = (now() - t0) * 1000 / Double(n)
        let out = NSTemporaryDirectory() + "media-bench-\(getpid()).mp4"
        try? FileManager.default.removeItem(atPath: out)
        t0 = now()
        let w = try MP4Writer(path: out, width: first.width, height: first.height, fps: src.info.fps)
        for i in 0..<n { try w.append(image: pictures[i % pictures.count]) }
        let s = try w.finalize()
        let mp4Ms = (now() - t0) * 1000 / Double(n)
        try? FileManager.default.removeItem(atPath: out)
        print(String(format: "jpeg_ms_per_frame %.2f mp4_ms_per_frame %.2f jpeg_bytes %d mp4_bytes %d frames %d",
                     jpegMs, mp4Ms, jpegBytes, s.bytes, s.frameCount))
    default:
        exit(64)
    }
} catch {
    FileHandle.standardError.write("media-bench: \(error)\n".data(using: .utf8)!)
    exit(1)
}
