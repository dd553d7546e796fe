import Foundation
import Media

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

    /// Runs a tool; returns (status, stdout, stderr).
    @discardableResult
    static func run(_ exe: String, _ args: [String], stdin: Data? = nil) throws -> (Int32, Data, String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: exe)
        p.arguments = args
        let out = Pipe()
        let errPath = NSTemporaryDirectory() + "tool-stderr-\(UUID().uuidString)"
        FileManager.default.createFile(atPath: errPath, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: errPath) }
        let errHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        p.standardOutput = out
        p.standardError = errHandle
        let inPipe = Pipe()
        if stdin != nil { p.standardInput = inPipe } else { p.standardInput = FileHandle.nullDevice }
        try p.run()
        if let d = stdin {
            let writer = inPipe.fileHandleForWriting
            DispatchQueue.global().async { writer.write(d); try? writer.close() }
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        try? errHandle.close()
        let errData = (try? Data(contentsOf: URL(fileURLWithPath: errPath))) ?? Data()
        return (p.terminationStatus, outData, String(decoding: errData, as: UTF8.self))
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
    static func writeBytes(_ bytes: [UInt8], _ path: String) { FileManager.default.createFile(atPath: path, contents: Data(bytes)) }
}
