import CaptureModel
import FaceAnalysis
import Media
import Testing
import TestSupport

/// Issue #28: while a face is tracked, the HOG searches run only when the tracked face or the
/// scene changed, or a time bound passed (`TrackedSearchSchedule`); the frames between are
/// confirmed by the last search's faces. Frame times are given (30 fps), no clock is read.
@Suite struct TrackedSearchScheduleTests {
    static let frameMs = 33

    /// Runs `frames` frames of `scene(i)` through a detector with timestamps i · 33 ms; returns,
    /// per frame, the passes that ran and the faces found.
    static func run(_ det: TrackingFaceDetector, frames: Int, scene: (Int) -> Image) throws
        -> [(passes: [TrackingFaceDetector.Pass], faces: [FaceDetection], reused: Bool)] {
        try (0..<frames).map { i in
            let faces = try det.detect(gray: scene(i), timestampMs: i * frameMs)
            return (det.lastPasses, faces, det.lastReusedSearch)
        }
    }

    @Test func blocksCoveringARect() {
        // 640 × 360: blocks of 40 × 30 px. [40, 80) × [30, 60) is block (1, 1) alone; a rect that
        // starts half a pixel earlier also touches column 0.
        let one = SceneSignature.blocks(covering: Rect(x: 40, y: 30, w: 40, h: 30), width: 640, height: 360)
        #expect(one.indices.filter { one[$0] } == [1 * SceneSignature.columns + 1])
        let two = SceneSignature.blocks(covering: Rect(x: 39.5, y: 30, w: 40.5, h: 30), width: 640, height: 360)
        #expect(two.indices.filter { two[$0] } == [SceneSignature.columns, SceneSignature.columns + 1])
        let all = SceneSignature.blocks(covering: Rect(x: 0, y: 0, w: 640, h: 360), width: 640, height: 360)
        #expect(all.allSatisfy { $0 })
        var a = SceneSignature(means: [Float](repeating: 100, count: all.count))
        let b = a
        a.means[0] = 120
        #expect(a.maxDifference(b, mask: one, inside: true) == 0)
        #expect(a.maxDifference(b, mask: one, inside: false) == 20)
    }

    /// Two seconds of a still tracked face (a 200-px square) with sensor noise: the ROI is
    /// searched on the first tracked frame and then on the first frame ≥ 250 ms after the last
    /// search; the whole frame on the first frame, on the first tracked frame the frame count
    /// makes due, and then on the first due frame ≥ 500 ms after the last one. Every frame
    /// still reports the face, the frames between from the last search.
    @Test func aStillTrackedFaceIsSearchedEvery250ms() throws {
        var noise = SplitMix(seed: 28)
        let det = TrackingFaceDetector(backend: SquareFinder())
        let frames = try Self.run(det, frames: 60) { _ in IdleSearchScheduleTests.scene([(200, 140, 200)], noise: &noise) }
        let roi = frames.indices.filter { frames[$0].passes.contains(.roi) }
        let whole = frames.indices.filter { frames[$0].passes.contains(.downscaled) }
        #expect(roi == [1, 9, 17, 25, 33, 41, 49, 57], "every 8th frame: 264 ms, the first ≥ 250 ms")
        #expect(whole == [0, 10, 26, 42, 58], "frame 10 (the count), then every 16th: 528 ms, the first due ≥ 500 ms")
        #expect(frames.allSatisfy { $0.faces.map(\.box) == [Rect(x: 200, y: 140, w: 200, h: 200)] })
        #expect(frames.indices.filter { frames[$0].reused } == frames.indices.filter { $0 > 0 && !roi.contains($0) })
        // Without the schedule every tracked frame is searched (the behaviour before issue #28).
        var strategy = DetectionStrategy()
        strategy.trackedSchedule = nil
        var noise2 = SplitMix(seed: 28)
        let every = try Self.run(TrackingFaceDetector(backend: SquareFinder(), strategy: strategy), frames: 60) { _ in
            IdleSearchScheduleTests.scene([(200, 140, 200)], noise: &noise2)
        }
        #expect(every.indices.filter { every[$0].passes.contains(.roi) } == Array(1..<60))
    }

    /// A face that moves by 12 px (a tenth of a block across its bright edge) changes its ROI
    /// blocks: that frame is searched and reports the face where it now is.
    @Test func aChangeInTheROIIsSearchedOnThatFrame() throws {
        var noise = SplitMix(seed: 5)
        let det = TrackingFaceDetector(backend: SquareFinder())
        let frames = try Self.run(det, frames: 8) { i in
            IdleSearchScheduleTests.scene([(i < 5 ? 200 : 212, 140, 200)], noise: &noise)
        }
        #expect(frames.indices.filter { frames[$0].passes.contains(.roi) } == [1, 5])
        #expect(frames[4].reused && !frames[5].reused)
        #expect(frames[5].faces.map(\.box.x) == [212])
        // Something else in the ROI (a dark hand-sized patch in its margin, not a face) too.
        var noise2 = SplitMix(seed: 6)
        let det2 = TrackingFaceDetector(backend: SquareFinder())
        let frames2 = try Self.run(det2, frames: 8) { i in
            var img = IdleSearchScheduleTests.scene([(200, 140, 200)], noise: &noise2)
            if i >= 4 { for y in 200..<260 { for x in 150..<190 { img.pixels[y * 640 + x] = 20 } } }
            return img
        }
        #expect(frames2.indices.filter { frames2[$0].passes.contains(.roi) } == [1, 4])
    }

    /// A change outside the ROI (a bright patch too small to be a face) makes the whole-frame
    /// search run as soon as the frame count makes it due (frame 20), not at the 500 ms bound.
    @Test func aChangeOutsideTheROIRunsTheWholeSearchAtItsFrameCount() throws {
        var noise = SplitMix(seed: 9)
        let det = TrackingFaceDetector(backend: SquareFinder())
        let frames = try Self.run(det, frames: 30) { i in
            var img = IdleSearchScheduleTests.scene([(100, 140, 200)], noise: &noise)
            if i >= 12 { for y in 300..<360 { for x in 520..<580 { img.pixels[y * 640 + x] = 255 } } }
            return img
        }
        #expect(frames.indices.filter { frames[$0].passes.contains(.downscaled) } == [0, 10, 20])
        #expect(!frames[12].passes.contains(.roi), "the ROI itself did not change")
    }

    /// A second face (180 px) walking in from the right at 30 px a frame beside a still tracked
    /// one is found within `fullSearchInterval` frames of the first frame the whole-frame search
    /// can find it (160 px in view, frame 26), as by a detector that searches every tracked frame;
    /// its entering changes the blocks outside the ROI, so the search is not held back to the
    /// 500 ms bound. The frame after, the ROI search covers both.
    @Test func aSecondFaceWalkingInIsFoundAsSoonAsBefore() throws {
        func firstTwo(_ schedule: TrackedSearchSchedule?) throws -> (Int, [TrackingFaceDetector.Pass])? {
            var noise = SplitMix(seed: 13)
            var strategy = DetectionStrategy()
            strategy.trackedSchedule = schedule
            let det = TrackingFaceDetector(backend: SquareFinder(), strategy: strategy)
            let frames = try Self.run(det, frames: 60) { i in
                let x = i < 20 ? 700 : 640 - (i - 20) * 30
                return IdleSearchScheduleTests.scene([(60, 140, 200), (max(x, 420), 100, 180)], noise: &noise)
            }
            guard let k = frames.indices.first(where: { frames[$0].faces.count == 2 }), k + 1 < frames.count else { return nil }
            return (k, frames[k + 1].passes)
        }
        let every = try #require(try firstTwo(nil))
        let scheduled = try #require(try firstTwo(TrackedSearchSchedule()))
        let findable = 26, interval = DetectionStrategy().fullSearchInterval
        #expect(every.0 >= findable && every.0 < findable + interval)
        #expect(scheduled.0 >= findable && scheduled.0 < findable + interval,
                "within the whole-frame search's 10 frames of being findable, as before")
        #expect(scheduled.1.first == .roi, "the new box makes the next frame an ROI search")
    }

    /// The caller can ask for the detector's word (a coasting or tentative track, a degraded
    /// fit); time going back (a new source) and a tracked box that moved by more than the
    /// regionIoU also make a search.
    @Test func requestsTimeAndMovedBoxesForceASearch() throws {
        var noise = SplitMix(seed: 21)
        let det = TrackingFaceDetector(backend: SquareFinder())
        let face = Rect(x: 200, y: 140, w: 200, h: 200)
        func frame(_ t: Int) throws -> [TrackingFaceDetector.Pass] {
            _ = try det.detect(gray: IdleSearchScheduleTests.scene([(200, 140, 200)], noise: &noise), timestampMs: t)
            return det.lastPasses
        }
        // After a searched frame, the boxes the caller gives next are the ones compared with.
        _ = try frame(0); _ = try frame(33)
        det.setSearchRegions([face])
        #expect(try frame(66).isEmpty)
        det.setSearchRegions([face], searchNext: true)
        #expect(try frame(99) == [.roi])
        det.setSearchRegions([face])
        #expect(try frame(132).isEmpty)
        #expect(try frame(10) == [.roi], "time went back")
        det.setSearchRegions([face])
        #expect(try frame(43).isEmpty)
        // The tracker's box moved by 8 % of the face (IoU 0.85 < 0.9): searched.
        det.setSearchRegions([Rect(x: 216, y: 140, w: 200, h: 200)])
        #expect(try frame(76).contains(.roi))
        det.setSearchRegions([face])
        #expect(try frame(109).isEmpty)
        // Within the IoU (0.95): not.
        det.setSearchRegions([Rect(x: 205, y: 140, w: 200, h: 200)])
        #expect(try frame(142).isEmpty)
    }
}

/// A landmark model for tests: the mean shape placed in the box it is given (so the track's box
/// stays the detector's), counting its calls.
final class BoxLandmarks: LandmarkPredicting, @unchecked Sendable {
    let meanShape = [Point(x: 0.2, y: 0.3), Point(x: 0.8, y: 0.3), Point(x: 0.5, y: 0.6),
                     Point(x: 0.3, y: 0.8), Point(x: 0.7, y: 0.8)]
    var calls = 0
    func landmarks(gray image: Image, box: Rect) throws -> [Point] {
        calls += 1
        return meanShape.map { Point(x: box.x + $0.x * box.w, y: box.y + $0.y * box.h) }
    }
}

@Suite struct TrackedSearchTrackerTests {
    /// Through `FaceTracker`: a still face is reported on every frame with its detector box,
    /// the landmarks run on every frame (stillness and the countdown see every frame's points),
    /// and the ROI is searched only every 250 ms.
    @Test func landmarksRunOnEveryFrameWhileSearchesAreReused() throws {
        var noise = SplitMix(seed: 17)
        let lm = BoxLandmarks()
        let tracker = FaceTracker(detector: TrackingFaceDetector(backend: SquareFinder()), landmarks: lm)
        var roi: [Int] = [], perFrame: [Int] = []
        for i in 0..<40 {
            let before = lm.calls
            let faces = try tracker.update(gray: IdleSearchScheduleTests.scene([(200, 140, 200)], noise: &noise),
                                           timestampMs: i * TrackedSearchScheduleTests.frameMs)
            perFrame.append(lm.calls - before)
            if tracker.detector.lastPasses.contains(.roi) { roi.append(i) }
            #expect(faces.count == 1 && faces[0].detectorBox == Rect(x: 200, y: 140, w: 200, h: 200), "frame \(i)")
        }
        #expect(perFrame.allSatisfy { $0 >= 1 }, "landmarks on every frame")
        #expect(roi == [1, 9, 17, 25, 33])
    }
}
