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

extension Harness {
    /// What a child process mostly spends, for `run(_:_:load:…)`'s budget.
    enum Load: Sendable {
        /// CPU: `--pace fast` runs and `analyze`, which use a core for as long as they run.
        case cpu
        /// Wall clock: `--pace realtime` runs, which wait on the source's frame times and use a
        /// fraction of a core.
        case wall
        /// A terminal test: the app drawing in tmux or an X terminal (and the terminal itself)
        /// at realtime, half a core. Served before the other waiters (`Budget.acquire(first:)`).
        case terminal

        /// Its share of a core, in quarters: a CPU-bound run takes a whole core; a realtime run
        /// of the debug build takes about a fifth (1.45 s of CPU for approach.avi's 6.2 s at
        /// realtime, measured 2026-12-02 with the hot modules optimised).
        var quarters: Int { self == .cpu ? 4 : self == .terminal ? 2 : 1 }
    }

    /// A counting semaphore for async callers: `acquire(n)` suspends (it never blocks a thread)
    /// until `n` of `capacity` units are free. Waiters are served in order, so CPU-bound runs are
    /// not starved by a stream of small ones; `first` waiters (the terminal tests, whose
    /// serialised suites are the run's longest chains) go before every other waiter. In plain
    /// arrival order the screenshot suites queued behind ~60 CPU-bound runs and ended the run
    /// two minutes late; serving every waiter that fits (first-fit) instead pushed the CPU-bound
    /// runs to the end, where nothing else was left to run beside them (302 s against 273 s).
    actor Budget {
        let capacity: Int
        private var used = 0
        private var waiting: [(units: Int, first: Bool, resume: CheckedContinuation<Void, Never>)] = []
        init(capacity: Int) { self.capacity = capacity }

        func acquire(_ units: Int, first: Bool = false) async {
            let n = min(units, capacity)
            if used + n <= capacity, !waiting.contains(where: { $0.first || !first }) { used += n; return }
            await withCheckedContinuation { c in
                let at = first ? (waiting.firstIndex { !$0.first } ?? waiting.count) : waiting.count
                waiting.insert((n, first, c), at: at)
            }
        }

        func release(_ units: Int) {
            used -= min(units, capacity)
            while let w = waiting.first, used + w.units <= capacity {
                waiting.removeFirst()
                used += w.units
                w.resume.resume()
            }
        }
    }

    /// The children's budget: the machine's cores, in quarters, and one CPU-bound run more. Two
    /// CPU-bound runs fill a 2-core machine; so do one and four realtime runs. The extra one runs
    /// at nice 10 like every CPU-bound child, so it takes only what the realtime runs, the
    /// terminals and the in-process tests leave: the quarters are estimates (a terminal test's app
    /// uses less than its half core while it waits on the screen), and without it the cores were
    /// idle 6 to 9 % of the run. More would slow realtime runs down to the test run's own load.
    static let budget = Budget(capacity: 4 * max(1, ProcessInfo.processInfo.activeProcessorCount) + Load.cpu.quarters)

    /// `run` for async tests: the same child and result, but the test's thread is not held
    /// while the child runs. Swift Testing runs tests on the concurrency pool, one thread per
    /// core; a test blocked in `waitpid` holds one, so on 2 cores two realtime runs (7 s of wall
    /// clock, a fifth of a core each) stopped every other test. Here the child is waited for on
    /// a thread of its own, within `budget`.
    static func run(_ executable: String, _ args: [String], load: Load, stdin: Data? = nil, env: [String: String] = [:],
                    cwd: String? = nil, timeout: TimeInterval = 120) async throws -> Result {
        await budget.acquire(load.quarters, first: load == .terminal)
        // CPU-bound children yield to the realtime ones: `nice` execs the program in place (same
        // process, exit status and signals), at a lower priority, so a realtime run that needs a
        // fifth of a core now gets it now, and a fast run takes the rest.
        let (exe, argv) = load == .cpu && FileManager.default.isExecutableFile(atPath: "/usr/bin/nice")
            ? ("/usr/bin/nice", ["-n", "10", executable] + args) : (executable, args)
        let outcome: Swift.Result<Result, Error> = await withCheckedContinuation { done in
            let thread = Thread {
                done.resume(returning: Swift.Result { try run(exe, argv, stdin: stdin, env: env, cwd: cwd, timeout: timeout) })
            }
            thread.start()
        }
        await budget.release(load.quarters)
        return try outcome.get()
    }
}
