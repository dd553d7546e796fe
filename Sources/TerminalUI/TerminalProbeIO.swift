#if canImport(Glibc)
import Glibc
#endif

// The start-up terminal probe, I/O part: writes `TerminalProbe.queryBytes` to the terminal and
// reads the replies in raw mode until the DA1 reply or the deadline (issue #13). The loop runs
// on a `TerminalProbeChannel`, so tests script the terminal's answers and the clock.

/// Where the probe writes its queries and reads the replies.
public protocol TerminalProbeChannel {
    /// Sends the queries (all of them; partial writes are the channel's business).
    func send(_ bytes: [UInt8])
    /// Waits at most `timeoutMs` for bytes; returns what arrived (empty when none in time), nil
    /// when the channel is closed or failed.
    func receive(timeoutMs: Int) -> [UInt8]?
    /// Monotonic time in milliseconds.
    func nowMs() -> Int
}

extension TerminalProbe {
    /// Runs one probe round on `channel`: sends the queries, feeds what arrives to a `Parser`
    /// until the DA1 reply or `deadlineMs` after the send. Never waits past the deadline.
    /// - Returns: the answers (with `deadlineExpired` when DA1 did not come in time) and the
    ///   bytes that were not replies (keys typed meanwhile), in order.
    /// - Parameter whileWaiting: work done once the queries are sent, before any reply is read
    ///   (the capture parses its string tables there: issue #28); the deadline counts from its end.
    public static func run(on channel: TerminalProbeChannel, deadlineMs: Int = defaultDeadlineMs, whileWaiting: (() -> Void)? = nil)
        -> (result: TerminalProbeResult, keys: [UInt8]) {
        var parser = Parser()
        channel.send(queryBytes)
        whileWaiting?()
        let start = channel.nowMs()
        while !parser.done {
            let left = start + deadlineMs - channel.nowMs()
            guard left > 0 else { parser.expire(); break }
            guard let bytes = channel.receive(timeoutMs: left) else { parser.expire(); break }
            parser.feed(bytes)
        }
        parser.flush()
        return (parser.result, parser.passthrough)
    }
}

/// The probe on a real terminal: `outputFD` for the queries, `inputFD` for the replies (the same
/// tty, or stdout and /dev/tty). Puts `inputFD` in raw mode (no echo, no canonical line, no
/// signals from Ctrl-C, which then arrives as byte 3 and becomes the interrupt key), reads with
/// poll(2) and restores the saved termios before returning, on every path.
public final class TTYProbeChannel: TerminalProbeChannel {
    let outputFD: Int32
    let inputFD: Int32

    public init(outputFD: Int32, inputFD: Int32) { self.outputFD = outputFD; self.inputFD = inputFD }

    public func send(_ bytes: [UInt8]) {
        var off = 0, spins = 0
        bytes.withUnsafeBufferPointer { buf in
            guard let base = buf.baseAddress else { return }
            while off < bytes.count && spins < 100 {
                let n = write(outputFD, base + off, bytes.count - off)
                if n > 0 { off += n } else if n < 0 && (errno == EAGAIN || errno == EINTR) { spins += 1; usleep(1000) } else { break }
            }
        }
    }

    public func receive(timeoutMs: Int) -> [UInt8]? {
        var p = pollfd(fd: inputFD, events: Int16(POLLIN), revents: 0)
        let r = poll(&p, 1, Int32(max(0, timeoutMs)))
        if r < 0 { return errno == EINTR ? [] : nil }
        if r == 0 { return [] }
        if p.revents & Int16(POLLIN) == 0 { return nil }   // hang-up or error
        var buf = [UInt8](repeating: 0, count: 1024)
        let n = buf.withUnsafeMutableBytes { read(inputFD, $0.baseAddress, $0.count) }
        if n < 0 { return errno == EINTR || errno == EAGAIN ? [] : nil }
        if n == 0 { return nil }
        return Array(buf[0..<n])
    }

    public func nowMs() -> Int { Self.monotonicMs() }

    /// CLOCK_MONOTONIC in milliseconds.
    public static func monotonicMs() -> Int {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int(ts.tv_sec) * 1000 + Int(ts.tv_nsec) / 1_000_000
    }

    /// Runs the probe on the terminal: raw mode on `inputFD`, one round, termios restored.
    /// Returns `TerminalProbeResult.none` and no keys when `inputFD` is not a terminal or its
    /// modes cannot be set.
    public static func probe(outputFD: Int32, inputFD: Int32, deadlineMs: Int = TerminalProbe.defaultDeadlineMs,
                             whileWaiting: (() -> Void)? = nil) -> (result: TerminalProbeResult, keys: [UInt8]) {
        guard isatty(outputFD) == 1, isatty(inputFD) == 1 else { return (.none, []) }
        var saved = termios()
        guard tcgetattr(inputFD, &saved) == 0 else { return (.none, []) }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
        withUnsafeMutablePointer(to: &raw.c_cc) {
            $0.withMemoryRebound(to: cc_t.self, capacity: Int(NCCS)) { cc in
                cc[Int(VMIN)] = 1; cc[Int(VTIME)] = 0
            }
        }
        guard tcsetattr(inputFD, TCSANOW, &raw) == 0 else { return (.none, []) }
        defer { _ = tcsetattr(inputFD, TCSANOW, &saved) }
        return TerminalProbe.run(on: TTYProbeChannel(outputFD: outputFD, inputFD: inputFD), deadlineMs: deadlineMs, whileWaiting: whileWaiting)
    }
}
