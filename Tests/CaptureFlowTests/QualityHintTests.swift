import CaptureFlow
import CaptureModel
import Foundation
import Testing

/// Issue #11's debounce: quality hints persist 500 ms before they show; while the face is still
/// (no placement hint involved) the shown hint changes at most once a second; placement hints
/// still follow a moving face after 200 ms.
@Suite struct QualityHintDebounceTests {
    @Test func qualityHintWaits500ms() {
        var d = HintDebouncer()
        _ = d.update(.holdStill, timestampMs: 0)
        do { let v = d.update(.faceTheLight, timestampMs: 1000); #expect(v == .holdStill) }
        do { let v = d.update(.faceTheLight, timestampMs: 1400); #expect(v == .holdStill) }     // 400 ms
        do { let v = d.update(.faceTheLight, timestampMs: 1500); #expect(v == .faceTheLight) }  // 500 ms
    }

    /// A face held still whose measures wobble between three judgements: at most one change
    /// per second, however the raw hints alternate.
    @Test func atMostOneChangePerSecondWhileStill() {
        var d = HintDebouncer()
        var shown: [Hint] = [d.update(.holdStill, timestampMs: 0)]
        var changes: [Int] = []
        let pattern: [Hint] = [.turnHeadLess, .turnHeadLess, .turnHeadLess, .turnHeadLess, .holdStill, .holdStill, .holdStill,
                               .holdStill, .levelHead, .levelHead, .levelHead, .levelHead]
        for k in 1...150 {   // 10 s at 15 fps
            let t = k * 1000 / 15
            let v = d.update(pattern[k % pattern.count], timestampMs: t)
            if v != shown.last { changes.append(t) }
            shown.append(v)
        }
        #expect(!changes.isEmpty)
        for (a, b) in zip(changes, changes.dropFirst()) { #expect(b - a >= 1000, "changes at \(a) and \(b) ms") }
    }

    /// Placement hints are not held back: moving from a quality hint to a position hint and on
    /// takes 200 ms each.
    @Test func placementHintsFollowAMovingFace() {
        var d = HintDebouncer()
        _ = d.update(.closeMouth, timestampMs: 0)
        _ = d.update(.moveLeft, timestampMs: 100)
        do { let v = d.update(.moveLeft, timestampMs: 300); #expect(v == .moveLeft) }
        _ = d.update(.getCloser, timestampMs: 400)
        do { let v = d.update(.getCloser, timestampMs: 600); #expect(v == .getCloser) }
    }

    @Test func hintKinds() {
        #expect(Hint.allCases.filter(\.isQuality) == [.faceTheLight, .closeMouth, .faceTooSmall, .faceTooSmallRaiseQuality, .faceOutOfFrame])
        #expect(Hint.allCases.filter(\.isPlacement) == [.noFace, .multipleFaces, .getCloser, .getFurther, .moveLeft, .moveRight, .moveUp, .moveDown])
        #expect(Hint.faceTooSmallRaiseQuality.stringKey == "selfie_capture_hint_face_too_small_raise_quality")
    }

    /// The priority list: a face cut by the frame edge is told so before its pose or light; a
    /// quality measure that was not assessed (no vector) never triggers a hint.
    @Test func priorityOfQualityHints() {
        var comps = QualityMeasure.allCases.map { QualityComponent(measure: $0, raw: nil, score: nil) }
        func setRaw(_ m: QualityMeasure, _ v: Double) { comps[QualityMeasure.allCases.firstIndex(of: m)!].raw = v }
        setRaw(.faceInFrame, 0.8); setRaw(.interEyeDistance, 40); setRaw(.mouthClosed, 0.5); setRaw(.illuminationBalance, 0.2)
        let f = DetectedFace(box: Rect(x: 200, y: 120, w: 240, h: 240), score: 1, yaw: 40, pitch: 0, roll: 0)
        func judge(_ q: QualityVector?) -> Hint {
            GuidanceRules.judge(FrameAnalysis(frameIndex: 0, timestampMs: 0, frameWidth: 640, frameHeight: 480, faces: [f],
                                              brightness: 150, sharpness: 500, eyesOpen: true, quality: q), config: GuidanceConfig()).hint
        }
        #expect(judge(QualityVector(components: comps)) == .faceOutOfFrame)
        setRaw(.faceInFrame, 1)
        #expect(judge(QualityVector(components: comps)) == .faceTooSmall)
        setRaw(.interEyeDistance, 100)
        #expect(judge(QualityVector(components: comps)) == .turnHeadLess)       // pose before light and mouth
        #expect(judge(nil) == .turnHeadLess)
    }
}

/// The analysis log line carries the vector: every measure with its raw value and score.
@Suite struct QualityLogTests {
    @Test func jsonLineCarriesTheVector() throws {
        var comps = QualityMeasure.allCases.map { QualityComponent(measure: $0, raw: nil, score: nil) }
        comps[0] = QualityComponent(measure: .interEyeDistance, raw: 96.44, score: 83)
        let a = FrameAnalysis(frameIndex: 3, timestampMs: 200, frameWidth: 640, frameHeight: 480, faces: [], brightness: 100,
                              sharpness: 0, quality: QualityVector(components: comps))
        var g = Guidance()
        let line = AnalysisLog.jsonLine(a, g.judge(a))
        #expect(line.contains("\"quality\":{\"InterEyeDistance\":{\"raw\":96.4,\"score\":83},\"HeadSize\":{\"raw\":null,\"score\":null}"))
        let obj = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(Set(((obj["quality"] as? [String: Any]) ?? [:]).keys) == Set(QualityMeasure.allCases.map(\.rawValue)))
    }
}
