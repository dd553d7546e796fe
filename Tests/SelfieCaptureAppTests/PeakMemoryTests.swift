import CaptureFlow
import FaceAnalysis
import FaceFixtures
import Foundation
import Media
@testable import SelfieCaptureApp
import Testing

/// The face models are let go when the run reaches its result (issue #28: at 1080p the result's
/// files were written on top of the landmark model's 62 MB, the run's peak RSS), on the analysis
/// thread's side (realtime) and the loop's (`--pace fast`), and not before.
@Suite struct ReleaseModelsTests {
    /// Weak references to fresh models (not `MediaSupport.models`, which the process keeps),
    /// handed to `pipeline` as its loader hands them over.
    final class Held {
        weak var detector: DlibHOGDetector?
        weak var predictor: DlibShapePredictor?
        var both: Bool { detector != nil && predictor != nil }
        var none: Bool { detector == nil && predictor == nil }
    }

    private func load(into pipeline: AnalysisPipeline) throws -> Held {
        let held = Held()
        let d = try DlibHOGDetector(), m = try DlibShapePredictor()
        held.detector = d
        held.predictor = m
        pipeline.modelState.set(.loaded(d, m, ms: 0))
        return held
    }

    @Test(.enabled(if: MediaSupport.models != nil, "the dlib model (libdlib-data) is absent"),
          arguments: ["realtime", "fast"])
    func modelsGoAtTheResult(pace: String) throws {
        let pacing: any Pacing = pace == "fast" ? VirtualPacing() : RealtimePacing()
        let p = AnalysisPipeline(config: GuidanceConfig(), pacing: pacing)
        let held = try load(into: p)
        guard case .ready? = p.poll() else { Issue.record("the models were not taken"); return }
        let frame = VideoFrame(index: 0, timestampMs: 0, rgb: Image(width: 320, height: 240, layout: .rgb, fill: 90))
        _ = p.analyse(frame)
        #expect(held.both, "the models are held while the capture runs")
        _ = p.finishAnalysis()
        #expect(held.none, "the models are let go at the result")
        #expect(p.analyse(frame).isEmpty, "nothing is analysed after the result")
        p.stop()
    }
}

