import Foundation

/// A tmux session on a private server socket, for real-terminal tests: start a shell, type,
/// read the screen. Waiting is by polling the screen or a file until a condition holds (with a
/// generous limit), never by sleeping a fixed time.
final class TmuxSession {
    static var tmux: String? { Harness.tool("tmux") }
    let name: String
    let socket = "selfie-capture-tests"

    /// Whether this session still holds its share of `Harness.budget` (released once, by `kill`).
    private var holdsBudget = false
    private let budgetLock = NSLock()

    /// Starts a session as `init` does, once `Harness.budget` has room for what it runs (a
    /// realtime app on a terminal: `Harness.Load.terminal`); `kill` (or deinit) gives the room back.
    /// Its app is a child of the tmux server, not of the test, so without this the budget would
    /// not know about it, and the terminal tests would run beside as many CPU-bound runs as
    /// there are cores.
    static func started(cols: Int, rows: Int) async throws -> TmuxSession {
        await Harness.budget.acquire(Harness.Load.terminal.quarters, first: true)
        do {
            let t = try TmuxSession(cols: cols, rows: rows)
            t.holdsBudget = true
            return t
        } catch {
            await Harness.budget.release(Harness.Load.terminal.quarters)
            throw error
        }
    }

    /// Starts `bash --norc` in a detached session of `cols`×`rows` with a UTF-8 locale.
    init(cols: Int, rows: Int) throws {
        name = "sc\(UUID().uuidString.prefix(6))"
        _ = try tmux(["new-session", "-d", "-s", name, "-x", "\(cols)", "-y", "\(rows)",
                      "env -u NO_COLOR -u COLORTERM LANG=C.UTF-8 LC_ALL= TERM=xterm-256color PS1='$ ' bash --norc --noprofile"])
        _ = try tmux(["set-option", "-t", name, "status", "off"])
    }

    @discardableResult
    func tmux(_ args: [String]) throws -> Harness.Result {
        try Harness.run(Self.tmux ?? "/usr/bin/tmux", ["-L", socket] + args, timeout: 30)
    }

    /// Types `text` literally, then Enter when `enter`.
    func type(_ text: String, enter: Bool = true) throws {
        try tmux(["send-keys", "-t", name, "-l", text])
        if enter { try tmux(["send-keys", "-t", name, "Enter"]) }
    }

    /// Sends tmux key names (`Enter`, `Escape`, `C-c`, `s`).
    func keys(_ names: String...) throws { try tmux(["send-keys", "-t", name] + names) }

    /// The visible screen; with `escapes`, including colour escape sequences.
    func screen(escapes: Bool = false) throws -> String {
        try tmux(["capture-pane", "-p", "-t", name] + (escapes ? ["-e"] : [])).out
    }

    /// The screen for failure messages.
    func dump() -> String { (try? screen()) ?? "<no screen>" }

    /// Whether the pane is on the alternate screen (curses running).
    func alternateScreenOn() throws -> Bool {
        try tmux(["display-message", "-p", "-t", name, "#{alternate_on}"]).out.trimmingCharacters(in: .whitespacesAndNewlines) == "1"
    }

    /// The bytes typed into the pane that its program has not read yet: `FIONREAD` on the
    /// pane's tty (the slave side, opened without becoming its controlling terminal).
    func unreadInput() throws -> Int {
        let tty = try tmux(["display-message", "-p", "-t", name, "#{pane_tty}"]).out
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let fd = open(tty, O_RDONLY | O_NOCTTY | O_NONBLOCK)
        guard fd >= 0 else { throw CocoaError(.fileReadNoPermission, userInfo: [NSFilePathErrorKey: tty]) }
        defer { close(fd) }
        var n: Int32 = 0
        guard ioctl(fd, UInt(FIONREAD), &n) == 0 else { throw CocoaError(.fileReadUnknown, userInfo: [NSFilePathErrorKey: tty]) }
        return Int(n)
    }

    /// Waits until the pane's program has read every key sent so far (its tty's input queue is
    /// empty), so that what follows (a resize) cannot overtake them on a busy machine. The
    /// `display-message` round trip first lets tmux write the keys it was sent: a new tmux
    /// client is served in a later turn of the server's event loop than the keys' write.
    /// A curses program reads one byte per `read`, so an empty queue means the last key was
    /// returned to it.
    @discardableResult
    func waitKeysRead(limit: TimeInterval = 60) async throws -> Bool {
        _ = try tmux(["display-message", "-p", "-t", name, "#{pane_pid}"])
        return try await waitUntil(limit) { try unreadInput() == 0 }
    }

    func resize(cols: Int, rows: Int) throws {
        try tmux(["resize-window", "-t", name, "-x", "\(cols)", "-y", "\(rows)"])
    }

    /// Polls until `condition` holds or `limit` seconds pass. Returns whether it held.
    /// Between polls the test's task is suspended, not its thread: Swift Testing runs tests on
    /// the concurrency pool, one thread per core, and a test sleeping in `usleep` held one of
    /// the two on this machine for as long as the terminal took (whole minutes for the signal
    /// and screenshot suites), while CPU-bound tests waited for a thread.
    @discardableResult
    func waitUntil(_ limit: TimeInterval = 60, _ condition: () throws -> Bool) async rethrows -> Bool {
        let end = Date().addingTimeInterval(limit)
        while Date() < end {
            if try condition() { return true }
            try? await Task.sleep(nanoseconds: 100_000_000)
        }
        return try condition()
    }

    /// Polls the screen for `text`.
    @discardableResult
    func waitFor(_ text: String, limit: TimeInterval = 60) async throws -> Bool {
        try await waitUntil(limit) { try screen().contains(text) }
    }

    func kill() {
        _ = try? tmux(["kill-session", "-t", name])
        budgetLock.lock(); let held = holdsBudget; holdsBudget = false; budgetLock.unlock()
        if held { Task { await Harness.budget.release(Harness.Load.terminal.quarters) } }
    }
    deinit { kill() }
}

/// Reads a JSON Lines event log and tells whether an event has been written.
func eventLogContains(_ path: String, _ name: String) -> Bool {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return false }
    return text.contains("\"event\":\"\(name)\"")
}
