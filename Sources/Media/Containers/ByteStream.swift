// Pure Swift (no imports): compiled alone into the fuzz targets (scripts/fuzz-media.sh).

/// A buffered forward-only byte reader over a chunk-producing closure (a file, stdin, or memory).
/// Used by the y4m reader, which must work on pipes.
public final class ByteStream {
    private let readChunk: (Int) -> [UInt8]
    private var buffer: [UInt8] = []
    private var position = 0
    private var atEnd = false
    /// Bytes consumed so far (for error positions).
    public private(set) var offset = 0

    /// - Parameter read: returns up to `n` bytes; an empty array means end of input.
    public init(read: @escaping (Int) -> [UInt8]) { self.readChunk = read }

    /// A stream over bytes already in memory.
    public convenience init(bytes: [UInt8]) {
        var done = false
        self.init(read: { _ in
            if done { return [] }
            done = true
            return bytes
        })
    }

    private var available: Int { buffer.count - position }

    /// Ensures at least `n` bytes are buffered if the input has them; returns whether it does.
    private func fill(_ n: Int) -> Bool {
        while available < n && !atEnd {
            if position > 0 && position >= buffer.count / 2 {
                buffer.removeFirst(position)
                position = 0
            }
            let chunk = readChunk(max(65536, n - available))
            if chunk.isEmpty { atEnd = true } else { buffer.append(contentsOf: chunk) }
        }
        return available >= n
    }

    /// Reads exactly `n` bytes, or returns nil (consuming what was left) at end of input.
    public func read(exactly n: Int) -> [UInt8]? {
        guard n >= 0 else { return nil }
        if !fill(n) {
            offset += available
            position = buffer.count
            return nil
        }
        let out = Array(buffer[position..<(position + n)])
        position += n
        offset += n
        return out
    }

    /// Reads a line ending in `\n` (the newline is consumed, not returned). Returns nil at end of
    /// input or when no newline comes within `maxLength` bytes (the line is then malformed).
    public func readLine(maxLength: Int) -> [UInt8]? {
        var scanned = 0
        while true {
            while position + scanned < buffer.count {
                if buffer[position + scanned] == 0x0A {
                    let line = Array(buffer[position..<(position + scanned)])
                    position += scanned + 1
                    offset += scanned + 1
                    return line
                }
                scanned += 1
                if scanned > maxLength { return nil }
            }
            if !fill(scanned + 1) { return nil }
        }
    }

    /// True when no byte is left.
    public var isAtEnd: Bool { !fill(1) }
}
