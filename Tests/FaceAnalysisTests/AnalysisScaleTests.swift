import CaptureModel
import FaceAnalysis
import Foundation
import Media
import Testing
import TestSupport

/// Issue #16: analysis at a scale chosen from the frame size, results in source pixels.
@Suite struct AnalysisScaleTests {
    /// The rule of `AnalysisScale` (≥ 480 px wide, denominators libjpeg-turbo decodes to).
    @Test func ruleKeepsAnalysisWidthBetween480And960() {
        #expect(AnalysisScale.denominators == [1, 2, 4, 8])   // libjpeg-turbo 2.1 tjGetScalingFactors
        #expect(AnalysisScale.denominator(width: 640, height: 480) == 1)
        #expect(AnalysisScale.denominator(width: 800, height: 600) == 1)
        #expect(AnalysisScale.denominator(width: 960, height: 540) == 2)
        #expect(AnalysisScale.denominator(width: 1280, height: 720) == 2)
        #expect(AnalysisScale.denominator(width: 1920, height: 1080) == 4)
        #expect(AnalysisScale.denominator(width: 3840, height: 2160) == 8)
        for w in stride(from: 480, through: 4096, by: 16) {
            let d = AnalysisScale.denominator(width: w, height: w * 9 / 16)
            let aw = (w + d - 1) / d
            #expect(aw >= 480 && (aw < 960 || d == 8), "width \(w): 1/\(d) gives \(aw) px")
        }
    }

    /// A face found at 1/d maps back to source pixels: box edges × d, landmark centres i·d + (d−1)/2.
    @Test func facesMapToSourcePixels() {
        let f = DetectedFace(box: Rect(x: 10, y: 20, w: 30, h: 40), landmarks: [Point(x: 0, y: 0), Point(x: 5, y: 7)],
                             detectorBox: Rect(x: 11, y: 21, w: 29, h: 39))
        let s = AnalysisScale.toSource(f, scale: 4)
        #expect(s.box == Rect(x: 40, y: 80, w: 120, h: 160))
        #expect(s.detectorBox == Rect(x: 44, y: 84, w: 116, h: 156))
        #expect(s.landmarks == [Point(x: 1.5, y: 1.5), Point(x: 21.5, y: 29.5)])
    }
}
