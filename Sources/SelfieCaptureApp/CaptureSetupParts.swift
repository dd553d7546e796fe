import Camera
import CaptureModel
import Foundation
import Media
import TerminalUI

// The groups of `CaptureSetup`, one per concern (issue #26: no app type keeps more than 15
// mutable properties). Each holds its own defaults; the parsing (`CaptureSetup.make`) and
// `--help` (`Commands`) read them here.

/// Where the frames come from and how they are paced (`--source`, `--pace`, `--loop`,
/// `--target-resolution`).
public struct SourceSetup {
    /// `--source` as given, or the first V4L2 camera's path.
    public var spec: String
    public var kind: SourceKind
    public var pace: PaceMode
    public var loop: Bool
    public var targetResolution: TargetResolution?
    /// The V4L2 calls a camera source makes (the real libv4l2 when nil); tests put a fake
    /// device here to exercise the runtime's camera fault handling.
    public var cameraSystem: (any V4L2System)?

    public init(spec: String, kind: SourceKind, pace: PaceMode, loop: Bool = false, targetResolution: TargetResolution? = nil) {
        self.spec = spec; self.kind = kind; self.pace = pace; self.loop = loop; self.targetResolution = targetResolution
    }

    /// The source as result.json and manifest.json record it: a file source as an absolute path
    /// (resolved against the current folder, symbolic links kept), so the record still names the
    /// file when read from elsewhere; `-`, `demo` and `/dev/videoN` as given.
    public var recordedSpec: String {
        switch kind {
        case .avi, .mjpegStream, .y4m:
            guard spec != "-", !spec.hasPrefix("/") else { return spec }
            return URL(fileURLWithPath: spec, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath,
                                                               isDirectory: true)).standardizedFileURL.path
        default:
            return spec
        }
    }
}

/// How the screens are drawn and answered (`--renderer`, `--theme`, `--layout`,
/// `--debug-overlay`, `--preview-fps`, `--preview-mode`, `--colors`).
public struct ScreenSetup {
    public var renderer: RendererChoice
    public var theme: Theme
    /// `--theme` as given (the runtime reloads `auto` once the terminal told its background).
    public var themeChoice: ThemeChoice = .auto
    public var layout: Layout
    /// `--debug-overlay`: the status line is shown from the start (key `i` toggles it anyway).
    public var debugOverlay = false
    /// `--preview-fps`: most capture screens drawn per second of the run's clock.
    public var previewFps = ScreenSetup.defaultPreviewFps
    /// `--colors`: the colour mode asked for (nil: what the terminal reports).
    public var colors: ColorMode?
    /// `--preview-mode` (default auto, issue #13).
    public var previewMode = PreviewModeChoice.auto
    /// The renderer reads keys from a terminal: always for curses; for plain when stdin is a
    /// terminal (or, with `--source -`, `/dev/tty`), line by line (`LinePlainBackend`).
    public var terminalKeys = false

    /// Default `--preview-fps`: 15 redraws a second, half a 30 fps camera's rate (issue #19;
    /// the preview is a guide, and each redraw of a 80×24 half-block preview is kilobytes).
    public static let defaultPreviewFps = 15

    public init(renderer: RendererChoice, theme: Theme, layout: Layout) {
        self.renderer = renderer; self.theme = theme; self.layout = layout
    }
}

/// What the run writes (`--output`, `--events`, `--analysis-log`, `--video-format`,
/// `--sign-key`, `--keep-failed`) and the wall clock the manifest reads.
public struct OutputSetup {
    /// `--output DIR`, if given.
    public var requested: String?
    /// Where the default timestamped folder goes when there is no `--output` (the current
    /// folder; tests point it elsewhere). It is named and created when the recording starts.
    public var parent = "."
    public var eventsPath: String?
    public var analysisLogPath: String?
    /// `--video-format`: the recorded video's container and codec.
    public var videoFormat = OutputSetup.defaultVideoFormat
    /// The wall clock for manifest.json's `startedAt`/`endedAt` (UTC). The run's own clock
    /// (`MediaClock`) counts from 0 with `--pace fast`; tests pin this one.
    public var wallClock: @Sendable () -> Date = { Date() }
    /// `--sign-key KEY`: manifest.json is signed into manifest.json.sig (`ManifestSigner`);
    /// the key was checked by signing a probe before the screen starts.
    public var signKey: String?
    /// `--keep-failed`: up to 4 frames of each failed attempt are kept (`RecordingSession+KeepFailed`).
    public var keepFailed = false

    /// Default `--video-format`: avi (MJPEG, the camera's JPEGs as they are).
    public static let defaultVideoFormat = VideoFormat.avi

    public init(requested: String? = nil, eventsPath: String? = nil, analysisLogPath: String? = nil,
                videoFormat: VideoFormat = OutputSetup.defaultVideoFormat) {
        self.requested = requested; self.eventsPath = eventsPath; self.analysisLogPath = analysisLogPath
        self.videoFormat = videoFormat
    }
}

/// The accessibility outputs asked for (issue #17).
public struct AccessibilitySetup {
    /// `--announce FILE|-`: where announcements go; `-` is stdout (plain or null renderer).
    public var announcePath: String?
    /// `--sound`: terminal bell cues.
    public var sound = false
    /// `--speak`: announcements spoken by espeak-ng.
    public var speak = false
    /// `--reduced-motion`: no running counters on the loading screen.
    public var reducedMotion = false

    public init(announcePath: String? = nil, sound: Bool = false, speak: Bool = false, reducedMotion: Bool = false) {
        self.announcePath = announcePath; self.sound = sound; self.speak = speak; self.reducedMotion = reducedMotion
    }
}
