// One MJPEG frame from any source (file or camera) to a delivered image, under camera-stream
// rules; compiled alone (with JPEG.swift, Image.swift, Frame.swift and the containers) into the
// JPEG-frame fuzz target (scripts/fuzz-media.sh).

/// Decodes one MJPEG frame for a source, counting warnings and skips by reason (bug reports
/// JPG-01..06, JPG-11). The rules, in order:
/// 1. the image is taken from the last SOI before its first SOS (two SOI markers, JPG-03) to its
///    EOI; junk after EOI is dropped (JPG-11); a frame without EOI is skipped as `truncated`
///    (JPG-06: cut short, its tail would be grey in the recording);
/// 2. a header whose size differs from `expectedWidth`×`expectedHeight` is skipped as
///    `wrongSize` (JPG-05);
/// 3. a frame with no DHT before its SOS gets the standard Annex K tables (JPG-01/02), so the
///    bytes handed on (and saved to `frames/`, the AVI and `reference.jpg`) open in any viewer;
/// 4. a libjpeg warning delivers the image and counts it as warned; a fatal error skips it as
///    `corrupt`.
public struct JPEGFrameDecoder: Sendable {
    public var stats = SourceStats()
    /// Frame size the container/driver declared, or the stream's established size.
    public var expectedWidth: Int?
    public var expectedHeight: Int?

    /// A delivered frame: the decoded image and the JPEG bytes to keep (normalised by the rules).
    public struct Decoded: Sendable {
        public var image: Image
        public var jpeg: [UInt8]
        /// The frame's full size (the JPEG header's) and the denominator `image` was decoded at.
        public var width = 0
        public var height = 0
        public var scaleDenominator = 1
        /// The Cb/Cr planes decoded with `image` (`decodeForAnalysis`), nil otherwise.
        public var chroma: ChromaPlanes?

        /// The frame, its `image` cached at its scale (an analysis-scale gray from
        /// `decodeForAnalysis`, or the full-size one).
        public func frame(index: Int, timestampMs: Int) -> VideoFrame {
            VideoFrame(index: index, timestampMs: timestampMs, jpeg: jpeg, width: width, height: height,
                       gray: image, grayDenominator: scaleDenominator, chroma: chroma)
        }
    }

    public init(expectedWidth: Int? = nil, expectedHeight: Int? = nil) {
        self.expectedWidth = expectedWidth; self.expectedHeight = expectedHeight
    }

    /// Returns the decoded image (`layout` .rgb or .gray) and the normalised JPEG, or nil when
    /// the frame is skipped (counted in `stats.skipped` by reason).
    public mutating func decodeFrame(_ data: [UInt8], layout: Image.Layout = .rgb) -> Decoded? {
        decodeFrame(data, layout: layout, scaleFor: { _, _ in 1 })
    }

    /// As `decodeFrame`, the gray decoded at `AnalysisScale.denominator` of the frame's size
    /// (libjpeg-turbo's DCT-domain scaling): every frame is still fully entropy-decoded, so
    /// validated, but analysis of a 1080p frame costs what a 480-px one does (issue #16).
    ///
    /// The frame is decoded once, to YCbCr planes (`JPEGCodec.decodePlanes`): the gray is their
    /// luma (the same bytes as a gray decode), and the preview's RGB is made from them, so a
    /// frame is no longer entropy-decoded a second time for the preview (issue #28).
    public mutating func decodeForAnalysis(_ data: [UInt8]) -> Decoded? {
        decodeFrame(data, layout: .gray, scaleFor: AnalysisScale.denominator, planes: true)
    }

    mutating func decodeFrame(_ data: [UInt8], layout: Image.Layout, scaleFor: (Int, Int) -> Int, planes: Bool = false) -> Decoded? {
        guard let f = MJPEGStreamParser.nextFrame(in: data, from: 0) else { stats.skip(.corrupt); return nil }
        guard f.complete else { stats.skip(f.range.count > 4 ? .truncated : .corrupt); return nil }
        var jpeg = f.range == data.indices ? data : Array(data[f.range])
        if let w = expectedWidth, let h = expectedHeight, w > 0, h > 0 {
            guard let d = try? JPEGCodec.dimensions(of: jpeg) else { stats.skip(.corrupt); return nil }
            guard d.width == w, d.height == h else { stats.skip(.wrongSize); return nil }
        }
        let fixed = JPEGHuffman.withStandardTables(jpeg)
        jpeg = fixed.jpeg
        do {
            let r = planes ? try JPEGCodec.decodePlanes(jpeg, scaleFor: scaleFor)
                           : try JPEGCodec.decode(jpeg, layout: layout, scaleFor: scaleFor)
            if r.warning != nil { stats.warnedFrames += 1 }
            if fixed.inserted { stats.huffmanInsertedFrames += 1 }
            stats.deliveredFrames += 1
            return Decoded(image: r.image, jpeg: jpeg, width: r.sourceWidth, height: r.sourceHeight,
                           scaleDenominator: r.scaleDenominator, chroma: r.chroma)
        } catch JPEGError.unexpectedSize {
            stats.skip(.wrongSize)
            return nil
        } catch {
            stats.skip(.corrupt)
            return nil
        }
    }

    /// The decoded image only (see `decodeFrame`).
    public mutating func decode(_ data: [UInt8], layout: Image.Layout = .rgb) -> Image? {
        decodeFrame(data, layout: layout)?.image
    }
}

/// A source that reached its end without delivering one frame although it read some says so
/// ("no decodable frame in …", exit 65) instead of looking like a short clip.
enum NoDecodableFrame {
    /// - Throws: `MediaError.malformed` when `delivered` is 0 and frames were skipped.
    static func check(path: String, delivered: Int, stats: SourceStats) throws {
        guard delivered == 0, stats.skippedFrames > 0 else { return }
        throw MediaError.malformed(path: path, reason: "no decodable frame in \(path) (\(stats.skippedSummary))")
    }
}

/// The size most of a stream's first frames declare (ties: the earliest), so one odd first
/// frame does not make every later frame "wrong size" (JPG-05). Looks at up to `sample` headers.
enum EstablishedSize {
    static func of(_ bytes: [UInt8], sample: Int = 9) -> (width: Int, height: Int)? {
        var sizes: [(Int, Int)] = []
        var p = 0
        while sizes.count < sample, let f = MJPEGStreamParser.nextFrame(in: bytes, from: p) {
            p = max(f.range.upperBound, p + 1)
            if f.complete, let d = try? JPEGCodec.dimensions(of: Array(bytes[f.range])),
               d.width > 0, d.height > 0, d.width <= JPEGCodec.maxDimension, d.height <= JPEGCodec.maxDimension {
                sizes.append(d)
            }
        }
        var best: (size: (Int, Int), count: Int)?
        for s in sizes {
            let c = sizes.filter { $0 == s }.count
            if best == nil || c > best!.count { best = (s, c) }
        }
        return best?.size
    }
}

