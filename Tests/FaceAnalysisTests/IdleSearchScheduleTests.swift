import FaceAnalysis
import Media
import Testing
import TestSupport

/// Issue #28: while no face is tracked, a frame is searched when the scene changed since the last
/// search (block means of the analysis luma) or 500 ms of frame time passed.
@Suite struct IdleSearchScheduleTests {
    /// A still scene: mid grey (luma 100) with sensor noise σ 2.5 (shared/media/people's level),
    /// plus bright squares (luma 255, what `SquareFinder` "detects") clipped to the frame.
    static func scene(_ rects: [(Int, Int, Int)], noise: inout SplitMix, base: Double = 100,
                      width: Int = 640, height: Int = 480) -> Image {
        var px = [UInt8](repeating: 0, count: width * height)
        for i in px.indices { px[i] = UInt8(max(0, min(250, (base + 2.5 * noise.gaussian()).rounded()))) }
        for (x, y, s) in rects {
            let x0 = max(0, x), x1 = min(width, x + s), y0 = max(0, y), y1 = min(height, y + s)
            guard x0 < x1, y0 < y1 else { continue }   // wholly outside the frame
            for yy in y0..<y1 { for xx in x0..<x1 { px[yy * width + xx] = 255 } }
        }
        return Image(width: width, height: height, layout: .gray, pixels: px)
    }

    static let frameMs = 33   // 30 fps

    @Test func signatureIsTheBlockMeans() {
        // 32 × 24: blocks of 2 × 2 px, sampled at their top-left pixel; left half 0, right half 200.
        var px = [UInt8](repeating: 0, count: 32 * 24)
        for y in 0..<24 { for x in 16..<32 { px[y * 32 + x] = 200 } }
        let s = SceneSignature(gray: Image(width: 32, height: 24, layout: .gray, pixels: px))
        #expect(s.means.count == SceneSignature.columns * SceneSignature.rows)
        #expect(s.means == Array((0..<12).map { _ in [Float](repeating: 0, count: 8) + [Float](repeating: 200, count: 8) }.joined()))
        var other = s
        other.means[5] += 7
        #expect(s.maxDifference(other) == 7)
        #expect(SceneSignature(gray: Image(width: 8, height: 8, layout: .gray, fill: 0)).maxDifference(s) == .infinity,
                "an image smaller than the grid always counts as changed")
    }

    /// The block sums equal the plain per-sample definition (every 2nd pixel of every 2nd row,
    /// block column x · 16 / w, row y · 12 / h) on odd and even sizes, including the analysis
    /// gray of 720p (640 × 360) and of a 1080p frame at 1/4 (480 × 270).
    @Test(arguments: [(640, 360), (480, 270), (641, 361), (33, 25), (16, 12)])
    func signatureMatchesItsDefinition(size: (Int, Int)) {
        let (w, h) = size
        var noise = SplitMix(seed: UInt64(w * h))
        let px = (0..<(w * h)).map { _ in UInt8(truncatingIfNeeded: Int(noise.next() % 256)) }
        var sums = [Int](repeating: 0, count: 16 * 12), counts = sums
        for y in stride(from: 0, to: h, by: 2) {
            for x in stride(from: 0, to: w, by: 2) {
                let b = (y * 12 / h) * 16 + x * 16 / w
                sums[b] += Int(px[y * w + x]); counts[b] += 1
            }
        }
        let want = zip(sums, counts).map { $1 > 0 ? Float($0) / Float($1) : 0 }
        #expect(SceneSignature(gray: Image(width: w, height: h, layout: .gray, pixels: px)).means == want)
    }

    /// Two seconds of an unchanged empty scene: searched on the first frame and then every
    /// 500 ms of frame time (4 of 60 frames), not on the others.
    @Test func unchangedEmptyFramesAreNotSearched() throws {
        var noise = SplitMix(seed: 28)
        let finder = SquareFinder()
        let det = TrackingFaceDetector(backend: finder)
        var searched: [Int] = []
        for i in 0..<60 {
            let t = i * Self.frameMs
            #expect(try det.detect(gray: Self.scene([], noise: &noise), timestampMs: t).isEmpty)
            if !det.lastPasses.isEmpty { searched.append(t) }
        }
        #expect(searched == [0, 528, 1056, 1584], "first frame, then the first frame ≥ 500 ms after the last search")
    }

    /// A face (a 200-px square) that walks in from the left at 30 px a frame (0.9 frame widths a
    /// second) after 2 s of empty scene is found on the same frame as a detector that searches
    /// every frame finds it (within the full-resolution fallback's phase), well within 200 ms.
    @Test func walkInIsFoundWithin200ms() throws {
        func firstFound(schedule: IdleSearchSchedule?) throws -> Int? {
            var noise = SplitMix(seed: 7)
            var strategy = DetectionStrategy()
            strategy.idleSchedule = schedule
            let det = TrackingFaceDetector(backend: SquareFinder(), strategy: strategy)
            for i in 0..<90 {
                let x = i < 60 ? -400 : -200 + (i - 60) * 30
                let faces = try det.detect(gray: Self.scene([(x, 140, 200)], noise: &noise), timestampMs: i * Self.frameMs)
                if !faces.isEmpty { return i * Self.frameMs }
            }
            return nil
        }
        let everyFrame = try #require(try firstFound(schedule: nil))
        let scheduled = try #require(try firstFound(schedule: IdleSearchSchedule()))
        // The entering face changes its blocks, so its frames are searched; only the phase of the
        // full-resolution fallback (every 3rd search) can differ from the every-frame detector.
        #expect(scheduled - everyFrame <= 3 * Self.frameMs)
        #expect(scheduled <= 61 * Self.frameMs + 200, "found within 200 ms of the frame it enters on")
    }

    /// A face that appears without changing any block by 4 levels (a slow fade, the worst case
    /// for the change detector) is still found within 500 ms of frame time.
    @Test func unchangedLookingSceneIsSearchedEveryHalfSecond() throws {
        var s = IdleSearchSchedule()
        let sig = SceneSignature(means: [Float](repeating: 100, count: SceneSignature.columns * SceneSignature.rows))
        var near = sig
        near.means[0] += 3.9
        var far = near
        far.means[100] += 4
        var got: [Bool] = []
        for (t, look) in [(1000, sig), (1033, near), (1499, near), (1500, near), (1533, far), (10, far)] {
            got.append(s.shouldSearch(timestampMs: t, signature: look))
        }
        // first frame; 3.9 levels: no; 499 ms: no; 500 ms: yes; a block 4 levels from the last
        // searched frame: yes; time going back (a new source): yes.
        #expect(got == [true, false, false, true, true, true])
        let unchanged = s.shouldSearch(timestampMs: 43, signature: far)
        s.reset()
        let afterReset = s.shouldSearch(timestampMs: 76, signature: far)
        #expect(!unchanged && afterReset, "after a reset (a face was tracked) the next idle frame is searched")
    }

    /// Slow changes add up: each frame differs by 1 level from the previous, and a search comes
    /// once the scene is 4 levels from the last searched frame (not never).
    @Test func slowChangesAddUp() {
        var s = IdleSearchSchedule()
        var searched: [Int] = []
        for i in 0..<10 {
            let sig = SceneSignature(means: [Float](repeating: 100 + Float(i), count: SceneSignature.columns * SceneSignature.rows))
            if s.shouldSearch(timestampMs: i * 33, signature: sig) { searched.append(i) }
        }
        #expect(searched == [0, 4, 8])
    }

    /// A hand-held camera changes the whole picture on every frame: every frame is searched,
    /// as before the schedule (recall on shared/media/real, DECISIONS 2026-12-01).
    @Test func aMovingCameraIsSearchedEveryFrame() throws {
        var noise = SplitMix(seed: 3)
        let det = TrackingFaceDetector(backend: SquareFinder())
        var searched = 0
        for i in 0..<20 {
            let img = Self.scene([], noise: &noise, base: i % 2 == 0 ? 90 : 110)
            _ = try det.detect(gray: img, timestampMs: i * Self.frameMs)
            if !det.lastPasses.isEmpty { searched += 1 }
        }
        #expect(searched == 20)
    }

    /// After a tracked face leaves, the first empty frame is searched (the schedule starts over).
    @Test func aLostFaceIsSearchedForAtOnce() throws {
        var noise = SplitMix(seed: 11)
        let det = TrackingFaceDetector(backend: SquareFinder())
        _ = try det.detect(gray: Self.scene([], noise: &noise), timestampMs: 0)
        _ = try det.detect(gray: Self.scene([], noise: &noise), timestampMs: 33)
        #expect(det.lastPasses.isEmpty)
        #expect(try det.detect(gray: Self.scene([(200, 140, 200)], noise: &noise), timestampMs: 66).count == 1)
        #expect(try det.detect(gray: Self.scene([(200, 140, 200)], noise: &noise), timestampMs: 99).count == 1)
        #expect(det.lastPasses.first == .roi)
        // Gone: the ROI misses, so the whole frame is searched on this frame and the next idle one.
        _ = try det.detect(gray: Self.scene([], noise: &noise), timestampMs: 132)
        #expect(det.lastPasses.contains(.downscaled))
        _ = try det.detect(gray: Self.scene([], noise: &noise), timestampMs: 165)
        #expect(!det.lastPasses.isEmpty, "the first idle frame after a track is searched")
        _ = try det.detect(gray: Self.scene([], noise: &noise), timestampMs: 198)
        #expect(det.lastPasses.isEmpty)
    }
}
