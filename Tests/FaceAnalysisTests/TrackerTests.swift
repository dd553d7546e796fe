import CaptureModel
@testable import FaceAnalysis
import FaceFixtures
import Foundation
import Media
import Testing
import TestSupport

@Suite struct OneEuroFilterTests {
    /// The first sample passes; a constant stays constant.
    @Test func constantPassesThrough() {
        var f = OneEuroFilter(.init(minCutoffHz: 1, beta: 0.05))
        #expect(f.filter(42, seconds: 0) == 42)
        for k in 1...30 { #expect(f.filter(42, seconds: Double(k) / 15) == 42) }
    }

    /// A clock that goes back (a source that started over) starts over instead of freezing.
    @Test func clockGoingBackStartsOver() {
        var f = OneEuroFilter(.init(minCutoffHz: 1, beta: 0.05))
        _ = f.filter(0, seconds: 10)
        _ = f.filter(0, seconds: 10.1)
        #expect(f.filter(50, seconds: 0) == 50)
        #expect(f.filter(50, seconds: 0) == 50)
    }

    /// The smoothing factor is the paper's: α = 1/(1 + τ/Tₑ), τ = 1/(2π f).
    @Test func alphaIsThePapers() {
        let tau = 1 / (2 * Double.pi * 1)
        #expect(abs(OneEuroFilter.alpha(cutoffHz: 1, dt: 1.0 / 15) - 1 / (1 + tau * 15)) < 1e-12)
    }

    /// Issue #10: smoothing must not lag a real move by more than ~100 ms. A face moving at
    /// 30–600 px/s (5 %–94 % of a 640-px frame per second), sampled at 15 and 30 fps with the
    /// tracker's parameters, trails its true position by less than 100 ms of travel once moving.
    @Test(arguments: [30.0, 100.0, 300.0, 600.0])
    func lagUnder100msOnARealMove(speed: Double) {
        for fps in [15.0, 30.0] {
            var f = OneEuroFilter(FaceTrackerConfig().landmarkFilter)
            var out = 0.0
            let n = Int(fps)                       // one second of motion
            for k in 0...n { out = f.filter(speed * Double(k) / fps, seconds: Double(k) / fps) }
            let lagSeconds = (speed - out) / speed
            #expect(lagSeconds < 0.1, "\(speed) px/s at \(fps) fps lags \(lagSeconds) s")
        }
    }

    /// On a still point with noise, the output spreads far less than the input (deterministic noise).
    @Test func smoothsNoiseOnAStillPoint() {
        var f = OneEuroFilter(FaceTrackerConfig().landmarkFilter)
        var rng = SplitMix(seed: 7)
        var inDev = 0.0, outDev = 0.0
        for k in 0..<300 {
            let x = 100 + rng.gaussian() * 1.0
            let y = f.filter(x, seconds: Double(k) / 15)
            if k >= 30 { inDev += (x - 100) * (x - 100); outDev += (y - 100) * (y - 100) }
        }
        #expect(outDev < inDev * 0.25)
    }
}

@Suite struct LandmarkBoxTests {
    /// The mean shape placed by a known box (scaled, shifted, rotated about its centre) gives back
    /// that box: centre exact, side = the box's size.
    @Test func recoversTheBoxOfThePlacedMeanShape() throws {
        let mean = [Point(x: 0.2, y: 0.3), Point(x: 0.8, y: 0.3), Point(x: 0.5, y: 0.6), Point(x: 0.3, y: 0.9), Point(x: 0.7, y: 0.9)]
        for roll in [0.0, 20.0, -35.0] {
            let t = roll * Double.pi / 180
            let box = Rect(x: 100, y: 50, w: 200, h: 200)
            let pts = mean.map { m -> Point in
                let u = (m.x - 0.5) * 200, v = (m.y - 0.5) * 200
                return Point(x: box.centerX + u * cos(t) - v * sin(t), y: box.centerY + u * sin(t) + v * cos(t))
            }
            let got = try #require(LandmarkBox.fit(pts, meanShape: mean))
            #expect(abs(got.centerX - 200) < 1e-9 && abs(got.centerY - 150) < 1e-9)
            #expect(abs(got.w - 200) < 1e-9 && abs(got.h - 200) < 1e-9)
        }
        #expect(LandmarkBox.fit([Point(x: 1, y: 1)], meanShape: mean) == nil)
        #expect(LandmarkBox.fit(Array(repeating: Point(x: 3, y: 3), count: 5), meanShape: Array(repeating: Point(x: 0, y: 0), count: 5)) == nil)
    }

    /// dlib's model gives its 68-point mean shape inside the unit box.
    @Test(.enabled(if: MediaSupport.models != nil, "the dlib model (libdlib-data) is absent"))
    func dlibMeanShapeIsBoxNormalised() throws {
        let models = try #require(MediaSupport.models)
        let m = models.predictor.meanShape
        #expect(m.count == 68)
        #expect(m.allSatisfy { $0.x > -0.1 && $0.x < 1.1 && $0.y > -0.3 && $0.y < 1.1 })
    }
}

/// The tracker over every clip of shared/media and shared/media/people, against ground truth
/// (issue #10's goals): on single-face frames detection ≥ 0.98 and mean IoU ≥ 0.75; on frames
/// where the true face does not move (centre < 0.04 % of the width, height < 0.1 % between
/// frames) the reported box's centre moves ≤ 0.5 % of the width and its size ≤ 2 % (p95); no
/// face on face-free frames; two faces where there are two.
@Suite struct TrackerMediaTests {
    static let clips = TestSupport.mediaClips()

    static func p95(_ v: [Double]) -> Double {
        guard !v.isEmpty else { return 0 }
        let s = v.sorted()
        return s[min(s.count - 1, Int(0.95 * Double(s.count)))]
    }

    /// Every clip found has its ground truth beside it (a clip without one would be skipped
    /// silently by the tests over `clips`).
    @Test(.enabled(if: !clips.isEmpty, "../shared/media is absent"))
    func everyClipHasItsGroundTruth() throws {
        for clip in Self.clips { #expect(TestSupport.shared("media/\(clip).json") != nil, "\(clip).json missing") }
    }

    @Test(.enabled(if: MediaSupport.available && MediaSupport.models != nil, "../shared/media, ffmpeg or the dlib model is absent"),
          arguments: clips)
    func trackedBoxIsAccurateAndSteady(clip: String) async throws {
        let truth = try MediaSupport.truth(clip)
        let analyses = try await MediaSupport.analyses(clip).analyses
        let w = Double(truth.width)
        var n1 = 0, det = 0, ious: [Double] = [], jc: [Double] = [], js: [Double] = []
        var falseFaces = 0, twoFrames = 0, twoFound = 0
        var prev: (truth: ScenarioTruth.Face, box: Rect)?
        for (i, a) in analyses.enumerated() {
            let tf = truth.frames[i]
            if tf.count == 0 && a.faces.count > 0 && (tf.partial_faces ?? []).isEmpty { falseFaces += 1 }
            if tf.count == 2 { twoFrames += 1; if a.faces.count == 2 { twoFound += 1 } }
            var cur: (truth: ScenarioTruth.Face, box: Rect)?
            if tf.count == 1, let t = tf.faces.first {
                n1 += 1
                if let f = a.faces.first {
                    det += 1
                    ious.append(f.box.iou(Rect(x: t.x, y: t.y, w: t.w, h: t.h)))
                    cur = (t, f.box)
                }
            }
            if let c = cur, let p = prev {
                let gm = hypot(c.truth.x + c.truth.w / 2 - p.truth.x - p.truth.w / 2, c.truth.y + c.truth.h / 2 - p.truth.y - p.truth.h / 2) / w
                if gm < 0.0004 && abs(c.truth.h / p.truth.h - 1) < 0.001 {
                    jc.append(hypot(c.box.centerX - p.box.centerX, c.box.centerY - p.box.centerY) / w)
                    js.append(abs(c.box.h / p.box.h - 1))
                }
            }
            prev = cur
        }
        #expect(falseFaces == 0, "\(clip): \(falseFaces) face-free frames with a face")
        if twoFrames > 0 { #expect(Double(twoFound) >= 0.9 * Double(twoFrames), "\(clip): two faces on \(twoFound)/\(twoFrames)") }
        guard n1 > 0 else { return }
        let rate = Double(det) / Double(n1), meanIoU = ious.reduce(0, +) / Double(max(ious.count, 1))
        #expect(rate >= 0.98, "\(clip): detection \(rate)")
        #expect(meanIoU >= 0.75, "\(clip): mean IoU \(meanIoU)")
        #expect(Self.p95(jc) <= 0.005, "\(clip): centre jitter p95 \(Self.p95(jc)) of the width on \(jc.count) still frames")
        #expect(Self.p95(js) <= 0.02, "\(clip): size jitter p95 \(Self.p95(js)) on \(js.count) still frames")
    }
}
