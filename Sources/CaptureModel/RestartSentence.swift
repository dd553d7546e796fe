/// The one table from the hint that restarted a capture to the sentence that says so, used by
/// the screen (`Screens.restartMessage`) and the announcer (`Announcer.restarted`) alike:
/// "You moved: hold still", "Face lost", "Too dark", else "Capture restarted: <the hint>".
extension Hint {
    /// The restart sentence's string key, and the key of the hint's own text it takes as its
    /// one argument (nil: the sentence takes none).
    public var restartSentence: (key: String, hintKey: String?) {
        switch self {
        case .holdStill: return ("selfie_capture_restart_moved", nil)
        case .noFace: return ("selfie_capture_restart_face_lost", nil)
        case .tooDark: return ("selfie_capture_restart_too_dark", nil)
        default: return ("selfie_capture_restarted", stringKey)
        }
    }
}
