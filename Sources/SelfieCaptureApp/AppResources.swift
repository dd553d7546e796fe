import FaceAnalysis
import Foundation
import Localization
import Media

#if canImport(Glibc)
import Glibc
#endif

/// The app's use of `ResourceLocator`: the built-in string tables and the demo photo must be
/// found, or the command stops with a named error (issue #18: a copied binary showed raw string
/// keys, `strings lint` passed while checking nothing, and the demo could not find its photo).
enum AppResources {
    /// The folder of built-in tables.
    /// - Throws: `AppError.stringTablesMissing` (exit 66) when none is found, or the one found
    ///   (e.g. `$SELFIE_CAPTURE_LOCALIZATIONS`) holds no `en.lproj` and no String Catalog.
    /// - Parameter location: what `ResourceLocator.locate` found, when the caller has it.
    static func requireStringTables(inputs: LocalizationInputs = .current(), location: ResourceLocation? = nil) throws -> String {
        let loc = location ?? ResourceLocator.locate(inputs: inputs, demoPhoto: false)
        guard let dir = loc.localizations,
              inputs.directoryExists(dir + "/" + ResourceLocator.marker)
                || inputs.readFile(dir + "/" + StringsFolder.catalogName) != nil else {
            throw AppError.stringTablesMissing(searched: loc.searchedLocalizations)
        }
        return dir
    }

    /// The demo photo's path.
    /// - Throws: `AppError.demoPhotoMissing` (exit 66) with the files looked for.
    static func requireDemoPhoto(inputs: LocalizationInputs = .current(), location: ResourceLocation? = nil) throws -> String {
        let loc = location ?? ResourceLocator.locate(inputs: inputs)
        guard let p = loc.demoPhoto else { throw AppError.demoPhotoMissing(searched: loc.searchedDemoPhoto) }
        return p
    }
}

extension AppError {
    /// Why the file `path` cannot be read: `inputMissing` when it does not exist (ENOENT,
    /// ENOTDIR: "no such file"), else `unreadable` with the reason ("Permission denied", "Is a
    /// directory"), so a path that exists is never reported as missing.
    static func inputProblem(_ path: String) -> AppError {
        var st = stat()
        guard stat(path, &st) == 0 else {
            let e = errno
            if e == ENOENT || e == ENOTDIR { return .inputMissing(path: path) }
            return .unreadable(path: path, reason: String(cString: strerror(e)))
        }
        if (st.st_mode & S_IFMT) == S_IFDIR { return .unreadable(path: path, reason: String(cString: strerror(EISDIR))) }
        if access(path, R_OK) != 0 { return .unreadable(path: path, reason: String(cString: strerror(errno))) }
        return .unreadable(path: path, reason: "cannot be read")
    }
}

/// The demo face photo, where `ResourceLocator` finds it (`$SELFIE_CAPTURE_DEMO_PHOTO`, the
/// installed `share/selfie-capture/demo/`, the build tree's `Resources/demo/`).
enum DemoPhoto {
    static let load: @Sendable () throws -> Image = {
        guard let path = try? AppResources.requireDemoPhoto() else { throw MediaError.demoPhotoMissing }
        return try ImageFile.loadRGB(path: path)
    }
}
