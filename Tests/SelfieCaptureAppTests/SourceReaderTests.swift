import Foundation
import Glibc
import Media
@testable import SelfieCaptureApp
import Testing

/// `SourceReader`: the source's own thread and its bounded queue (issue #14).
@Suite struct SourceReaderTests {
    /// A source of `count` tiny frames, delivered at once, that records its close.
    final class CountingSource: FrameSource, @unchecked Sendable {
        let count: Int
        var next = 0
        var closed = false
        var stats = SourceStats()
        let info = SourceInfo(kind: .y4m, width: 2, height: 2, fps: 30, description: "counting", deliversJPEG: false)
        init(count: Int) { self.count = count }
        func nextFrame() throws -> VideoFrame? {
            guard next < count else { return nil }
            defer { next += 1; stats.deliveredFrames += 1 }
            return VideoFrame(index: next, timestampMs: next * 33, rgb: Image(width: 2, height: 2, layout: .rgb, pixels: .init(repeating: 0, count: 12)))
        }
        func close() { closed = true }
    }

    /// Waits (at most 10 s) for the thread to reach a state; not a timing assertion.
    static func until(_ condition: () -> Bool) {
        let deadline = Date(timeIntervalSinceNow: 10)
        while !condition() && Date() < deadline { usleep(1000) }
    }

    static func frames(_ items: [SourceReader.Item]) -> [Int] {
        items.compactMap { if case .frame(let f, _, _) = $0 { return f.index } else { return nil } }
    }

    @Test("V4L-11: the loop drains every queued frame at once, in order, none lost; the reader waits when the queue is full")
    func drainsInOrderWithoutLoss() throws {
        let source = CountingSource(count: 20)
        let r = SourceReader(open: { source }, spec: "x", pace: .fast, capacity: 8)
        // The thread fills the queue (8) and then waits holding the 9th frame it read.
        Self.until { r.stats.deliveredFrames >= 9 }
        #expect(r.stats.deliveredFrames == 9)
        let first = r.take()
        if case .opened(let info)? = first.first { #expect(info.description == "counting") } else { Issue.record("no .opened first") }
        #expect(Self.frames(first) == Array(0..<8), "one turn takes the whole batch: the newest is index 7")
        var all = Self.frames(first)
        var ended = false
        var turns = 0
        while !ended && turns < 1000 {
            r.wait(ms: 10)
            for item in r.take() {
                if case .frame(let f, _, _) = item { all.append(f.index) }
                if case .ended = item { ended = true }
            }
            turns += 1
        }
        #expect(ended && all == Array(0..<20))
        r.waitFinished(ms: 2000)
        #expect(r.isFinished && source.closed, "the thread closes the source it owns")
    }

    @Test("--pace fast queues two frames ahead (issue #28: peak RSS at 1080p), realtime eight")
    func fastRunsQueueTwo() throws {
        #expect(SourceSession.queueCapacity(.realtime) == 8)
        let source = CountingSource(count: 20)
        let r = SourceReader(open: { source }, spec: "x", pace: .fast, capacity: SourceSession.queueCapacity(.fast))
        // The thread fills the queue (2) and then waits holding the 3rd frame it read.
        Self.until { r.stats.deliveredFrames >= 3 }
        #expect(r.stats.deliveredFrames == 3)
        #expect(Self.frames(r.take()) == [0, 1])
        r.stop()
    }

    @Test("a fast run takes one frame per turn (every frame analysed), the rest stays queued")
    func oneFramePerTurn() throws {
        let r = SourceReader(open: { CountingSource(count: 3) }, spec: "x", pace: .fast, capacity: 8)
        Self.until { r.stats.deliveredFrames >= 3 }
        _ = r.take(maxFrames: 0)   // .opened only
        #expect(Self.frames(r.take(maxFrames: 1)) == [0])
        #expect(Self.frames(r.take(maxFrames: 1)) == [1])
        #expect(r.wait(ms: 0), "still readable: a frame is left")
        #expect(Self.frames(r.take(maxFrames: 1)) == [2])
        r.stop()
    }

    @Test("a source that fails to open reports the error, and the thread ends")
    func openFailure() throws {
        let r = SourceReader(open: { throw MediaError.fileMissing(path: "/nope.avi") }, spec: "/nope.avi", pace: .fast)
        var items: [SourceReader.Item] = []
        var turns = 0
        while items.isEmpty && turns < 500 { r.wait(ms: 10); items = r.take(); turns += 1 }
        guard case .failed(let e)? = items.first else { Issue.record("expected .failed"); return }
        #expect(e as? MediaError == .fileMissing(path: "/nope.avi"))
        r.waitFinished(ms: 2000)
        #expect(r.isFinished)
    }
}
