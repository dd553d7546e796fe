import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Who feeds `--source -` (issue #29): a process writing into the app's standard-input pipe
/// whose stderr is the terminal the app draws on scribbles over the screen (ffmpeg's banner and
/// its `frame= … fps=` progress). Found through `/proc` (Linux): the processes holding the same
/// `pipe:[inode]` as our fd 0, then their fd 2 (our terminal, or `/dev/tty`: a pipeline shares
/// the controlling terminal). Only processes of the same user are visible;
/// anything unreadable is skipped (no warning rather than a wrong one).
enum PipeFeeder {
    /// The warning for `--source -` under a screen on `terminal` (the path fd 1 points to), or nil
    /// when stdin is no pipe or no feeder writes its stderr to that terminal.
    static func warning(terminal: String) -> String? {
        guard !terminal.isEmpty, let pipe = link("/proc/self/fd/0"), pipe.hasPrefix("pipe:") else { return nil }
        let me = getpid()
        guard let pids = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return nil }
        for p in pids {
            guard let pid = Int32(p), pid != me,
                  let fds = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(p)/fd"),
                  fds.contains(where: { link("/proc/\(p)/fd/\($0)") == pipe }),
                  let err = link("/proc/\(p)/fd/2"), err == terminal || err == "/dev/tty" else { continue }
            let argv = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(p)/cmdline")))
                .map { $0.split(separator: 0).map { String(decoding: $0, as: UTF8.self) } } ?? []
            if let w = advice(argv: argv) { return w }
        }
        return nil
    }

    /// What to tell about a feeder run as `argv` that writes to our terminal's stderr; nil when
    /// it is an ffmpeg already kept quiet (`-nostats` and `-v`/`-loglevel` quiet, panic, fatal or
    /// error). Pure (tests give the argv).
    static func advice(argv: [String]) -> String? {
        guard let first = argv.first else { return nil }
        let name = (first as NSString).lastPathComponent
        if name == "ffmpeg" {
            var quiet = false
            for (i, a) in argv.enumerated() where (a == "-v" || a == "-loglevel") && i + 1 < argv.count {
                let level = argv[i + 1].split(separator: "+").last.map(String.init) ?? ""
                quiet = ["quiet", "panic", "fatal", "error", "-8", "0", "8", "16"].contains(level)
            }
            if quiet && argv.contains("-nostats") { return nil }
            return "ffmpeg feeding --source - writes its banner and progress to this terminal, over the screen; add -v error -nostats (README: ffmpeg -v error -nostats -nostdin -i clip.mp4 -an -f yuv4mpegpipe -)"
        }
        return "\(name) feeding --source - writes its stderr to this terminal, over the screen; send it elsewhere (2>/dev/null or 2>log)"
    }

    /// The terminal fd 1 points to (e.g. `/dev/pts/3`), "" when unknown.
    static func terminalPath() -> String { link("/proc/self/fd/1") ?? "" }

    /// The target of the symbolic link at `path`, or nil.
    private static func link(_ path: String) -> String? {
        var buf = [CChar](repeating: 0, count: 4096)
        let n = readlink(path, &buf, buf.count - 1)
        guard n > 0 else { return nil }
        return String(decoding: buf[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
