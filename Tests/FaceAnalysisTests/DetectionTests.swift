import CaptureModel
import FaceAnalysis
import Media
import Testing

/// A fake backend: "finds" the bright squares (luma 255) of at least `minSize` px in the image it
/// is given, like a detector with a minimum window; records the sizes it was called with.
final class SquareFinder: FaceDetecting, @unchecked Sendable {
    var minSize: Int
    var calls: [(w: Int, h: Int)] = []
    /// The `maxFaceSize` of each bounded call (nil for an unbounded one), in call order.
    var bounds: [Double?] = []
    /// The `adjustThreshold` of each call (0 when none was given), in call order.
    var thresholds: [Double] = []
    init(minSize: Int = 80) { self.minSize = minSize }

    func detect(gray image: Image, maxFaceSize: Double, adjustThreshold: Double) throws -> [FaceDetection] {
        let found = try detect(gray: image, maxFaceSize: maxFaceSize)
        thresholds[thresholds.count - 1] = adjustThreshold
        return found
    }

    func detect(gray image: Image, maxFaceSize: Double) throws -> [FaceDetection] {
        let found = try detect(gray: image)
        bounds[bounds.count - 1] = maxFaceSize
        return found
    }

    func detect(gray image: Image) throws -> [FaceDetection] {
        calls.append((image.width, image.height))
        bounds.append(nil)
        thresholds.append(0)
        var seen = [Bool](repeating: false, count: image.width * image.height)
        var out: [FaceDetection] = []
        for y in 0..<image.height { for x in 0..<image.width where image.pixels[y * image.width + x] == 255 && !seen[y * image.width + x] {
            var x1 = x, y1 = y
            while x1 < image.width && image.pixels[y * image.width + x1] == 255 { x1 += 1 }
            while y1 < image.height && image.pixels[y1 * image.width + x] == 255 { y1 += 1 }
            for yy in y..<y1 { for xx in x..<x1 { seen[yy * image.width + xx] = true } }
            if x1 - x >= minSize && y1 - y >= minSize {
                out.append(FaceDetection(box: Rect(x: Double(x), y: Double(y), w: Double(x1 - x), h: Double(y1 - y)), score: 1))
            }
        } }
        return out
    }
}

func squares(_ rects: [(Int, Int, Int)], width: Int = 640, height: Int = 480) -> Image {
    var px = [UInt8](repeating: 0, count: width * height)
    for (x, y, s) in rects { for yy in y..<(y + s) { for xx in x..<(x + s) { px[yy * width + xx] = 255 } } }
    return Image(width: width, height: height, layout: .gray, pixels: px)
}

@Suite struct GrayResampleTests {
    @Test func boxFilterHalvesExactly() {
        let img = Image(width: 4, height: 2, layout: .gray, pixels: [0, 2, 10, 20, 4, 6, 30, 40])
        let (out, sx, sy) = GrayResample.cropAndShrink(img, roi: Rect(x: 0, y: 0, w: 4, h: 2), scale: 0.5)
        #expect(out.width == 2 && out.height == 1 && sx == 0.5 && sy == 0.5)
        #expect(out.pixels == [3, 25])
    }

    @Test func cropIsClampedToTheImage() {
        let img = Image(width: 4, height: 4, layout: .gray, pixels: Array(0..<16))
        let (out, _, _) = GrayResample.cropAndShrink(img, roi: Rect(x: 2, y: -3, w: 10, h: 5), scale: 1)
        #expect(out.width == 2 && out.height == 2 && out.pixels == [2, 3, 6, 7])
    }

    @Test func uprightCropUndoesARoll() {
        // A bright pixel right of the centre, seen in a frame rolled 90° counter-clockwise, sits
        // above the centre; the upright crop puts it back on the right.
        var img = Image(width: 21, height: 21, layout: .gray, fill: 0)
        img.pixels[5 * 21 + 10] = 255   // (10, 5): 5 px above the centre (10.5, 10.5)
        let (crop, map) = GrayResample.uprightCrop(img, center: Point(x: 10.5, y: 10.5), rollDeg: 90, size: 21)
        #expect(crop.pixels[10 * 21 + 15] == 255)
        let back = map(Point(x: 15.5, y: 10.5))
        #expect(abs(back.x - 10.5) < 1e-9 && abs(back.y - 5.5) < 1e-9)
    }
}

@Suite struct TrackingDetectorTests {
    /// A 200-px face is found on the 320-wide image alone; its box comes back in source pixels.
    @Test func downscaledSearchFindsLargeFaces() throws {
        let finder = SquareFinder()
        let det = TrackingFaceDetector(backend: finder)
        let found = try det.detect(gray: squares([(100, 120, 200)]))
        #expect(det.lastPasses == [.downscaled])
        #expect(found.map(\.box) == [Rect(x: 100, y: 120, w: 200, h: 200)])
        #expect(finder.calls.first! == (320, 240))
    }

    /// A 100-px face (50 px at 320 wide, under the 80-px window) needs the full-resolution pass.
    @Test func fallsBackToFullResolution() throws {
        let det = TrackingFaceDetector(backend: SquareFinder())
        let found = try det.detect(gray: squares([(300, 200, 100)]))
        #expect(det.lastPasses == [.downscaled, .fullResolution])
        #expect(found.map(\.box) == [Rect(x: 300, y: 200, w: 100, h: 100)])
    }

    /// Next frame: the ROI around the last face is searched first, shrunk so the face is ~100 px
    /// and bounded to faces of 150 px there (one pyramid step above the 125 % keep range); every
    /// `fullSearchInterval`-th frame the whole frame is searched too, so a second face entering
    /// is found.
    @Test func tracksInTheROIAndRescans() throws {
        let finder = SquareFinder()
        let det = TrackingFaceDetector(backend: finder)
        let interval = det.strategy.fullSearchInterval
        #expect(interval == 10)
        _ = try det.detect(gray: squares([(100, 120, 200)]))
        finder.calls = []; finder.bounds = []
        let f2 = try det.detect(gray: squares([(110, 120, 200)]))
        #expect(det.lastPasses == [.roi])
        #expect(f2.count == 1 && abs(f2[0].box.x - 110) <= 2 && abs(f2[0].box.w - 200) <= 4)
        #expect(finder.calls.count == 1 && finder.calls[0].w < 320)
        #expect(finder.bounds.count == 1 && abs((finder.bounds[0] ?? 0) - 150) < 1e-9)
        for _ in 0..<(interval - 2) { _ = try det.detect(gray: squares([(110, 120, 200), (420, 100, 180)])) }
        #expect(det.lastPasses == [.roi])
        let rescan = try det.detect(gray: squares([(110, 120, 200), (420, 100, 180)]))
        #expect(det.lastPasses == [.roi, .downscaled])
        #expect(rescan.count == 2)
    }

    /// With no face on the last frame, only every `idleSearchInterval`-th frame is searched, and
    /// the full-resolution fallback runs on every `fullResolutionInterval`-th of those searches;
    /// a face that appears is then tracked on every frame.
    /// The default searches every idle frame (recall on hand-held footage, DECISIONS 2026-12-01);
    /// the skipping rule is checked at N = 2.
    @Test func idleFramesAreSearchedLessOften() throws {
        #expect(DetectionStrategy().idleSearchInterval == 1 && DetectionStrategy().fullResolutionInterval == 3)
        var strategy = DetectionStrategy()
        strategy.idleSearchInterval = 2
        let det = TrackingFaceDetector(backend: SquareFinder(), strategy: strategy)
        var passes: [[TrackingFaceDetector.Pass]] = []
        for _ in 0..<8 {
            #expect(try det.detect(gray: squares([])).isEmpty)
            passes.append(det.lastPasses)
        }
        #expect(passes == [[.downscaled, .fullResolution], [], [.downscaled], [], [.downscaled], [],
                           [.downscaled, .fullResolution], []])
        let small = try det.detect(gray: squares([(300, 200, 100)]))   // a searched frame: found at full resolution
        #expect(det.lastPasses == [.downscaled] && small.isEmpty, "not a full-resolution turn yet")
        _ = try det.detect(gray: squares([(300, 200, 100)]))             // skipped (idle)
        #expect(det.lastPasses.isEmpty)
        let found = try det.detect(gray: squares([(300, 200, 100)]))
        #expect(det.lastPasses == [.downscaled] && found.isEmpty)
        _ = try det.detect(gray: squares([(300, 200, 100)]))
        let third = try det.detect(gray: squares([(300, 200, 100)]))
        #expect(det.lastPasses == [.downscaled, .fullResolution] && third.count == 1)
        _ = try det.detect(gray: squares([(302, 200, 100)]))
        #expect(det.lastPasses == [.roi], "tracked from the next frame on, no idle skipping")
    }

    /// Hysteresis: the ROI around a tracked face accepts weaker detections (dlib adjust_threshold
    /// −0.4); the searches that find new faces keep the detector's own threshold.
    @Test func roiSearchAcceptsWeakerDetections() throws {
        let finder = SquareFinder()
        let det = TrackingFaceDetector(backend: finder)
        #expect(det.strategy.roiAdjustThreshold == -0.4)
        _ = try det.detect(gray: squares([(200, 150, 200)]))      // whole frame: finds the face
        #expect(det.lastPasses == [.downscaled] && finder.thresholds.allSatisfy { $0 == 0 })
        finder.thresholds = []
        _ = try det.detect(gray: squares([(202, 150, 200)]))      // tracked: ROI only
        #expect(det.lastPasses == [.roi] && finder.thresholds == [-0.4])
    }

    /// dlib levels for a face bound: level k finds faces of about 80·1.2^k px (±10 %).
    @Test func pyramidLevelsForAFaceBound() {
        #expect(DlibHOGDetector.pyramidLevels(forFaceSize: 80) == 1)
        #expect(DlibHOGDetector.pyramidLevels(forFaceSize: 105) == 2)   // 88·1.2 = 105.6
        #expect(DlibHOGDetector.pyramidLevels(forFaceSize: 150) == 4)   // 88·1.2³ = 152
        #expect(DlibHOGDetector.pyramidLevels(forFaceSize: 153) == 5)
    }

    @Test func lostTrackSearchesAgain() throws {
        let det = TrackingFaceDetector(backend: SquareFinder())
        _ = try det.detect(gray: squares([(100, 120, 200)]))
        let none = try det.detect(gray: squares([]))
        #expect(none.isEmpty && det.lastPasses == [.roi, .downscaled, .fullResolution])
        #expect(det.lastFaces.isEmpty)
    }
}
