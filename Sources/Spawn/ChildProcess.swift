import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The one spawn primitive of the app and the tests (issue #26): `run` runs a child to its end
/// (or a hard deadline) and collects its output; `start` starts one without waiting (espeak-ng),
/// polled with `exitStatus`. Both go through `launch`: every descriptor from 3 up closed in the
/// child, signals at their defaults, its own process group. No `Foundation.Process`.
///
/// Why not `Process` (DECISIONS 2026-11-30 "Tests spawn through ChildProcess"): on Linux it
/// learns that a child exited when a socket inherited by the child closes, and its child closes
/// only the descriptors that were open when the close list was computed. With tests spawning
/// from several threads at once, a pipe or socket created in that window leaks into another
/// child (a tmux server lives for minutes), so `waitUntilExit`/`readDataToEndOfFile` can block
/// until that unrelated process exits. On a 2-core machine the two blocked test threads are
/// the whole Swift Testing pool and the run never finishes (CI stop 8 hung for 90 minutes).
///
/// Here every descriptor of ours is made close-on-exec, the child closes all descriptors
/// from 3 up as it starts (`posix_spawn_file_actions_addclosefrom_np`, glibc ≥ 2.34), the exit
/// is seen with `waitpid(WNOHANG)`, and pipes are read with `poll` until a deadline: a run
/// always returns within `timeout` plus a few seconds.
public enum ChildProcess {
    /// Where the child's standard input comes from.
    public enum Input: Sendable {
        /// `/dev/null`.
        case null
        /// These bytes, then end of file.
        case data(Data)
        /// A descriptor of the caller's (duplicated; the caller keeps and closes its own).
        case descriptor(Int32)
    }

    /// Where the child's standard output or error goes.
    public enum Output: Sendable {
        /// Collected into `Result.out` / `Result.err`.
        case capture
        /// `/dev/null`.
        case null
        /// A descriptor of the caller's (duplicated; the caller keeps and closes its own).
        case descriptor(Int32)
    }

    public struct Result: Sendable {
        /// The exit status (0–255) when the child exited; `nil` when a signal ended it.
        public var exitStatus: Int32?
        /// The signal number that ended the child, if one did.
        public var signal: Int32?
        /// Whether the deadline passed and the child was killed (SIGTERM, then SIGKILL after 5 s).
        public var timedOut: Bool
        /// Whether `stopWhen` said so and the child was killed (as for `timedOut`).
        public var stopped = false
        public var out: Data
        public var err: Data
        /// As a shell reports it: the exit status, 128 + the signal, or -9 when timed out.
        public var code: Int32 { timedOut ? -9 : exitStatus ?? 128 + (signal ?? 0) }
    }

    public struct SpawnError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Runs `executable` (a full path) with `arguments` and returns once it has exited and its
    /// captured output is read, or once `timeout` seconds have passed, or once `stopWhen`
    /// (asked every 20 ms) returns true: then it is killed, with its process group.
    /// `environment` replaces the whole environment when given. `newSession`: the child starts
    /// a session of its own (setsid), so it has no controlling terminal and cannot open
    /// `/dev/tty` (ssh-keygen: it must never prompt on the screen the capture owns).
    /// - Throws: `SpawnError` when the child cannot be started (missing file, no pipes).
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                           currentDirectory: String? = nil, stdin: Input = .null, stdout: Output = .capture,
                           stderr: Output = .capture, timeout: TimeInterval, newSession: Bool = false,
                           stopWhen: (() -> Bool)? = nil) throws -> Result {
        // A child that exits before reading all its input must not kill the test process
        // with SIGPIPE when we write the rest (the write then fails with EPIPE instead).
        _ = ignoreSIGPIPE
        var childSide: [Int32] = []   // handed to the child; closed here once it has started
        var ours = Set<Int32>()       // pipe ends we read or write
        defer { for fd in childSide + Array(ours) { close(fd) } }
        func release(_ fd: Int32) { close(fd); ours.remove(fd) }
        /// A pipe with one end for the child (`childReads`: its read end) and one for us.
        func pipeToChild(childReads: Bool) throws -> (ours: Int32, child: Int32) {
            var fds: [Int32] = [-1, -1]
            // pipe2(O_CLOEXEC) is not in the Swift Glibc module; every child of ours closes all
            // descriptors from 3 anyway, so the short window before fcntl only matters for
            // children spawned some other way.
            guard pipe(&fds) == 0 else { throw SpawnError(description: "pipe: \(String(cString: strerror(errno)))") }
            for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            let (mine, theirs) = childReads ? (fds[1], fds[0]) : (fds[0], fds[1])
            ours.insert(mine); childSide.append(theirs)
            return (mine, theirs)
        }
        func devNull() throws -> Int32 {
            let fd = open("/dev/null", O_RDWR | O_CLOEXEC)
            guard fd >= 0 else { throw SpawnError(description: "/dev/null: \(String(cString: strerror(errno)))") }
            childSide.append(fd)
            return fd
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }

        // Standard input.
        var stdinWriter: Int32 = -1
        var pendingInput = [UInt8]()
        switch stdin {
        case .null: posix_spawn_file_actions_adddup2(&actions, try devNull(), 0)
        case .descriptor(let fd): posix_spawn_file_actions_adddup2(&actions, fd, 0)
        case .data(let d):
            let p = try pipeToChild(childReads: true)
            posix_spawn_file_actions_adddup2(&actions, p.child, 0)
            stdinWriter = p.ours
            pendingInput = [UInt8](d)
        }
        // Standard output and error.
        var readers: [Int32: Int] = [:]   // parent's read end → 1 (out) or 2 (err)
        for (target, spec) in [(Int32(1), stdout), (Int32(2), stderr)] {
            switch spec {
            case .null: posix_spawn_file_actions_adddup2(&actions, try devNull(), target)
            case .descriptor(let fd): posix_spawn_file_actions_adddup2(&actions, fd, target)
            case .capture:
                let p = try pipeToChild(childReads: false)
                posix_spawn_file_actions_adddup2(&actions, p.child, target)
                readers[p.ours] = Int(target)
            }
        }
        if let dir = currentDirectory {
            guard let chdir = SpawnExtensions.addChdir else { throw SpawnError(description: "posix_spawn_file_actions_addchdir_np is missing") }
            _ = dir.withCString { chdir(&actions, $0) }
        }

        var pid: pid_t = 0
        let rc = launch(executable, arguments, environment: environment, actions: &actions, pid: &pid, newSession: newSession)
        guard rc == 0 else { throw SpawnError(description: "\(executable): \(String(cString: strerror(rc)))") }

        // The child has its copies now (end of file reaches us once it closes them).
        for fd in childSide { close(fd) }
        childSide = []
        if stdinWriter >= 0 {
            _ = fcntl(stdinWriter, F_SETFL, fcntl(stdinWriter, F_GETFL) | O_NONBLOCK)
            if pendingInput.isEmpty { release(stdinWriter); stdinWriter = -1 }
        }

        var out = Data(), err = Data()
        var status: Int32 = 0
        var exited = false, timedOut = false, stopped = false
        let start = Date()
        var deadline = start.addingTimeInterval(timeout)
        var exitedAt: Date?
        var inputOffset = 0
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            if !exited {
                let w = waitpid(pid, &status, WNOHANG)
                if w == pid || (w < 0 && errno == ECHILD) { exited = true; exitedAt = Date() }
            }
            // Done when the child is gone and its pipes are at end of file; a grandchild holding
            // a pipe open gets 2 s more, then the rest is left unread.
            if exited && (readers.isEmpty || Date().timeIntervalSince(exitedAt!) > 2) { break }
            if !exited && !timedOut && !stopped && stopWhen?() == true {
                stopped = true
                kill(-pid, SIGTERM); kill(pid, SIGTERM)
                deadline = Date().addingTimeInterval(5)
            } else if !exited && Date() >= deadline {
                if !timedOut && !stopped {
                    timedOut = true
                    kill(-pid, SIGTERM); kill(pid, SIGTERM)
                    deadline = Date().addingTimeInterval(5)
                } else {
                    kill(-pid, SIGKILL); kill(pid, SIGKILL)
                    waitpid(pid, &status, 0)
                    exited = true; exitedAt = Date()
                    break
                }
            }
            var pfds = readers.keys.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            if stdinWriter >= 0 { pfds.append(pollfd(fd: stdinWriter, events: Int16(POLLOUT), revents: 0)) }
            if pfds.isEmpty { usleep(10_000); continue }
            _ = poll(&pfds, nfds_t(pfds.count), 20)
            for p in pfds where p.revents != 0 {
                if p.fd == stdinWriter {
                    let n = pendingInput.withUnsafeBytes { write(stdinWriter, $0.baseAddress! + inputOffset, $0.count - inputOffset) }
                    if n > 0 { inputOffset += n }
                    if inputOffset >= pendingInput.count || (n < 0 && errno != EAGAIN && errno != EINTR) {
                        release(stdinWriter); stdinWriter = -1
                    }
                    continue
                }
                let n = read(p.fd, &buffer, buffer.count)
                if n > 0 {
                    if readers[p.fd] == 1 { out.append(contentsOf: buffer[0..<n]) } else { err.append(contentsOf: buffer[0..<n]) }
                } else if n == 0 || (errno != EAGAIN && errno != EINTR) {
                    readers[p.fd] = nil
                    release(p.fd)
                }
            }
        }
        let signalled = (status & 0x7f) != 0 && (status & 0x7f) != 0x7f
        return Result(exitStatus: signalled ? nil : (status >> 8) & 0xff, signal: signalled ? status & 0x7f : nil,
                      timedOut: timedOut, stopped: stopped, out: out, err: err)
    }
}

extension ChildProcess {
    /// Starts `executable` with `actions` (descriptors 3 and up are closed here), signals at
    /// their defaults and unblocked, in its own process group (Ctrl-C in the terminal is ours to
    /// handle, not the child's), or with `newSession` in a session of its own (its own group
    /// too, and no controlling terminal). `environment` replaces the whole environment when given.
    /// - Returns: posix_spawn's result (0 or an errno).
    static func launch(_ executable: String, _ arguments: [String], environment: [String: String]?,
                       actions: inout posix_spawn_file_actions_t, pid: inout pid_t, newSession: Bool = false) -> Int32 {
        if let closefrom = SpawnExtensions.addClosefrom { _ = closefrom(&actions, 3) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for s in [SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGCHLD, SIGTTOU, SIGTTIN, SIGTSTP] { sigaddset(&defaults, s) }
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        // setsid makes the child its group's leader already (and setpgid would then fail).
        let group = newSession ? Int32(0x80) /* POSIX_SPAWN_SETSID, glibc ≥ 2.26 */ : Int32(POSIX_SPAWN_SETPGROUP)
        posix_spawnattr_setflags(&attributes, Int16(Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF) | group))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        if let environment {
            let env = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
            defer { for p in env { free(p) } }
            return posix_spawn(&pid, executable, &actions, &attributes, argv, env)
        }
        return posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
    }

    /// `name` looked up in `PATH` (or taken as is when it holds a `/`); nil when not found.
    public static func which(_ name: String, path: String? = ProcessInfo.processInfo.environment["PATH"]) -> String? {
        if name.contains("/") { return access(name, X_OK) == 0 ? name : nil }
        for dir in (path ?? "/usr/bin:/bin").split(separator: ":") {
            let p = "\(dir)/\(name)"
            if access(p, X_OK) == 0 { return p }
        }
        return nil
    }

    /// Starts `executable` (a full path) with `arguments` without waiting: its stdin and stdout
    /// on /dev/null, its stderr on `stderrFD` (else /dev/null). Poll it with `exitStatus`.
    /// - Returns: its pid, nil when it cannot start.
    public static func start(_ executable: String, _ arguments: [String], stderrFD: Int32? = nil) -> pid_t? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd: Int32 in [0, 1, 2] {
            if fd == 2, let e = stderrFD { posix_spawn_file_actions_adddup2(&actions, e, 2); continue }
            posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        var pid: pid_t = 0
        return launch(executable, arguments, environment: nil, actions: &actions, pid: &pid) == 0 ? pid : nil
    }

    /// True once `pid` has exited (reaped here).
    public static func exited(_ pid: pid_t) -> Bool { exitStatus(pid) != nil }

    /// nil while `pid` runs; once it has ended (reaped here): its exit status, 128 + N when
    /// killed by signal N, 0 when it was already reaped elsewhere (ECHILD).
    public static func exitStatus(_ pid: pid_t) -> Int32? {
        var status: Int32 = 0
        let w = waitpid(pid, &status, WNOHANG)
        if w < 0 { return errno == ECHILD ? 0 : nil }
        guard w == pid else { return nil }
        if status & 0x7F == 0 { return (status >> 8) & 0xFF }   // WIFEXITED, WEXITSTATUS
        return 128 + (status & 0x7F)                           // WTERMSIG
    }

}

private let ignoreSIGPIPE: Void = { signal(SIGPIPE, SIG_IGN); return () }()

/// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34) and `…_addchdir_np` (2.29), which
/// the Swift Glibc module does not declare; looked up once with `dlsym`.
private enum SpawnExtensions {
    typealias AddClosefrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    typealias AddChdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
    static let addClosefrom: AddClosefrom? = symbol("posix_spawn_file_actions_addclosefrom_np")
    static let addChdir: AddChdir? = symbol("posix_spawn_file_actions_addchdir_np")
    static func symbol<T>(_ name: String) -> T? {
        guard let handle = dlopen(nil, RTLD_NOW), let s = dlsym(handle, name) else { return nil }
        return unsafeBitCast(s, to: T.self)
    }
}
