import CaptureModel

/// The loading view contract of the seeds (Regula document reader): Swift integrators can supply
/// their own and the runtime calls it while the face model loads and the camera opens.
public protocol LoadingView: AnyObject {
    /// Loading of a feature starts; `message` says what (already localized).
    func onPreFeatureLoading(message: String)
    /// That feature finished loading.
    func onPostFeatureLoading()
    /// Download or load progress, 0...1.
    func onDownloadProgressChanged(progress: Double)
    /// Loading is over; the view goes away.
    func hideLoading()
}

/// The built-in loading view: it keeps the state the loading screen draws
/// (`ScreenView.loading(view.state)` while `isVisible`).
public final class TerminalLoadingView: LoadingView {
    public private(set) var state: LoadingViewState
    public private(set) var isVisible = true
    public init(stage: LoadingStage = .model) { state = LoadingViewState(stage: stage) }

    public func onPreFeatureLoading(message: String) {
        state.message = message; state.progress = nil; isVisible = true
    }
    public func onPostFeatureLoading() { state.progress = 1 }
    public func onDownloadProgressChanged(progress: Double) { state.progress = min(1, max(0, progress)) }
    public func hideLoading() { isVisible = false; state.message = nil; state.progress = nil }
}
