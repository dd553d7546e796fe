import Foundation

/// The one worker-thread primitive (issue #26): a named serial thread with a mailbox, used by
/// the source reader, the face analyser and the model loaders. Jobs run one at a time, in order,
/// on this thread only, so a job may own objects that are not thread-safe (a dlib model, a
/// frame source).
///
/// The mailbox has a queue (`submit`: every job runs, in order) and one slot (`offer`: the
/// newest job wins; a job still waiting there is replaced, never run). Queued jobs run before
/// the slot's.
///
/// Ending: `stop()` drops the jobs still waiting and asks the thread to end after the job in
/// progress (a long job sees it in `isStopping`); `stop(waitingUpToMs:)` also waits for that
/// job to return and the thread to end, so a process can exit without running C++ destructors
/// under a job still inside a C library ("double free or corruption", exit 134, seen on a
/// realtime run's end: DECISIONS 2026-12-01). `finishWhenIdle()` ends the thread once the
/// jobs given so far have run (`once`). Stopping twice, or after the end, does nothing more.
/// Waits with a deadline use the system clock (they bound a wait; they time nothing).
public final class WorkerThread: @unchecked Sendable {
    /// A job; it runs on the worker's thread only.
    public typealias Job = () -> Void

    private let condition = NSCondition()
    private var queue: [Job] = []
    private var slot: Job?
    private var busy = false
    private var stopping = false
    private var finishing = false
    private var ended = false
    /// The thread's name, given to Foundation's `Thread` (best effort: corelibs Foundation does
    /// not always show it in `Thread.current.name` inside a job).
    public let name: String

    /// Starts the thread, idle until a job comes. The thread keeps the worker alive until it
    /// ends: stop it (an owner's `deinit` may) or `finishWhenIdle`.
    public init(name: String) {
        self.name = name
        let t = Thread { [self] in self.run() }
        t.name = name
        t.start()
    }

    /// Runs `job` on a new thread named `name`, which ends after it.
    @discardableResult
    public static func once(name: String, _ job: @escaping Job) -> WorkerThread {
        let w = WorkerThread(name: name)
        w.submit(job)
        w.finishWhenIdle()
        return w
    }

    /// Queues `job` after the jobs already queued.
    /// - Returns: false when the worker is stopping or ending (the job will not run).
    @discardableResult
    public func submit(_ job: @escaping Job) -> Bool {
        var accepted = false
        mail { queue.append(job); accepted = true }
        return accepted
    }

    /// Puts `job` in the slot, replacing a job still waiting there (the newest wins).
    /// - Returns: true when a waiting job was replaced (it will never run).
    @discardableResult
    public func offer(_ job: @escaping Job) -> Bool {
        var replaced = false
        mail { replaced = slot != nil; slot = job }
        return replaced
    }

    /// Changes the mailbox (under the lock, waking the thread) unless the worker is stopping
    /// or ending.
    private func mail(_ change: () -> Void) {
        condition.lock(); defer { condition.unlock() }
        guard !stopping && !finishing else { return }
        change()
        condition.broadcast()
    }

    /// True once `stop` was called: a long job returns when it sees it.
    public var isStopping: Bool { condition.lock(); defer { condition.unlock() }; return stopping }

    /// True once the thread has ended (after `stop` and its job in progress, or after
    /// `finishWhenIdle` and the last job).
    public var hasEnded: Bool { condition.lock(); defer { condition.unlock() }; return ended }

    /// No more jobs: the thread ends once the jobs given so far have run.
    public func finishWhenIdle() {
        condition.lock()
        finishing = true
        condition.broadcast()
        condition.unlock()
    }

    /// Drops the waiting jobs and asks the thread to end after the job in progress; returns at once.
    public func stop() {
        condition.lock()
        stopping = true
        queue = []
        slot = nil
        condition.broadcast()
        condition.unlock()
    }

    /// `stop()`, then waits at most `ms` milliseconds for the job in progress to return and the
    /// thread to end.
    /// - Returns: true when the thread has ended; false when its job outlasted `ms`.
    @discardableResult
    public func stop(waitingUpToMs ms: Int) -> Bool {
        stop()
        return waitUntilEnded(ms: ms)
    }

    /// Waits at most `ms` milliseconds for the thread to end (it does not ask it to).
    /// - Returns: true when it has ended.
    @discardableResult
    public func waitUntilEnded(ms: Int) -> Bool {
        let deadline = Date(timeIntervalSinceNow: Double(max(0, ms)) / 1000)
        condition.lock(); defer { condition.unlock() }
        while !ended {
            if !condition.wait(until: deadline) { return ended }
        }
        return true
    }

    /// Blocks until no job is waiting or running (or the thread has ended).
    public func waitUntilIdle() {
        condition.lock()
        while !ended && (busy || !queue.isEmpty || slot != nil) { condition.wait() }
        condition.unlock()
    }

    private func run() {
        // Named again from the thread itself: with corelibs Foundation, `Thread.current` early
        // in a new thread is not always the object named before `start`, and a job then read
        // its creator's name ("oot.default-qos").
        Thread.current.name = name
        condition.lock()
        while true {
            while !stopping && queue.isEmpty && slot == nil && !finishing { condition.wait() }
            if stopping { break }
            var job: Job?
            if !queue.isEmpty { job = queue.removeFirst() } else if let s = slot { job = s; slot = nil } else { break }   // finishing, nothing left
            busy = true
            condition.unlock()
            job?()
            // Released before the lock is taken again: the job may hold the last reference to
            // an owner whose deinit stops this worker.
            job = nil
            condition.lock()
            busy = false
            condition.broadcast()
        }
        ended = true
        busy = false
        condition.broadcast()
        condition.unlock()
    }
}
