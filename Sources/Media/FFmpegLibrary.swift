import CFFmpeg
import SharedLibraries

/// FFmpeg's libraries, loaded on first use (issue #28). The binary does not link them: only
/// `--video-format mp4` (`MP4Writer`) needs them, and libavformat alone pulled 134 of the ~160
/// shared libraries into every start. `load()` dlopens libavutil, libavcodec, libavformat and
/// libswscale at the major versions the package was built against (FFmpeg 5.1 on Debian 12:
/// `.so.57`, `.so.59`, `.so.59`, `.so.6`) and resolves every function `MP4Writer` calls.
public enum FFmpegLibrary {
    /// The sonames loaded, in order.
    public static var defaultNames: [String] {
        (0..<4).map { cff_default_library(Int32($0)).map { String(cString: $0) } ?? "?" }
    }

    /// Loads FFmpeg (once per process; later calls return at once).
    /// - Throws: `MediaError.libraryMissing` naming the library that could not be opened or
    ///   lacks a function, with the dynamic loader's message (exit 78, as an encoder that
    ///   cannot open).
    public static func load() throws {
        try load(names: nil)
    }

    /// Opens `names` (four sonames or paths, in `defaultNames`' order) and checks that they hold
    /// every function the writer uses, without keeping them; nil: `load()`. For tests of a
    /// missing library.
    /// - Throws: `MediaError.libraryMissing`.
    public static func load(names: [String]?) throws {
        if let names { precondition(names.count == 4, "FFmpegLibrary.load: four names") }
        if let failure = SharedLibraries.open(names, defaults: defaultNames, fallback: "FFmpeg", loader: cff_load) {
            throw MediaError.libraryMissing(library: failure.library, reason: failure.reason)
        }
    }
}
