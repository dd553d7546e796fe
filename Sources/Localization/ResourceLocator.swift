/// Where the app's read-only resources are: the built-in string tables (`Localizations/`) and the
/// demo face photo. The one place that decides it, for every command (issue #18).
///
/// Search order, first hit wins, for each resource:
/// 1. the environment override: `$SELFIE_CAPTURE_LOCALIZATIONS` (a folder of `xx.lproj`) or
///    `$SELFIE_CAPTURE_DEMO_PHOTO` (a PNG file);
/// 2. the installed tree, relative to the executable's real path (symbolic links resolved):
///    `<exe dir>/../share/selfie-capture/Localizations` and `…/share/selfie-capture/demo/astronaut.png`
///    (what `make install PREFIX=…` lays out, FHS 3.0 §4.11 `/usr/share`);
/// 3. the build tree: the first folder holding `Localizations/en.lproj` walking up from the
///    executable's folder (the binary lives at `<root>/.build/<config>/selfie-capture`), with the
///    photo at `<root>/Resources/demo/astronaut.png` (placed by `make setup`).
///
/// Nothing is looked up relative to the current folder: a binary run from elsewhere finds the
/// same files. A resource found nowhere is `nil`, with the places searched, so the caller can
/// stop with a clear error (the app: exit 78 for the tables, 66 for the photo).
public struct ResourceLocation: Sendable, Equatable {
    /// The folder of built-in `xx.lproj` tables, if found.
    public var localizations: String?
    /// The demo photo, if found.
    public var demoPhoto: String?
    /// Every folder or file looked at for the tables, in order (for the error message).
    public var searchedLocalizations: [String]
    /// Every file looked at for the demo photo, in order.
    public var searchedDemoPhoto: [String]
}

public enum ResourceLocator {
    /// The installed resource folder relative to the executable's folder (`bin/`).
    public static let installedRelative = "../share/selfie-capture"
    /// The demo photo inside the installed resource folder.
    public static let installedDemoPhoto = "demo/astronaut.png"
    /// The demo photo inside the build tree's root.
    public static let treeDemoPhoto = "Resources/demo/astronaut.png"
    /// The base language folder whose presence marks a folder of built-in tables.
    public static let marker = "en.lproj"

    /// Resolves both resources from `inputs` (environment, executable path, file system);
    /// `demoPhoto: false` looks for the tables only.
    public static func locate(inputs: LocalizationInputs, demoPhoto lookForPhoto: Bool = true) -> ResourceLocation {
        var loc = ResourceLocation(localizations: nil, demoPhoto: nil, searchedLocalizations: [], searchedDemoPhoto: [])
        let env = inputs.environment
        func fileExists(_ p: String) -> Bool { inputs.fileReadable(p) }
        // An override names the one place to use: when it is wrong, that is the error (no
        // silent fall-back to other tables than the ones asked for).
        var wantTables = true, wantPhoto = lookForPhoto
        if let e = env["SELFIE_CAPTURE_LOCALIZATIONS"], !e.isEmpty {
            loc.searchedLocalizations.append(e)
            if inputs.directoryExists(e) { loc.localizations = e }
            wantTables = false
        }
        if wantPhoto, let e = env["SELFIE_CAPTURE_DEMO_PHOTO"], !e.isEmpty {
            loc.searchedDemoPhoto.append(e)
            if fileExists(e) { loc.demoPhoto = e }
            wantPhoto = false
        }
        guard let exe = inputs.executablePath, wantTables || wantPhoto else { return loc }
        let bin = LocalizationPaths.parent(of: exe)
        let installed = normalize(bin + "/" + installedRelative)
        if wantTables {
            let d = installed + "/Localizations"
            loc.searchedLocalizations.append(d)
            if inputs.directoryExists(d + "/" + marker) { loc.localizations = d }
        }
        if wantPhoto {
            let p = installed + "/" + installedDemoPhoto
            loc.searchedDemoPhoto.append(p)
            if fileExists(p) { loc.demoPhoto = p }
        }
        // The build tree: the first folder up from the executable's that holds
        // `Localizations/en.lproj` is the root; the photo is looked for in that root only.
        wantTables = wantTables && loc.localizations == nil
        wantPhoto = wantPhoto && loc.demoPhoto == nil
        guard wantTables || wantPhoto else { return loc }
        var dir = bin
        while !dir.isEmpty {
            let root = dir == "/" ? "" : dir
            if inputs.directoryExists(root + "/Localizations/" + marker) {
                if wantTables { loc.localizations = root + "/Localizations" }
                if wantPhoto {
                    let p = root + "/" + treeDemoPhoto
                    loc.searchedDemoPhoto.append(p)
                    if fileExists(p) { loc.demoPhoto = p }
                }
                break
            }
            if dir == "/" { break }
            dir = LocalizationPaths.parent(of: dir)
        }
        if wantTables && loc.localizations == nil { loc.searchedLocalizations.append(bin + " and the folders above it (Localizations/" + marker + ")") }
        return loc
    }

    /// `path` with `.` and `..` components resolved textually (`/a/bin/../share` → `/a/share`).
    static func normalize(_ path: String) -> String {
        var parts: [Substring] = []
        for c in path.split(separator: "/", omittingEmptySubsequences: true) {
            if c == "." { continue }
            if c == ".." { if !parts.isEmpty { parts.removeLast() }; continue }
            parts.append(c)
        }
        // Concatenated by hand: `joined(separator:)` on substrings costs the runtime's first
        // look-up of their `StringProtocol` conformance (~0.1 ms of the first screen; issue #28).
        var out = ""
        for p in parts { out += "/" + String(p) }
        return out.isEmpty ? "/" : out
    }
}
