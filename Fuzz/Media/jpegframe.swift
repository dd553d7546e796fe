// libFuzzer entry for one MJPEG frame through JPEGFrameDecoder and libjpeg-turbo: whatever the
// bytes, the frame is delivered or skipped (never a crash or hang), counted exactly once, and a
// delivered frame's image has the size it claims and carries Huffman tables.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJPEGFrame(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var d = JPEGFrameDecoder()
    if let r = d.decodeFrame(bytes, layout: .gray) {
        precondition(r.image.pixels.count == r.image.width * r.image.height, "image buffer size")
        precondition(r.image.width <= JPEGCodec.maxDimension && r.image.height <= JPEGCodec.maxDimension, "size bound")
        if let t = JPEGHuffman.tables(in: r.jpeg), JPEGHuffman.headerSegments(r.jpeg)?.sos != nil {
            precondition(!t.isEmpty, "delivered frame without Huffman tables")
        }
    }
    precondition(d.stats.readFrames == 1, "every frame counted once")
    return 0
}
