import CTurboJPEG

/// Errors from the JPEG codec (libjpeg-turbo's TurboJPEG API).
public enum JPEGError: Error, Equatable, Sendable {
    /// The data is empty, has no JPEG header, or a fatal libjpeg error occurred (message from
    /// `tjGetErrorStr2`).
    case decode(String)
    /// Encoding failed (message from `tjGetErrorStr2`).
    case encode(String)
    /// The header's dimensions are implausible or differ from the expected ones (bug report JPG-05).
    case unexpectedSize(width: Int, height: Int)
}

/// The result of a decode: the image, and libjpeg's warning if there was one (TJERR_WARNING:
/// e.g. "Corrupt JPEG data: 2 extraneous bytes before marker"): the image is still usable.
public struct DecodedJPEG: Sendable {
    public var image: Image
    public var warning: String?
    /// The JPEG's own size from its header (the image is this divided by the scale, rounded up).
    public var sourceWidth = 0
    public var sourceHeight = 0
    /// The scale denominator the image was decoded at (1, 2, 4 or 8).
    public var scaleDenominator = 1
    /// The colour of a `JPEGCodec.decodePlanes` decode, at the same scale as `image` (its luma);
    /// nil for other decodes and for JPEGs whose planes are not Y/Cb/Cr (see `ChromaPlanes`).
    public var chroma: ChromaPlanes?
}

/// The Cb and Cr planes of a YCbCr JPEG as libjpeg-turbo decodes them (`tjDecompressToYUVPlanes`),
/// at the same scale as the luma they came with, each `width` × `height` samples packed without
/// padding, full range (JFIF: 0…255, 128 neutral). Their size is the luma's divided by the JPEG's
/// chroma subsampling, rounded up (`tjPlaneWidth`/`tjPlaneHeight`): 4:2:0 halves both, 4:2:2 the
/// width only, 4:4:4 neither. A grayscale JPEG has neither plane: `isGray`, and `cb`/`cr` empty.
public struct ChromaPlanes: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var cb: [UInt8]
    public var cr: [UInt8]
    /// True for a one-component (grayscale) JPEG: its RGB is the luma in each channel.
    public var isGray: Bool { cb.isEmpty }

    public init(width: Int, height: Int, cb: [UInt8], cr: [UInt8]) {
        self.width = width; self.height = height; self.cb = cb; self.cr = cr
    }
}

/// A JPEG encoder/decoder over libjpeg-turbo 2.1 (`tjCompress2`, `tjDecompressHeader3`,
/// `tjDecompress2`, `tjGetErrorCode`). Each call uses a fresh TurboJPEG handle so a frame can
/// never borrow Huffman or quantisation tables from the previous one (PLATFORM-NOTES).
public enum JPEGCodec {
    /// Largest accepted width or height in pixels (guards against headers claiming billions of
    /// pixels, bug report JPG-05); 8192 covers every V4L2 webcam mode.
    public static let maxDimension = 8192

    /// Reads width and height from a JPEG header without decoding.
    /// - Throws: `JPEGError.decode` when the header cannot be read.
    public static func dimensions(of data: [UInt8]) throws -> (width: Int, height: Int) {
        guard let h = tjInitDecompress() else { throw JPEGError.decode("cannot create decompressor") }
        defer { tjDestroy(h) }
        var w: Int32 = 0, ht: Int32 = 0, sub: Int32 = 0, cs: Int32 = 0
        let rc = data.withUnsafeBufferPointer { buf in
            tjDecompressHeader3(h, buf.baseAddress, UInt(buf.count), &w, &ht, &sub, &cs)
        }
        // A warning while reading the header (e.g. extraneous bytes before SOF, bug report JPG-04)
        // still fills in the size: only a fatal error fails (check the code, not the -1).
        guard !data.isEmpty, rc == 0 || (tjGetErrorCode(h) == ctj_err_warning() && w > 0 && ht > 0) else {
            throw JPEGError.decode(errorString(h))
        }
        return (Int(w), Int(ht))
    }

    /// Decodes JPEG `data` to RGB or gray, optionally scaled by `scale` (1, 1/2, 1/4, 1/8 as
    /// denominators 1, 2, 4, 8).
    /// - Returns: the image plus libjpeg's warning text when the decode only warned.
    /// - Throws: `JPEGError.decode` on empty, garbage or fatally corrupt data;
    ///   `JPEGError.unexpectedSize` when the header is larger than `maxDimension`.
    public static func decode(_ data: [UInt8], layout: Image.Layout = .rgb, scaleDenominator: Int = 1) throws -> DecodedJPEG {
        try decode(data, layout: layout, scaleFor: { _, _ in scaleDenominator })
    }

    /// As `decode(_:layout:scaleDenominator:)`, the denominator chosen from the header's size
    /// (e.g. `AnalysisScale.denominator`), so the header is read once.
    public static func decode(_ data: [UInt8], layout: Image.Layout, scaleFor: (_ width: Int, _ height: Int) -> Int) throws -> DecodedJPEG {
        guard !data.isEmpty else { throw JPEGError.decode("empty JPEG data") }
        guard let h = tjInitDecompress() else { throw JPEGError.decode("cannot create decompressor") }
        defer { tjDestroy(h) }
        let header = try readHeader(h, data)
        let (w, ht, headerWarning) = (header.width, header.height, header.warning)
        let d = [1, 2, 4, 8].contains(scaleFor(Int(w), Int(ht))) ? scaleFor(Int(w), Int(ht)) : 1
        let ow = (Int(w) + d - 1) / d, oh = (Int(ht) + d - 1) / d
        let pf = layout == .rgb ? TJPF_RGB : TJPF_GRAY
        var out = [UInt8](repeating: 0, count: ow * oh * layout.rawValue)
        let rc = data.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                tjDecompress2(h, src.baseAddress, UInt(src.count), dst.baseAddress, Int32(ow), 0, Int32(oh),
                              Int32(pf.rawValue), TJFLAG_ACCURATEDCT)
            }
        }
        var warning: String? = headerWarning
        if rc != 0 {
            let message = errorString(h)
            if tjGetErrorCode(h) == ctj_err_warning() {
                warning = message
            } else {
                throw JPEGError.decode(message)
            }
        }
        return DecodedJPEG(image: Image(width: ow, height: oh, layout: layout, pixels: out), warning: warning,
                           sourceWidth: Int(w), sourceHeight: Int(ht), scaleDenominator: d)
    }

    /// The header of JPEG `data` as decompressor `h` reads it: size in pixels (Int32, as
    /// TurboJPEG gives it), chroma subsampling (`TJSAMP`), colour space (`TJCS`), and the text of
    /// a header warning (JPG-03/04: not fatal, the frame is decoded and the warning kept).
    /// - Throws: `JPEGError.decode` when it is no readable header, `.unexpectedSize` when a side
    ///   is 0 or over `maxDimension`.
    private static func readHeader(_ h: tjhandle, _ data: [UInt8]) throws
        -> (width: Int32, height: Int32, subsampling: Int32, colorspace: Int32, warning: String?) {
        var w: Int32 = 0, ht: Int32 = 0, sub: Int32 = 0, cs: Int32 = 0
        let hdr = data.withUnsafeBufferPointer { buf in
            tjDecompressHeader3(h, buf.baseAddress, UInt(buf.count), &w, &ht, &sub, &cs)
        }
        var warning: String?
        if hdr != 0 {
            guard tjGetErrorCode(h) == ctj_err_warning(), w > 0, ht > 0 else { throw JPEGError.decode(errorString(h)) }
            warning = errorString(h)
        }
        guard w > 0, ht > 0, Int(w) <= maxDimension, Int(ht) <= maxDimension else {
            throw JPEGError.unexpectedSize(width: Int(w), height: Int(ht))
        }
        return (w, ht, sub, cs, warning)
    }

    /// Decodes JPEG `data` once to planar YCbCr at 1/`scaleFor(width, height)` (libjpeg-turbo's
    /// `tjDecompressToYUVPlanes`, DCT-domain scaling as `decode`): the result's `image` is the
    /// luma, the same bytes `decode(layout: .gray)` gives at that scale (libjpeg's gray output of
    /// a YCbCr JPEG is its Y component), and `chroma` the Cb/Cr planes, from which an RGB picture
    /// at that scale or smaller is made without a second entropy decode (`PixelConvert.rgb(luma:chroma:shrink:)`).
    /// A JPEG whose components are not Y/Cb/Cr or gray (Adobe RGB, CMYK, YCCK) is decoded to gray
    /// as `decode` does, with `chroma` nil.
    /// - Throws: as `decode(_:layout:scaleFor:)`.
    public static func decodePlanes(_ data: [UInt8], scaleFor: (_ width: Int, _ height: Int) -> Int) throws -> DecodedJPEG {
        guard !data.isEmpty else { throw JPEGError.decode("empty JPEG data") }
        guard let h = tjInitDecompress() else { throw JPEGError.decode("cannot create decompressor") }
        defer { tjDestroy(h) }
        let header = try readHeader(h, data)
        let (w, ht, sub, cs, headerWarning) = (header.width, header.height, header.subsampling, header.colorspace, header.warning)
        let planar = (cs == Int32(TJCS_YCbCr.rawValue) || cs == Int32(TJCS_GRAY.rawValue)) && sub >= 0
        guard planar else { return try decode(data, layout: .gray, scaleFor: scaleFor) }
        let d = [1, 2, 4, 8].contains(scaleFor(Int(w), Int(ht))) ? scaleFor(Int(w), Int(ht)) : 1
        let ow = (Int(w) + d - 1) / d, oh = (Int(ht) + d - 1) / d
        let gray = sub == Int32(TJSAMP_GRAY.rawValue)
        let cw = gray ? 0 : Int(tjPlaneWidth(1, Int32(ow), sub)), ch = gray ? 0 : Int(tjPlaneHeight(1, Int32(oh), sub))
        guard cw >= 0, ch >= 0 else { return try decode(data, layout: .gray, scaleFor: scaleFor) }
        var y = [UInt8](repeating: 0, count: ow * oh)
        var cb = [UInt8](repeating: 0, count: cw * ch), cr = [UInt8](repeating: 0, count: cw * ch)
        var strides: [Int32] = [Int32(ow), Int32(cw), Int32(cw)]
        let rc = data.withUnsafeBufferPointer { src in
            y.withUnsafeMutableBufferPointer { py in
                cb.withUnsafeMutableBufferPointer { pb in
                    cr.withUnsafeMutableBufferPointer { pr in
                        var planes: [UnsafeMutablePointer<UInt8>?] = [py.baseAddress, pb.baseAddress, pr.baseAddress]
                        return tjDecompressToYUVPlanes(h, src.baseAddress, UInt(src.count), &planes, Int32(ow), &strides,
                                                       Int32(oh), TJFLAG_ACCURATEDCT)
                    }
                }
            }
        }
        var warning = headerWarning
        if rc != 0 {
            let message = errorString(h)
            guard tjGetErrorCode(h) == ctj_err_warning() else { throw JPEGError.decode(message) }
            warning = message
        }
        return DecodedJPEG(image: Image(width: ow, height: oh, layout: .gray, pixels: y), warning: warning,
                           sourceWidth: Int(w), sourceHeight: Int(ht), scaleDenominator: d,
                           chroma: ChromaPlanes(width: cw, height: ch, cb: cb, cr: cr))
    }

    /// Re-encodes a 4:2:0 YCbCr JPEG at `quality` from its own decoded planes, full size
    /// (`tjDecompressToYUVPlanes`, then `tjCompressFromYUVPlanes`): the same kind of file as
    /// `encode(decode(jpeg).image, quality:)` (baseline, 4:2:0, standard Huffman tables), without
    /// the full-size RGB picture in between (half the memory: 3.1 MB instead of 6.2 MB at
    /// 1920×1080, issue #28) and without the chroma being upsampled and subsampled again.
    /// - Returns: nil when `jpeg` is not 4:2:0 YCbCr (the caller encodes from RGB then).
    /// - Throws: `JPEGError.decode` / `.encode` / `.unexpectedSize` as `decode` and `encode`.
    public static func recompress420(_ jpeg: [UInt8], quality: Int) throws -> [UInt8]? {
        guard !jpeg.isEmpty else { throw JPEGError.decode("empty JPEG data") }
        guard let h = tjInitDecompress() else { throw JPEGError.decode("cannot create decompressor") }
        defer { tjDestroy(h) }
        var w: Int32 = 0, ht: Int32 = 0, sub: Int32 = 0, cs: Int32 = 0
        let hdr = jpeg.withUnsafeBufferPointer { tjDecompressHeader3(h, $0.baseAddress, UInt($0.count), &w, &ht, &sub, &cs) }
        guard hdr == 0 || (tjGetErrorCode(h) == ctj_err_warning() && w > 0 && ht > 0) else { throw JPEGError.decode(errorString(h)) }
        guard cs == Int32(TJCS_YCbCr.rawValue), sub == Int32(TJSAMP_420.rawValue) else { return nil }
        guard w > 0, ht > 0, Int(w) <= maxDimension, Int(ht) <= maxDimension else {
            throw JPEGError.unexpectedSize(width: Int(w), height: Int(ht))
        }
        let planes = try decodePlanes(jpeg, scaleFor: { _, _ in 1 })
        guard let c = planes.chroma, !c.isGray else { return nil }
        guard let e = tjInitCompress() else { throw JPEGError.encode("cannot create compressor") }
        defer { tjDestroy(e) }
        var strides: [Int32] = [Int32(planes.image.width), Int32(c.width), Int32(c.width)]
        var outPtr: UnsafeMutablePointer<UInt8>?
        var outSize: UInt = 0
        let rc = planes.image.pixels.withUnsafeBufferPointer { py in
            c.cb.withUnsafeBufferPointer { pb in
                c.cr.withUnsafeBufferPointer { pr in
                    var src: [UnsafePointer<UInt8>?] = [py.baseAddress, pb.baseAddress, pr.baseAddress]
                    return tjCompressFromYUVPlanes(e, &src, w, &strides, ht, Int32(TJSAMP_420.rawValue), &outPtr, &outSize,
                                                   Int32(min(100, max(1, quality))), TJFLAG_ACCURATEDCT)
                }
            }
        }
        defer { if let p = outPtr { tjFree(p) } }
        guard rc == 0, let p = outPtr else { throw JPEGError.encode(errorString(e)) }
        return Array(UnsafeBufferPointer(start: p, count: Int(outSize)))
    }

    /// Encodes an image as baseline JPEG with standard Huffman tables (DHT always written).
    /// - Parameters:
    ///   - quality: 1...100 (libjpeg quality scale).
    ///   - subsampling420: 4:2:0 chroma (what webcams and ffmpeg's `yuvj420p` use) when true, 4:4:4 otherwise.
    /// - Throws: `JPEGError.encode`.
    public static func encode(_ image: Image, quality: Int = 85, subsampling420: Bool = true) throws -> [UInt8] {
        guard image.width > 0, image.height > 0 else { throw JPEGError.encode("empty image") }
        guard let h = tjInitCompress() else { throw JPEGError.encode("cannot create compressor") }
        defer { tjDestroy(h) }
        let pf = image.layout == .rgb ? TJPF_RGB : TJPF_GRAY
        let sub = image.layout == .gray ? TJSAMP_GRAY : (subsampling420 ? TJSAMP_420 : TJSAMP_444)
        var outPtr: UnsafeMutablePointer<UInt8>?
        var outSize: UInt = 0
        let rc = image.pixels.withUnsafeBufferPointer { src in
            tjCompress2(h, src.baseAddress, Int32(image.width), 0, Int32(image.height), Int32(pf.rawValue),
                        &outPtr, &outSize, Int32(sub.rawValue), Int32(min(100, max(1, quality))), TJFLAG_ACCURATEDCT)
        }
        defer { if let p = outPtr { tjFree(p) } }
        guard rc == 0, let p = outPtr else { throw JPEGError.encode(errorString(h)) }
        return Array(UnsafeBufferPointer(start: p, count: Int(outSize)))
    }

    private static func errorString(_ h: tjhandle?) -> String {
        guard let s = tjGetErrorStr2(h) else { return "unknown libjpeg-turbo error" }
        return String(cString: s)
    }
}
