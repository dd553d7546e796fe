import Testing
import CaptureModel
import FaceAnalysis
import Media
import TestSupport

@Suite struct DlibSmokeTests {
    static let astronaut = TestSupport.shared("media/faces/astronaut.png")

    /// dlib's HOG detector finds exactly one face in the astronaut portrait, overlapping the
    /// box measured in shared/media/faces/README.md (x 175.8, y 79.8, w 95.0, h 94.8) with IoU ≥ 0.5.
    @Test(.enabled(if: astronaut != nil, "../shared/media/faces/astronaut.png is absent"))
    func findsTheAstronautFace() throws {
        let rgb = try ImageFile.loadRGB(path: try #require(Self.astronaut))
        #expect(rgb.width == 512 && rgb.height == 512)
        let faces = try DlibHOGDetector().detect(gray: PixelConvert.gray(rgb))
        #expect(faces.count == 1)
        let truth = Rect(x: 175.8, y: 79.8, w: 95.0, h: 94.8)
        let iou = try #require(faces.first).box.iou(truth)
        #expect(iou >= 0.5, "IoU \(iou)")
    }

    @Test func missingImageIsANamedError() {
        #expect(throws: FaceModelError.self) { _ = try ImageFile.loadRGB(path: "/nonexistent/face.png") }
    }
}
