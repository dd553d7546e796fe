// libFuzzer entry for the MJPEG stream splitter and the Huffman-table insertion.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMJPEG(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var last = 0
    for f in MJPEGStreamParser.split(bytes) {
        precondition(f.range.lowerBound >= last && f.range.upperBound <= bytes.count, "frame out of order/bounds")
        precondition(bytes[f.range.lowerBound] == 0xFF && bytes[f.range.lowerBound + 1] == 0xD8, "frame without SOI")
        last = f.range.upperBound
        // Huffman-table insertion (JPG-01/02) on every frame found: never out of bounds, and
        // when it inserts, every standard table is defined afterwards.
        let frame = Array(bytes[f.range])
        let r = JPEGHuffman.withStandardTables(frame)
        precondition(!r.inserted || r.jpeg.count > frame.count, "bad insertion")
        if r.inserted { precondition((JPEGHuffman.tables(in: r.jpeg)?.count ?? 0) >= 4, "inserted tables not read back") }
    }
    return 0
}
