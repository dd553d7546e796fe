import CaptureModel

#if canImport(Glibc)
import Glibc
#endif

/// Head pose (yaw, pitch, roll in degrees) from 68 iBUG 300-W landmarks.
///
/// **Method**: a scaled-orthographic (weak-perspective) fit of a generic 3D face model, i.e. the
/// first step of POSIT (DeMenthon & Davis, "Model-based object pose in 25 lines of code", IJCV
/// 1995): with model points P (centred) and image points p (centred, y flipped up), the 2×3
/// matrix M = (Σ p Pᵀ)(Σ P Pᵀ)⁻¹ is the least-squares projection; its rows, normalised and made
/// orthogonal, are the first two rows of the rotation R, the third is their cross product. A
/// selfie face (≈ 20 cm wide at ≥ 30 cm) is far enough for weak perspective; the generic model is
/// what limits accuracy (a few degrees), not the projection model.
///
/// **Model**: twelve rigid points (eye corners, nose, mouth corners, chin) of the mean 3D face for
/// the 68-point Multi-PIE/iBUG markup distributed with hysts/pytorch_mpiigaze_demo
/// (`ptgaze/common/face_model_68.py`, MIT licence; outer eye corners 90 mm apart), converted to
/// millimetres and to the axes below (x right, y up, z towards the camera, nose tip at the origin).
/// The widely used six-point model of LearnOpenCV ("Head Pose Estimation using OpenCV and Dlib",
/// 2016) was tried first: its nose sits too low for real faces (eye–nose : nose–chin 0.52 against
/// 0.42 in the mean face), which biased pitch by about −17° on a frontal face.
///
/// **Angles and signs** (camera axes x right, y up, z towards the viewer; R = Rz(roll)·Ry(yaw)·Rx(−pitch)):
/// - roll: positive counter-clockwise as seen in the raw, unmirrored frame (shared/media convention);
/// - yaw: positive when the nose turns towards the raw frame's right;
/// - pitch: positive when the chin goes up (the nose points up).
public enum HeadPose {
    /// Indices of the model points in the 68-point markup.
    static let indices = [8, 27, 30, 31, 33, 35, 36, 39, 42, 45, 48, 54]
    static let model: [(Double, Double, Double)] = [
        (0, -81.1, -42.5),                          // 8 chin
        (0, 35.2, -20.4), (0, 0, 0),                // 27 nose bridge top, 30 nose tip
        (-14.8, -9.5, -17.1), (0, -13.8, -12.1), (14.8, -9.5, -17.1),   // 31, 33, 35 nostrils
        (-45.0, 32.4, -39.8), (-19.2, 31.0, -33.6), // 36, 39 eye corners (image left)
        (19.2, 31.0, -33.6), (45.0, 32.4, -39.8),   // 42, 45 eye corners (image right)
        (-28.5, -33.3, -36.7), (28.5, -33.3, -36.7),// 48, 54 mouth corners
    ]

    /// The pinhole camera `estimate(_:frameWidth:frameHeight:)` assumes: the principal point at the
    /// frame's centre and a focal length of `focalPerWidth` × the frame width in pixels. 1.0 is a
    /// 53° horizontal field of view, the usual guess when the camera is not calibrated (LearnOpenCV,
    /// "Head Pose Estimation using OpenCV and Dlib", 2016: "approximate the focal length by the
    /// width of the image"); webcams span about 55–78°, and at selfie distance (face ≥ 0.35 of the
    /// frame height) the angles change by < 1° over that span (HeadPoseTests).
    public static let focalPerWidth = 1.0

    /// Yaw, pitch, roll in degrees from a full perspective fit (PnP) of the generic model to the
    /// landmarks of a `frameWidth` × `frameHeight` frame (pixels, any scale: the landmarks' own).
    ///
    /// **Method**: the weak-perspective solution below (`estimate(_:)`) starts a Levenberg–Marquardt
    /// minimisation of the reprojection error over the six pose parameters (a rotation increment
    /// as a rotation vector, and the translation), with the pinhole camera of `focalPerWidth`; a
    /// head seen off the optical axis or close to the lens is then measured as it is turned, not
    /// as weak perspective reads it (a face at the frame's edge looks turned by up to half the
    /// field of view under weak perspective). At most 20 iterations; stops when a step changes the
    /// error by < 1e-9 relative. Recovers synthetic poses to < 0.5° without noise and < 3° with
    /// 1 px landmark noise on a 160 px face for |angle| ≤ 30° (HeadPoseTests).
    /// - Returns: nil when fewer than 68 landmarks are given, a landmark is not finite, or the fit
    ///   is degenerate; the weak-perspective answer when the perspective fit does not converge to
    ///   a face in front of the camera.
    public static func estimate(_ landmarks: [Point], frameWidth: Int, frameHeight: Int) -> (yaw: Double, pitch: Double, roll: Double)? {
        guard landmarks.count >= 68, indices.allSatisfy({ landmarks[$0].x.isFinite && landmarks[$0].y.isFinite }),
              let weak = weakPerspective(landmarks) else { return nil }
        guard frameWidth > 0, frameHeight > 0 else { return weak.angles }
        let f = focalPerWidth * Double(frameWidth)
        let cx = Double(frameWidth) / 2, cy = Double(frameHeight) / 2
        let obs = indices.map { landmarks[$0] }
        let pts = model.map { [$0.0, $0.1, $0.2] }
        // Start: rotation from weak perspective, distance from its scale (px per mm).
        var r = weak.rotation
        var mc = [0.0, 0.0, 0.0]
        for p in pts { for k in 0..<3 { mc[k] += p[k] / Double(pts.count) } }
        let rmc = (0..<3).map { dot(r[$0], mc) }
        let depth = f / weak.scale
        var t = [(weak.centroid.x - cx) / weak.scale - rmc[0], (cy - weak.centroid.y) / weak.scale - rmc[1], -depth - rmc[2]]

        func residuals(_ r: [[Double]], _ t: [Double]) -> [Double]? {
            var out: [Double] = []
            out.reserveCapacity(2 * pts.count)
            for (k, p) in pts.enumerated() {
                let x = dot(r[0], p) + t[0], y = dot(r[1], p) + t[1], z = dot(r[2], p) + t[2]
                guard z < -1 else { return nil }     // in front of the camera
                out.append(cx + f * x / -z - obs[k].x)
                out.append(cy - f * y / -z - obs[k].y)
            }
            return out
        }
        func apply(_ d: [Double], to r: [[Double]], _ t: [Double]) -> ([[Double]], [Double]) {
            (mul(rodrigues(d[0], d[1], d[2]), r), [t[0] + d[3], t[1] + d[4], t[2] + d[5]])
        }
        guard var res = residuals(r, t) else { return weak.angles }
        var err = res.reduce(0) { $0 + $1 * $1 }
        var lambda = 1e-3
        for _ in 0..<20 {
            // Numeric Jacobian (central differences): 6 columns, 2N rows.
            let steps = [1e-5, 1e-5, 1e-5, 1e-3, 1e-3, 1e-3]
            var jac = [[Double]](repeating: [Double](repeating: 0, count: 6), count: res.count)
            var ok = true
            for c in 0..<6 {
                var d = [Double](repeating: 0, count: 6); d[c] = steps[c]
                let (rp, tp) = apply(d, to: r, t)
                d[c] = -steps[c]
                let (rm, tm) = apply(d, to: r, t)
                guard let a = residuals(rp, tp), let b = residuals(rm, tm) else { ok = false; break }
                for i in 0..<res.count { jac[i][c] = (a[i] - b[i]) / (2 * steps[c]) }
            }
            guard ok else { break }
            var jtj = [[Double]](repeating: [Double](repeating: 0, count: 6), count: 6)
            var jtr = [Double](repeating: 0, count: 6)
            for i in 0..<res.count {
                for a in 0..<6 {
                    jtr[a] += jac[i][a] * res[i]
                    for b in 0..<6 { jtj[a][b] += jac[i][a] * jac[i][b] }
                }
            }
            var improved = false
            for _ in 0..<8 {
                var m = jtj
                for a in 0..<6 { m[a][a] *= 1 + lambda }
                guard let d = solve(m, jtr.map { -$0 }) else { lambda *= 10; continue }
                let (r2, t2) = apply(d, to: r, t)
                if let res2 = residuals(r2, t2) {
                    let e2 = res2.reduce(0) { $0 + $1 * $1 }
                    if e2 < err {
                        let rel = (err - e2) / max(err, 1e-12)
                        r = orthonormalised(r2); t = t2; res = res2; err = e2
                        lambda = max(lambda / 10, 1e-9)
                        improved = rel > 1e-9
                        break
                    }
                }
                lambda *= 10
            }
            if !improved { break }
        }
        return angles(of: r)
    }

    /// Yaw, pitch, roll in degrees under weak perspective (see the type's docs), or nil when fewer
    /// than 68 landmarks are given or the fit is degenerate (all points on a line). Used where the
    /// frame size is unknown, and as the start of the perspective fit.
    public static func estimate(_ landmarks: [Point]) -> (yaw: Double, pitch: Double, roll: Double)? {
        weakPerspective(landmarks)?.angles
    }

    /// The weak-perspective fit: rotation rows, scale (image px per model mm) and the image centroid
    /// of the model points.
    static func weakPerspective(_ landmarks: [Point]) -> (angles: (yaw: Double, pitch: Double, roll: Double),
                                                          rotation: [[Double]], scale: Double, centroid: Point)? {
        guard landmarks.count >= 68 else { return nil }
        let n = Double(indices.count)
        var mc = (0.0, 0.0, 0.0), pc = (0.0, 0.0)
        for (k, i) in indices.enumerated() {
            mc.0 += model[k].0; mc.1 += model[k].1; mc.2 += model[k].2
            pc.0 += landmarks[i].x; pc.1 += -landmarks[i].y
        }
        mc = (mc.0 / n, mc.1 / n, mc.2 / n); pc = (pc.0 / n, pc.1 / n)
        // A = Σ P Pᵀ (3×3), B = Σ p Pᵀ (2×3)
        var a = [[Double]](repeating: [0, 0, 0], count: 3)
        var b = [[Double]](repeating: [0, 0, 0], count: 2)
        for (k, i) in indices.enumerated() {
            let pm = [model[k].0 - mc.0, model[k].1 - mc.1, model[k].2 - mc.2]
            let pi = [landmarks[i].x - pc.0, -landmarks[i].y - pc.1]
            for r in 0..<3 { for c in 0..<3 { a[r][c] += pm[r] * pm[c] } }
            for r in 0..<2 { for c in 0..<3 { b[r][c] += pi[r] * pm[c] } }
        }
        guard let ai = invert3(a) else { return nil }
        var r1 = [0.0, 0.0, 0.0], r2 = [0.0, 0.0, 0.0]
        for c in 0..<3 {
            for k in 0..<3 { r1[c] += b[0][k] * ai[k][c]; r2[c] += b[1][k] * ai[k][c] }
        }
        // Symmetric orthonormalisation of the two rows.
        let n1 = norm(r1), n2 = norm(r2)
        guard n1 > 1e-12, n2 > 1e-12 else { return nil }
        var u = r1.map { $0 / n1 }, v = r2.map { $0 / n2 }
        let d = dot(u, v)
        let u2 = zip(u, v).map { $0 - d / 2 * $1 }, v2 = zip(v, u).map { $0 - d / 2 * $1 }
        u = u2.map { $0 / norm(u2) }; v = v2.map { $0 / norm(v2) }
        let w = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]]
        let r = [u, v, w]
        return (angles(of: r), r, (n1 + n2) / 2, Point(x: pc.0, y: -pc.1))
    }

    /// Angles of a rotation R (rows) = Rz(γ) Ry(β) Rx(α): R20 = −sin β, R21 = cos β sin α,
    /// R22 = cos β cos α, R10 = sin γ cos β, R00 = cos γ cos β; yaw β, pitch −α, roll γ, degrees.
    static func angles(of r: [[Double]]) -> (yaw: Double, pitch: Double, roll: Double) {
        let beta = asin(max(-1, min(1, -r[2][0])))
        let alpha = atan2(r[2][1], r[2][2])
        let gamma = atan2(r[1][0], r[0][0])
        let deg = 180 / Double.pi
        return (yaw: beta * deg, pitch: -alpha * deg, roll: gamma * deg)
    }

    /// The rotation matrix of the rotation vector (x, y, z) (Rodrigues' formula), radians.
    static func rodrigues(_ x: Double, _ y: Double, _ z: Double) -> [[Double]] {
        let th = (x * x + y * y + z * z).squareRoot()
        guard th > 1e-15 else { return [[1, -z, y], [z, 1, -x], [-y, x, 1]] }
        let kx = x / th, ky = y / th, kz = z / th, c = cos(th), s = sin(th), v = 1 - c
        return [[c + kx * kx * v, kx * ky * v - kz * s, kx * kz * v + ky * s],
                [ky * kx * v + kz * s, c + ky * ky * v, ky * kz * v - kx * s],
                [kz * kx * v - ky * s, kz * ky * v + kx * s, c + kz * kz * v]]
    }

    /// The nearest rotation to r's rows by Gram–Schmidt (keeps rounding from accumulating).
    static func orthonormalised(_ r: [[Double]]) -> [[Double]] {
        let u = r[0].map { $0 / norm(r[0]) }
        let d = dot(r[1], u)
        let v0 = zip(r[1], u).map { $0 - d * $1 }
        let v = v0.map { $0 / norm(v0) }
        let w = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]]
        return [u, v, w]
    }

    /// Solves the n×n system m·x = b by Gaussian elimination with partial pivoting; nil when singular.
    static func solve(_ m: [[Double]], _ b: [Double]) -> [Double]? {
        let n = b.count
        var a = m, y = b
        for col in 0..<n {
            guard let p = (col..<n).max(by: { abs(a[$0][col]) < abs(a[$1][col]) }), abs(a[p][col]) > 1e-14 else { return nil }
            a.swapAt(col, p); y.swapAt(col, p)
            for row in (col + 1)..<n {
                let k = a[row][col] / a[col][col]
                guard k != 0 else { continue }
                for c in col..<n { a[row][c] -= k * a[col][c] }
                y[row] -= k * y[col]
            }
        }
        var x = [Double](repeating: 0, count: n)
        for row in stride(from: n - 1, through: 0, by: -1) {
            var s = y[row]
            for c in (row + 1)..<n { s -= a[row][c] * x[c] }
            x[row] = s / a[row][row]
        }
        return x
    }

    /// Projects the generic model points turned by (yaw, pitch, roll) in degrees, orthographically,
    /// at `scale` pixels per millimetre around `center`: a 68-point array with only the model's
    /// landmarks set (the rest at `center`). For tests and synthetic data.
    public static func syntheticLandmarks(yaw: Double, pitch: Double, roll: Double,
                                          center: Point = Point(x: 320, y: 240), scale: Double = 1.5) -> [Point] {
        let r = rotation(yaw: yaw, pitch: pitch, roll: roll)
        var pts = [Point](repeating: center, count: 68)
        for (k, i) in indices.enumerated() {
            let m = [model[k].0, model[k].1, model[k].2]
            let x = dot(r[0], m), y = dot(r[1], m)
            pts[i] = Point(x: center.x + scale * x, y: center.y - scale * y)
        }
        return pts
    }

    /// Projects the generic model points turned by (yaw, pitch, roll) in degrees through the
    /// pinhole camera `estimate(_:frameWidth:frameHeight:)` assumes (`focalPerWidth`, principal point
    /// at the centre), with the nose tip `distanceMm` in front of the lens and shifted by
    /// (`offsetXMm`, `offsetYMm`) (x right, y up): a 68-point array with only the model's
    /// landmarks set (the rest at the frame's centre). For tests and synthetic data.
    public static func perspectiveLandmarks(yaw: Double, pitch: Double, roll: Double, frameWidth: Int = 640,
                                            frameHeight: Int = 480, distanceMm: Double = 500,
                                            offsetXMm: Double = 0, offsetYMm: Double = 0) -> [Point] {
        let r = rotation(yaw: yaw, pitch: pitch, roll: roll)
        let f = focalPerWidth * Double(frameWidth), cx = Double(frameWidth) / 2, cy = Double(frameHeight) / 2
        var pts = [Point](repeating: Point(x: cx, y: cy), count: 68)
        for (k, i) in indices.enumerated() {
            let m = [model[k].0, model[k].1, model[k].2]
            let x = dot(r[0], m) + offsetXMm, y = dot(r[1], m) + offsetYMm, z = dot(r[2], m) - distanceMm
            pts[i] = Point(x: cx + f * x / -z, y: cy - f * y / -z)
        }
        return pts
    }

    /// R = Rz(roll) Ry(yaw) Rx(−pitch), angles in degrees.
    static func rotation(yaw: Double, pitch: Double, roll: Double) -> [[Double]] {
        let a = -pitch * .pi / 180, b = yaw * .pi / 180, g = roll * .pi / 180
        let rx = [[1, 0, 0], [0, cos(a), -sin(a)], [0, sin(a), cos(a)]]
        let ry = [[cos(b), 0, sin(b)], [0, 1, 0], [-sin(b), 0, cos(b)]]
        let rz = [[cos(g), -sin(g), 0], [sin(g), cos(g), 0], [0, 0, 1]]
        return mul(rz, mul(ry, rx))
    }

    static func mul(_ x: [[Double]], _ y: [[Double]]) -> [[Double]] {
        (0..<3).map { r in (0..<3).map { c in (0..<3).reduce(0) { $0 + x[r][$1] * y[$1][c] } } }
    }
    static func dot(_ x: [Double], _ y: [Double]) -> Double { zip(x, y).reduce(0) { $0 + $1.0 * $1.1 } }
    static func norm(_ x: [Double]) -> Double { dot(x, x).squareRoot() }
    static func invert3(_ m: [[Double]]) -> [[Double]]? {
        let c00 = m[1][1] * m[2][2] - m[1][2] * m[2][1]
        let c01 = m[1][2] * m[2][0] - m[1][0] * m[2][2]
        let c02 = m[1][0] * m[2][1] - m[1][1] * m[2][0]
        let det = m[0][0] * c00 + m[0][1] * c01 + m[0][2] * c02
        guard abs(det) > 1e-9 else { return nil }
        let inv: [[Double]] = [
            [c00, m[0][2] * m[2][1] - m[0][1] * m[2][2], m[0][1] * m[1][2] - m[0][2] * m[1][1]],
            [c01, m[0][0] * m[2][2] - m[0][2] * m[2][0], m[0][2] * m[1][0] - m[0][0] * m[1][2]],
            [c02, m[0][1] * m[2][0] - m[0][0] * m[2][1], m[0][0] * m[1][1] - m[0][1] * m[1][0]],
        ]
        return inv.map { $0.map { $0 / det } }
    }
}
