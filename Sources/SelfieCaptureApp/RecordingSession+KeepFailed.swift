import Camera
import CaptureFlow
import Evidence
import Foundation
import JSON
import Media

#if canImport(Glibc)
import Glibc
#endif

/// `--keep-failed`: up to 4 frames of each failed attempt (`FailureFrames`: the newest frame of
/// each of the last 4 hints shown), each with its hint, written as
/// `failed/attempt-N-K-HINT.jpg` and listed in result.json's `failedAttempts` (`[{"attempt",
/// "reason", "tMs", "frames": [{"path", "hint", "frameIndex", "tMs"}]}]`) and, as every file of
/// the folder, in manifest.json. When a later attempt records, they go into its folder; when the
/// run ends failed (not cancelled), the folder holds only them, result.json (`"status":
/// "failed"`) and manifest.json. Without the option nothing of a failed attempt is kept.
extension RecordingSession {
    /// What a failed run's result.json needs from outside the recording.
    struct KeptFailure {
        /// Attempts the run made.
        var attempts: Int
        /// The source as the manifest describes it.
        var source: SourceRecord
        /// Where the one line saying what was kept (or why not) goes.
        var console: Console
    }

    /// Writes the kept frames into `folder/failed/`.
    /// - Returns: result.json's `failedAttempts` (empty without `--keep-failed`).
    /// - Throws: `MediaError` when a file cannot be written.
    func writeFailedAttempts(in folder: OutputFolder) throws -> [JSONValue] {
        guard setup.output.keepFailed, !failedAttempts.isEmpty else { return [] }
        var out: [JSONValue] = []
        var madeFolder = false
        for a in failedAttempts {
            var frames: [JSONValue] = []
            for (k, f) in a.frames.enumerated() {
                if !madeFolder { _ = try folder.subfolder(Self.failedFolder); madeFolder = true }
                let name = "\(Self.failedFolder)/attempt-\(a.attempt)-\(k + 1)-\(f.hint).jpg"
                let (bytes, _) = try FrameCollector.encode(f.frame, faceBox: nil, optimize: false)
                _ = try folder.write(bytes, to: name)
                frames.append(["path": .string(name), "hint": f.hint.jsonValue, "frameIndex": .int(f.frameIndex), "tMs": .int(f.tMs)])
            }
            out.append(["attempt": .int(a.attempt), "reason": a.reason.jsonValue, "tMs": .int(a.tMs), "frames": .array(frames)])
        }
        return out
    }

    /// The run ended failed (not cancelled, not killed): keep the failed attempts' frames with a
    /// result.json saying so and the manifest (signed with `--sign-key`), so the failure can be
    /// explained later. Best effort: a write error leaves nothing half-made (the files written
    /// are removed) and does not change the exit code.
    func keepAfterFailedRun(_ k: KeptFailure) {
        guard setup.output.keepFailed, summary == nil, !failedAttempts.isEmpty, !failedAttempts.allSatisfy({ $0.frames.isEmpty }) else { return }
        var written: [String] = []
        var target: OutputFolder?
        do {
            let folder = try ensureFolder()
            target = folder
            let failed = try writeFailedAttempts(in: folder)
            written = failed.flatMap { $0["frames"]?.elements ?? [] }.compactMap { $0["path"]?.stringValue }
                .map { folder.file($0) }
            let record = k.source
            let injection = record.injection ?? InjectionSignals.judge(kind: record.kind)
            let root: JSONValue = [
                "status": "failed", "attempts": .int(k.attempts), "failedAttempts": .array(failed),
                "settings": ResultWriter.settings(setup),
                // The manifest's kind (camera|file|pipe|demo) and how it was read, as a recorded result.json says.
                "source": ["kind": .string(record.kind.rawValue), "format": .string(setup.source.kind.rawValue), "spec": .string(setup.source.recordedSpec),
                           "injection": ["level": .string(injection.level.rawValue), "reasons": .strings(injection.reasons)]],
            ]
            _ = try EvidenceWriter(folder: folder, settings: ResultWriter.settings(setup), signKey: setup.output.signKey)
                .publish(result: Array(ResultWriter.text(root).utf8), source: record, startedAt: startedAt, endedAt: setup.output.wallClock())
            k.console.err("\(ErrorReport.program): --keep-failed: the failed attempts' frames are in \(folder.path)\n")
        } catch {
            for p in written { unlink(p) }
            if let target { rmdir(target.file(Self.failedFolder)) }
            k.console.err("\(ErrorReport.program): --keep-failed: could not keep the failed attempts' frames: \(error)\n")
        }
    }
}
