import CaptureFlow
import Evidence
import Foundation
import Media

/// `result.json`: what was recorded and with which settings.
///
/// Shape: `{"videoFilePath", "video": {"path", "container": "avi"|"mp4", "codec":
/// "mjpeg"|"h264", "bytes"}, "manifest", "durationMs", "frameCount", "fps", "width", "height",
/// "attempt", "attempts", "collection": {"rule": "mobai"|"even", "asked", "collected", "offsetsMs"},
/// "metadata" (a compact JSON string: app, version, source, video, attempt — Unissey's
/// SessionResponse `metadata`),
/// "collectedFrames": [{"path", "frameIndex", "timestampMs", "bytes", "crop"?}],
/// "frames": [{"frameIndex", "timestampMs", "face"?: {"x","y","w","h","score","yaw","pitch","roll"},
/// "brightness", "sharpness", "eyesOpen"}], "settings": {...}, "source": {...}, "sourceFrames":
/// {"read", "delivered", "analysed", "warned", "huffmanInserted", "skipped", "skippedByReason":
/// {reason: count}}}`; boxes in raw
/// (unmirrored) source pixels, angles in degrees, durations in milliseconds. `attempt` is the
/// attempt that recorded (from 1) and `attempts` how many the run made: the same number, since
/// a recording ends the run (every earlier attempt failed and left nothing behind). `manifest`
/// is the path of the folder's `manifest.json`, written after this file and holding its SHA-256.
enum ResultWriter {
    static func json(summary s: VideoSummary, folder: OutputFolder, collected: [FrameCollector.Collected],
                     recorded: [CaptureRuntime.RecordedFrame], attempt: Int, plan: CollectionPlan?, setup: CaptureSetup,
                     sourceFrames: [String: Any] = [:], sourceRecord: SourceRecord? = nil) -> String {
        var root: [String: Any] = [
            "videoFilePath": s.path,
            "manifest": folder.file(Manifest.fileName),
            "durationMs": s.durationMs,
            "frameCount": s.frameCount,
            "fps": s.fps,
            "width": s.width,
            "height": s.height,
            "videoBytes": s.bytes,
            "video": ["path": s.path, "container": s.format.container, "codec": s.format.codec, "bytes": s.bytes],
            "attempt": attempt,
            "attempts": attempt,
        ]
        root["collectedFrames"] = collected.map { c -> [String: Any] in
            var d: [String: Any] = ["path": folder.file(c.relativePath), "frameIndex": c.frameIndex,
                                    "timestampMs": c.timestampMs, "bytes": c.bytes]
            if let r = c.crop { d["crop"] = ["x": r.x, "y": r.y, "w": r.width, "h": r.height] }
            return d
        }
        root["frames"] = recorded.map { r -> [String: Any] in
            // `analysed` is false for a frame the realtime analyser skipped (it keeps only the
            // newest frame when it falls behind); its face fields are then absent.
            var d: [String: Any] = ["frameIndex": r.index, "timestampMs": r.timestampMs, "analysed": r.analysis != nil]
            if let a = r.analysis {
                d["faceCount"] = a.faces.count
                if let f = a.faces.first {
                    var face: [String: Any] = ["x": f.box.x, "y": f.box.y, "w": f.box.w, "h": f.box.h, "score": f.score]
                    if let v = f.yaw { face["yaw"] = v }
                    if let v = f.pitch { face["pitch"] = v }
                    if let v = f.roll { face["roll"] = v }
                    d["face"] = face
                }
                d["brightness"] = a.brightness
                d["sharpness"] = a.sharpness
                if let e = a.eyesOpen { d["eyesOpen"] = e }
            }
            return d
        }
        root["settings"] = settings(setup)
        // What the source read over the run (JPG-03..06: nothing dropped silently).
        root["sourceFrames"] = sourceFrames
        var source: [String: Any] = ["spec": setup.recordedSourceSpec, "kind": setup.sourceKind.rawValue]
        // A camera's frame rate as measured from its buffer timestamps (V4L-12: the rate it
        // really delivered, which USB bandwidth or low light can hold below the asked one).
        if let fps = sourceRecord?.camera?.measuredFps { source["measuredFps"] = fps }
        root["source"] = source
        // Which rule placed the stills, and how many were asked for and collected.
        root["collection"] = ["rule": plan?.rule.rawValue ?? "mobai", "asked": setup.settings.options.numberOfFrameToCollect,
                              "collected": collected.count, "offsetsMs": plan?.offsetsMs ?? []] as [String: Any]
        // Unissey's `metadata`: the technical facts as one compact JSON string (its SessionResponse).
        let meta: [String: Any] = ["app": "selfie-capture", "version": Commands.version,
                                   "source": ["kind": setup.sourceKind.rawValue, "spec": setup.recordedSourceSpec],
                                   "video": ["width": s.width, "height": s.height, "fps": s.fps, "frames": s.frameCount,
                                             "durationMs": s.durationMs, "container": s.format.container,
                                             "codec": s.format.codec],
                                   "attempt": attempt]
        if let m = try? JSONSerialization.data(withJSONObject: meta, options: [.sortedKeys]) {
            root["metadata"] = String(decoding: m, as: UTF8.self)
        }
        guard let data = try? JSONSerialization.data(withJSONObject: root, options: [.prettyPrinted, .sortedKeys]) else {
            return "{}\n"
        }
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// The capture settings as written in result.json's `settings` and manifest.json's
    /// `settings` (one source for both): the session and Mobai options in their SDK names, plus
    /// mirror, pace, locale, `videoFormat`, `maxAttempts` and `timeoutSeconds` (null without `--timeout`).
    static func settings(_ setup: CaptureSetup) -> [String: Any] {
        let st = setup.settings
        return [
            "preset": st.session.preset.rawValue,
            "recordingDurationMs": st.session.effectiveRecordingDurationMs,
            "qualities": st.session.effectiveQualities.map(\.rawValue),
            "showInstructions": st.session.uiConfig.showInstructions,
            "showVideoCaptureButton": st.session.uiConfig.showVideoCaptureButton,
            "numberOfFramesBeforeCapture": st.options.numberOfFramesBeforeCapture,
            "numberOfFrameToCollect": st.options.numberOfFrameToCollect,
            "frameInterval": st.options.frameInterval,
            "timeBeforeAutomaticCapture": st.options.timeBeforeAutomaticCapture,
            "targetResolution": st.options.targetResolution.rawValue,
            "captureConstraints": st.options.captureConstraints.rawValue,
            "previewScaleType": st.options.previewScaleType.rawValue,
            "payloadOptimization": st.options.payloadOptimization,
            "mirror": setup.guidance.mirror,
            "pace": setup.pace.rawValue,
            "locale": setup.strings.locale,
            "videoFormat": setup.videoFormat.rawValue,
            "maxAttempts": st.effectiveMaxAttempts,
            "timeoutSeconds": setup.timeoutMs.map { Double($0) / 1000 } ?? NSNull(),
        ]
    }
}
