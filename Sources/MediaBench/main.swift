// media-bench: the measuring half of scripts/bench-media.sh (release build only).
//   media-bench decode FILE.avi            decode every frame to RGB; prints "frames N seconds S"
//   media-bench record SRC.avi OUT.avi S   paced realtime recording of S seconds at SRC's rate,
//                                          frames decoded (like the app) and stored as is;
//                                          prints "frames N dropped D seconds S"
import Foundation
import Media

func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

let args = CommandLine.arguments
guard args.count >= 3 else {
    FileHandle.standardError.write("usage: media-bench decode FILE.avi | record SRC.avi OUT.avi SECONDS\n".data(using: .utf8)!)
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
    case "record":
        guard args.count >= 5, let seconds = Double(args[4]) else { exit(64) }
        let spec = args[2]
        let source = try LoopingSource { try AVIFileSource(path: spec) }
        let info = source.info
        let out = args[3]
        try? FileManager.default.removeItem(atPath: out)
        let writer = try MJPEGAVIWriter(path: out, width: info.width, height: info.height, fps: info.fps)
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
        print("frames \(s.frameCount) dropped \(dropped) seconds \(String(format: "%.3f", now() - t0)) passthrough \(writer.passthroughFrames)")
    default:
        exit(64)
    }
} catch {
    FileHandle.standardError.write("media-bench: \(error)\n".data(using: .utf8)!)
    exit(1)
}
