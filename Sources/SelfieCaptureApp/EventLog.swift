import CaptureFlow
import JSON
import Localization
#if canImport(Glibc)
import Glibc
#endif

/// Errors opening the event log.
public enum EventLogError: Error, Equatable, Sendable {
    /// `open(2)` failed for `path`.
    case open(path: String, errno: Int32)
}

/// Writes flow events as JSON Lines (`--events FILE|-`): one object per line,
/// `{"event": NAME, "t_ms": N, …fields}`, fields in the order the state machine gave them.
/// Each line is written at once (no buffering), so a tester can follow the file live.
/// Never point it at stdout while the curses backend draws there.
public final class EventLog {
    private let sink: (String) -> Void
    private var fd: Int32 = -1

    /// A log that hands each line (ending in `\n`) to `sink`.
    public init(sink: @escaping (String) -> Void) { self.sink = sink }

    /// A log to `path`, or stdout for `-`. The file is created (mode 0600) or truncated.
    /// - Throws: `EventLogError.open`.
    public convenience init(path: String) throws {
        if path == "-" {
            self.init { line in
                var bytes = Array(line.utf8)
                _ = bytes.withUnsafeMutableBufferPointer { Glibc.write(1, $0.baseAddress, $0.count) }
            }
            return
        }
        let f = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard f >= 0 else { throw EventLogError.open(path: path, errno: errno) }
        self.init { line in
            var bytes = Array(line.utf8)
            var off = 0
            while off < bytes.count {
                let n = bytes.withUnsafeMutableBufferPointer { buf -> Int in
                    guard let base = buf.baseAddress else { return -1 }
                    return Glibc.write(f, base + off, buf.count - off)
                }
                if n > 0 { off += n } else if n < 0 && errno == EINTR { continue } else { break }
            }
        }
        fd = f
    }

    /// Writes one event line.
    public func write(_ event: FlowEvent) { sink(Self.jsonLine(event) + "\n") }

    /// Closes the file (stdout stays open).
    public func close() {
        if fd >= 0 { _ = Glibc.close(fd); fd = -1 }
    }

    deinit { close() }

    /// The JSON object for `event`, without the newline: `event` and `t_ms` first, then the
    /// fields in the machine's order (`JSONWriter`, `.asGiven`, compact).
    public static func jsonLine(_ event: FlowEvent) -> String {
        JSONWriter.text(.object([EventField("event", .string(event.name.rawValue)), EventField("t_ms", .int(event.tMs))] + event.fields),
                        keys: .asGiven)
    }
}
