/// CaptureFlow: the pure capture state machine, configuration and guidance rules.
/// Imports no C and reads no clock, environment or file (DESIGN.md).
public enum CaptureFlowModule {
    /// Module marker; the state machine lands with the capture-flow issue.
    public static let name = "CaptureFlow"
}
