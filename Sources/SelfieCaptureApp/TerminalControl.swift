import CaptureFlow
import Foundation
import Media
import TerminalUI

// The runtime's part of issue #18 "Terminal": the window-size pause, the `?` keys help, Ctrl-Z.

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
}
