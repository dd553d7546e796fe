// The events the flow reports (DESIGN.md "Events"; names from the Unissey `UnisseyEvent` list and
// the Mobai delegate callbacks). The state machine returns them in `Transition.events`; the app writes
// them as JSON Lines (`--events`).

import JSON

/// The name of a reported event, exactly as written in the event log.
public enum EventName: String, Sendable, CaseIterable, Codable {
    case instructionsShown, cameraPermissionShown, cameraPermissionRequested, cameraPermissionAccepted
    case cameraPermissionDenied, cameraPreviewShown, cameraReady, videoCaptureStarted
    case videoRecordStarted, videoRecordProgress, videoRecordEnded
    case faceValidating, faceBoundingBoxValidating, faceCaptureCountDown, faceCaptureStarted
    case faceCaptureProgress, faceCaptureSuccess, faceCaptureFailed
    /// The active challenge (issue #25): a step began, a step was met, the challenge failed.
    case challengeStepStarted, challengeStepPassed, challengeFailed
    /// A countdown or recording went back to positioning (`reason`, `phase`, `attempt`), or
    /// was dropped by Esc going one screen back (`reason` "back").
    case captureRestarted
    /// The user cancelled with q or Ctrl-C (`screen`).
    case cancelled
    /// A string file of an override folder (`--strings DIR`, the XDG folder) that the capture
    /// cannot use, or a text of it: reported by the app once, when the capture starts, one event
    /// per error; fields `file`, `line`, `column` (1-based, null when not positioned), `message`,
    /// `key` (null for a whole file). The built-in text is used instead.
    case stringsRejected
    /// The recorded run's files are complete: reported by the app (not the state machine) once
    /// `manifest.json`, the last file, is in place; fields `folder`, `result`, `manifest`.
    case outputSaved
    /// The frames the run read from its source so far, reported by the app just before each
    /// event that ends an attempt (faceCaptureSuccess, faceCaptureFailed, cancelled) once a
    /// source was opened: `read`, `delivered`, `analysed`, `warned` (libjpeg warnings),
    /// `huffmanInserted`, `skipped`, and one `skipped<Reason>` field per reason that occurred
    /// (`skippedTruncated`, `skippedWrongSize`, `skippedCorrupt`, `skippedShortBuffer`,
    /// `skippedDeviceError`).
    case frameCounts
    /// An announcement was said (`--announce`, `--speak`; issue #17), reported by the app:
    /// `kind` (`Announcement.Kind`), `key` (its string-table key), `text` (as said), `hint`
    /// (for a hint or a restart), `remaining` (for the countdown).
    case announced
    /// The face was placed and still for the patience window (`FlowSettings.qualityPatienceMs`)
    /// while only shortfalls that depend on the person or the room remained, and the flow went
    /// on to the countdown anyway (issue #24): `shortfalls` (each `hint`, `measure`, `value`,
    /// `limit`, `shownMs`: how long its hint was shown, `frames`: on how many judged frames it
    /// fell short), `patienceMs`, `attempt`. Once per attempt at most; result.json's
    /// `qualityShortfalls` holds the same.
    case qualityAccepted
}

/// One event field, kept in insertion order so log lines are stable (the event stream is
/// written with `JSONWriter`'s `.asGiven` order). A nested object's members (`JSONValue.object`)
/// are `EventField`s too.
public typealias EventField = JSONMember

/// One reported event: its name, the time it happened (ms, from the injected clock) and its fields.
public struct FlowEvent: Sendable, Equatable {
    public var name: EventName
    /// Milliseconds on the runtime's clock (the last `tick(nowMs:)` the machine saw).
    public var tMs: Int
    public var fields: [EventField]
    public init(_ name: EventName, tMs: Int, fields: [EventField] = []) {
        self.name = name; self.tMs = tMs; self.fields = fields
    }

    /// The value of field `key`, if present.
    public subscript(key: String) -> JSONValue? { fields.first { $0.key == key }?.value }
}

/// How the process ends; raw values are the exit codes of DESIGN.md "Exit codes".
public enum FlowExit: Int32, Sendable, Equatable {
    /// A capture was recorded (0).
    case recorded = 0
    /// The camera failed (69, EX_UNAVAILABLE).
    case cameraUnavailable = 69
    /// Timed out or the source ended first (75, EX_TEMPFAIL).
    case timedOut = 75
    /// The user cancelled with q or Ctrl-C (130).
    case cancelled = 130
}
