import Foundation
import Media
import TestSupport

/// Test helpers: running the ffmpeg/ffprobe oracles, temporary folders, synthetic images.
enum Tools {
    /// Path of an executable on PATH, or nil.
    static func which(_ name: String) -> String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let p = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: p) { return p }
        }
        return nil
    }
    static let ffmpeg = which("ffmpeg")
    static let ffprobe = which("ffprobe")
    static var haveFFmpeg: Bool { ffmpeg != nil && ffprobe != nil }

    /// Runs a tool; returns (status, stdout, stderr). At most 300 s (a run killed at the
    /// deadline reports status -9; one ended by a signal, 128 + the signal).
    @discardableResult
    static func run(_ exe: String, _ args: [String], stdin: Data? = nil) throws -> (Int32, Data, String) {
        let r = try ChildProcess.run(exe, args, stdin: stdin.map { .data($0) } ?? .null, timeout: 300)
        return (r.code, r.out, String(decoding: r.err, as: UTF8.self))
    }

    /// A fresh temporary directory.
    static func tempDir() -> String {
        let p = NSTemporaryDirectory() + "media-tests-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: p, withIntermediateDirectories: true)
        return p
    }

    /// A smooth synthetic RGB picture (gradients plus a block), `seed` shifts it.
    static func picture(width: Int, height: Int, seed: Int = 0) -> Image {
        var px = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 3
                px[i] = UInt8((x * 255 / max(1, width - 1) + seed * 7) & 0xFF)
                px[i + 1] = UInt8(y * 255 / max(1, height - 1))
                let inBlock = (x / 16 + y / 16 + seed) % 5 == 0
                px[i + 2] = inBlock ? 40 : 200
            }
        }
        return Image(width: width, height: height, layout: .rgb, pixels: px)
    }

    static func readBytes(_ path: String) -> [UInt8] { [UInt8]((try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data()) }
    static func writeBytes(_ bytes: [UInt8], _ path: String) { _ = FileManager.default.createFile(atPath: path, contents: Data(bytes)) }
}
