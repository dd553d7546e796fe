import Foundation
import TestSupport

/// Runs the built `selfie-capture` binary and external tools (ffprobe, tmux) for end-to-end tests.
enum Harness {
    /// The built binary: `SELFIE_CAPTURE_BIN`, else `.build/{release,debug}/selfie-capture`
    /// (the newest of those that exist).
    static var binary: String? {
        if let p = ProcessInfo.processInfo.environment["SELFIE_CAPTURE_BIN"] { return p }
        let root = TestSupport.projectRoot()
        let candidates = ["debug", "release"].map { root.appendingPathComponent(".build/\($0)/selfie-capture").path }
            .filter { FileManager.default.isExecutableFile(atPath: $0) }
        return candidates.max { a, b in modified(a) < modified(b) }
    }

    static func modified(_ path: String) -> Date {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date) ?? .distantPast
    }

    /// Full path of a tool on PATH, or nil.
    static func tool(_ name: String) -> String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let p = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: p) { return p }
        }
        return nil
    }

    struct Result { var code: Int32; var out: String; var err: String }

    /// Runs `executable` with `args`, optional stdin data and extra environment; waits at most
    /// `timeout` seconds (then kills it and reports code -9).
    static func run(_ executable: String, _ args: [String], stdin: Data? = nil, env: [String: String] = [:],
                    cwd: String? = nil, timeout: TimeInterval = 120) throws -> Result {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = args
        var e = ProcessInfo.processInfo.environment
        for (k, v) in env { e[k] = v }
        p.environment = e
        if let cwd { p.currentDirectoryURL = URL(fileURLWithPath: cwd) }
        let out = Pipe(), err = Pipe(), inp = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = stdin == nil ? FileHandle.nullDevice : inp
        let outData = LockedData(), errData = LockedData()
        out.fileHandleForReading.readabilityHandler = { outData.append($0.availableData) }
        err.fileHandleForReading.readabilityHandler = { errData.append($0.availableData) }
        try p.run()
        if let stdin {
            inp.fileHandleForWriting.write(stdin)
            try? inp.fileHandleForWriting.close()
        }
        let deadline = Date().addingTimeInterval(timeout)
        while p.isRunning && Date() < deadline { usleep(20_000) }
        var killed = false
        if p.isRunning { p.terminate(); killed = true }
        p.waitUntilExit()
        out.fileHandleForReading.readabilityHandler = nil
        err.fileHandleForReading.readabilityHandler = nil
        outData.append(out.fileHandleForReading.readDataToEndOfFile())
        errData.append(err.fileHandleForReading.readDataToEndOfFile())
        return Result(code: killed ? -9 : p.terminationStatus,
                      out: String(decoding: outData.value, as: UTF8.self),
                      err: String(decoding: errData.value, as: UTF8.self))
    }

    /// A fresh temporary directory.
    static func tempDir(_ prefix: String = "sc-e2e") -> String {
        let path = NSTemporaryDirectory() + "\(prefix)-\(UUID().uuidString.prefix(8))"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}

final class LockedData: @unchecked Sendable {
    private var data = Data()
    private let lock = NSLock()
    func append(_ d: Data) { lock.lock(); data.append(d); lock.unlock() }
    var value: Data { lock.lock(); defer { lock.unlock() }; return data }
}
