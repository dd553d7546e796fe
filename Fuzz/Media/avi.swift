// libFuzzer entry for the AVI parser (scripts/fuzz-media.sh compiles it with the pure-Swift
// container files only). Checks invariants as well as "no crash".
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAVI(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let idx = try? AVIParser.parse(bytes) {
        for c in idx.chunks {
            precondition(c.range.lowerBound >= 0 && c.range.upperBound <= bytes.count, "chunk out of bounds")
            _ = bytes[c.range].first
        }
        _ = idx.fps
    }
    return 0
}
