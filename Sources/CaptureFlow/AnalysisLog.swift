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
        var s = "{\"frame\":\(a.frameIndex),\"t_ms\":\(a.timestampMs),\"faces\":["
        for (k, f) in a.faces.enumerated() {
            if k > 0 { s += "," }
            s += "{\"x\":\(num(f.box.x)),\"y\":\(num(f.box.y)),\"w\":\(num(f.box.w)),\"h\":\(num(f.box.h))"
            s += ",\"score\":\(num(f.score, places: 3)),\"yaw\":\(num(f.yaw)),\"pitch\":\(num(f.pitch)),\"roll\":\(num(f.roll))"
            if let d = f.detectorBox {
                s += ",\"detection\":{\"x\":\(num(d.x)),\"y\":\(num(d.y)),\"w\":\(num(d.w)),\"h\":\(num(d.h))}"
            } else {
                s += ",\"detection\":null"
            }
            s += "}"
        }
        s += "],\"brightness\":\(num(a.brightness)),\"sharpness\":\(num(a.sharpness))"
        s += ",\"eyesOpen\":" + (g.eyesOpen.map { $0 ? "true" : "false" } ?? "null")
        if let b = a.sceneBrightness { s += ",\"sceneBrightness\":\(num(b))" }
        s += ",\"placed\":\(g.isPlaced)"
        s += ",\"shortfalls\":[" + g.shortfalls.map { "{\"hint\":\"\($0.hint.rawValue)\",\"measure\":\"\($0.measure)\",\"value\":\(num($0.value, places: 4)),\"limit\":\(num($0.limit, places: 4))}" }.joined(separator: ",") + "]"
        s += ",\"status\":\"\(g.status.rawValue)\",\"distance\":\"\(g.distance.rawValue)\""
        s += ",\"positions\":[" + g.positions.map { "\"\($0.rawValue)\"" }.joined(separator: ",") + "]"
        s += ",\"poses\":[" + g.poses.map { "\"\($0.rawValue)\"" }.joined(separator: ",") + "]"
        s += ",\"hint\":\"\(g.hint.rawValue)\""
        if let q = a.quality { s += ",\"quality\":" + qualityJSON(q) }
        return s + "}"
    }

    /// The vector as one JSON object: each measure's raw value (px and degrees to 0.1, other
    /// units to 4 decimals; null when not assessed) and 0…100 score (null when not assessed).
    public static func qualityJSON(_ q: QualityVector) -> String {
        "{" + q.components.map { c in
            let places = ["px", "deg", "luma^2"].contains(c.measure.unit) ? 1 : 4
            return "\"\(c.measure.rawValue)\":{\"raw\":\(num(c.raw, places: places)),\"score\":\(c.score.map(String.init) ?? "null")}"
        }.joined(separator: ",") + "}"
    }

    /// A JSON number rounded to `places` decimals; `null` for nil, NaN or infinity.
    static func num(_ v: Double?, places: Int = 1) -> String {
        guard let v, v.isFinite else { return "null" }
        var p = 1.0
        for _ in 0..<places { p *= 10 }
        let r = (v * p).rounded() / p
        if r == r.rounded(), abs(r) < 1e15 { return String(Int(r)) }
        return "\(r)"
    }
}
