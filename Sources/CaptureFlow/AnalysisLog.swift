import JSON
import CaptureModel

/// The analysis log (`analyze` and `capture --analysis-log`): one JSON object per analysed frame.
public enum AnalysisLog {
    /// One JSON line (no trailing newline):
    /// `{"frame": i, "t_ms": t, "faces": [{"x","y","w","h","score","yaw","pitch","roll","detection"}],
    /// "brightness", "sharpness", "eyesOpen", "sceneBrightness"?, "placed", "shortfalls", "status",
    /// "distance", "positions", "poses", "hint"}`. `eyesOpen` is the guidance's verdict (relative
    /// to the person, `EyeOpennessJudge`); `placed` and `shortfalls` (`[{"hint", "measure",
    /// "value", "limit"}]`, empty when none) are `GuidanceRules.judge`'s (issue #24).
    /// `x,y,w,h` is the tracked box; `detection` the detector's own box on this frame
    /// (`{"x","y","w","h"}`, null when the detector did not confirm the face on this frame).
    /// Boxes in raw (unmirrored) source pixels, rounded to 0.1 px; angles in degrees (0.1°; null when
    /// not measured); brightness 0...255 and sharpness rounded to 0.1; eyesOpen true/false/null;
    /// status, distance, positions, poses the Mobai names; hint the `Hint` raw value (debounced);
    /// `quality` (when computed) the quality vector, `{"InterEyeDistance": {"raw": 96.4, "score": 83}, …}`
    /// in `QualityMeasure` order (`qualityJSON`).
    public static func jsonLine(_ a: FrameAnalysis, _ g: GuidanceResult) -> String {
        JSONWriter.text(json(a, g), keys: .asGiven)
    }

    /// The line's value, members in the documented order.
    public static func json(_ a: FrameAnalysis, _ g: GuidanceResult) -> JSONValue {
        func box(_ r: Rect) -> [JSONMember] { [.init("x", num(r.x)), .init("y", num(r.y)), .init("w", num(r.w)), .init("h", num(r.h))] }
        var line: [JSONMember] = [.init("frame", .int(a.frameIndex)), .init("t_ms", .int(a.timestampMs))]
        line.append(.init("faces", .array(a.faces.map { f in
            .object(box(f.box) + [.init("score", num(f.score, places: 3)), .init("yaw", num(f.yaw)), .init("pitch", num(f.pitch)),
                                  .init("roll", num(f.roll)), .init("detection", f.detectorBox.map { .object(box($0)) } ?? .null)])
        })))
        line += [.init("brightness", num(a.brightness)), .init("sharpness", num(a.sharpness)), .init("eyesOpen", .bool(g.eyesOpen))]
        if let b = a.sceneBrightness { line.append(.init("sceneBrightness", num(b))) }
        line.append(.init("placed", .bool(g.isPlaced)))
        line.append(.init("shortfalls", .array(g.shortfalls.map {
            ["hint": .string($0.hint.rawValue), "measure": .string($0.measure), "value": num($0.value, places: 4), "limit": num($0.limit, places: 4)]
        })))
        line += [.init("status", .string(g.status.rawValue)), .init("distance", .string(g.distance.rawValue)),
                 .init("positions", .strings(g.positions.map(\.rawValue))), .init("poses", .strings(g.poses.map(\.rawValue))),
                 .init("hint", .string(g.hint.rawValue))]
        if let q = a.quality { line.append(.init("quality", qualityJSON(q))) }
        return .object(line)
    }

    /// The vector as one JSON object, in `QualityMeasure` order: each measure's raw value (px and
    /// degrees to 0.1, other units to 4 decimals; null when not assessed) and 0…100 score (null
    /// when not assessed).
    public static func qualityJSON(_ q: QualityVector) -> JSONValue {
        .object(q.components.map { c in
            let places = ["px", "deg", "luma^2"].contains(c.measure.unit) ? 1 : 4
            return JSONMember(c.measure.rawValue, ["raw": num(c.raw, places: places), "score": .int(c.score)])
        })
    }

    /// A number rounded to `places` decimals; `null` for nil (and, when written, for NaN or infinity).
    static func num(_ v: Double?, places: Int = 1) -> JSONValue {
        guard let v, v.isFinite else { return .null }
        var p = 1.0
        for _ in 0..<places { p *= 10 }
        return .double((v * p).rounded() / p)
    }
}
