import CaptureModel
import Media

#if canImport(Glibc)
import Glibc
#endif

/// Computes the `QualityVector` of a frame: the cheap ISO/IEC 29794-5 measures as BSI's OFIQ
/// (github.com/BSI-OFIQ/OFIQ-Project, `OFIQlib/modules/measures/src/*.cpp`, mappings in
/// `data/ofiq_config.jaxn`) computes them, from the 68 iBUG landmarks and the 8-bit gray frame.
/// Pure Swift; about 0.1–0.3 ms on a 640×480 frame (`make bench`, bench-quality).
///
/// **Where this approximates OFIQ** (OFIQ takes seconds per image; this runs on every frame):
/// - OFIQ measures on a face aligned to 616×616 (eye centres 113 px apart) with ADNet's 98
///   landmarks, a landmarked-region mask and a face-occlusion segmentation network. Here: the raw
///   frame, dlib's 68 landmarks (the same anatomical points: eye corners, eyelids, inner lips,
///   chin), and as face region the ellipse inscribed in the landmarks' box (jaw, brows, chin),
///   sampled every second pixel; no occlusion mask.
/// - Luminance is the gray (luma) plane the analysis already has, not OFIQ's RGB→Y conversion.
/// - The cheek zones of IlluminationUniformity follow OFIQ's geometry (`CalculateRegionOfInterest`:
///   squares of 0.3·IED, half the eye-to-mouth distance below each eye centre, towards the nose),
///   laid along the eye line so roll does not move them off the cheeks (OFIQ aligns the face).
/// - Head pose comes from `HeadPose` (landmark fit), not OFIQ's 3DDFAV2 network; Sharpness is the
///   variance of the Laplacian (OFIQ uses a trained random forest).
public enum QualityMeasures {
    /// OFIQ `Measure::Sigmoid`: 1 / (1 + exp((x0 − x) / w)).
    public static func sigmoid(_ x: Double, _ x0: Double, _ w: Double) -> Double { 1 / (1 + exp((x0 - x) / w)) }

    /// OFIQ `Measure::ScalarConversion`: round(h·(a + s·σ(x, x0, w))) clamped to 0…100.
    public static func scalar(_ x: Double, h: Double = 100, a: Double = 0, s: Double = 1, x0: Double, w: Double) -> Int {
        clampScore(h * (a + s * sigmoid(x, x0, w)))
    }

    static func clampScore(_ v: Double) -> Int {
        guard v.isFinite else { return 0 }
        return Int(max(0, min(100, v.rounded())))
    }

    /// The vector of `faces.first` in `gray`.
    /// - Parameters:
    ///   - gray: the frame, 8-bit gray (`Image.layout == .gray`).
    ///   - faces: the frame's faces, most confident first (the first is measured; all count for
    ///     SingleFacePresent). Empty: every component unassessed (nil).
    ///   - sharpness: `FaceQuality.sharpness` of the first face (already computed by the analyser).
    /// - Returns: one component per `QualityMeasure`, in its order. Landmark measures are nil
    ///   without 68 landmarks; pixel measures then use the ellipse inscribed in the face box.
    ///   - pixelScale: source pixels per pixel of `gray` (the analysis scale's denominator, issue
    ///     #16): InterEyeDistance, the one measure in pixels, is reported in source pixels, since
    ///     its limits (ISO/IEC 19794-5's 60 and 90 px) are about the recorded image. The other
    ///     measures are ratios, the same at any scale.
    public static func vector(gray: Image, faces: [DetectedFace], sharpness: Double, pixelScale: Double = 1) -> QualityVector {
        var c: [QualityMeasure: (Double?, Int?)] = [:]
        func set(_ m: QualityMeasure, _ raw: Double?, _ score: (Double) -> Int) {
            if let r = raw, r.isFinite { c[m] = (r, score(r)) } else { c[m] = (nil, nil) }
        }
        // Bad input (no face, a box or points that are not finite numbers, an empty frame) is not
        // assessed rather than trusted: nothing below may turn a NaN into an Int.
        let b0 = faces.first?.box
        guard let face = faces.first, let b = b0, [b.x, b.y, b.w, b.h].allSatisfy(\.isFinite), gray.width > 0, gray.height > 0,
              gray.pixels.count >= gray.width * gray.height else {
            return QualityVector(components: QualityMeasure.allCases.map { QualityComponent(measure: $0, raw: nil, score: nil) })
        }
        let fw = Double(gray.width), fh = Double(gray.height)
        let lm = face.landmarks.count >= 68 && face.landmarks.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) ? face.landmarks : nil

        // Single face: OFIQ SingleFacePresent, f = a2 / a1 of the two largest boxes.
        let areas = faces.map { $0.box.w * $0.box.h }.sorted(by: >)
        let f = areas.count > 1 && areas[0] > 0 ? areas[1] / areas[0] : 0
        set(.singleFacePresent, f) { clampScore(100 * (1 - $0)) }

        // Pose: OFIQ HeadPose.cpp, round(100·max(0, cos θ)²).
        func poseScore(_ deg: Double) -> Int { let k = max(0, cos(deg * .pi / 180)); return clampScore(100 * k * k) }
        set(.headPoseYaw, face.yaw, poseScore)
        set(.headPosePitch, face.pitch, poseScore)
        set(.headPoseRoll, face.roll, poseScore)

        // Landmark geometry.
        var region = ellipse(in: face.box)
        var axis: (top: Point, bottom: Point)?
        var zones: (ZoneStats, ZoneStats)?
        if let lm {
            func mid(_ a: Point, _ b: Point) -> Point { Point(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2) }
            func dist(_ a: Point, _ b: Point) -> Double { ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot() }
            let eyeL = mid(lm[36], lm[39]), eyeR = mid(lm[42], lm[45])   // raw-left (subject's right), raw-right
            let eyeMid = mid(eyeL, eyeR)
            axis = (eyeMid, lm[8])
            let t = dist(eyeMid, lm[8])                                   // OFIQ tmetric
            let iedPlain = dist(eyeL, eyeR)
            let cosYaw = cos((face.yaw ?? 0) * .pi / 180)
            set(.interEyeDistance, abs(cosYaw) < 1e-6 ? nil : iedPlain * pixelScale / cosYaw) { scalar($0, x0: 70, w: 20) }
            set(.headSize, t / fh) { scalar(abs($0 - 0.45), h: 200, a: 1, s: -1, x0: 0, w: 0.05) }
            if t > 0 {
                let right = max(dist(lm[37], lm[41]), dist(lm[38], lm[40])) / t   // subject's right eye
                let left = max(dist(lm[43], lm[47]), dist(lm[44], lm[46])) / t
                let eyeScore: (Double) -> Int = { scalar($0, x0: 0.02, w: 0.01) }
                set(.eyesOpen, min(left, right), eyeScore)
                set(.eyeOpenRight, right, eyeScore)
                set(.eyeOpenLeft, left, eyeScore)
                let mouth = max(dist(lm[61], lm[67]), dist(lm[62], lm[66]), dist(lm[63], lm[65])) / t
                set(.mouthClosed, mouth) { scalar($0, a: 1, s: -1, x0: 0.2, w: 0.06) }
                set(.marginAbove, eyeMid.y / t) { scalar($0, x0: 1.4, w: 0.1) }
                set(.marginBelow, (fh - eyeMid.y) / t) { scalar($0, x0: 1.8, w: 0.1) }
            }
            if iedPlain > 0 {
                set(.leftwardCrop, eyeL.x / iedPlain) { scalar($0, x0: 0.9, w: 0.1) }
                set(.rightwardCrop, (fw - eyeR.x) / iedPlain) { scalar($0, x0: 0.9, w: 0.1) }
                let mouthCentre = mid(lm[62], lm[66])
                zones = cheekZones(gray, eyeL: eyeL, eyeR: eyeR, ied: iedPlain, eyeMouth: dist(eyeMid, mouthCentre))
            }
            // The landmarks' box: jaw (0–16) and brows (17–26) side to side, brows to chin.
            var x0 = Double.infinity, x1 = -Double.infinity, y0 = Double.infinity, y1 = -Double.infinity
            for p in lm[0...26] { x0 = min(x0, p.x); x1 = max(x1, p.x); y0 = min(y0, p.y); y1 = max(y1, p.y) }
            let box = Rect(x: x0, y: y0, w: x1 - x0, h: y1 - y0)
            if box.w > 0, box.h > 0 {
                region = ellipse(in: box)
                let ix = max(0, min(box.x + box.w, fw) - max(box.x, 0)), iy = max(0, min(box.y + box.h, fh) - max(box.y, 0))
                set(.faceInFrame, ix * iy / (box.w * box.h)) { clampScore(100 * $0) }
            }
        } else {
            for m in [QualityMeasure.interEyeDistance, .headSize, .eyesOpen, .eyeOpenRight, .eyeOpenLeft, .mouthClosed,
                      .marginAbove, .marginBelow, .leftwardCrop, .rightwardCrop, .faceInFrame] { c[m] = (nil, nil) }
        }

        // Face-region luminance: OFIQ Luminance, Under/OverExposurePrevention.
        let h = histogram(gray, ellipse: region, axis: axis)
        if h.count > 0 {
            let n = Double(h.count)
            var mean = 0.0
            for i in 0..<256 { mean += Double(h.bins[i]) * Double(i) / 255 }
            mean /= n
            var variance = 0.0
            for i in 0..<256 { let d = Double(i) / 255 - mean; variance += Double(h.bins[i]) * d * d }
            variance /= n
            set(.luminanceMean, mean) { clampScore(100 * sigmoid($0, 0.2, 0.05) * (1 - sigmoid($0, 0.8, 0.05))) }
            set(.luminanceVariance, variance) { clampScore(100 * sin(60 * $0 / (60 * $0 + 1) * .pi)) }
            set(.underExposurePrevention, Double(h.bins[0...25].reduce(0, +)) / n) { scalar($0, h: 120, a: 0.832, s: -1, x0: 0.92, w: 0.05) }
            set(.overExposurePrevention, Double(h.bins[247...255].reduce(0, +)) / n) { clampScore(1 / ($0 + 0.01)) }
            // Backlight (ours): face mean over the bright half of the frame outside the face box.
            let bg = brightBackground(gray, box: face.box)
            set(.backgroundLuminance, bg.map { $0 / 255 }) { clampScore(100 * (1 - $0) / 0.2) }
            set(.backlight, bg.map { mean * 255 / max($0, 1) }) { clampScore(100 * ($0 - 0.2) / 0.6) }
        } else {
            for m in [QualityMeasure.luminanceMean, .luminanceVariance, .underExposurePrevention, .overExposurePrevention, .backlight,
                      .backgroundLuminance] {
                c[m] = (nil, nil)
            }
        }
        if let (a, b) = zones, a.count > 0, b.count > 0 {
            var inter = 0.0
            for i in 0..<256 { inter += min(Double(a.bins[i]) / Double(a.count), Double(b.bins[i]) / Double(b.count)) }
            set(.illuminationUniformity, inter) { clampScore(100 * pow($0, 0.3)) }
        } else {
            c[.illuminationUniformity] = (nil, nil)
        }
        if let l = h.sides, l.left.count > 0, l.right.count > 0 {
            let ma = l.left.mean, mb = l.right.mean
            set(.illuminationBalance, max(ma, mb) > 0 ? min(ma, mb) / max(ma, mb) : 1) { clampScore(100 * $0) }
        } else {
            c[.illuminationBalance] = (nil, nil)
        }
        set(.sharpness, sharpness) { scalar($0, x0: 150, w: 50) }

        return QualityVector(components: QualityMeasure.allCases.map {
            let v = c[$0] ?? (nil, nil)
            return QualityComponent(measure: $0, raw: v.0, score: v.1)
        })
    }

    // MARK: pixels

    struct Ellipse { var cx, cy, rx, ry: Double }
    struct Side { var sum = 0, count = 0; var mean: Double { count > 0 ? Double(sum) / Double(count) : 0 } }
    struct ZoneStats {
        var bins = [Int](repeating: 0, count: 256)
        var count = 0
        var sum = 0
        var mean: Double { count > 0 ? Double(sum) / Double(count) : 0 }
        /// The two halves of the region either side of the face's axis (raw-left, raw-right),
        /// when an axis was given.
        var sides: (left: Side, right: Side)?
    }

    static func ellipse(in r: Rect) -> Ellipse { Ellipse(cx: r.centerX, cy: r.centerY, rx: r.w / 2, ry: r.h / 2) }

    /// 256-bin luma histogram of the pixels inside `e` (clipped to the frame), every `step`-th row
    /// and column; with `axis` (eye midpoint → chin), also the mean luma of each side of it.
    static func histogram(_ g: Image, ellipse e: Ellipse, axis: (top: Point, bottom: Point)? = nil, step: Int = 2) -> ZoneStats {
        var z = ZoneStats()
        var left = Side(), right = Side()
        guard e.rx > 0, e.ry > 0 else { return z }
        // Pixel (x, y) is inside when its centre (x + 0.5, y + 0.5) is.
        let y0 = max(0, Int((e.cy - e.ry - 0.5).rounded(.up))), y1 = min(g.height - 1, Int((e.cy + e.ry - 0.5).rounded(.down)))
        guard y0 <= y1 else { return z }
        g.pixels.withUnsafeBufferPointer { px in
            var y = y0
            while y <= y1 {
                let dy = (Double(y) + 0.5 - e.cy) / e.ry
                let half = e.rx * max(0, 1 - dy * dy).squareRoot()
                let xa = max(0, Int((e.cx - half - 0.5).rounded(.up))), xb = min(g.width - 1, Int((e.cx + half - 0.5).rounded(.down)))
                if xa <= xb {
                    var x = xa
                    let row = y * g.width
                    // Where the axis crosses this row (pixels left of it are on the raw-left side).
                    var split = Int.max
                    if let a = axis, abs(a.bottom.y - a.top.y) > 1e-9 {
                        let ax = a.top.x + (Double(y) + 0.5 - a.top.y) * (a.bottom.x - a.top.x) / (a.bottom.y - a.top.y)
                        split = Int((ax - 0.5).rounded(.up))
                    }
                    while x <= xb {
                        let v = Int(px[row + x]); z.bins[v] += 1; z.sum += v; z.count += 1
                        if axis != nil { if x < split { left.sum += v; left.count += 1 } else { right.sum += v; right.count += 1 } }
                        x += step
                    }
                }
                y += step
            }
        }
        if axis != nil { z.sides = (left, right) }
        return z
    }

    /// The bright part of the frame outside `box`: the mean luma of the pixels (every `step`-th
    /// pixel and row) at or above the median of those pixels; nil when nothing is outside.
    static func brightBackground(_ g: Image, box: Rect, step: Int = 4) -> Double? {
        let bx0 = box.x, bx1 = box.x + box.w, by0 = box.y, by1 = box.y + box.h
        var bins = [Int](repeating: 0, count: 256)
        var n = 0
        g.pixels.withUnsafeBufferPointer { px in
            var y = 0
            while y < g.height {
                let inRows = Double(y) >= by0 && Double(y) < by1
                var x = 0
                let row = y * g.width
                while x < g.width {
                    if !(inRows && Double(x) >= bx0 && Double(x) < bx1) { bins[Int(px[row + x])] += 1; n += 1 }
                    x += step
                }
                y += step
            }
        }
        guard n > 0 else { return nil }
        var below = 0, median = 0
        while median < 255, below + bins[median] < (n + 1) / 2 { below += bins[median]; median += 1 }
        var sum = 0, count = 0
        for v in median...255 { sum += v * bins[v]; count += bins[v] }
        return Double(sum) / Double(max(count, 1))
    }

    /// OFIQ's two cheek zones (`CalculateRegionOfInterest`): squares of side 0.3·IED whose top
    /// is half the eye-to-mouth distance below each eye centre, reaching from the eye centre
    /// towards the nose; laid out along the eye line (u) and its normal (v), sampled every pixel
    /// of the zone's own grid (nearest pixel). Pixels outside the frame are skipped.
    static func cheekZones(_ g: Image, eyeL: Point, eyeR: Point, ied: Double, eyeMouth: Double) -> (ZoneStats, ZoneStats) {
        let ux = (eyeR.x - eyeL.x) / ied, uy = (eyeR.y - eyeL.y) / ied
        let vx = -uy, vy = ux                               // the eye line's normal, pointing down the face
        // At most the frame's larger side: a zone is never larger than the frame.
        let side = max(1, Int(min(0.3 * ied, Double(max(g.width, g.height)))))
        let down = eyeMouth / 2
        func zone(_ c: Point, towards sign: Double) -> ZoneStats {
            var z = ZoneStats()
            g.pixels.withUnsafeBufferPointer { px in
                for j in 0..<side {
                    for i in 0..<side {
                        let a = sign * (Double(i) + 0.5), b = down + Double(j) + 0.5
                        let x = Int((c.x + a * ux + b * vx).rounded(.down)), y = Int((c.y + a * uy + b * vy).rounded(.down))
                        guard x >= 0, y >= 0, x < g.width, y < g.height else { continue }
                        let v = Int(px[y * g.width + x]); z.bins[v] += 1; z.sum += v; z.count += 1
                    }
                }
            }
            return z
        }
        return (zone(eyeL, towards: 1), zone(eyeR, towards: -1))
    }
}
