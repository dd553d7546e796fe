// libFuzzer entry for the y4m reader (through ByteStream, in small chunks like a pipe).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzY4M(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var pos = 0
    let stream = ByteStream(read: { n in
        let k = min(7, n, bytes.count - pos)   // odd chunk size exercises buffer refills
        defer { pos += k }
        return Array(bytes[pos..<(pos + k)])
    })
    if let p = try? Y4MParser(stream: stream) {
        var frames = 0
        while let f = p.nextFrame() {
            precondition(f.count == p.header.frameSize, "frame size")
            frames += 1
            if frames > 1000 { break }
        }
    }
    return 0
}
