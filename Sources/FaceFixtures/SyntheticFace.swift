import CaptureModel
import Foundation
import Media

/// The quality vector (issue #11) on crafted faces whose answers follow from OFIQ's formulas
/// (BSI OFIQ `OFIQlib/modules/measures/src/*.cpp`, mappings in `data/ofiq_config.jaxn`).
///
/// The synthetic face: 68 iBUG points of a schematic frontal face in face units (x right, y
/// down, centre at 0,0): eye centres (−0.25, −0.2) and (0.25, −0.2) → inter-eye distance 0.5;
/// chin (0, 0.5) → eye-midpoint-to-chin (`tmetric`) 0.7; eyelid gap 0.06; inner lips at y 0.3
/// (apart by `mouth`); landmarks' box x −0.5…0.5, y −0.35…0.5. Scaled by `size` px per unit.
public enum SyntheticFace {
    public static func landmarks(size s: Double, cx: Double, cy: Double, mouth: Double = 0, eyeGap: Double = 0.06) -> [Point] {
        var u = [(Double, Double)](repeating: (0, 0), count: 68)
        for k in 0...16 {
            let th = Double.pi * Double(k) / 16
            u[k] = (-0.5 * cos(th), -0.15 + 0.65 * sin(th))
        }
        u[8] = (0, 0.5)
        for k in 0..<5 { u[17 + k] = (-0.4 + 0.075 * Double(k), -0.35); u[22 + k] = (0.1 + 0.075 * Double(k), -0.35) }
        for k in 0..<4 { u[27 + k] = (0, -0.25 + 0.1 * Double(k)) }
        for k in 0..<5 { u[31 + k] = (-0.1 + 0.05 * Double(k), 0.1) }
        let o = eyeGap / 2
        u[36] = (-0.35, -0.2); u[37] = (-0.3, -0.2 - o); u[38] = (-0.2, -0.2 - o)
        u[39] = (-0.15, -0.2); u[40] = (-0.2, -0.2 + o); u[41] = (-0.3, -0.2 + o)
        u[42] = (0.15, -0.2); u[43] = (0.2, -0.2 - o); u[44] = (0.3, -0.2 - o)
        u[45] = (0.35, -0.2); u[46] = (0.3, -0.2 + o); u[47] = (0.2, -0.2 + o)
        for k in 0..<12 {   // outer lips on an ellipse around (0, 0.3)
            let th = Double.pi + 2 * Double.pi * Double(k) / 12
            u[48 + k] = (0.2 * cos(th), 0.3 + 0.06 * sin(th))
        }
        let g = mouth / 2
        u[60] = (-0.15, 0.3); u[61] = (-0.08, 0.3 - g); u[62] = (0, 0.3 - g); u[63] = (0.08, 0.3 - g)
        u[64] = (0.15, 0.3); u[65] = (0.08, 0.3 + g); u[66] = (0, 0.3 + g); u[67] = (-0.08, 0.3 + g)
        return u.map { Point(x: cx + $0.0 * s, y: cy + $0.1 * s) }
    }

    /// The face with its box set to the landmarks' box (x −0.5…0.5, y −0.35…0.5).
    public static func face(size s: Double, cx: Double, cy: Double, mouth: Double = 0, yaw: Double = 0) -> DetectedFace {
        DetectedFace(box: Rect(x: cx - 0.5 * s, y: cy - 0.35 * s, w: s, h: 0.85 * s), score: 1,
                     landmarks: landmarks(size: s, cx: cx, cy: cy, mouth: mouth), yaw: yaw, pitch: 0, roll: 0)
    }

    /// A gray frame: `background` everywhere, `left` / `right` over the face's landmark box on
    /// the raw frame's left and right of `cx`.
    public static func image(width: Int = 640, height: Int = 480, face: DetectedFace, background: UInt8, left: UInt8, right: UInt8) -> Image {
        var px = [UInt8](repeating: background, count: width * height)
        let b = face.box
        for y in max(0, Int(b.y))..<min(height, Int(b.y + b.h)) {
            for x in max(0, Int(b.x))..<min(width, Int(b.x + b.w)) { px[y * width + x] = Double(x) < b.centerX ? left : right }
        }
        return Image(width: width, height: height, layout: .gray, pixels: px)
    }
}
