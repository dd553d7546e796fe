// libFuzzer entry for the MJPEG stream splitter.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMJPEG(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var last = 0
    for f in MJPEGStreamParser.split(bytes) {
        precondition(f.range.lowerBound >= last && f.range.upperBound <= bytes.count, "frame out of order/bounds")
        precondition(bytes[f.range.lowerBound] == 0xFF && bytes[f.range.lowerBound + 1] == 0xD8, "frame without SOI")
        last = f.range.upperBound
    }
    return 0
}
