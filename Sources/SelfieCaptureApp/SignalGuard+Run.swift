import TerminalUI

extension SignalGuard {
    /// While a capture runs, SIGINT/SIGTERM/SIGHUP end the loop cleanly (the first one sets
    /// `SignalGuard.requested`, which the loop polls) and SIGTSTP suspends as Ctrl-Z does.
    static func armForRun() {
        install()
        setPolite(true)
        catchTerminalStop(true)
    }

    /// After the loop: signals act as before it.
    static func disarmAfterRun() {
        setPolite(false)
        catchTerminalStop(false)
    }
}
