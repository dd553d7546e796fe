import CaptureModel
import FaceAnalysis
import Foundation
import Media
import Testing

/// A gate the fake analysis waits on, so the test controls when the worker proceeds (no sleeps).
final class Gate: @unchecked Sendable {
    private let c = NSCondition()
    private var open = 0
    private var waiting = 0
    func pass() { c.lock(); while open == 0 { waiting += 1; c.broadcast(); c.wait(); waiting -= 1 }; open -= 1; c.unlock() }
    func release() { c.lock(); open += 1; c.broadcast(); c.unlock() }
    /// Blocks until the worker is waiting at the gate.
    func waitForWaiter() { c.lock(); while waiting == 0 { c.wait() }; c.unlock() }
}

@Suite struct AsyncAnalyzerTests {
    func job(_ i: Int) -> AnalysisJob {
        AnalysisJob(gray: Image(width: 2, height: 2, layout: .gray, fill: UInt8(i)), frameIndex: i, timestampMs: i * 67)
    }

    /// `stop(waitingUpToMs:)` returns only once the frame in progress is done (the run's end must
    /// not exit while the thread is inside dlib), and says so when the frame outlasts the wait.
    @Test func stopWaitsForTheFrameInProgress() throws {
        let gate = Gate()
        let done = NSLock()
        nonisolated(unsafe) var finished = false
        let worker = AsyncFaceAnalyzer(work: { job in
            gate.pass()
            done.lock(); finished = true; done.unlock()
            return FrameAnalysis(frameIndex: job.frameIndex, timestampMs: job.timestampMs, frameWidth: 2, frameHeight: 2,
                                 faces: [], brightness: 0, sharpness: 0)
        })
        worker.submit(job(0))
        gate.waitForWaiter()                                   // frame 0 is in progress
        #expect(worker.stop(waitingUpToMs: 1) == false)        // still inside the work
        gate.release()
        #expect(worker.stop(waitingUpToMs: 60_000) == true)    // returns once it is done
        done.lock(); let f = finished; done.unlock()
        #expect(f)
    }

    /// While frame 0 is being analysed, frames 1, 2, 3 arrive: 1 and 2 are dropped, 3 is analysed
    /// next. Each result names its frame.
    @Test func newestFrameWins() throws {
        let gate = Gate()
        let worker = AsyncFaceAnalyzer(work: { job in
            gate.pass()
            return FrameAnalysis(frameIndex: job.frameIndex, timestampMs: job.timestampMs, frameWidth: job.gray.width,
                                 frameHeight: job.gray.height, faces: [], brightness: Double(job.gray.pixels[0]), sharpness: 0)
        })
        worker.submit(job(0))
        gate.waitForWaiter()           // frame 0 is in progress
        worker.submit(job(1)); worker.submit(job(2)); worker.submit(job(3))
        gate.release(); gate.release()
        worker.waitUntilIdle()
        let results = worker.takeResults().compactMap { try? $0.get() }
        #expect(results.map(\.frameIndex) == [0, 3])
        #expect(results.map(\.timestampMs) == [0, 201])
        #expect(results.map(\.brightness) == [0, 3])
        #expect(worker.droppedCount == 2 && worker.analysedCount == 2)
        worker.stop()
    }

    /// An action queued before a frame runs on the analysis thread before that frame.
    @Test func actionsRunBeforeTheNextFrame() {
        final class Box: @unchecked Sendable { var value = 0 }
        let box = Box()
        let worker = AsyncFaceAnalyzer(work: { job in
            FrameAnalysis(frameIndex: job.frameIndex, timestampMs: job.timestampMs, frameWidth: 2, frameHeight: 2,
                          faces: [], brightness: Double(box.value), sharpness: 0)
        })
        worker.runOnAnalysisThread { box.value = 42 }
        worker.submit(job(1))
        worker.waitUntilIdle()
        let r = worker.takeResults().compactMap { try? $0.get() }
        #expect(r.map(\.brightness) == [42])
        worker.stop()
    }

    struct Boom: Error {}

    @Test func failuresCarryTheirFrame() {
        let worker = AsyncFaceAnalyzer(work: { _ in throw Boom() })
        worker.submit(job(7))
        worker.waitUntilIdle()
        let r = worker.takeResults()
        #expect(r.count == 1)
        if case .failure(let f) = r.first { #expect(f.frameIndex == 7 && f.message.contains("Boom")) } else { Issue.record("expected a failure") }
        worker.stop()
    }
}

@Suite struct ModelLoaderTests {
    /// A missing model fails with `.modelLoad`, and the time comes from the injected clock.
    @Test func missingModelReportsFailureWithTime() {
        let done = NSCondition()
        nonisolated(unsafe) var events: [String] = []
        nonisolated(unsafe) var ticks = 0
        LandmarkModelLoader.loadInBackground(path: "/nonexistent/model.dat", clockMs: { done.lock(); ticks += 1; let t = ticks * 100; done.unlock(); return t }) { p in
            done.lock()
            switch p {
            case .started(let path): events.append("started \(path)")
            case .loaded(_, let ms): events.append("loaded \(ms)")
            case .failed(let e, let ms):
                if case .modelLoad(let path, _) = e { events.append("failed \(path) \(ms)") } else { events.append("other") }
            }
            done.broadcast()
            done.unlock()
        }
        done.lock()
        while events.count < 2 { done.wait() }
        done.unlock()
        #expect(events == ["started /nonexistent/model.dat", "failed /nonexistent/model.dat 100"])
    }
}
