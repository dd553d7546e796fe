import Camera
import CaptureFlow
import CaptureModel
import Evidence
import FaceAnalysis
import Foundation
import JSON
import Media
import TerminalUI

#if canImport(Glibc)
import Glibc
#endif

/// The run's output, and the only owner of it: the output folder, the video writer, the
/// collected stills, the reference frame (`reference.jpg`), the per-frame data of result.json,
/// `--keep-failed`'s frames, and the folder's documents (`EvidenceWriter`: result.json, the
/// manifest, its signature). The runtime tells it what the machine decided (start, collect,
/// stop, abort, discard the attempt, write the result); it answers with errors (`AppError`,
/// already named and mapped), never by reaching back into the runtime.
///
/// Nothing is left half-written: the video is written under a temporary name and renamed on
/// success; on cancel, failure or timeout it is removed with any collected frames, and an
/// output folder this run created is removed when it is left empty. A fatal signal removes
/// every name the run may write (`registerUnfinishedOutput`: `UnfinishedOutput`, called by `SignalGuard`).
final class RecordingSession {
    let setup: CaptureSetup
    /// The output folder: `--output DIR` from the start, else the timestamped folder named when
    /// the first recording starts.
    private(set) var folder: OutputFolder?
    /// This run created `folder` (it may remove it when left empty).
    private(set) var folderCreated = false
    private var writer: (any VideoWriter)?
    private(set) var collector: FrameCollector?
    private(set) var recorded: [RecordedFrame] = []
    /// The finished video (nil until the recording stopped cleanly).
    private(set) var summary: VideoSummary?
    /// The best recorded frame so far for `reference.jpg` (`ReferenceCandidate` ranking), with
    /// its pixels; and the recorded frames whose analysis has not arrived yet (realtime), kept
    /// until it does or a newer frame's analysis shows it never will.
    private(set) var reference: (candidate: ReferenceCandidate, frame: VideoFrame)?
    private var unanalysedFrames: [Int: VideoFrame] = [:]
    /// Stills the machine asked for (`collectFrame`) that name a frame not in the video: in
    /// realtime an analysis can arrive after the recording started for a frame read before it.
    /// The next frames that go into the video stand in, so every still belongs to the video.
    private var pendingCollects = 0
    /// The index of the last frame offered as a still (one still per frame).
    private var lastCollectedIndex: Int?
    /// Frames saved as stills in this attempt, in order (the result screen's thumbnail).
    private(set) var stills: [VideoFrame] = []
    /// When the run started, on the wall clock (`CaptureSetup.wallClock`), for the manifest.
    var startedAt = Date()
    /// `--keep-failed` (issue #25): the running attempt's explaining frames, and those of the
    /// attempts that failed.
    private var failureFrames = FailureFrames<VideoFrame>()
    private(set) var failedAttempts: [FailedAttempt] = []

    /// One recorded frame's measurements, for result.json.
    struct RecordedFrame {
        var index: Int
        var timestampMs: Int
        var analysis: FrameAnalysis?
    }

    /// What result.json says that the recording does not know: the machine's attempt and
    /// collection plan, the accepted shortfalls and the challenge, the source's counts and
    /// record, and the preview's latency.
    struct ResultFacts {
        var attempt: Int
        var plan: CollectionPlan?
        var shortfalls: [AcceptedShortfall] = []
        /// `ResultWriter.challengeResult` (null: no challenge).
        var challenge: JSONValue = .null
        var sourceFrames: JSONValue = [:]
        var source: SourceRecord?
        var previewLatency: JSONValue?
    }

    static let failedFolder = "failed"

    /// A published folder: where it is and its documents.
    struct Saved {
        var folder: OutputFolder
        var published: EvidenceWriter.Published

        /// The `outputSaved` event at `tMs`: `folder`, `result`, `manifest`.
        func event(tMs: Int) -> FlowEvent {
            FlowEvent(.outputSaved, tMs: tMs, fields: [
                EventField("folder", .string(folder.path)),
                EventField("result", .string(published.result)),
                EventField("manifest", .string(published.manifest)),
            ])
        }
    }

    init(setup: CaptureSetup) {
        self.setup = setup
    }

    /// A media or file error as the run reports it: the media error's own mapping, else "cannot
    /// create" `path` (exit 73).
    static func outputError(_ error: Error, path: String) -> AppError {
        error as? AppError ?? AppError.media(error) ?? .cannotCreateOutput(path: path, reason: "\(error)")
    }

    /// Whether a video is being written.
    var isRecording: Bool { writer != nil }

    /// The video being written, as `FlowDriver.recordedVideo` reports it: its frames, their
    /// duration (ms), and the stills it will hold once `collectOwed(offsetsMs:)` has run.
    func recordedVideo(owedStillOffsetsMs owed: [Int]) -> (frames: Int, durationMs: Int, stills: Int)? {
        writer.map { ($0.frameCount, $0.durationMs, stills.count + owedStills(offsetsMs: owed).count) }
    }

    // MARK: the folder

    /// `--output DIR` is prepared (created, checked writable) before the screen starts. Without
    /// it, only the current folder's writability is checked now: the timestamped folder is
    /// named and created when the recording starts (`start`), so its name says when the capture
    /// was made, not when the app started.
    func prepareOutput() throws {
        guard let requested = setup.output.requested else {
            guard access(setup.output.parent, W_OK | X_OK) == 0 else {
                throw AppError.cannotCreateOutput(path: setup.output.parent, reason: String(cString: strerror(errno)))
            }
            return
        }
        let existed = access(requested, F_OK) == 0
        do {
            folder = try OutputFolder.prepare(requested: requested)
        } catch {
            throw AppError.media(error) ?? AppError.cannotCreateOutput(path: requested, reason: "\(error)")
        }
        folderCreated = !existed
        registerUnfinishedOutput()
    }

    /// The folder, the default one named and created now if there is none yet.
    func ensureFolder() throws -> OutputFolder {
        if let folder { return folder }
        do {
            let f = try OutputFolder.prepare(requested: nil, parent: setup.output.parent, date: setup.output.wallClock())
            folder = f
            folderCreated = true
            registerUnfinishedOutput()
            return f
        } catch {
            throw Self.outputError(error, path: setup.output.parent)
        }
    }

    /// Every name a run may write in `folder` (which was empty or new, so none of them is
    /// anyone else's): the video, stills, reference.jpg, result.json, manifest.json and its
    /// signature, each with its temporary `.NAME.partial` name; then the folders to remove
    /// (`frames/`, then the folder itself when this run created it).
    static func unfinishedOutput(in folder: OutputFolder, created: Bool, stills: Int) -> (files: [String], folders: [String]) {
        var names = ["video.avi", "video.mp4", ReferenceImage.fileName, Manifest.resultFileName, Manifest.fileName,
                     ManifestSigner.signatureFileName, ".write-probe"]
        for i in 1...max(1, stills) { names.append("frames/frame-" + String(format: "%03d", i) + ".jpg") }
        var files: [String] = []
        for n in names {
            let p = folder.file(n)
            files.append(p)
            files.append(PartialFile.temporaryPath(for: p))
        }
        var folders = [folder.file("frames")]
        if created { folders.append(folder.path) }
        return (files, folders)
    }

    /// Registers what a fatal signal must remove (`unfinishedOutput`, through `UnfinishedOutput`).
    /// Called when the folder is known or changes; cleared once the run's output is published.
    func registerUnfinishedOutput() {
        guard let folder else { UnfinishedOutput.clear(); return }
        let u = Self.unfinishedOutput(in: folder, created: folderCreated, stills: max(0, setup.settings.options.numberOfFrameToCollect))
        UnfinishedOutput.register(files: u.files, folders: u.folders)
    }

    // MARK: the recording

    /// Starts a video of `frame`'s size at `fps` (30 when unknown) and a fresh collector.
    /// - Throws: `AppError` when the folder or the video cannot be created.
    func start(frame: VideoFrame, fps: Double?) throws {
        let folder = try ensureFolder()
        discard()
        do {
            let rate = fps ?? 30
            writer = try folder.startRecording(format: setup.output.videoFormat, width: frame.width, height: frame.height,
                                               fps: rate > 0 ? rate : 30)
            let o = setup.settings.options
            // The machine decides which frames are collected (CaptureOptions.collects); the
            // collector only saves what it is offered.
            collector = FrameCollector(options: FrameCollectionOptions(numberOfFramesBeforeCapture: 0, frameInterval: 1,
                                                                        numberOfFrameToCollect: o.numberOfFrameToCollect,
                                                                        payloadOptimization: o.payloadOptimization),
                                       folder: folder)
        } catch {
            throw Self.outputError(error, path: folder.path)
        }
    }

    /// Writes `frame` into the video. `analysis`: the newest analysis, kept with the frame when
    /// it is this frame's. A still that waits for a frame in the video takes this one.
    func append(_ frame: VideoFrame, analysis: FrameAnalysis?) throws {
        guard let w = writer else { return }
        do { try w.append(frame) } catch { throw Self.outputError(error, path: w.path) }
        let analysed = analysis?.frameIndex == frame.index ? analysis : nil
        recorded.append(RecordedFrame(index: frame.index, timestampMs: frame.timestampMs, analysis: analysed))
        if let analysed { considerReference(analysed, frame) } else { unanalysedFrames[frame.index] = frame }
        if pendingCollects > 0, frame.index > lastCollectedIndex ?? Int.min {
            pendingCollects -= 1
            try offer(frame, analysis: analysis)
        }
    }

    /// The machine's `collectFrame(index)`. Only a frame that is in the video is collected; one
    /// read before the recording started (or not yet written, e.g. the frame that starts a
    /// recording with no countdown) waits for the next frame written.
    /// - Parameter recent: the last frames read, where `frameIndex` is looked up.
    func collect(frameIndex: Int, recent: [VideoFrame], analysis: FrameAnalysis?) throws {
        guard collector != nil else { return }
        guard let first = recorded.first?.index, frameIndex >= first, frameIndex > lastCollectedIndex ?? Int.min,
              let frame = recent.last(where: { $0.index == frameIndex }) else {
            pendingCollects += 1
            return
        }
        try offer(frame, analysis: analysis)
    }

    /// The machine's `collectOwed`: for each offset (ms from the first written frame), the
    /// written frame nearest it among those no analysis reached (`unanalysedFrames`: kept until
    /// an analysis of a later frame arrives), after the last still and each taken once. Frames
    /// the analyser judged are never taken here: a valid one was the machine's to collect, an
    /// invalid one must not be a still. Fewer frames than offsets give fewer stills.
    func collectOwed(offsetsMs: [Int]) throws {
        for frame in owedStills(offsetsMs: offsetsMs) { try offer(frame, analysis: nil) }
        pendingCollects = 0
    }

    /// The frames `collectOwed(offsetsMs:)` takes, in order.
    func owedStills(offsetsMs: [Int]) -> [VideoFrame] {
        guard collector != nil, let start = recorded.first?.timestampMs else { return [] }
        var candidates = unanalysedFrames.values.filter { $0.index > lastCollectedIndex ?? Int.min }.sorted { $0.index < $1.index }
        var taken: [VideoFrame] = []
        for offset in offsetsMs {
            guard let best = candidates.indices.min(by: {
                abs(candidates[$0].timestampMs - start - offset) < abs(candidates[$1].timestampMs - start - offset)
            }) else { break }
            taken.append(candidates[best])
            candidates.removeFirst(best + 1)   // later stills come after this one
        }
        return taken
    }

    private func offer(_ frame: VideoFrame, analysis: FrameAnalysis?) throws {
        guard let collector else { return }
        lastCollectedIndex = frame.index
        let box = analysis?.faces.first.map { PixelRect(x: $0.box.x, y: $0.box.y, width: $0.box.w, height: $0.box.h) }
        do { try collector.offer(frame, faceBox: box); stills.append(frame) } catch {
            throw Self.outputError(error, path: folder?.path ?? ".")
        }
    }

    /// The machine's `stopRecording`: the video is finalized (renamed into place).
    func finish() throws {
        guard let w = writer else { return }
        do {
            summary = try w.finalize()
            writer = nil
        } catch {
            throw Self.outputError(error, path: w.path)
        }
    }

    /// Removes the partial video and any frames collected during the attempt.
    func discard() {
        writer?.abort()
        writer = nil
        if let collector, let folder {
            for c in collector.collected { unlink(folder.file(c.relativePath)) }
            rmdir(folder.file("frames"))
        }
        collector = nil
        stills = []
        recorded = []
        reference = nil
        unanalysedFrames = [:]
        if let folder { unlink(folder.file(ReferenceImage.fileName)) }
        pendingCollects = 0
        lastCollectedIndex = nil
    }

    /// Try again: removes what the failed attempt left (partial video, collected frames,
    /// per-frame data); a default folder left empty goes, so the next attempt's folder is named
    /// when it records.
    func discardAttempt() {
        discard()
        if setup.output.requested == nil, let f = folder, folderCreated,
           (try? FileManager.default.contentsOfDirectory(atPath: f.path))?.isEmpty == true {
            rmdir(f.path)
            folder = nil
        }
        registerUnfinishedOutput()
    }

    /// Gives a recorded frame its analysis. In realtime the analysis of a frame arrives after
    /// the frame was written (the analyser runs on its own thread), so it is matched by index.
    func attach(_ a: FrameAnalysis) {
        guard let i = recorded.lastIndex(where: { $0.index == a.frameIndex }), recorded[i].analysis == nil else { return }
        recorded[i].analysis = a
        if let f = unanalysedFrames.removeValue(forKey: a.frameIndex) { considerReference(a, f) }
        // The analyser works on the newest frame: older ones still waiting will not come.
        unanalysedFrames = unanalysedFrames.filter { $0.key > a.frameIndex }
    }

    /// Keeps `frame` as the reference when it ranks above the current one.
    private func considerReference(_ a: FrameAnalysis, _ frame: VideoFrame) {
        guard let v = a.quality, let c = ReferenceCandidate(frameIndex: frame.index, timestampMs: frame.timestampMs, vector: v) else { return }
        if reference.map({ c.isBetter(than: $0.candidate) }) ?? true { reference = (c, frame) }
    }

    /// The result screen's thumbnail: the reference frame (`reference.jpg`, issue #11), else
    /// the middle collected still, else `fallback` (the last frame read).
    func thumbnailFrame(fallback: VideoFrame?) -> VideoFrame? {
        reference?.frame ?? (stills.isEmpty ? fallback : stills[stills.count / 2])
    }

    /// Every file the finished folder holds, for the result screen: the video, reference.jpg
    /// (#11), the stills' folder, result.json, manifest.json and, with `--sign-key`, its
    /// signature manifest.json.sig (a failed signature ends the run before this screen). Nil
    /// before a video is finished.
    var savedPaths: [String]? {
        guard let s = summary, let folder else { return nil }
        var paths = [s.path]
        if reference != nil { paths.append(folder.file(ReferenceImage.fileName)) }
        if let c = collector, !c.collected.isEmpty { paths.append(folder.file("frames")) }
        paths.append(folder.file(Manifest.resultFileName))
        paths.append(folder.file(Manifest.fileName))
        if setup.output.signKey != nil { paths.append(folder.file(ManifestSigner.signatureFileName)) }
        return paths
    }

    // MARK: --keep-failed's frames (issue #25)

    /// A judged frame of the running attempt (capture screen only), frame `index` looked up
    /// among the `recent` frames read: kept with the frame's own hint, "ok" for a valid frame.
    func noteForKeepFailed(_ g: GuidanceResult, index: Int, among recent: [VideoFrame], tMs: Int) {
        guard setup.output.keepFailed, let frame = recent.last(where: { $0.index == index }) else { return }
        failureFrames.note(frame, hint: g.isValid ? "ok" : g.frameHint.rawValue, frameIndex: frame.index, tMs: tMs)
    }

    /// An attempt starts (forget the last one's frames) or fails (keep them).
    func noteAttemptEvent(_ event: FlowEvent) {
        guard setup.output.keepFailed else { return }
        switch event.name {
        case .videoCaptureStarted:
            failureFrames.reset()
        case .faceCaptureFailed:
            var reason = "unknown", attempt = 0
            if case .string(let r)? = event["reason"] { reason = r }
            if case .int(let a)? = event["attempt"] { attempt = a }   // the machine may already be on the next one
            failedAttempts.append(FailedAttempt(attempt: attempt, reason: reason, tMs: event.tMs, frames: failureFrames.kept))
            failureFrames.reset()
        default:
            break
        }
    }

    // MARK: the documents

    /// The manifest's record of the source when the source gave none: the setup's kind and
    /// spec, with the size and rate given.
    func fallbackRecord(width: Int, height: Int, fps: Double) -> SourceRecord {
        SourceRecord(kind: FrameSources.recordKind(setup.source.kind, spec: setup.source.spec), spec: setup.source.recordedSpec,
                     width: width, height: height, fps: fps)
    }

    /// After `stopRecording`: writes reference.jpg, the kept failed attempts' frames, then
    /// result.json, manifest.json and its signature (`EvidenceWriter`), and unregisters the
    /// signal cleanup (the output is published).
    /// - Returns: the documents' paths; nil when there is no finished video.
    /// - Throws: `AppError` naming the file that could not be written.
    func writeResult(_ facts: ResultFacts) throws -> Saved? {
        guard let folder, let s = summary else { return nil }
        var referencePath: String?
        if let r = reference {
            do { referencePath = try ReferenceImage.write(r.frame, in: folder) } catch {
                throw Self.outputError(error, path: folder.file(ReferenceImage.fileName))
            }
        }
        var document = ResultWriter.document(summary: s, folder: folder, collected: collector?.collected ?? [],
                                     recorded: recorded, attempt: facts.attempt, plan: facts.plan, setup: setup,
                                     sourceFrames: facts.sourceFrames, sourceRecord: facts.source,
                                     reference: referencePath.flatMap { p in reference.map { ($0.candidate, p) } },
                                     previewLatency: facts.previewLatency, shortfalls: facts.shortfalls)
        let failed: [JSONValue]
        do { failed = try writeFailedAttempts(in: folder) } catch {
            throw Self.outputError(error, path: folder.file(Self.failedFolder))
        }
        // Only when there is something to say: no `failedAttempts` without kept frames, no `challenge` without one.
        if !failed.isEmpty { document.set("failedAttempts", .array(failed)) }
        if facts.challenge != .null { document.set("challenge", facts.challenge) }
        let full = ResultWriter.text(document)
        let record = facts.source ?? fallbackRecord(width: s.width, height: s.height, fps: s.fps)
        let published = try EvidenceWriter(folder: folder, settings: ResultWriter.settings(setup), signKey: setup.output.signKey)
            .publish(result: Array(full.utf8), source: record, startedAt: startedAt, endedAt: setup.output.wallClock())
        UnfinishedOutput.clear()   // published: a signal no longer removes it
        return Saved(folder: folder, published: published)
    }

    /// At the end of the run: a run that did not finish a video removes its partial output
    /// (`--keep-failed` first keeps its failed attempts' frames when the run `failed`), and a
    /// folder this run created and left empty goes when the run did not succeed.
    func cleanUp(succeeded: Bool, keepFailed: KeptFailure?) {
        if !succeeded || summary == nil {
            discard()
            if let k = keepFailed { keepAfterFailedRun(k) }
        }
        if let folder, folderCreated, !succeeded,
           let entries = try? FileManager.default.contentsOfDirectory(atPath: folder.path), entries.isEmpty {
            rmdir(folder.path)
        }
        UnfinishedOutput.clear()
    }
}

/// A failed attempt's explaining frames (`--keep-failed`, issue #25).
struct FailedAttempt {
    var attempt: Int
    /// `faceCaptureFailed`'s `reason` (`timeout`, `faceLost`, `sourceEnded`, `camera: …`).
    var reason: String
    var tMs: Int
    var frames: [FailureFrames<VideoFrame>.Kept]
}
