import Camera
import Evidence
import Foundation
import Media
import Worker

#if canImport(Glibc)
import Glibc
#endif

/// Reads a frame source on its own thread, so that nothing the source does (a pipe or FIFO that
/// delivers nothing, a camera whose poll times out, a y4m header that never comes) can block
/// the runtime loop: keys, `q`, Ctrl-C, the loading screen's counter and `--timeout` keep
/// working (issue #14 "a stalled source never freezes the screen").
///
/// The thread opens the source (`open`), then reads frames into a bounded queue (`capacity`
/// frames: it waits when the queue is full, so no frame is dropped here; a camera then drops in
/// its driver as it would with a slow reader). With `--pace realtime` it also paces file
/// sources to their timestamps (`Pacer`), which used to sleep in the loop.
///
/// The thread owns the source: it is the only caller of `nextFrame` and `close`. The loop sees
/// snapshots (`SourceInfo`, `SourceStats`, `SourceRecord`) that come with the items. `stop()`
/// asks the thread to close the source and end; a thread blocked in a read that never returns
/// is left behind (the process exit ends it) rather than closing the descriptor under it.
///
/// `wakeFD` is readable while items are queued, for the loop's `poll` beside the terminal.
final class SourceReader: @unchecked Sendable {
    /// What the thread reports, in order.
    enum Item {
        /// The source opened.
        case opened(SourceInfo)
        /// A frame, with the source's pass count (`loops`) and counts (`stats`) as of reading
        /// it: what the loop has consumed is then known exactly, whatever the thread read ahead.
        case frame(VideoFrame, loops: Int, stats: SourceStats)
        /// A recoverable camera timeout (`CameraError.timeout`, V4L-13): the thread retries.
        case waiting
        /// The source ended (nextFrame returned nil).
        case ended
        /// Opening or reading failed for good.
        case failed(Error)
    }

    private let lock = NSCondition()
    private var queue: [Item] = []
    private var queuedFrames = 0
    private var stopping = false
    /// The thread (`WorkerThread.once`): one job, the reading loop; it ends when the loop does.
    private var worker: WorkerThread?
    private var latestStats = SourceStats()
    private var latestRecord: SourceRecord?
    private var openWarnings: [String] = []
    private var openCameraModes: (formats: [FormatModes], granted: FrameSize)?
    private let capacity: Int
    private var wakePipe: [Int32] = [-1, -1]

    /// Readable while items are queued (a pipe; one byte per wake-up, drained by `take`).
    var wakeFD: Int32 { wakePipe[0] }

    /// Starts the thread.
    /// - Parameters:
    ///   - open: opens the source (on the thread).
    ///   - spec: the `--source` spec, for the manifest's `SourceRecord`.
    ///   - pace: `.realtime` paces frames to their timestamps on the thread.
    ///   - capacity: the most frames queued before the thread waits (default 8: about 0.27 s
    ///     at 30 fps, enough for a loop turn that drew a large frame).
    init(open: @escaping () throws -> FrameSource, spec: String, pace: PaceMode, capacity: Int = 8) {
        self.capacity = max(1, capacity)
        if pipe(&wakePipe) == 0 {
            for fd in wakePipe { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK); _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        }
        let opener = UncheckedBox(open)   // called once, on the thread
        worker = WorkerThread.once(name: "selfie-capture source") { [self] in self.run(open: opener.value, spec: spec, pace: pace) }
    }

    deinit {
        for fd in wakePipe where fd >= 0 { Glibc.close(fd) }
    }

    /// The source's counts after the last frame the thread read.
    var stats: SourceStats { lock.lock(); defer { lock.unlock() }; return latestStats }
    /// The source as the manifest describes it (camera facts included), as of the last frame.
    var record: SourceRecord? { lock.lock(); defer { lock.unlock() }; return latestRecord }

    /// The queued items, oldest first, without waiting; at most `maxFrames` frames (the items
    /// after the last frame taken stay queued).
    func take(maxFrames: Int = .max) -> [Item] {
        drainWake()   // first: a byte written after this stays, so a later post still wakes the loop
        lock.lock()
        var out: [Item] = []
        var frames = 0
        while !queue.isEmpty {
            if case .frame = queue[0] {
                if frames >= maxFrames { break }
                frames += 1
                queuedFrames -= 1
            }
            out.append(queue.removeFirst())
        }
        if !out.isEmpty { lock.signal() }
        let left = !queue.isEmpty
        lock.unlock()
        if left { var b: UInt8 = 1; _ = Glibc.write(wakePipe[1], &b, 1) }
        return out
    }

    /// Waits at most `ms` for an item (or until `alsoFD`, e.g. the terminal, is readable).
    /// - Returns: true when an item is queued.
    @discardableResult
    func wait(ms: Int, alsoFD: Int32? = nil) -> Bool {
        var fds = [pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)]
        if let a = alsoFD { fds.append(pollfd(fd: a, events: Int16(POLLIN), revents: 0)) }
        _ = poll(&fds, nfds_t(fds.count), Int32(max(0, ms)))
        lock.lock(); defer { lock.unlock() }
        return !queue.isEmpty
    }

    /// Asks the thread to close the source and end. Does not wait for a read in progress.
    func stop() {
        worker?.stop()
        lock.lock()
        stopping = true
        lock.broadcast()
        lock.unlock()
    }

    /// A camera's offered formats and the size it granted (nil for other sources).
    var cameraModes: (formats: [FormatModes], granted: FrameSize)? { lock.lock(); defer { lock.unlock() }; return openCameraModes }

    /// What the source warned about on opening (V4L-08: fewer than 2 buffers granted).
    var warnings: [String] { lock.lock(); defer { lock.unlock() }; return openWarnings }

    /// Waits at most `ms` for the thread to close the source.
    func waitFinished(ms: Int) { worker?.waitUntilEnded(ms: ms) }

    /// True once the thread has closed the source (after `stop`, an end or a failure).
    var isFinished: Bool { worker?.hasEnded ?? false }

    // MARK: the thread

    private func run(open: () throws -> FrameSource, spec: String, pace: PaceMode) {
        let source: FrameSource
        do { source = try open() } catch {
            post(.failed(error))
            return
        }
        let pacer = Pacer(mode: pace, clock: SystemClock())
        lock.lock()
        latestRecord = FrameSources.sourceRecord(of: source, spec: spec)
        if let cam = source as? V4L2CameraSource {
            openWarnings = cam.warnings
            openCameraModes = (cam.description.formats, cam.granted.size)
        }
        lock.unlock()
        post(.opened(source.info))
        var loopsSeen = 0
        while !isStopping {
            do {
                guard var f = try source.nextFrame() else {
                    update(source, spec: spec)
                    post(.ended)
                    break
                }
                if source.loops != loopsSeen { loopsSeen = source.loops; pacer.reset() }
                pacer.release(timestampMs: f.timestampMs)
                // A file paced in realtime stands for a camera: its frame is "captured" when it
                // is due (now, after the pacer's wait). Decoding happened before, so a camera
                // frame's latency would add the decode (`make bench` prints it beside).
                if pace == .realtime, f.captureMicros == nil { f.captureMicros = SourceReader.monotonicMicros() }
                update(source, spec: spec)
                post(.frame(f, loops: source.loops, stats: source.stats))
            } catch let e as CameraError {
                update(source, spec: spec)
                if case .timeout = e { post(.waiting); continue }
                post(.failed(e))
                break
            } catch {
                update(source, spec: spec)
                post(.failed(error))
                break
            }
        }
        source.close()
    }

    /// CLOCK_MONOTONIC in µs (the clock V4L2 stamps buffers with).
    static func monotonicMicros() -> Int {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int(ts.tv_sec) * 1_000_000 + Int(ts.tv_nsec) / 1000
    }

    private var isStopping: Bool { lock.lock(); defer { lock.unlock() }; return stopping }

    private func update(_ source: FrameSource, spec: String) {
        let st = source.stats
        let rec = FrameSources.sourceRecord(of: source, spec: spec)
        lock.lock()
        latestStats = st
        latestRecord = rec
        lock.unlock()
    }

    /// Queues `item`; a frame waits while `capacity` frames are queued (unless stopping).
    private func post(_ item: Item) {
        lock.lock()
        if case .frame = item {
            while queuedFrames >= capacity && !stopping { lock.wait() }
            if stopping { lock.unlock(); return }
            queuedFrames += 1
        }
        queue.append(item)
        lock.unlock()
        var b: UInt8 = 1
        _ = Glibc.write(wakePipe[1], &b, 1)
    }

    private func drainWake() {
        var buf = [UInt8](repeating: 0, count: 64)
        while buf.withUnsafeMutableBytes({ Glibc.read(wakePipe[0], $0.baseAddress, 64) }) > 0 {}
    }
}

/// Hands a non-Sendable object to the one thread that uses it from then on.
final class UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
