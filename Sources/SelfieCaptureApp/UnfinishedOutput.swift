import TerminalUI

#if canImport(Glibc)
import Glibc
#endif

/// The unfinished output's paths, prepared for the signal handler: `unfinishedCount` entries back
/// to back in `unfinishedPaths`, each a kind byte ("f" file, "d" folder) then a NUL-terminated
/// path; files first, then folders (children before parents), removed in that order. Globals
/// (not a Swift array or class) because the handler may only touch prepared memory.
nonisolated(unsafe) private var unfinishedPaths: UnsafeMutablePointer<CChar>?
nonisolated(unsafe) private var unfinishedCount = 0

/// Removes the registered paths; async-signal-safe (unlink/rmdir on prepared C strings).
private func removeUnfinishedOutput() {
    guard let base = unfinishedPaths else { return }
    var p = base
    for _ in 0..<unfinishedCount {
        let kind = p.pointee
        let path = p + 1
        if kind == 0x64 { _ = rmdir(path) } else { _ = unlink(path) }
        p = path + strlen(path) + 1
    }
}

/// What a fatal signal removes of a run's output (issue #18), owned by the app:
/// `RecordingSession` registers every name the run may write once the folder is known, and
/// clears it once the output is published. `SignalGuard` only calls `removeUnfinishedOutput`
/// after restoring the terminal.
enum UnfinishedOutput {
    /// Registers `files` (unlinked), then `folders` (rmdir, which only succeeds when empty).
    /// Replaces any earlier registration.
    static func register(files: [String], folders: [String]) {
        SignalGuard.clearCleanup()   // the handler leaves the old buffer alone from here
        var bytes: [CChar] = []
        for f in files { bytes.append(0x66); bytes += f.utf8CString }
        for d in folders { bytes.append(0x64); bytes += d.utf8CString }
        let buf = UnsafeMutablePointer<CChar>.allocate(capacity: max(1, bytes.count))
        for (i, b) in bytes.enumerated() { buf[i] = b }
        let old = unfinishedPaths
        unfinishedPaths = buf
        unfinishedCount = files.count + folders.count
        SignalGuard.setCleanup { removeUnfinishedOutput() }
        old?.deallocate()
    }

    /// Nothing to remove any more (published, or removed by the run itself).
    static func clear() {
        SignalGuard.clearCleanup()
    }
}
