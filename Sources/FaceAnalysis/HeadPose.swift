import CaptureFlow

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

    /// Yaw, pitch, roll in degrees, or nil when fewer than 68 landmarks are given or the fit is
    /// degenerate (all points on a line).
    public static func estimate(_ landmarks: [Point]) -> (yaw: Double, pitch: Double, roll: Double)? {
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
        // R rows: u, v, w. R = Rz(γ) Ry(β) Rx(α): R20 = −sin β, R21 = cos β sin α, R22 = cos β cos α,
        // R10 = sin γ cos β, R00 = cos γ cos β.
        let beta = asin(max(-1, min(1, -w[0])))
        let alpha = atan2(w[1], w[2])
        let gamma = atan2(v[0], u[0])
        let deg = 180 / Double.pi
        return (yaw: beta * deg, pitch: -alpha * deg, roll: gamma * deg)
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
