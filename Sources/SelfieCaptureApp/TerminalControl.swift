import CaptureFlow
import Foundation
import Media
import TerminalUI

// The runtime's part of issue #18 "Terminal": the window-size pause, the `?` keys help, Ctrl-Z,
// and the unfinished output the signal handler removes (`SignalGuard`).
extension CaptureRuntime {
    /// Tells the machine whether the window is below `Screens.minimumSize` (the flow pauses).
    func reportWindowSize() {
        let s = backend.size
        send(.windowTooSmall(s.cols < Screens.minimumSize.cols || s.rows < Screens.minimumSize.rows))
    }

    /// `?` opens the keys help; while it shows, the flow pauses (`Event.keysHelpShown`) and any
    /// key closes it and does nothing else, except Ctrl-C, which still quits. Keys are not consumed on a window too small (only q, Ctrl-C
    /// and a resize act there).
    /// - Returns: whether the key was consumed.
    func keysHelpConsumes(_ k: Key) -> Bool {
        if keysHelpVisible {
            keysHelpVisible = false
            needsRedraw = true
            send(.keysHelpShown(false))
            return k != .interrupt
        }
        guard k == .character("?"), !machine.windowTooSmall else { return false }
        keysHelpVisible = true
        needsRedraw = true
        send(.keysHelpShown(true))   // the flow pauses behind it (a take in progress is dropped)
        return true
    }

    /// `screen`, or the keys help for the machine's screen while it is open.
    func withKeysHelp(_ screen: RenderedScreen, context: RenderContext) -> RenderedScreen {
        guard keysHelpVisible else { return screen }
        return KeysHelp.render(screen: machine.screen, context: context)
    }

    /// Ctrl-Z: the machine has dropped a take in progress (`Effect.suspend` comes after its
    /// `abortRecording`); the backend leaves the screen, the process stops until `fg`, and the
    /// screen is drawn again from scratch.
    func suspendTerminal() {
        backend.suspend()
        needsRedraw = true
        nextDrawDueMs = Int.min / 2
        reportWindowSize()
        updateCellGeometry()
    }

    /// Registers with `SignalGuard` what a fatal signal must remove: every file this run may
    /// write in the output folder (the video, stills, reference.jpg, result.json, manifest.json
    /// and their temporary `.NAME.partial` names; the folder was empty or new, so none of them
    /// is anyone else's), then `frames/`, then the folder when this run created it. Called when
    /// the folder is known or changes; cleared once the run's output is published.
    func registerUnfinishedOutput() {
        guard let folder else { SignalGuard.clearCleanup(); return }
        var names = ["video.avi", "video.mp4", ReferenceImage.fileName, "result.json", "manifest.json", ManifestSigner.signatureFileName, ".write-probe"]
        let stills = max(0, setup.settings.options.numberOfFrameToCollect)
        for i in 1...max(1, stills) { names.append("frames/frame-" + String(format: "%03d", i) + ".jpg") }
        var files: [String] = []
        for n in names {
            let p = folder.file(n)
            files.append(p)
            files.append(PartialFile.temporaryPath(for: p))
        }
        var folders = [folder.file("frames")]
        if folderCreated { folders.append(folder.path) }
        SignalGuard.setCleanup(files: files, folders: folders)
    }
}
