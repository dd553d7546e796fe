import Synchronization
#if canImport(Glibc)
import Glibc
#endif

// MARK: The one home of signal handling (issue #18 "Terminal"; bug reports TUI-04, TUI-05, TUI-06)
//
// One handler for every signal the app catches. What it may do is limited to async-signal-safe
// calls (POSIX.1-2017 §2.4.3): write(2), tcsetattr(3), unlink(2), rmdir(2), signal(2), raise(3),
// and plain loads and stores of memory prepared beforehand. Nothing in it allocates, locks, or
// touches a Swift array, string or class: the bytes it needs are copied into `malloc`ed buffers
// when the terminal starts; the unfinished output is the app's, removed by the C callback it
// registers (`setCleanup`) from paths it prepared when the run's output folder became known.
//
// - SIGINT, SIGTERM, SIGHUP while a loop polls `requested` (`politeSignals` on): the first one is
//   only noted (atomic store) and the loop ends the run as if q were pressed, restoring the
//   terminal and removing the unfinished output itself. SIGINT keeps exit status 130 (the run
//   cancels); for SIGTERM and SIGHUP the runtime calls `finishTermination()` once it has cleaned
//   up, which re-raises the signal with its default action, so the shell sees 143 and 129.
//   A second one (the loop is stuck) is handled as a fatal signal.
// - SIGQUIT, SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT (and the polite three outside a loop):
//   write the precomputed restore bytes (retrying EAGAIN/EINTR, TUI-06), put back the saved
//   termios, call the app's cleanup (its unfinished output's files and folders), then reset
//   the signal to its default action and re-raise it: the process dies of the signal (a core
//   where the default action dumps one) and the shell reports 128 + N.
// - `atexit`: the restore bytes too, when curses is still active at exit.
// SIGKILL and SIGSTOP cannot be caught: after `kill -9`, `reset` or `stty sane` fixes the
// terminal (README "If the terminal is left broken").

/// Signals after which the terminal is restored (and the unfinished output removed) before the
/// process dies.
public let restoredSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT]

nonisolated(unsafe) private var guardFD: Int32 = -1
nonisolated(unsafe) private var guardArmedFD: Int32 = -1
nonisolated(unsafe) private var guardBytes: UnsafeMutablePointer<UInt8> = .allocate(capacity: 512)
nonisolated(unsafe) private var guardLength = 0
nonisolated(unsafe) private var guardTermios: UnsafeMutablePointer<termios> = .allocate(capacity: 1)
nonisolated(unsafe) private var guardTermiosValid = false
/// What a fatal signal calls to remove the unfinished output: a C function the app registers
/// (`setCleanup`), async-signal-safe by contract; the list of what it removes is the app's.
nonisolated(unsafe) private var cleanupCallback: (@convention(c) () -> Void)?
private let cleanupArmed = Atomic<Bool>(false)
private let politeArmed = Atomic<Bool>(false)
nonisolated(unsafe) private var previousTSTP: sighandler_t?
nonisolated(unsafe) private var tstpCaught = false
nonisolated(unsafe) private var guardAtexitInstalled = false
nonisolated(unsafe) private var guardInstalled = false

/// Writes the restore bytes and the saved termios; async-signal-safe.
private func guardWriteRestore() {
    let fd = guardFD
    guard fd >= 0 else { return }
    var off = 0, spins = 0
    while off < guardLength && spins < 100_000 {
        let n = write(fd, guardBytes + off, guardLength - off)
        if n > 0 { off += n } else if n < 0 && (errno == EAGAIN || errno == EINTR) { spins += 1 } else { break }
    }
    if guardTermiosValid { _ = tcsetattr(fd, TCSANOW, guardTermios) }
}

/// Calls the registered cleanup (the app's removal of its unfinished output).
private func guardRemoveOutput() {
    guard cleanupArmed.load(ordering: .acquiring), let cleanup = cleanupCallback else { return }
    cleanup()
}

private func guardHandler(_ sig: Int32) {
    if sig == SIGINT || sig == SIGTERM || sig == SIGHUP, politeArmed.load(ordering: .relaxed),
       SignalGuard.requested.compareExchange(expected: 0, desired: sig, ordering: .relaxed).exchanged {
        return   // the loop ends the run cleanly
    }
    guardWriteRestore()
    guardFD = -1
    guardRemoveOutput()
    signal(sig, SIG_DFL)
    raise(sig)
}

/// SIGTSTP from outside (`kill -TSTP`) while a loop polls `suspendRequested`: noted only.
private func guardTSTPHandler(_ sig: Int32) {
    SignalGuard.suspendRequested.store(true, ordering: .relaxed)
}

/// Installs, arms and disarms the one signal handler (see the file's header for what it does).
public enum SignalGuard {
    /// The first SIGINT, SIGTERM or SIGHUP received while `politeSignals` was on, else 0.
    public static let requested = Atomic<Int32>(0)
    /// A SIGTSTP received while `catchTerminalStop(true)` was on; the loop suspends as for
    /// Ctrl-Z (dropping a take first) and clears it.
    public static let suspendRequested = Atomic<Bool>(false)

    /// While on, SIGTSTP (e.g. `kill -TSTP`) only sets `suspendRequested`; off puts back the
    /// handler that was there (ncurses' own). A SIGTSTP the parent ignores stays ignored.
    public static func catchTerminalStop(_ on: Bool) {
        _ = suspendRequested.load(ordering: .relaxed)
        if on, !tstpCaught {
            let old = signal(SIGTSTP, guardTSTPHandler)
            if let old, unsafeBitCast(old, to: Int.self) == 1 { signal(SIGTSTP, SIG_IGN); return }
            previousTSTP = old
            tstpCaught = true
        } else if !on, tstpCaught {
            signal(SIGTSTP, previousTSTP ?? SIG_DFL)
            tstpCaught = false
        }
    }

    /// Installs the handler for `restoredSignals` (idempotent) and unblocks them on this thread:
    /// a mask inherited from a parent (some launchers block SIGTERM/SIGHUP) would otherwise keep
    /// the handler from running. A signal the parent set to be ignored (`nohup`) stays ignored.
    public static func install() {
        // Every call unblocks on its own thread (the mask is per thread); the handlers go in once.
        var set = sigset_t()
        sigemptyset(&set)
        for s in restoredSignals { sigaddset(&set, s) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        guard !guardInstalled else { return }
        guardInstalled = true
        // Swift globals are initialised lazily (swift_once, not async-signal-safe): touch every
        // one the handler reads before the handler can run.
        _ = guardBytes; _ = guardTermios; _ = guardFD; _ = guardLength; _ = guardTermiosValid
        _ = cleanupCallback
        _ = cleanupArmed.load(ordering: .relaxed); _ = politeArmed.load(ordering: .relaxed)
        _ = requested.load(ordering: .relaxed)
        for s in restoredSignals {
            let old = signal(s, guardHandler)
            if let old, unsafeBitCast(old, to: Int.self) == 1 {   // SIG_IGN (e.g. nohup): keep ignoring
                signal(s, SIG_IGN)
            }
        }
        if !guardAtexitInstalled {
            guardAtexitInstalled = true
            atexit { guardWriteRestore(); guardFD = -1 }
        }
    }

    /// Puts the default actions back (signals that were ignored stay ignored).
    public static func uninstall() {
        guard guardInstalled else { return }
        guardInstalled = false
        for s in restoredSignals {
            let old = signal(s, SIG_DFL)
            if let old, unsafeBitCast(old, to: Int.self) == 1 { signal(s, SIG_IGN) }
        }
    }

    /// While on, the first SIGINT/SIGTERM/SIGHUP only sets `requested` (a loop polls it).
    public static func setPolite(_ on: Bool) { politeArmed.store(on, ordering: .relaxed) }

    /// Arms the terminal restore: `bytes` (escape sequences, at most 512 bytes) are written to
    /// `fd` and `saved` put back with `tcsetattr` by the handler and at exit.
    static func armTerminal(fd: Int32, bytes: [UInt8], saved: termios?) {
        guardFD = -1
        guardLength = min(bytes.count, 512)
        for i in 0..<guardLength { guardBytes[i] = bytes[i] }
        if let saved { guardTermios.pointee = saved; guardTermiosValid = true } else { guardTermiosValid = false }
        guardFD = fd
        guardArmedFD = fd
    }

    /// Writes the armed restore bytes now, as the fatal-signal path does (tests: TUI-06).
    static func writeRestoreNow() { guardWriteRestore() }

    /// Disarms the terminal restore (curses ended normally, or is suspended).
    static func disarmTerminal() { guardFD = -1 }

    /// Arms the terminal restore again after a suspension (same bytes and termios).
    static func rearmTerminal() { guardFD = guardArmedFD }

    /// Stops the process as the default action of SIGTSTP does (the shell reports the job as
    /// stopped) and returns when it is continued (SIGCONT). Any SIGTSTP handler (ncurses
    /// installs one) is bypassed and put back afterwards.
    public static func stopAsTerminalStop() {
        let old = signal(SIGTSTP, SIG_DFL)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGTSTP)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        raise(SIGTSTP)
        signal(SIGTSTP, old)
    }

    /// Registers what a fatal signal calls before the process dies, after the terminal is
    /// restored: `cleanup` must be async-signal-safe (POSIX.1-2017 §2.4.3: unlink, rmdir on
    /// paths prepared beforehand; no allocation, no lock). Replaces any earlier registration.
    public static func setCleanup(_ cleanup: @convention(c) () -> Void) {
        cleanupArmed.store(false, ordering: .releasing)
        cleanupCallback = cleanup
        cleanupArmed.store(true, ordering: .releasing)
    }

    /// Forgets the registered cleanup (the output was published, or removed by the run itself).
    public static func clearCleanup() {
        cleanupArmed.store(false, ordering: .releasing)
    }

    /// After a run ended because of SIGTERM or SIGHUP (`requested`) and cleaned up: re-raises it
    /// with its default action, so the process ends with the signal's own status (143, 129).
    /// SIGINT is not re-raised: a cancelled run exits 130 itself. Returns when nothing is due.
    public static func finishTermination() {
        let sig = requested.load(ordering: .relaxed)
        guard sig == SIGTERM || sig == SIGHUP else { return }
        clearCleanup()
        signal(sig, SIG_DFL)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, sig)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        raise(sig)
    }
}
