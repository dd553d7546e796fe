import Foundation
import Testing
import Worker

/// The worker-thread primitive, driven by gates (semaphores), never by sleeps: order, the
/// newest-wins slot, and the three ways to stop (busy, idle, twice).
@Suite struct WorkerThreadTests {
    /// A list shared with the worker's thread.
    final class Log: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [String] = []
        func add(_ s: String) { lock.lock(); items.append(s); lock.unlock() }
        var all: [String] { lock.lock(); defer { lock.unlock() }; return items }
    }

    /// The calling thread's identity (`pthread_self`).
    static func thread() -> String { "\(pthread_self())" }

    /// A job that says it started, then waits for the gate.
    static func blocking(_ log: Log, started: DispatchSemaphore, gate: DispatchSemaphore) -> WorkerThread.Job {
        { log.add("blocker"); started.signal(); gate.wait(); log.add("blocker done") }
    }

    /// Every job on the worker's one thread, never the caller's, in order.
    @Test func runsQueuedJobsInOrderOnItsOwnThread() {
        let w = WorkerThread(name: "test-worker")
        let log = Log(), threads = Log()
        for k in 1...3 { w.submit { log.add("\(k)"); threads.add(Self.thread()) } }
        w.waitUntilIdle()
        #expect(log.all == ["1", "2", "3"])
        #expect(Set(threads.all).count == 1 && threads.all.first != Self.thread() && w.name == "test-worker")
        #expect(w.stop(waitingUpToMs: 10_000) && w.hasEnded)
    }

    /// The slot keeps only the newest job; queued jobs go first.
    @Test func newestOfferWinsAndQueuedJobsGoFirst() {
        let w = WorkerThread(name: "test-slot")
        let log = Log(), started = DispatchSemaphore(value: 0), gate = DispatchSemaphore(value: 0)
        w.submit(Self.blocking(log, started: started, gate: gate))
        started.wait()
        #expect(!w.offer { log.add("frame 1") })
        #expect(w.offer { log.add("frame 2") })      // frame 1 replaced, never runs
        w.submit { log.add("action") }
        gate.signal()
        w.waitUntilIdle()
        #expect(log.all == ["blocker", "blocker done", "action", "frame 2"])
        w.stop()
    }

    /// Stopped while busy: the bounded wait says the job is still running; the jobs waiting
    /// are dropped; once the job returns, the thread ends and the wait says so.
    @Test func stopWhileBusyWaitsForTheJobInProgress() {
        let w = WorkerThread(name: "test-busy")
        let log = Log(), started = DispatchSemaphore(value: 0), gate = DispatchSemaphore(value: 0)
        w.submit(Self.blocking(log, started: started, gate: gate))
        w.submit { log.add("dropped") }
        started.wait()
        #expect(!w.stop(waitingUpToMs: 20))          // the gate is shut: the job cannot have returned
        #expect(w.isStopping && !w.hasEnded)
        #expect(!w.submit { log.add("too late") })
        gate.signal()
        #expect(w.stop(waitingUpToMs: 10_000))
        #expect(log.all == ["blocker", "blocker done"])
    }

    @Test func stopWhenIdleEndsAtOnce() {
        let w = WorkerThread(name: "test-idle")
        #expect(w.stop(waitingUpToMs: 10_000) && w.hasEnded)
    }

    @Test func stopTwiceIsHarmless() {
        let w = WorkerThread(name: "test-twice")
        let log = Log()
        w.submit { log.add("ran") }
        w.waitUntilIdle()
        #expect(w.stop(waitingUpToMs: 10_000))
        #expect(w.stop(waitingUpToMs: 10_000))
        w.stop()
        #expect(!w.offer { log.add("after") })
        w.waitUntilIdle()                             // returns: the thread has ended
        #expect(log.all == ["ran"])
    }

    /// `once`: one job on a thread of its own, which then ends by itself.
    @Test func onceRunsItsJobThenEnds() {
        let log = Log()
        let w = WorkerThread.once(name: "test-once") { log.add(Self.thread()) }
        #expect(w.waitUntilEnded(ms: 10_000))
        #expect(log.all.count == 1 && log.all.first != Self.thread())
        #expect(!w.submit { log.add("after") })
    }
}
