// libFuzzer entry for the `--keys` script parser (built by scripts/fuzz-keys.sh, not a SwiftPM
// target). Compiled in one module with Sources/CaptureFlow/*.swift (Key, EventName) and
// Sources/SelfieCaptureApp/KeyScript.swift (its `import CaptureFlow` stripped), so internal API
// is visible. Checks, besides "no crash": an error is positioned inside the text (line 1…lines,
// column ≥ 1, or 0:0 only for an unreadable @FILE) and names the source; a parsed script's waits
// are within 0…one day; the same text read through `@FILE` gives the same result; playing the
// script ends (every key step is returned once, waits end, wait-for steps are satisfied by
// their event).

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzKeyScript(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count
    let direct: Result<[KeyStep], KeyScriptError>
    do { direct = .success(try KeyScript.parse(text)) } catch let e as KeyScriptError { direct = .failure(e) } catch {
        preconditionFailure("KeyScript.parse threw \(error), not a KeyScriptError")
    }
    switch direct {
    case .failure(let e):
        precondition(e.source == "keys", "source \(e.source)")
        precondition(e.line >= 1 && e.line <= lines, "line \(e.line) of \(lines)")
        precondition(e.column >= 1, "column \(e.column)")
        precondition(e.description.hasPrefix("keys:\(e.line):\(e.column): error: "), e.description)
    case .success(let steps):
        var player = KeyScriptPlayer(steps: steps)
        var keys = 0, now = 0
        for step in steps {
            switch step {
            case .key: keys += 1
            case .wait(let ms): precondition(ms >= 0 && Double(ms) <= KeyScript.maxWaitMs, "wait \(ms)")
            case .waitFor: break
            }
        }
        var played = 0, turns = 0
        while !player.isFinished {
            turns += 1
            precondition(turns <= 2 * steps.count + 2, "player does not end")
            played += player.poll(nowMs: now).count
            if let deadline = player.deadlineMs { now = max(now, deadline) }
            if let name = player.waitingFor { player.observe(name) }
        }
        precondition(played == keys, "played \(played) of \(keys) keys")
    }
    // The same text through `@FILE`: the same steps, or the same error naming the file.
    let viaFile: Result<[KeyStep], KeyScriptError>
    do { viaFile = .success(try KeyScript.parse(argument: "@f.keys", readFile: { _ in text })) } catch let e as KeyScriptError { viaFile = .failure(e) } catch {
        preconditionFailure("KeyScript.parse(argument:) threw \(error)")
    }
    switch (direct, viaFile) {
    case (.success(let a), .success(let b)): precondition(a == b, "@FILE parsed differently")
    case (.failure(let a), .failure(let b)):
        precondition(b.source == "f.keys" && a.line == b.line && a.column == b.column && a.message == b.message, "@FILE error differs")
    default: preconditionFailure("@FILE and inline disagree")
    }
    return 0
}
