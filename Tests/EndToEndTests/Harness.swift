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
    /// `timeout` seconds (then kills it and reports code -9). A signal that ends it reports
    /// 128 + the signal number, as a shell does. Spawned through `ChildProcess` (no descriptor
    /// leaks between concurrent tests; every wait has a deadline).
    static func run(_ executable: String, _ args: [String], stdin: Data? = nil, env: [String: String] = [:],
                    cwd: String? = nil, timeout: TimeInterval = 120) throws -> Result {
        var e = ProcessInfo.processInfo.environment
        for (k, v) in env { e[k] = v }
        let r = try ChildProcess.run(executable, args, environment: e, currentDirectory: cwd,
                                     stdin: stdin.map { .data($0) } ?? .null, timeout: timeout)
        return Result(code: r.code,
                      out: String(decoding: r.out, as: UTF8.self),
                      err: String(decoding: r.err, as: UTF8.self))
    }

    /// A fresh temporary directory.
    static func tempDir(_ prefix: String = "sc-e2e") -> String {
        let path = NSTemporaryDirectory() + "\(prefix)-\(UUID().uuidString.prefix(8))"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
