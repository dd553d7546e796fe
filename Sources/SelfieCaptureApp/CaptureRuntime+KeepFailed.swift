import Camera
import CaptureFlow
import Evidence
import Foundation
import Media
import Synchronization
import TerminalUI

#if canImport(Glibc)
import Glibc
#endif

/// A failed attempt's explaining frames (`--keep-failed`, issue #25).
struct FailedAttempt {
    var attempt: Int
    /// `faceCaptureFailed`'s `reason` (`timeout`, `faceLost`, `sourceEnded`, `camera: …`).
    var reason: String
    var tMs: Int
    var frames: [FailureFrames<VideoFrame>.Kept]
}

/// `--keep-failed`: up to 4 frames of each failed attempt (`FailureFrames`: the newest frame of
/// each of the last 4 hints shown), each with its hint, written as
/// `failed/attempt-N-K-HINT.jpg` and listed in result.json's `failedAttempts` (`[{"attempt",
/// "reason", "tMs", "frames": [{"path", "hint", "frameIndex", "tMs"}]}]`) and, as every file of
/// the folder, in manifest.json. When a later attempt records, they go into its folder; when the
/// run ends failed (not cancelled), the folder holds only them, result.json (`"status":
/// "failed"`) and manifest.json. Without the option nothing of a failed attempt is kept.
extension CaptureRuntime {
    static let failedFolder = "failed"

    /// A judged frame of the running attempt (capture screen only).
    func noteForKeepFailed(_ a: FrameAnalysis, _ g: GuidanceResult) {
        guard setup.keepFailed, machine.screen == .capture,
              let frame = recentFrames.last(where: { $0.index == a.frameIndex }) else { return }
        failureFrames.note(frame, hint: g.isValid ? "ok" : g.frameHint.rawValue, frameIndex: frame.index, tMs: clock.nowMs())
    }

    /// An attempt starts (forget the last one's frames) or fails (keep them).
    func noteAttemptEvent(_ event: FlowEvent) {
        guard setup.keepFailed else { return }
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

    /// Writes the kept frames into `folder/failed/`.
    /// - Returns: result.json's `failedAttempts` (empty without `--keep-failed`).
    /// - Throws: `MediaError` when a file cannot be written.
    func writeFailedAttempts(in folder: OutputFolder) throws -> [[String: Any]] {
        guard setup.keepFailed, !failedAttempts.isEmpty else { return [] }
        var out: [[String: Any]] = []
        var madeFolder = false
        for a in failedAttempts {
            var frames: [[String: Any]] = []
            for (k, f) in a.frames.enumerated() {
                if !madeFolder { _ = try folder.subfolder(Self.failedFolder); madeFolder = true }
                let name = "\(Self.failedFolder)/attempt-\(a.attempt)-\(k + 1)-\(f.hint).jpg"
                let (bytes, _) = try FrameCollector.encode(f.frame, faceBox: nil, optimize: false)
                _ = try folder.write(bytes, to: name)
                frames.append(["path": name, "hint": f.hint, "frameIndex": f.frameIndex, "tMs": f.tMs])
            }
            out.append(["attempt": a.attempt, "reason": a.reason, "tMs": a.tMs, "frames": frames])
        }
        return out
    }

    /// result.json's text with `failedAttempts` added (same formatting as `ResultWriter.json`).
    static func adding(failedAttempts: [[String: Any]], to json: String) -> String {
        guard !failedAttempts.isEmpty,
              var root = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any] else { return json }
        root["failedAttempts"] = failedAttempts
        guard let data = try? JSONSerialization.data(withJSONObject: root, options: [.prettyPrinted, .sortedKeys]) else { return json }
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// result.json's text with `challenge` added (issue #25; nothing without a challenge).
    static func adding(challenge: Any, to json: String) -> String {
        guard !(challenge is NSNull),
              var root = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any] else { return json }
        root["challenge"] = challenge
        guard let data = try? JSONSerialization.data(withJSONObject: root, options: [.prettyPrinted, .sortedKeys]) else { return json }
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// The run ended failed (not cancelled, not killed): keep the failed attempts' frames with a
    /// result.json saying so and the manifest (signed with `--sign-key`), so the failure can be
    /// explained later. Best effort: a write error leaves nothing half-made (the files written
    /// are removed) and does not change the exit code.
    func keepFailedAfterFailedRun() {
        guard setup.keepFailed, summary == nil, !failedAttempts.isEmpty, !failedAttempts.allSatisfy({ $0.frames.isEmpty }),
              exitCode != .cancelled, SignalGuard.requested.load(ordering: .relaxed) == 0 else { return }
        var written: [String] = []
        do {
            if folder == nil {
                folder = try OutputFolder.prepare(requested: nil, parent: setup.outputParent, date: setup.wallClock())
                folderCreated = true
            }
            guard let folder else { return }
            let failed = try writeFailedAttempts(in: folder)
            written = failed.flatMap { ($0["frames"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String } }
                .map { folder.file($0) }
            let record = reader?.record ?? sourceRecord
                ?? SourceRecord(kind: FrameSources.recordKind(setup.sourceKind, spec: setup.sourceSpec), spec: setup.recordedSourceSpec,
                                width: lastFrame?.width ?? 0, height: lastFrame?.height ?? 0, fps: sourceInfo?.fps ?? 0)
            let injection = record.injection ?? InjectionSignals.judge(kind: record.kind)
            let root: [String: Any] = [
                "status": "failed", "attempts": machine.attempt, "failedAttempts": failed,
                "settings": ResultWriter.settings(setup),
                // The manifest's kind (camera|file|pipe|demo) and how it was read, as a recorded result.json says.
                "source": ["kind": record.kind.rawValue, "format": setup.sourceKind.rawValue, "spec": setup.recordedSourceSpec,
                           "injection": ["level": injection.level.rawValue, "reasons": injection.reasons] as [String: Any]] as [String: Any],
            ]
            let data = try JSONSerialization.data(withJSONObject: root, options: [.prettyPrinted, .sortedKeys])
            let resultPath = try folder.write(Array(data) + [0x0A], to: Manifest.resultFileName)
            written.append(resultPath)
            let manifestPath = try EvidenceFolder.writeManifest(in: folder, settings: ResultWriter.settings(setup), source: record,
                                                                startedAt: startedAt, endedAt: setup.wallClock())
            written.append(manifestPath)
            if let key = setup.signKey {
                let sig = try ManifestSigner.sign(try Array(Data(contentsOf: URL(fileURLWithPath: manifestPath))), key: key)
                written.append(try folder.write(sig, to: ManifestSigner.signatureFileName))
            }
            setup.console.err("\(ErrorReport.program): --keep-failed: the failed attempts' frames are in \(folder.path)\n")
        } catch {
            for p in written { unlink(p) }
            if let folder { rmdir(folder.file(Self.failedFolder)) }
            setup.console.err("\(ErrorReport.program): --keep-failed: could not keep the failed attempts' frames: \(error)\n")
        }
    }
}
