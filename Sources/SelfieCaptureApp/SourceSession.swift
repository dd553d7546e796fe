import Camera
import CaptureFlow
import Evidence
import Foundation
import JSON
import Media

/// The frame source of a run, and the only owner of what is known about it: the reader thread
/// (`SourceReader`), what the source said on opening, its counts, the last frames read, how
/// long it has been silent, and its time base on the run's clock (`Pacing`: realtime or
/// virtual; nothing here asks which).
///
/// The runtime takes a turn's items (`takeTurn`), hands each to `accept` in order (which
/// updates this state and says what the item means: `Intake`), and stops at the first one after
/// which the source closed or the run ended.
final class SourceSession {
    let setup: CaptureSetup
    let pacing: any Pacing
    /// The source, read on its own thread, and what it reported on opening.
    private(set) var reader: SourceReader?
    private(set) var info: SourceInfo?
    /// The reader reported the source open.
    private(set) var opened = false
    /// When the reader was asked to open the source (run clock ms), for the loading screen.
    private(set) var openStartMs: Int?
    /// The source is opened after the permission screen (the machine hears `permissionGranted`).
    private var afterPermission = false
    /// When the open source went silent (run clock ms), and the whole seconds shown for it on
    /// the capture screen ("waiting for the camera", from `waitNoticeMs`).
    private var silentSinceMs: Int?
    private(set) var waitShownSeconds: Int?
    /// The source's `loops` count already reported to the machine (`sourceLooped`).
    private var loopsSeen = 0
    /// The run clock when the source opened, and the first frame's timestamp: a virtual clock
    /// follows `baseMs + timestamp − first`.
    private var baseMs = 0
    private var firstFrameTs: Int?
    /// The last frame kept on the capture screen, and the last 8 (stills are looked up there).
    private(set) var lastFrame: VideoFrame?
    private(set) var recentFrames: [VideoFrame] = []
    /// Frames kept on the capture screen so far (all attempts).
    private(set) var framesKept = 0
    /// The source's counts after its last read (frames read, delivered, skipped by reason).
    private(set) var stats: SourceStats?
    /// The source as the manifest describes it, kept when the source closes.
    private var keptRecord: SourceRecord?

    /// How long a source may be silent before the capture screen says it is waiting for it
    /// (ms): 1 s, about 30 frame periods of a webcam and 15 of a 15 fps clip.
    static let waitNoticeMs = 1000

    /// Frames the reader may queue ahead of the loop: 8 in realtime (about 0.27 s at 30 fps,
    /// for a loop turn that drew a large frame), 2 with `--pace fast`, where the reader is always
    /// ahead and the loop takes one frame a turn (issue #28: at 1080p the six frames more were
    /// 1.5 MB of the run's peak RSS, and kept no core busier).
    static func queueCapacity(_ pace: PaceMode) -> Int { pace == .fast ? 2 : 8 }

    init(setup: CaptureSetup, pacing: any Pacing) {
        self.setup = setup
        self.pacing = pacing
    }

    /// The source as the manifest describes it: the reader's record, else the one kept when it
    /// closed (nil before any source was opened).
    var record: SourceRecord? { reader?.record ?? keptRecord }

    /// The reader's counts, or empty ones for an opened reader that has not read yet; nil when
    /// no source was ever opened.
    var countsSoFar: SourceStats? { stats ?? (reader != nil ? SourceStats() : nil) }

    /// Starts the reader thread, which opens the setup's source (`FrameSources.open`, on that
    /// thread, with the asked qualities, target resolution and `--loop`).
    func open(afterPermission: Bool) {
        var camera = CameraOptions(qualities: setup.settings.session.effectiveQualities, targetResolution: setup.source.targetResolution)
        if let system = setup.source.cameraSystem { camera.system = system }
        let options = SourceOptions(demoPhoto: DemoPhoto.load, loop: setup.source.loop, camera: camera)
        let spec = setup.source.spec
        open(afterPermission: afterPermission) { try FrameSources.open(spec: spec, options: options) }
    }

    /// Starts the reader thread, which opens the source with `opener` (on that thread).
    func open(afterPermission: Bool, opener: @escaping () throws -> FrameSource) {
        close()
        self.afterPermission = afterPermission
        opened = false
        openStartMs = pacing.clock.nowMs()
        reader = SourceReader(open: opener, spec: setup.source.recordedSpec, pace: pacing.readerPace,
                              capacity: Self.queueCapacity(pacing.readerPace))
    }

    /// Stops the reader (its thread closes the source); the record is kept for the manifest.
    func close() {
        if let r = reader {
            keptRecord = r.record ?? keptRecord
            r.stop()
        }
        reader = nil
        opened = false
        silentSinceMs = nil
        waitShownSeconds = nil
    }

    /// At the end of the run: stops the reader and lets its thread close the device (STREAMOFF,
    /// munmap), for at most `ms`.
    func shutDown(ms: Int = 500) {
        if let r = reader {
            r.stop()
            r.waitFinished(ms: ms)
        }
        reader = nil
    }

    /// What one loop turn takes from the reader.
    enum Turn {
        /// Nothing open, or nothing to take on this screen.
        case none
        /// Nothing came; the loop turned anyway (a virtual clock waited for the reader).
        case waited
        /// Nothing came: the loop may idle.
        case idle
        /// Items to `accept`, in order.
        case items([SourceReader.Item], SourceReader)
    }

    /// Takes what the reader queued: frames only on the capture screen (all in realtime, one
    /// with a virtual clock, which waits for the reader so runs stay repeatable).
    /// - Parameter inputFD: the terminal's key input, which also ends a wait.
    func takeTurn(onCapture: Bool, inputFD: Int32?) -> Turn {
        guard let r = reader else { return .none }
        let maxFrames = onCapture ? pacing.framesPerTurn : 0
        var items = r.take(maxFrames: maxFrames)
        if items.isEmpty, !opened || onCapture,
           let stall = pacing.awaitFrames(take: { r.take(maxFrames: maxFrames) }, wait: { r.wait(ms: $0, alsoFD: inputFD) }) {
            switch stall {
            case .frames(let more): items = more
            case .waiting(let silent):
                if silent { noteIdle(onCapture: onCapture) }
                return .waited
            }
        }
        if items.isEmpty {
            noteIdle(onCapture: onCapture)
            return .idle
        }
        pacing.framesArrived()
        return .items(items, r)
    }

    /// Whether `reader` is still the open one (an item may have closed it).
    func isCurrent(_ reader: SourceReader) -> Bool { self.reader === reader }

    /// No frame this turn: from the first silent turn on the capture screen, time how long the
    /// source has been silent, for the "waiting for the camera" status.
    /// - Returns: whether the shown seconds changed (the screen needs drawing).
    @discardableResult
    func noteIdle(onCapture: Bool) -> Bool {
        guard onCapture, opened else { return false }
        let now = pacing.clock.nowMs()
        if silentSinceMs == nil { silentSinceMs = now }
        let waited = now - (silentSinceMs ?? now)
        let shown = waited >= Self.waitNoticeMs ? waited / 1000 : nil
        guard shown != waitShownSeconds else { return false }
        waitShownSeconds = shown
        return true
    }

    /// What the machine hears of the source opening (`permissionGranted` after the permission
    /// screen, else `cameraOpened`); the time base restarts.
    func didOpen(_ info: SourceInfo) -> Event {
        opened = true
        self.info = info
        loopsSeen = 0
        baseMs = pacing.clock.nowMs()
        firstFrameTs = nil
        silentSinceMs = nil
        return afterPermission ? .permissionGranted : .cameraOpened
    }

    /// What a frame's arrival means before the machine judges it.
    struct Arrival {
        /// The first frame since the source opened.
        var first: Bool
        /// The source started over (`--loop`) since the last frame.
        var looped: Bool
        /// The "waiting for the camera" line went away (the screen needs drawing).
        var waitNoticeCleared: Bool
    }

    /// A frame arrives with the source's pass count `loops` and counts `stats`: the clock
    /// reaches its time, so the machine's events carry the frame's t_ms.
    func arrive(_ frame: VideoFrame, loops: Int, stats: SourceStats) -> Arrival {
        self.stats = stats   // the counts up to this frame (the thread may have read ahead)
        silentSinceMs = nil
        let cleared = waitShownSeconds != nil
        waitShownSeconds = nil
        let first = firstFrameTs ?? frame.timestampMs
        pacing.reach(ms: baseMs + frame.timestampMs - first)
        let isFirst = firstFrameTs == nil
        if isFirst { firstFrameTs = frame.timestampMs }
        let looped = loops > loopsSeen
        if looped { loopsSeen = loops }
        return Arrival(first: isFirst, looped: looped, waitNoticeCleared: cleared)
    }

    /// The frame is on the capture screen: it is the last frame, and one of the recent ones.
    func keep(_ frame: VideoFrame) {
        lastFrame = frame
        framesKept += 1
        recentFrames.append(frame)
        if recentFrames.count > 8 { recentFrames.removeFirst() }
    }

    /// What one item of the reader means to the runtime (`accept`).
    enum Intake {
        /// The source opened: the machine hears `event` (`didOpen`); `higherQualityAvailable`
        /// for the guidance, `warnings` for the end of the run.
        case opened(Event, higherQualityAvailable: Bool?, warnings: [String])
        /// A frame arrived (`arrive`).
        case frame(VideoFrame, Arrival)
        /// The source is silent; `redraw`: the "waiting for the camera" seconds changed.
        case silent(redraw: Bool)
        /// The source ended or failed (its final counts are kept): the run's `failure`, what the
        /// machine hears, and the exit of a run nobody answers. `closeFirst`: the source is
        /// closed before the machine hears it (a failure), else after (an end).
        case ended(failure: AppError?, event: Event, unattendedExit: ExitCode, closeFirst: Bool)
    }

    /// Takes one item of `reader` (`takeTurn`'s), updates what is known of the source, and says
    /// what it means (`Intake`): an end becomes `sourceEnded`, a failure `permissionDenied` (the
    /// source never opened and refused access) or `cameraFailed`, each with the error the run
    /// reports (`AppError`) and its exit code.
    func accept(_ item: SourceReader.Item, of reader: SourceReader, onCapture: Bool) -> Intake {
        switch item {
        case .opened(let info):
            let higher = higherQualityAvailable
            return .opened(didOpen(info), higherQualityAvailable: higher, warnings: reader.warnings)
        case .frame(let f, let loops, let counts):
            return .frame(f, arrive(f, loops: loops, stats: counts))
        case .waiting:
            // A camera poll timeout (V4L-13): the reader retries, and the camera restarts
            // streaming after `CameraOptions.timeoutsBeforeRestart`; the screen says so.
            return .silent(redraw: noteIdle(onCapture: onCapture))
        case .ended:
            stats = reader.stats
            return .ended(failure: AppError.media(MediaError.sourceEnded(setup.source.spec)), event: .sourceEnded,
                          unattendedExit: .timedOut, closeFirst: false)
        case .failed(let error):
            stats = reader.stats
            let e = AppError.media(error) ?? .cameraUnavailable("\(error)")
            if case .cameraPermissionDenied(let path) = e, !opened {
                return .ended(failure: e, event: .permissionDenied(devicePath: path), unattendedExit: .permissionDenied, closeFirst: true)
            }
            return .ended(failure: e, event: .cameraFailed(reason: ErrorReport.message(for: e)),
                          unattendedExit: ErrorReport.exitCode(for: e), closeFirst: true)
        }
    }

    /// A face too small in pixels is told to choose a higher `--quality` when the camera
    /// offers a taller frame than the one granted (issue #11); nil for a source that is not a
    /// camera.
    var higherQualityAvailable: Bool? {
        reader?.cameraModes.map { Self.cameraOffersTaller($0.formats, than: $0.granted) }
    }

    /// Whether any format of the camera lists a frame size taller than `granted` (so a higher
    /// `--quality` could give a face more pixels).
    static func cameraOffersTaller(_ formats: [FormatModes], than granted: FrameSize) -> Bool {
        formats.contains { f in f.sizes.contains { $0.size.height > granted.height } }
    }

    /// The source as the manifest describes it, falling back to the setup's kind with the last
    /// frame's size and the opened rate.
    func recordOrFallback(_ recording: RecordingSession) -> SourceRecord {
        record ?? recording.fallbackRecord(width: lastFrame?.width ?? 0, height: lastFrame?.height ?? 0, fps: info?.fps ?? 0)
    }

    /// The `frameCounts` event: what the source read, delivered, skipped (by reason) and how
    /// many frames were `analysed`, so far; nil when no source was ever opened.
    func frameCountsEvent(tMs: Int, analysed: Int) -> FlowEvent? {
        guard let st = countsSoFar else { return nil }
        var fields = [EventField("read", .int(st.readFrames)), EventField("delivered", .int(st.deliveredFrames)),
                      EventField("analysed", .int(analysed)), EventField("warned", .int(st.warnedFrames)),
                      EventField("huffmanInserted", .int(st.huffmanInsertedFrames)), EventField("skipped", .int(st.skippedFrames))]
        for r in st.skipped.keys.sorted() {
            let name = r.rawValue.prefix(1).uppercased() + r.rawValue.dropFirst()
            fields.append(EventField("skipped" + name, .int(st.skipped[r] ?? 0)))
        }
        return FlowEvent(.frameCounts, tMs: tMs, fields: fields)
    }

    /// result.json's `sourceFrames`: the same counts as the `frameCounts` event, at the time
    /// the result is written.
    func sourceFramesJSON(analysed: Int) -> JSONValue {
        let st = stats ?? SourceStats()
        return ["read": .int(st.readFrames), "delivered": .int(st.deliveredFrames), "analysed": .int(analysed),
                "warned": .int(st.warnedFrames), "huffmanInserted": .int(st.huffmanInsertedFrames),
                "skipped": .int(st.skippedFrames), "skippedByReason": .object(st.skipped.map { JSONMember($0.key.rawValue, .int($0.value)) })]
    }
}
