/// Pixel-format conversions between the layouts of `Image` and camera/y4m YUV layouts.
///
/// YUV → RGB uses the BT.601 matrix (what UVC webcams and y4m/MPEG use), in 16.16 fixed point:
/// limited ("TV") range Y 16…235, Cb/Cr 16…240 unless `fullRange` (JPEG/"yuvj") is asked for.
public enum PixelConvert {
    /// RGB → gray with the BT.601 luma weights (Y = 0.299 R + 0.587 G + 0.114 B), rounded, as
    /// libjpeg computes it.
    public static func gray(_ image: Image) -> Image {
        if image.layout == .gray { return image }
        var out = [UInt8](repeating: 0, count: image.width * image.height)
        image.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for i in 0..<dst.count {
                    let r = Int(src[3 * i]), g = Int(src[3 * i + 1]), b = Int(src[3 * i + 2])
                    dst[i] = UInt8((19595 * r + 38470 * g + 7471 * b + 32768) >> 16)
                }
            }
        }
        return Image(width: image.width, height: image.height, layout: .gray, pixels: out)
    }

    /// Gray → RGB (each channel = the gray value).
    public static func rgb(_ image: Image) -> Image {
        if image.layout == .rgb { return image }
        var out = [UInt8](repeating: 0, count: image.width * image.height * 3)
        image.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for i in 0..<src.count { dst[3 * i] = src[i]; dst[3 * i + 1] = src[i]; dst[3 * i + 2] = src[i] }
            }
        }
        return Image(width: image.width, height: image.height, layout: .rgb, pixels: out)
    }

    @inline(__always) static func clamp(_ v: Int) -> UInt8 { UInt8(truncatingIfNeeded: v < 0 ? 0 : (v > 255 ? 255 : v)) }

    /// One pixel YCbCr → RGB, BT.601.
    @inline(__always)
    static func yuv(_ y: Int, _ u: Int, _ v: Int, full: Bool, _ out: UnsafeMutablePointer<UInt8>) {
        let c = full ? y << 16 : (y - 16) * 76309
        let d = u - 128, e = v - 128
        if full {
            out[0] = clamp((c + 91881 * e + 32768) >> 16)
            out[1] = clamp((c - 22554 * d - 46802 * e + 32768) >> 16)
            out[2] = clamp((c + 116130 * d + 32768) >> 16)
        } else {
            out[0] = clamp((c + 104597 * e + 32768) >> 16)
            out[1] = clamp((c - 25675 * d - 53279 * e + 32768) >> 16)
            out[2] = clamp((c + 132201 * d + 32768) >> 16)
        }
    }

    /// Planar full-range YCbCr (a JPEG's, as `JPEGCodec.decodePlanes` gives it) → RGB shrunk by
    /// `shrink` (1, 2, 4 or 8) in one pass: output `ceil(luma.width / shrink)` ×
    /// `ceil(luma.height / shrink)`, like libjpeg's scaled decode. Each pixel's Y is the mean of
    /// the luma samples of its shrink × shrink block (fewer at the right and bottom edges), its Cb
    /// and Cr the means of the chroma samples that cover the same block (the nearest one when the
    /// block is smaller than a chroma sample); then BT.601 full range (JFIF). A gray `chroma`
    /// gives the shrunk luma in each channel.
    ///
    /// Against libjpeg-turbo's own RGB decode at the same scale (which upsamples chroma with its
    /// "fancy" triangle filter, and at 1/8 keeps only each block's DC): mean |difference| 0.02
    /// (4:2:0 720p frame to 1/8), 0.05 (to 1/4), 0.11 (4:2:2 1080p to 1/8, where the box mean
    /// is sharper than libjpeg's interpolated chroma at colour edges, up to 15 levels).
    /// - Returns: nil when a plane is shorter than its stated size.
    public static func rgb(luma: Image, chroma: ChromaPlanes, shrink: Int) -> Image? {
        let f = max(1, shrink), lw = luma.width, lh = luma.height
        guard luma.layout == .gray, lw > 0, lh > 0, luma.pixels.count >= lw * lh else { return nil }
        let ow = (lw + f - 1) / f, oh = (lh + f - 1) / f
        if chroma.isGray {
            let g = f == 1 ? luma : Scale.area(luma, width: ow, height: oh)
            return rgb(g)
        }
        let cw = chroma.width, ch = chroma.height
        guard cw > 0, ch > 0, chroma.cb.count >= cw * ch, chroma.cr.count >= cw * ch else { return nil }
        // Luma samples per chroma sample, across and down (4:2:0 → 2, 2; 4:2:2 → 2, 1; 4:1:1 → 4, 1).
        let sx = max(1, (lw + cw - 1) / cw), sy = max(1, (lh + ch - 1) / ch)
        var out = [UInt8](repeating: 0, count: ow * oh * 3)
        // Whole blocks (f × f luma samples over whole chroma samples: f a multiple of both
        // subsampling factors) are summed by rows: each block row's column sums first, then each
        // block's f of them. Same sums and rounding as the per-pixel form below, which does the
        // partial blocks at the right and bottom edges (and every pixel when f is not such a
        // multiple); `PixelConvertTests` checks the two agree on every subsampling and shrink.
        let whole = f % sx == 0 && f % sy == 0
        let fcx = f / sx, fcy = f / sy
        let wholeCols = whole ? min(lw / f, cw / fcx) : 0
        let wholeRows = whole && wholeCols > 0 ? min(lh / f, ch / fcy) : 0
        luma.pixels.withUnsafeBufferPointer { yp in
            chroma.cb.withUnsafeBufferPointer { bp in
                chroma.cr.withUnsafeBufferPointer { rp in
                    out.withUnsafeMutableBufferPointer { dst in
                        guard let y0p = yp.baseAddress, let b0p = bp.baseAddress, let r0p = rp.baseAddress,
                              let d0p = dst.baseAddress else { return }
                        /// One output pixel from its (possibly partial) block.
                        func pixel(_ ox: Int, _ oy: Int) {
                            let y0 = oy * f, y1 = min(lh, y0 + f)
                            let cy0 = min(ch - 1, y0 / sy), cy1 = max(cy0 + 1, min(ch, (y1 + sy - 1) / sy))
                            let x0 = ox * f, x1 = min(lw, x0 + f)
                            var ys = 0
                            for r in y0..<y1 {
                                let row = r * lw
                                for c in x0..<x1 { ys += Int(y0p[row + c]) }
                            }
                            let n = (y1 - y0) * (x1 - x0)
                            let cx0 = min(cw - 1, x0 / sx), cx1 = max(cx0 + 1, min(cw, (x1 + sx - 1) / sx))
                            var bs = 0, rs = 0
                            for r in cy0..<cy1 {
                                let row = r * cw
                                for c in cx0..<cx1 { bs += Int(b0p[row + c]); rs += Int(r0p[row + c]) }
                            }
                            let m = (cy1 - cy0) * (cx1 - cx0)
                            yuv((ys + n / 2) / n, (bs + m / 2) / m, (rs + m / 2) / m, full: true, d0p + 3 * (oy * ow + ox))
                        }
                        if wholeRows > 0 {
                            let n = f * f, m = fcx * fcy
                            // Power-of-two block sizes (every JPEG subsampling at shrinks 1–8):
                            // the rounded mean by a shift, not a division (the same value).
                            let pow2 = n & (n - 1) == 0 && m & (m - 1) == 0
                            let nShift = n.trailingZeroBitCount, mShift = m.trailingZeroBitCount
                            let ySum = UnsafeMutablePointer<Int32>.allocate(capacity: wholeCols * f)
                            let bSum = UnsafeMutablePointer<Int32>.allocate(capacity: wholeCols * fcx)
                            let rSum = UnsafeMutablePointer<Int32>.allocate(capacity: wholeCols * fcx)
                            defer { ySum.deallocate(); bSum.deallocate(); rSum.deallocate() }
                            let yCount = wholeCols * f, cCount = wholeCols * fcx
                            for oy in 0..<wholeRows {
                                ySum.update(repeating: 0, count: yCount)
                                bSum.update(repeating: 0, count: cCount)
                                rSum.update(repeating: 0, count: cCount)
                                for r in (oy * f)..<(oy * f + f) {
                                    let row = y0p + r * lw
                                    for c in 0..<yCount { ySum[c] &+= Int32(row[c]) }
                                }
                                for r in (oy * fcy)..<(oy * fcy + fcy) {
                                    let rb = b0p + r * cw, rr = r0p + r * cw
                                    for c in 0..<cCount { bSum[c] &+= Int32(rb[c]); rSum[c] &+= Int32(rr[c]) }
                                }
                                var d = d0p + 3 * oy * ow
                                for ox in 0..<wholeCols {
                                    var ys = 0, bs = 0, rs = 0
                                    for k in (ox * f)..<(ox * f + f) { ys += Int(ySum[k]) }
                                    for k in (ox * fcx)..<(ox * fcx + fcx) { bs += Int(bSum[k]); rs += Int(rSum[k]) }
                                    if pow2 {
                                        yuv((ys + n / 2) >> nShift, (bs + m / 2) >> mShift, (rs + m / 2) >> mShift, full: true, d)
                                    } else {
                                        yuv((ys + n / 2) / n, (bs + m / 2) / m, (rs + m / 2) / m, full: true, d)
                                    }
                                    d += 3
                                }
                                for ox in wholeCols..<ow { pixel(ox, oy) }
                            }
                        }
                        for oy in 0..<oh {
                            for ox in (oy < wholeRows ? ow : 0)..<ow { pixel(ox, oy) }
                        }
                    }
                }
            }
        }
        return Image(width: ow, height: oh, layout: .rgb, pixels: out)
    }

    /// Luma plane → full-range gray: limited range maps 16…235 to 0…255 (clamped).
    public static func grayFromLuma(_ y: ArraySlice<UInt8>, width: Int, height: Int, fullRange: Bool = false) -> Image? {
        guard width > 0, height > 0, y.count >= width * height else { return nil }
        if fullRange { return Image(width: width, height: height, layout: .gray, pixels: Array(y.prefix(width * height))) }
        var out = [UInt8](repeating: 0, count: width * height)
        y.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for i in 0..<dst.count { dst[i] = clamp(((Int(src[i]) - 16) * 76309 + 32768) >> 16) }
            }
        }
        return Image(width: width, height: height, layout: .gray, pixels: out)
    }

    /// Luma samples → full-range gray shrunk by `denominator` in one pass (issue #16: the
    /// analysis of a YUYV/NV12/I420 frame needs 1/2–1/8 of it; converting all of it first cost
    /// the full frame). Output `ceil(width/d)` × `ceil(height/d)`, like libjpeg's scaled decode;
    /// each pixel is the mean of the Y samples of its d×d block (fewer at the right and bottom
    /// edges), rounded, then mapped from limited range (16…235) unless `fullRange`.
    /// - Parameters:
    ///   - rowStride: bytes from one row's first Y sample to the next row's (YUYV: `bytesperline`,
    ///     ≥ 2·width; a Y plane: ≥ width).
    ///   - sampleStep: bytes between Y samples of a row (YUYV 2, a Y plane 1).
    /// - Returns: nil when `data` is too short or a size is not positive.
    public static func lumaShrunk(_ data: ArraySlice<UInt8>, width: Int, height: Int, rowStride: Int, sampleStep: Int,
                                  denominator: Int, fullRange: Bool = false) -> Image? {
        let d = max(1, denominator)
        guard width > 0, height > 0, sampleStep >= 1, rowStride >= (width - 1) * sampleStep + 1,
              data.count >= rowStride * (height - 1) + (width - 1) * sampleStep + 1 else { return nil }
        let ow = (width + d - 1) / d, oh = (height + d - 1) / d
        var out = [UInt8](repeating: 0, count: ow * oh)
        var acc = [UInt32](repeating: 0, count: ow)
        data.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                acc.withUnsafeMutableBufferPointer { sums in
                    guard let s = src.baseAddress else { return }
                    for oy in 0..<oh {
                        for i in 0..<ow { sums[i] = 0 }
                        let y0 = oy * d, y1 = min(height, y0 + d)
                        for y in y0..<y1 {
                            let row = s + y * rowStride
                            var x = 0
                            for i in 0..<ow {
                                let end = min(width, x + d)
                                var sum: UInt32 = 0
                                while x < end { sum &+= UInt32(row[x * sampleStep]); x += 1 }
                                sums[i] &+= sum
                            }
                        }
                        let rows = y1 - y0
                        for i in 0..<ow {
                            let n = UInt32(rows * (min(width, (i + 1) * d) - i * d))
                            let v = Int((sums[i] + n / 2) / n)
                            dst[oy * ow + i] = fullRange ? UInt8(v) : clamp(((v - 16) * 76309 + 32768) >> 16)
                        }
                    }
                }
            }
        }
        return Image(width: ow, height: oh, layout: .gray, pixels: out)
    }

    /// Planar YUV (I420 = 4:2:0, 4:2:2, 4:4:4; planes Y, Cb, Cr back to back) → RGB.
    /// - Parameters: `subX`/`subY` are the chroma subsampling shifts (I420: 1,1; 4:2:2: 1,0;
    ///   4:4:4: 0,0); chroma planes are `ceil(width / 2^subX) × ceil(height / 2^subY)`.
    /// - Returns: nil when `data` is shorter than the three planes.
    public static func planarYUVToRGB(_ data: ArraySlice<UInt8>, width: Int, height: Int, subX: Int, subY: Int,
                                      fullRange: Bool = false) -> Image? {
        guard width > 0, height > 0 else { return nil }
        let cw = (width + (1 << subX) - 1) >> subX, ch = (height + (1 << subY) - 1) >> subY
        let ySize = width * height, cSize = cw * ch
        guard data.count >= ySize + 2 * cSize else { return nil }
        var out = [UInt8](repeating: 0, count: ySize * 3)
        data.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                guard let s = src.baseAddress, let o = dst.baseAddress else { return }
                let up = s + ySize, vp = s + ySize + cSize
                for row in 0..<height {
                    let crow = (row >> subY) * cw
                    for col in 0..<width {
                        let ci = crow + (col >> subX)
                        yuv(Int(s[row * width + col]), Int(up[ci]), Int(vp[ci]), full: fullRange, o + 3 * (row * width + col))
                    }
                }
            }
        }
        return Image(width: width, height: height, layout: .rgb, pixels: out)
    }

    /// `rows` rows of `rowBytes` bytes stored `stride` bytes apart (a driver's `bytesperline`
    /// padding, bug report V4L-07) packed tight; nil when `data` is too short or `stride` is
    /// smaller than a row.
    public static func unpad(_ data: ArraySlice<UInt8>, rowBytes: Int, stride: Int, rows: Int) -> [UInt8]? {
        guard rowBytes > 0, rows > 0, stride >= rowBytes, data.count >= stride * (rows - 1) + rowBytes else { return nil }
        if stride == rowBytes { return Array(data.prefix(rowBytes * rows)) }
        var out = [UInt8]()
        out.reserveCapacity(rowBytes * rows)
        let base = data.startIndex
        for r in 0..<rows { out += data[(base + r * stride)..<(base + r * stride + rowBytes)] }
        return out
    }

    /// A single-planar 4:2:0 V4L2 buffer (`NV12` or `YU12`) with rows `bytesPerLine` apart
    /// (chroma rows `bytesPerLine` for NV12's interleaved plane, `bytesPerLine / 2` for YU12's
    /// planes, as the V4L2 pixel-format pages define them), packed tight for `nv12ToRGB` /
    /// `i420ToRGB`. nil when short.
    public static func unpad420(_ data: ArraySlice<UInt8>, width: Int, height: Int, bytesPerLine: Int, nv12: Bool) -> [UInt8]? {
        let cw = (width + 1) / 2, ch = (height + 1) / 2
        let bpl = max(bytesPerLine, width)
        guard let y = unpad(data, rowBytes: width, stride: bpl, rows: height) else { return nil }
        let c0 = data.startIndex + bpl * height
        guard c0 <= data.endIndex else { return nil }
        if nv12 {
            guard let uv = unpad(data[c0...], rowBytes: 2 * cw, stride: bpl, rows: ch) else { return nil }
            return y + uv
        }
        let cbpl = max(bpl / 2, cw)
        let c1 = c0 + cbpl * ch
        guard c1 <= data.endIndex, let u = unpad(data[c0...], rowBytes: cw, stride: cbpl, rows: ch),
              let v = unpad(data[c1...], rowBytes: cw, stride: cbpl, rows: ch) else { return nil }
        return y + u + v
    }

    /// I420 (YUV 4:2:0 planar, V4L2 `YU12`) → RGB.
    public static func i420ToRGB(_ data: ArraySlice<UInt8>, width: Int, height: Int, fullRange: Bool = false) -> Image? {
        planarYUVToRGB(data, width: width, height: height, subX: 1, subY: 1, fullRange: fullRange)
    }

    /// NV12 (Y plane, then interleaved Cb Cr at 4:2:0) → RGB. nil when `data` is short.
    public static func nv12ToRGB(_ data: ArraySlice<UInt8>, width: Int, height: Int, fullRange: Bool = false) -> Image? {
        guard width > 0, height > 0 else { return nil }
        let cw = (width + 1) / 2, ch = (height + 1) / 2, ySize = width * height
        guard data.count >= ySize + 2 * cw * ch else { return nil }
        var out = [UInt8](repeating: 0, count: ySize * 3)
        data.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                guard let s = src.baseAddress, let o = dst.baseAddress else { return }
                let uv = s + ySize
                for row in 0..<height {
                    for col in 0..<width {
                        let ci = 2 * ((row >> 1) * cw + (col >> 1))
                        yuv(Int(s[row * width + col]), Int(uv[ci]), Int(uv[ci + 1]), full: fullRange, o + 3 * (row * width + col))
                    }
                }
            }
        }
        return Image(width: width, height: height, layout: .rgb, pixels: out)
    }

    /// YUYV 4:2:2 packed (Y0 Cb Y1 Cr; V4L2 `YUYV`) → RGB. `bytesPerLine` ≥ 2·width (driver
    /// padding allowed). nil when `data` is short or width is odd-sized beyond the row.
    public static func yuyvToRGB(_ data: ArraySlice<UInt8>, width: Int, height: Int, bytesPerLine: Int? = nil,
                                 fullRange: Bool = false) -> Image? {
        guard width > 0, height > 0 else { return nil }
        let bpl = bytesPerLine ?? 2 * width
        let pairs = (width + 1) / 2
        guard bpl >= 4 * pairs || bpl >= 2 * width, data.count >= bpl * (height - 1) + 4 * pairs else { return nil }
        var out = [UInt8](repeating: 0, count: width * height * 3)
        data.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                guard let s = src.baseAddress, let o = dst.baseAddress else { return }
                for row in 0..<height {
                    let r = s + row * bpl
                    for p in 0..<pairs {
                        let u = Int(r[4 * p + 1]), v = Int(r[4 * p + 3])
                        let x = 2 * p
                        yuv(Int(r[4 * p]), u, v, full: fullRange, o + 3 * (row * width + x))
                        if x + 1 < width { yuv(Int(r[4 * p + 2]), u, v, full: fullRange, o + 3 * (row * width + x + 1)) }
                    }
                }
            }
        }
        return Image(width: width, height: height, layout: .rgb, pixels: out)
    }

    /// YUYV → full-range gray (the Y samples only).
    public static func yuyvToGray(_ data: ArraySlice<UInt8>, width: Int, height: Int, bytesPerLine: Int? = nil,
                                  fullRange: Bool = false) -> Image? {
        guard width > 0, height > 0 else { return nil }
        let bpl = bytesPerLine ?? 2 * width
        guard data.count >= bpl * (height - 1) + 2 * width else { return nil }
        var out = [UInt8](repeating: 0, count: width * height)
        data.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                guard let s = src.baseAddress else { return }
                for row in 0..<height {
                    for col in 0..<width {
                        let y = Int(s[row * bpl + 2 * col])
                        dst[row * width + col] = fullRange ? UInt8(y) : clamp(((y - 16) * 76309 + 32768) >> 16)
                    }
                }
            }
        }
        return Image(width: width, height: height, layout: .gray, pixels: out)
    }
}

/// Image resizing.
public enum Scale {
    /// Nearest-neighbour resize to `width × height` (any direction). Source pixel for output x is
    /// `floor((x + 0.5) · srcW / width)`.
    public static func nearest(_ image: Image, width: Int, height: Int) -> Image {
        let c = image.layout.rawValue
        guard width > 0, height > 0, image.width > 0, image.height > 0 else {
            return Image(width: max(0, width), height: max(0, height), layout: image.layout)
        }
        var out = [UInt8](repeating: 0, count: width * height * c)
        let xs = (0..<width).map { min(image.width - 1, ((2 * $0 + 1) * image.width) / (2 * width)) }
        image.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<height {
                    let sy = min(image.height - 1, ((2 * y + 1) * image.height) / (2 * height))
                    let srow = sy * image.width * c, drow = y * width * c
                    for x in 0..<width {
                        for k in 0..<c { dst[drow + x * c + k] = src[srow + xs[x] * c + k] }
                    }
                }
            }
        }
        return Image(width: width, height: height, layout: image.layout, pixels: out)
    }

    /// Area (box-filter) downscale to `width × height`: each output pixel is the rounded mean of
    /// the source pixels whose index range `[floor(x·srcW/w), floor((x+1)·srcW/w))` it covers
    /// (at least one). Upscaling falls back to `nearest`.
    public static func area(_ image: Image, width: Int, height: Int) -> Image {
        guard width > 0, height > 0, width <= image.width, height <= image.height else {
            return nearest(image, width: width, height: height)
        }
        let c = image.layout.rawValue
        let x0 = (0..<width).map { $0 * image.width / width }
        let x1 = (0..<width).map { max($0 * image.width / width + 1, ($0 + 1) * image.width / width) }
        var out = [UInt8](repeating: 0, count: width * height * c)
        var acc = [Int](repeating: 0, count: width * c)
        image.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<height {
                    let sy0 = y * image.height / height
                    let sy1 = max(sy0 + 1, (y + 1) * image.height / height)
                    for i in 0..<acc.count { acc[i] = 0 }
                    for sy in sy0..<sy1 {
                        let srow = sy * image.width * c
                        for x in 0..<width {
                            for sx in x0[x]..<x1[x] {
                                for k in 0..<c { acc[x * c + k] += Int(src[srow + sx * c + k]) }
                            }
                        }
                    }
                    for x in 0..<width {
                        let n = (x1[x] - x0[x]) * (sy1 - sy0)
                        for k in 0..<c { dst[(y * width + x) * c + k] = UInt8((acc[x * c + k] + n / 2) / n) }
                    }
                }
            }
        }
        return Image(width: width, height: height, layout: image.layout, pixels: out)
    }

    /// Crops `image` to the rectangle (clamped to the image); nil when the clamped rect is empty.
    public static func crop(_ image: Image, x: Int, y: Int, width: Int, height: Int) -> Image? {
        let cx0 = max(0, x), cy0 = max(0, y)
        let cx1 = min(image.width, x + width), cy1 = min(image.height, y + height)
        guard cx1 > cx0, cy1 > cy0 else { return nil }
        let c = image.layout.rawValue, w = cx1 - cx0
        var out = [UInt8]()
        out.reserveCapacity(w * (cy1 - cy0) * c)
        for row in cy0..<cy1 {
            let start = (row * image.width + cx0) * c
            out.append(contentsOf: image.pixels[start..<(start + w * c)])
        }
        return Image(width: w, height: cy1 - cy0, layout: image.layout, pixels: out)
    }
}
