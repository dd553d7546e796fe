import Camera
import CaptureFlow
import CaptureModel
import Evidence
import Foundation
import JSON
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
    /// result.json's text: `document` pretty-printed with sorted keys (`JSONWriter`), ending in a newline.
    static func text(_ document: JSONValue) -> String { JSONWriter.text(document, layout: .pretty) + "\n" }

    /// result.json's text (`document`, written by `text`).
    static func json(summary s: VideoSummary, folder: OutputFolder, collected: [FrameCollector.Collected],
                     recorded: [CaptureRuntime.RecordedFrame], attempt: Int, plan: CollectionPlan?, setup: CaptureSetup,
                     sourceFrames: JSONValue = [:], sourceRecord: SourceRecord? = nil,
                     reference: (candidate: ReferenceCandidate, path: String)? = nil,
                     previewLatency: JSONValue? = nil, shortfalls: [AcceptedShortfall] = []) -> String {
        text(document(summary: s, folder: folder, collected: collected, recorded: recorded, attempt: attempt, plan: plan,
                      setup: setup, sourceFrames: sourceFrames, sourceRecord: sourceRecord, reference: reference,
                      previewLatency: previewLatency, shortfalls: shortfalls))
    }

    /// result.json's value (see the type's doc for its shape).
    static func document(summary s: VideoSummary, folder: OutputFolder, collected: [FrameCollector.Collected],
                         recorded: [CaptureRuntime.RecordedFrame], attempt: Int, plan: CollectionPlan?, setup: CaptureSetup,
                         sourceFrames: JSONValue = [:], sourceRecord: SourceRecord? = nil,
                         reference: (candidate: ReferenceCandidate, path: String)? = nil,
                         previewLatency: JSONValue? = nil, shortfalls: [AcceptedShortfall] = []) -> JSONValue {
        var root: JSONValue = [
            "videoFilePath": .string(s.path),
            "manifest": .string(folder.file(Manifest.fileName)),
            "durationMs": .int(s.durationMs),
            "frameCount": .int(s.frameCount),
            "fps": .double(s.fps),
            "width": .int(s.width),
            "height": .int(s.height),
            "video": ["path": .string(s.path), "container": s.format.container.jsonValue, "codec": s.format.codec.jsonValue,
                      "bytes": .int(s.bytes)],
            "attempt": .int(attempt),
            "attempts": .int(attempt),
        ]
        root.set("collectedFrames", .array(collected.map { c in
            var d: JSONValue = ["path": .string(folder.file(c.relativePath)), "frameIndex": c.frameIndex.jsonValue,
                                "timestampMs": c.timestampMs.jsonValue, "bytes": c.bytes.jsonValue]
            if let r = c.crop { d.set("crop", ["x": r.x.jsonValue, "y": r.y.jsonValue, "w": r.width.jsonValue, "h": r.height.jsonValue]) }
            // The still's quality score (`QualityVector.referenceScore`), when its frame was analysed.
            if let score = recorded.last(where: { $0.index == c.frameIndex })?.analysis?.quality?.referenceScore { d.set("score", score.jsonValue) }
            return d
        }))
        root.set("frames", .array(recorded.map { r in
            // `analysed` is false for a frame the realtime analyser skipped (it keeps only the
            // newest frame when it falls behind); its face fields are then absent.
            var d: JSONValue = ["frameIndex": .int(r.index), "timestampMs": .int(r.timestampMs), "analysed": .bool(r.analysis != nil)]
            if let a = r.analysis {
                d.set("faceCount", .int(a.faces.count))
                if let f = a.faces.first {
                    var face: JSONValue = ["x": f.box.x.jsonValue, "y": f.box.y.jsonValue, "w": f.box.w.jsonValue, "h": f.box.h.jsonValue,
                                           "score": f.score.jsonValue]
                    if let v = f.yaw { face.set("yaw", v.jsonValue) }
                    if let v = f.pitch { face.set("pitch", v.jsonValue) }
                    if let v = f.roll { face.set("roll", v.jsonValue) }
                    d.set("face", face)
                }
                d.set("brightness", a.brightness.jsonValue)
                d.set("sharpness", a.sharpness.jsonValue)
                if let e = a.eyesOpen { d.set("eyesOpen", .bool(e)) }
                if let q = a.quality { d.set("quality", ["score": q.referenceScore.jsonValue, "vector": vectorJSON(q)]) }
            }
            return d
        }))
        // Issue #24: what the flow accepted after the patience window (empty: nothing).
        root.set("qualityShortfalls", .array(shortfalls.map(shortfallJSON)))
        root.set("referenceFrame", reference.map { referenceJSON($0.candidate, path: $0.path) } ?? .null)
        root.set("settings", settings(setup))
        // What the source read over the run (JPG-03..06: nothing dropped silently).
        root.set("sourceFrames", sourceFrames)
        root.set("previewLatency", previewLatency ?? .null)
        // `kind` is the manifest's (camera|file|pipe|demo: one vocabulary, issue #29); `format`
        // says how the source is read (camera, avi, mjpegStream, y4m, demo).
        let kind = FrameSources.recordKind(setup.source.kind, spec: setup.source.spec).rawValue
        var source: JSONValue = ["spec": .string(setup.source.recordedSpec), "kind": .string(kind), "format": .string(setup.source.kind.rawValue)]
        // A camera's frame rate as measured from its buffer timestamps (V4L-12: the rate it
        // really delivered, which USB bandwidth or low light can hold below the asked one).
        if let fps = sourceRecord?.camera?.measuredFps { source.set("measuredFps", .double(fps)) }
        // Issue #25: the camera's identity and what it shows of an injection, as in the manifest.
        let injection = sourceRecord?.injection
            ?? InjectionSignals.judge(kind: FrameSources.recordKind(setup.source.kind, spec: setup.source.spec))
        let injectionJSON: JSONValue = ["level": .string(injection.level.rawValue), "reasons": .strings(injection.reasons)]
        source.set("injection", injectionJSON)
        var identity: JSONValue = .null
        if let c = sourceRecord?.camera {
            identity = ["driver": .string(c.driver), "card": .string(c.card), "busInfo": .string(c.busInfo), "kernel": .string(c.kernel)]
            if let u = c.usb {
                identity.set("usb", ["vendorId": .string(u.vendorId), "productId": .string(u.productId), "serial": .string(u.serial)])
            }
            source.set("camera", identity)
        }
        root.set("source", source)
        // Which rule placed the stills, and how many were asked for and collected.
        root.set("collection", ["rule": .string(plan?.rule.rawValue ?? "mobai"), "asked": setup.settings.options.numberOfFrameToCollect.jsonValue,
                                "collected": .int(collected.count), "offsetsMs": (plan?.offsetsMs ?? []).jsonValue])
        // Unissey's `metadata`: the technical facts as one compact JSON string (its SessionResponse).
        let meta: JSONValue = ["app": "selfie-capture", "version": .string(Commands.version),
                               "source": ["kind": .string(kind), "format": .string(setup.source.kind.rawValue), "spec": .string(setup.source.recordedSpec),
                                          "injection": injectionJSON, "camera": identity],
                               "video": ["width": .int(s.width), "height": .int(s.height), "fps": .double(s.fps), "frames": .int(s.frameCount),
                                         "durationMs": .int(s.durationMs), "container": s.format.container.jsonValue,
                                         "codec": s.format.codec.jsonValue],
                               "attempt": .int(attempt),
                               "strictQuality": .bool(setup.settings.qualityPatienceMs == nil),
                               "qualityShortfalls": .array(shortfalls.map { ["measure": $0.measure.jsonValue, "value": $0.value.jsonValue,
                                                                             "limit": $0.limit.jsonValue, "shownMs": $0.shownMs.jsonValue,
                                                                             "recordedFrames": $0.recordedFrames.jsonValue,
                                                                             "accepted": $0.accepted.jsonValue] })]
        root.set("metadata", .string(JSONWriter.text(meta)))
        return root
    }

    /// One shortfall of the attempt (issue #24): `{"hint", "measure", "value", "limit", "shownMs",
    /// "frames", "recordedFrames", "accepted"}`.
    static func shortfallJSON(_ s: AcceptedShortfall) -> JSONValue {
        ["hint": .string(s.hint.rawValue), "measure": s.measure.jsonValue, "value": s.value.jsonValue, "limit": s.limit.jsonValue,
         "shownMs": s.shownMs.jsonValue, "frames": s.frames.jsonValue, "recordedFrames": s.recordedFrames.jsonValue,
         "accepted": s.accepted.jsonValue]
    }

    /// A quality vector: `{MEASURE: {"raw", "score", "unit"}}` (`QualityMeasure` raw values;
    /// raw and score null when the measure could not be assessed).
    static func vectorJSON(_ q: QualityVector) -> JSONValue {
        .object(q.components.map { c in
            JSONMember(c.measure.rawValue, ["raw": c.raw.jsonValue, "score": c.score.jsonValue, "unit": c.measure.unit.jsonValue])
        })
    }

    /// result.json's `referenceFrame`: the frame `reference.jpg` holds, its score and vector, the
    /// ISO/IEC 19794-5 thresholds a reference needs (`ReferenceThresholds`), and the ones it
    /// missed (`shortfalls`: measure, value, limit, by how much; empty when it meets them all).
    /// Chosen among frames that meet them when any does (`ReferenceCandidate`).
    static func referenceJSON(_ c: ReferenceCandidate, path: String) -> JSONValue {
        let t = ReferenceThresholds()
        return [
            "path": .string(path), "frameIndex": c.frameIndex.jsonValue, "timestampMs": c.timestampMs.jsonValue, "score": c.score.jsonValue,
            "meetsThresholds": c.meetsThresholds.jsonValue,
            "thresholds": ["minInterEyeDistance": t.minInterEyeDistance.jsonValue, "maxYaw": t.maxYaw.jsonValue,
                           "maxPitch": t.maxPitch.jsonValue, "maxRoll": t.maxRoll.jsonValue],
            "shortfalls": .array(c.shortfalls.map { f in
                ["measure": .string(f.measure.rawValue), "value": f.value.jsonValue, "limit": f.limit.jsonValue, "by": f.by.jsonValue,
                 "unit": f.measure.unit.jsonValue]
            }),
            "vector": vectorJSON(c.vector),
        ]
    }

    /// The capture settings as written in result.json's `settings` and manifest.json's
    /// `settings` (one source for both): the session and Mobai options in their SDK names, plus
    /// mirror, pace, locale, `videoFormat`, `maxAttempts` and `timeoutSeconds` (null without `--timeout`).
    static func settings(_ setup: CaptureSetup) -> JSONValue {
        let st = setup.settings
        return [
            "preset": .string(st.session.preset.rawValue),
            "recordingDurationMs": st.session.effectiveRecordingDurationMs.jsonValue,
            "qualities": .strings(st.session.effectiveQualities.map(\.rawValue)),
            "showInstructions": .bool(st.session.uiConfig.showInstructions),
            "showVideoCaptureButton": .bool(st.session.uiConfig.showVideoCaptureButton),
            "numberOfFramesBeforeCapture": st.options.numberOfFramesBeforeCapture.jsonValue,
            "numberOfFrameToCollect": st.options.numberOfFrameToCollect.jsonValue,
            "frameInterval": st.options.frameInterval.jsonValue,
            "timeBeforeAutomaticCapture": st.options.timeBeforeAutomaticCapture.jsonValue,
            "targetResolution": .string(st.options.targetResolution.rawValue),
            "captureConstraints": .string(st.options.captureConstraints.rawValue),
            "previewScaleType": .string(st.options.previewScaleType.rawValue),
            "payloadOptimization": .bool(st.options.payloadOptimization),
            "mirror": .bool(setup.guidance.mirror),
            "pace": .string(setup.source.pace.rawValue),
            "locale": .string(setup.strings.locale),
            "videoFormat": .string(setup.output.videoFormat.rawValue),
            "maxAttempts": st.effectiveMaxAttempts.jsonValue,
            "timeoutSeconds": .double(setup.timeoutMs.map { Double($0) / 1000 }),
            "strictQuality": .bool(st.qualityPatienceMs == nil),
            "qualityPatienceMs": st.qualityPatienceMs.jsonValue,
            // Issue #25: the challenge asked (nonce, order, timeouts, seed): inside the signed manifest.
            "challenge": st.challenge.map(challengeSettings) ?? .null,
        ]
    }

    /// `settings.challenge`: `{"nonce", "seed" (null for a verifier's file), "source": "seed"|"file",
    /// "steps": [{"direction", "timeoutMs"}], "targets": {"yawDeg", "pitchDeg", "holdMs",
    /// "neutralDeg", "source"}}`.
    static func challengeSettings(_ p: ChallengePlan) -> JSONValue {
        let t = ChallengeTargets.smileID
        return ["nonce": p.nonce.jsonValue, "seed": .string(p.seed.map { String($0) }), "source": .string(p.seed == nil ? "file" : "seed"),
                "steps": .array(p.steps.map { ["direction": .string($0.direction.rawValue), "timeoutMs": $0.timeoutMs.jsonValue] }),
                "targets": ["yawDeg": t.yawDeg.jsonValue, "pitchDeg": t.pitchDeg.jsonValue, "holdMs": t.holdMs.jsonValue,
                            "neutralDeg": t.neutralDeg.jsonValue,
                            "source": "Smile ID Enhanced SmartSelfie (27° yaw, 17° pitch, held 150 ms); neutral: issue #5's 15° advice"]]
    }

    /// result.json's `challenge`: the plan's settings and each step's record (`null` without one).
    static func challengeResult(_ judge: ChallengeJudge?) -> JSONValue {
        guard let j = judge else { return .null }
        var out = challengeSettings(j.plan)
        out.set("passed", j.passed.jsonValue)
        out.set("stepResults", .array(j.records.map { r in
            ["step": r.index.jsonValue, "direction": .string(r.direction.rawValue), "startMs": r.startMs.jsonValue, "endMs": r.endMs.jsonValue,
             "startFrame": r.startFrame.jsonValue, "endFrame": r.endFrame.jsonValue, "reachedMs": r.reachedMs.jsonValue,
             "peakYaw": r.peakYaw.map { ($0 * 10).rounded() / 10 }.jsonValue,
             "peakPitch": r.peakPitch.map { ($0 * 10).rounded() / 10 }.jsonValue, "outcome": .string(r.outcome ?? "running")]
        }))
        return out
    }
}

/// `reference.jpg`: the recorded frame ranked best for face comparison (`ReferenceCandidate`),
/// decoded and re-encoded by libjpeg-turbo (`JPEGCodec`, quality 90, 4:2:0) so that the file
/// carries its own Huffman tables (a camera's MJPEG frames often omit them, and some viewers
/// then refuse the file). A 4:2:0 MJPEG frame is re-encoded from its own YCbCr planes
/// (`JPEGCodec.recompress420`: 3.1 MB at 1080p instead of a 6.2 MB RGB picture that the kept
/// frame would also cache, issue #28); other frames from their RGB.
enum ReferenceImage {
    static let fileName = "reference.jpg"
    static let quality = 90

    /// Writes `frame` as `reference.jpg` in `folder` (temporary name, fsync, rename, 0600).
    /// - Returns: the file's path.
    /// - Throws: `JPEGError` (decode/encode), `MediaError.cannotCreateOutput`/`.writeFailed`.
    static func write(_ frame: VideoFrame, in folder: OutputFolder) throws -> String {
        if let jpeg = frame.jpeg, let bytes = try JPEGCodec.recompress420(jpeg, quality: quality) {
            return try folder.write(bytes, to: fileName)
        }
        return try folder.write(try JPEGCodec.encode(frame.rgb, quality: quality), to: fileName)
    }
}
