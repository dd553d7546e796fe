import Camera
import CaptureFlow
import Evidence
import Foundation
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
    func writeFailedAttempts(in folder: OutputFolder) throws -> [[String: Any]] {
        guard setup.output.keepFailed, !failedAttempts.isEmpty else { return [] }
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

    /// result.json's text with the members of `extra` added (same formatting as
    /// `ResultWriter.json`); an empty list or NSNull adds nothing.
    static func adding(_ extra: [String: Any], to json: String) -> String {
        let members = extra.filter { !($0.value is NSNull) && ($0.value as? [Any])?.isEmpty != true }
        guard !members.isEmpty,
              var root = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any] else { return json }
        root.merge(members) { _, new in new }
        guard let data = try? JSONSerialization.data(withJSONObject: root, options: [.prettyPrinted, .sortedKeys]) else { return json }
        return String(decoding: data, as: UTF8.self) + "\n"
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
            written = failed.flatMap { ($0["frames"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String } }
                .map { folder.file($0) }
            let record = k.source
            let injection = record.injection ?? InjectionSignals.judge(kind: record.kind)
            let root: [String: Any] = [
                "status": "failed", "attempts": k.attempts, "failedAttempts": failed,
                "settings": ResultWriter.settings(setup),
                // The manifest's kind (camera|file|pipe|demo) and how it was read, as a recorded result.json says.
                "source": ["kind": record.kind.rawValue, "format": setup.source.kind.rawValue, "spec": setup.source.recordedSpec,
                           "injection": ["level": injection.level.rawValue, "reasons": injection.reasons] as [String: Any]] as [String: Any],
            ]
            let data = try JSONSerialization.data(withJSONObject: root, options: [.prettyPrinted, .sortedKeys])
            _ = try EvidenceWriter(folder: folder, settings: ResultWriter.settings(setup), signKey: setup.output.signKey)
                .publish(result: Array(data) + [0x0A], source: record, startedAt: startedAt, endedAt: setup.output.wallClock())
            k.console.err("\(ErrorReport.program): --keep-failed: the failed attempts' frames are in \(folder.path)\n")
        } catch {
            for p in written { unlink(p) }
            if let target { rmdir(target.file(Self.failedFolder)) }
            k.console.err("\(ErrorReport.program): --keep-failed: could not keep the failed attempts' frames: \(error)\n")
        }
    }
}
