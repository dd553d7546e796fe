import TerminalUI
import CaptureFlow
import CaptureModel
import Foundation
import Media

/// The end of a run in words: the last lines on stderr (warnings, skipped frames, the failure
/// with the last hint shown, or where the recording went) and the exit code. One home for the
/// run's final message; `ErrorReport` maps each error to its text and code.
struct RunReport {
    let setup: CaptureSetup
    let machine: CaptureStateMachine
    /// The error the runtime recorded (nil: the machine's own failure, if any, decides).
    let failure: AppError?
    /// The last hint other than "Hold still" the capture screen showed.
    let lastShownHint: Hint?

    /// Says the run's last lines and returns its exit code (`code` unless a failure decides).
    func finish(_ code: ExitCode, warnings: [String], stats: SourceStats?, recording: RecordingSession) -> ExitCode {
        for w in warnings { setup.console.err("selfie-capture: warning: \(w)\n") }
        if let st = stats, st.skippedFrames > 0 {
            setup.console.err("selfie-capture: note: \(st.skippedSummary) of \(st.readFrames) frames read from \(setup.source.spec)\n")
        }
        if code != .ok, let f = failure ?? machineFailure() {
            setup.console.err(ErrorReport.message(for: f) + "\n")
            // What held the capture back, in the screens' words (issue #24: --strict-quality, or a
            // blocking hint such as "Too dark"), so the operator knows what to change.
            if ErrorReport.exitCode(for: f) == .timedOut, machine.failure != .challengeFailed, let h = lastShownHint {
                setup.console.err("\(ErrorReport.program): note: the last hint shown was \"\(setup.strings.text(h.stringKey))\"\n")
            }
            return ErrorReport.exitCode(for: f)
        }
        // The last line follows --locale, as the screens do.
        if code == .cancelled {
            // A signal from outside (kill, a closed SSH session) is not the person cancelling:
            // say which, as the exit status will (143, 129; a trial read "cancelled" in a log).
            let sig = SignalGuard.requested.load(ordering: .relaxed)
            let text = sig == SIGTERM || sig == SIGHUP
                ? setup.strings.text("selfie_capture_done_terminated", [.string(sig == SIGTERM ? "SIGTERM" : "SIGHUP")])
                : setup.strings.text("selfie_capture_done_cancelled")
            setup.console.err("\(ErrorReport.program): " + text + "\n")
        }
        if code == .ok, let s = recording.summary, let folder = recording.folder {
            let frames = setup.strings.text("selfie_capture_result_frames", [.int(s.frameCount)])
            setup.console.err("\(ErrorReport.program): " + setup.strings.text("selfie_capture_done_recorded", [
                .string(folder.path), .string(frames), .double(Double(s.durationMs) / 1000)]) + "\n")
        }
        return code
    }

    /// What the run reports for a failure the machine reached by itself (from frames, not from an
    /// event the runtime sent with its own `AppError`): the face lost too often, a failed challenge.
    func machineFailure() -> AppError? {
        guard machine.screen == .failed else { return nil }
        if machine.failure == .faceLost {
            return .timedOut("the face was lost \(machine.faceLosses) times during the countdown or recording" + Self.attemptNote(machine))
        }
        // Issue #25, new-user trial: a failed challenge said nothing on stderr. Name the step and why.
        if machine.failure == .challengeFailed {
            let failed = machine.challenge?.records.last { $0.outcome != nil && $0.outcome != "passed" }
            let what = failed.map { "step \($0.index + 1) (\($0.direction.rawValue)) " + ($0.outcome == "timeout" ? "was not met in time" : "was answered the wrong way") }
            return .timedOut("the head-turn challenge failed: " + (what ?? "a step was not met") + Self.attemptNote(machine))
        }
        return nil
    }

    /// " (attempt N of M)" when the run may make more than one attempt, else "".
    static func attemptNote(_ machine: CaptureStateMachine) -> String {
        machine.maxAttempts > 1 ? " (attempt \(machine.attempt) of \(machine.maxAttempts))" : ""
    }

    /// ms as seconds: whole when they are ("30"), else with decimals ("2.5").
    static func seconds(_ ms: Int) -> String {
        ms % 1000 == 0 ? String(ms / 1000) : String(Double(ms) / 1000)
    }
}

extension FlowDriver {
    /// Why a run nobody else can move must end (issue #14 "nothing waits forever"), or nil: the
    /// flow waits for a key (instructions, permission, Start, a failed screen offering Try
    /// again, or the keys help) and the `--keys` script either played to its end or waits for
    /// an event that cannot come before a key. A running `--timeout` timer (`timeoutMs`) still
    /// decides instead; the screens where it does not run (instructions, permission) end here.
    /// The caller checks that no terminal reads keys. Exit 75.
    func stallReason(keysHelpShown: Bool, timeoutMs: Int?) -> String? {
        guard let player, machine.awaitsKey || keysHelpShown, timeoutMs == nil || machine.timeoutStartMs == nil else { return nil }
        let screen = keysHelpShown ? "keys help" : machine.screen == .capture ? "capture (waiting for Start)" : machine.screen.rawValue
        if player.isFinished {
            return "key script ended at step \(player.steps.count) while the \(screen) screen waits for a key"
        }
        if let event = player.waitingFor {
            return "key script waits for \(event.rawValue) at step \(player.index + 1), but the \(screen) screen waits for a key"
        }
        return nil
    }
}
