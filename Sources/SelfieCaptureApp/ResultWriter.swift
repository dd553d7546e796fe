import Camera
import CaptureFlow
import Camera
import CaptureModel
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
/// "qualityShortfalls": [{"hint", "measure", "value", "limit", "shownMs", "frames", "recordedFrames",
/// "accepted"}] (issue #24: every shortfall of the recording attempt; `accepted` when the patience
/// window ran out and the flow went on with it; also in `metadata`),
/// "collectedFrames": [{"path", "frameIndex", "timestampMs", "bytes", "crop"?, "score"?}],
/// "frames": [{"frameIndex", "timestampMs", "face"?: {"x","y","w","h","score","yaw","pitch","roll"},
/// "brightness", "sharpness", "eyesOpen", "quality"?: {"score", "vector"}}],
/// "referenceFrame": {"path", "frameIndex", "timestampMs", "score", "meetsThresholds",
/// "thresholds", "shortfalls", "vector"} | null, "settings": {...}, "source": {"spec", "kind":
/// camera|file|pipe|demo (manifest.json's), "format": camera|avi|mjpegStream|y4m|demo,
/// "measuredFps"?}, "sourceFrames":
/// {"read", "delivered", "analysed", "warned", "huffmanInserted", "skipped", "skippedByReason":
/// {reason: count}}, "previewLatency": {"p50Ms", "p95Ms", "maxMs", "samples", "from"} | null
/// (`PreviewLatency`: camera-to-screen, realtime only)}`; boxes in raw
/// (unmirrored) source pixels, angles in degrees, durations in milliseconds. `attempt` is the
/// attempt that recorded (from 1) and `attempts` how many the run made: the same number, since
/// a recording ends the run (every earlier attempt failed and left nothing behind). `manifest`
/// is the path of the folder's `manifest.json`, written after this file and holding its SHA-256.
enum ResultWriter {
    static func json(summary s: VideoSummary, folder: OutputFolder, collected: [FrameCollector.Collected],
                     recorded: [CaptureRuntime.RecordedFrame], attempt: Int, plan: CollectionPlan?, setup: CaptureSetup,
                     sourceFrames: [String: Any] = [:], sourceRecord: SourceRecord? = nil,
                     reference: (candidate: ReferenceCandidate, path: String)? = nil,
                     previewLatency: [String: Any]? = nil, shortfalls: [AcceptedShortfall] = []) -> String {
        var root: [String: Any] = [
            "videoFilePath": s.path,
            "manifest": folder.file(Manifest.fileName),
            "durationMs": s.durationMs,
            "frameCount": s.frameCount,
            "fps": s.fps,
            "width": s.width,
            "height": s.height,
            "video": ["path": s.path, "container": s.format.container, "codec": s.format.codec, "bytes": s.bytes],
            "attempt": attempt,
            "attempts": attempt,
        ]
        root["collectedFrames"] = collected.map { c -> [String: Any] in
            var d: [String: Any] = ["path": folder.file(c.relativePath), "frameIndex": c.frameIndex,
                                    "timestampMs": c.timestampMs, "bytes": c.bytes]
            if let r = c.crop { d["crop"] = ["x": r.x, "y": r.y, "w": r.width, "h": r.height] }
            // The still's quality score (`QualityVector.referenceScore`), when its frame was analysed.
            if let score = recorded.last(where: { $0.index == c.frameIndex })?.analysis?.quality?.referenceScore { d["score"] = score }
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
                if let q = a.quality { d["quality"] = ["score": q.referenceScore ?? NSNull(), "vector": vectorJSON(q)] as [String: Any] }
            }
            return d
        }
        // Issue #24: what the flow accepted after the patience window (empty: nothing).
        root["qualityShortfalls"] = shortfalls.map(shortfallJSON)
        root["referenceFrame"] = reference.map { referenceJSON($0.candidate, path: $0.path) } ?? NSNull()
        root["settings"] = settings(setup)
        // What the source read over the run (JPG-03..06: nothing dropped silently).
        root["sourceFrames"] = sourceFrames
        root["previewLatency"] = previewLatency ?? NSNull()
        // `kind` is the manifest's (camera|file|pipe|demo: one vocabulary, issue #29); `format`
        // says how the source is read (camera, avi, mjpegStream, y4m, demo).
        let kind = FrameSources.recordKind(setup.source.kind, spec: setup.source.spec).rawValue
        var source: [String: Any] = ["spec": setup.source.recordedSpec, "kind": kind, "format": setup.source.kind.rawValue]
        // A camera's frame rate as measured from its buffer timestamps (V4L-12: the rate it
        // really delivered, which USB bandwidth or low light can hold below the asked one).
        if let fps = sourceRecord?.camera?.measuredFps { source["measuredFps"] = fps }
        // Issue #25: the camera's identity and what it shows of an injection, as in the manifest.
        let injection = sourceRecord?.injection
            ?? InjectionSignals.judge(kind: FrameSources.recordKind(setup.source.kind, spec: setup.source.spec))
        let injectionJSON: [String: Any] = ["level": injection.level.rawValue, "reasons": injection.reasons]
        source["injection"] = injectionJSON
        var identity: [String: Any] = [:]
        if let c = sourceRecord?.camera {
            identity = ["driver": c.driver, "card": c.card, "busInfo": c.busInfo, "kernel": c.kernel ?? NSNull()]
            if let u = c.usb {
                identity["usb"] = ["vendorId": u.vendorId, "productId": u.productId, "serial": u.serial ?? NSNull()] as [String: Any]
            }
            source["camera"] = identity
        }
        root["source"] = source
        // Which rule placed the stills, and how many were asked for and collected.
        root["collection"] = ["rule": plan?.rule.rawValue ?? "mobai", "asked": setup.settings.options.numberOfFrameToCollect,
                              "collected": collected.count, "offsetsMs": plan?.offsetsMs ?? []] as [String: Any]
        // Unissey's `metadata`: the technical facts as one compact JSON string (its SessionResponse).
        let meta: [String: Any] = ["app": "selfie-capture", "version": Commands.version,
                                   "source": ["kind": kind, "format": setup.source.kind.rawValue, "spec": setup.source.recordedSpec,
                                              "injection": injectionJSON, "camera": identity.isEmpty ? NSNull() : identity] as [String: Any],
                                   "video": ["width": s.width, "height": s.height, "fps": s.fps, "frames": s.frameCount,
                                             "durationMs": s.durationMs, "container": s.format.container,
                                             "codec": s.format.codec],
                                   "attempt": attempt,
                                   "strictQuality": setup.settings.qualityPatienceMs == nil,
                                   "qualityShortfalls": shortfalls.map { ["measure": $0.measure, "value": $0.value,
                                                                          "limit": $0.limit, "shownMs": $0.shownMs,
                                                                          "recordedFrames": $0.recordedFrames,
                                                                          "accepted": $0.accepted] as [String: Any] }]
        if let m = try? JSONSerialization.data(withJSONObject: meta, options: [.sortedKeys]) {
            root["metadata"] = String(decoding: m, as: UTF8.self)
        }
        guard let data = try? JSONSerialization.data(withJSONObject: root, options: [.prettyPrinted, .sortedKeys]) else {
            return "{}\n"
        }
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// One shortfall of the attempt (issue #24): `{"hint", "measure", "value", "limit", "shownMs",
    /// "frames", "recordedFrames", "accepted"}`.
    static func shortfallJSON(_ s: AcceptedShortfall) -> [String: Any] {
        ["hint": s.hint.rawValue, "measure": s.measure, "value": s.value, "limit": s.limit, "shownMs": s.shownMs,
         "frames": s.frames, "recordedFrames": s.recordedFrames, "accepted": s.accepted]
    }

    /// A quality vector: `{MEASURE: {"raw", "score", "unit"}}` (`QualityMeasure` raw values;
    /// raw and score null when the measure could not be assessed).
    static func vectorJSON(_ q: QualityVector) -> [String: Any] {
        var d: [String: Any] = [:]
        for c in q.components {
            d[c.measure.rawValue] = ["raw": c.raw ?? NSNull(), "score": c.score ?? NSNull(), "unit": c.measure.unit] as [String: Any]
        }
        return d
    }

    /// result.json's `referenceFrame`: the frame `reference.jpg` holds, its score and vector, the
    /// ISO/IEC 19794-5 thresholds a reference needs (`ReferenceThresholds`), and the ones it
    /// missed (`shortfalls`: measure, value, limit, by how much; empty when it meets them all).
    /// Chosen among frames that meet them when any does (`ReferenceCandidate`).
    static func referenceJSON(_ c: ReferenceCandidate, path: String) -> [String: Any] {
        let t = ReferenceThresholds()
        return [
            "path": path, "frameIndex": c.frameIndex, "timestampMs": c.timestampMs, "score": c.score,
            "meetsThresholds": c.meetsThresholds,
            "thresholds": ["minInterEyeDistance": t.minInterEyeDistance, "maxYaw": t.maxYaw, "maxPitch": t.maxPitch,
                           "maxRoll": t.maxRoll],
            "shortfalls": c.shortfalls.map { f -> [String: Any] in
                ["measure": f.measure.rawValue, "value": f.value ?? NSNull(), "limit": f.limit, "by": f.by ?? NSNull(),
                 "unit": f.measure.unit]
            },
            "vector": vectorJSON(c.vector),
        ]
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
            "pace": setup.source.pace.rawValue,
            "locale": setup.strings.locale,
            "videoFormat": setup.output.videoFormat.rawValue,
            "maxAttempts": st.effectiveMaxAttempts,
            "timeoutSeconds": setup.timeoutMs.map { Double($0) / 1000 } ?? NSNull(),
            "strictQuality": st.qualityPatienceMs == nil,
            "qualityPatienceMs": st.qualityPatienceMs ?? NSNull(),
            // Issue #25: the challenge asked (nonce, order, timeouts, seed): inside the signed manifest.
            "challenge": st.challenge.map(challengeSettings) ?? NSNull(),
        ]
    }

    /// `settings.challenge`: `{"nonce", "seed" (null for a verifier's file), "source": "seed"|"file",
    /// "steps": [{"direction", "timeoutMs"}], "targets": {"yawDeg", "pitchDeg", "holdMs",
    /// "neutralDeg", "source"}}`.
    static func challengeSettings(_ p: ChallengePlan) -> [String: Any] {
        let t = ChallengeTargets.smileID
        return ["nonce": p.nonce, "seed": p.seed.map { String($0) } ?? NSNull(), "source": p.seed == nil ? "file" : "seed",
                "steps": p.steps.map { ["direction": $0.direction.rawValue, "timeoutMs": $0.timeoutMs] as [String: Any] },
                "targets": ["yawDeg": t.yawDeg, "pitchDeg": t.pitchDeg, "holdMs": t.holdMs, "neutralDeg": t.neutralDeg,
                            "source": "Smile ID Enhanced SmartSelfie (27° yaw, 17° pitch, held 150 ms); neutral: issue #5's 15° advice"] as [String: Any]]
    }

    /// result.json's `challenge`: the plan's settings and each step's record (`null` without one).
    static func challengeResult(_ judge: ChallengeJudge?) -> Any {
        guard let j = judge else { return NSNull() }
        var out = challengeSettings(j.plan)
        out["passed"] = j.passed
        out["stepResults"] = j.records.map { r -> [String: Any] in
            ["step": r.index, "direction": r.direction.rawValue, "startMs": r.startMs, "endMs": r.endMs ?? NSNull(),
             "startFrame": r.startFrame, "endFrame": r.endFrame ?? NSNull(), "reachedMs": r.reachedMs ?? NSNull(),
             "peakYaw": r.peakYaw.map { ($0 * 10).rounded() / 10 } ?? NSNull(),
             "peakPitch": r.peakPitch.map { ($0 * 10).rounded() / 10 } ?? NSNull(), "outcome": r.outcome ?? "running"]
        }
        return out
    }
}

/// `reference.jpg`: the recorded frame ranked best for face comparison (`ReferenceCandidate`),
/// decoded and re-encoded by libjpeg-turbo (`JPEGCodec`, quality 90, 4:2:0) so that the file
/// carries its own Huffman tables (a camera's MJPEG frames often omit them, and some viewers
/// then refuse the file).
enum ReferenceImage {
    static let fileName = "reference.jpg"
    static let quality = 90

    /// Writes `frame` as `reference.jpg` in `folder` (temporary name, fsync, rename, 0600).
    /// - Returns: the file's path.
    /// - Throws: `JPEGError` (decode/encode), `MediaError.cannotCreateOutput`/`.writeFailed`.
    static func write(_ frame: VideoFrame, in folder: OutputFolder) throws -> String {
        try folder.write(try JPEGCodec.encode(frame.rgb, quality: quality), to: fileName)
    }
}
