import Foundation

/// Everything the localization engine reads from the outside world: environment variables, the
/// executable's location and the file system. The only place that touches them; tests inject
/// values instead.
public struct LocalizationInputs: Sendable {
    /// Environment variables (`LC_ALL`, `LC_MESSAGES`, `LANG`, `XDG_CONFIG_HOME`, `HOME`,
    /// `SELFIE_CAPTURE_LOCALIZATIONS`).
    public var environment: [String: String]
    /// The real path of the running executable (symlinks resolved), if known.
    public var executablePath: String?
    /// Whether a directory exists at a path.
    public var directoryExists: @Sendable (String) -> Bool
    /// The names in a directory, or nil if it cannot be listed.
    public var listDirectory: @Sendable (String) -> [String]?
    /// A file's bytes, or nil if it does not exist or cannot be read.
    public var readFile: @Sendable (String) -> [UInt8]?
    /// Whether a file exists and may be read (not a directory), without reading it: what
    /// `ResourceLocator` asks of the demo photo (791 kB, read whole at start-up before, ~1 ms of
    /// the first screen; issue #28).
    public var fileReadable: @Sendable (String) -> Bool

    /// `fileReadable` defaults to `readFile(path) != nil` (the same answer for an in-memory file system).
    public init(environment: [String: String], executablePath: String?,
                directoryExists: @escaping @Sendable (String) -> Bool,
                listDirectory: @escaping @Sendable (String) -> [String]?,
                readFile: @escaping @Sendable (String) -> [UInt8]?,
                fileReadable: (@Sendable (String) -> Bool)? = nil) {
        self.environment = environment; self.executablePath = executablePath
        self.directoryExists = directoryExists; self.listDirectory = listDirectory; self.readFile = readFile
        self.fileReadable = fileReadable ?? { readFile($0) != nil }
    }

    /// Whether `path` is there, is not a directory and may be read (stat and access(2) through
    /// `FileManager`; nothing read).
    public static func readableFile(_ path: String) -> Bool {
        var isDir: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDir) && !isDir.boolValue
            && FileManager.default.isReadableFile(atPath: path)
    }

    /// The real process: `ProcessInfo` environment, `/proc/self/exe`, `FileManager`.
    public static func current() -> LocalizationInputs {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments.first.map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().path }
        return LocalizationInputs(
            environment: ProcessInfo.processInfo.environment,
            executablePath: exe,
            directoryExists: { path in
                var isDir: ObjCBool = false
                return FileManager.default.fileExists(atPath: path, isDirectory: &isDir) && isDir.boolValue
            },
            listDirectory: { try? FileManager.default.contentsOfDirectory(atPath: $0) },
            readFile: { path in FileManager.default.contents(atPath: path).map { Array($0) } },
            fileReadable: { readableFile($0) })
    }
}

/// Where the string tables are: the built-in folder and the override folders, lowest first.
public struct LocalizationPaths: Sendable, Equatable {
    /// The project's `Localizations/` folder, if found.
    public var builtIn: String?
    /// `$XDG_CONFIG_HOME/selfie-capture/Localizations` (or `~/.config/…`), then each `--strings DIR`.
    public var overrides: [String]
    /// All folders, lowest layer first.
    public var layers: [String] { (builtIn.map { [$0] } ?? []) + overrides }

    public init(builtIn: String?, overrides: [String]) { self.builtIn = builtIn; self.overrides = overrides }

    /// Resolves the folders from the inputs.
    ///
    /// Built-in tables: `explicitBuiltIn`, else what `ResourceLocator.locate` finds
    /// (`$SELFIE_CAPTURE_LOCALIZATIONS`, the installed `<exe dir>/../share/selfie-capture/Localizations`,
    /// then the build tree's `Localizations/` up from the executable); nil when none is found.
    /// Overrides: the XDG folder
    /// (`$XDG_CONFIG_HOME`, or `$HOME/.config` per the XDG base-directory spec) when it exists,
    /// then `stringsDirectories` in order.
    public static func resolve(explicitBuiltIn: String? = nil, stringsDirectories: [String],
                               inputs: LocalizationInputs) -> LocalizationPaths {
        var builtIn: String?
        if let e = explicitBuiltIn, !e.isEmpty {
            builtIn = e
        } else {
            builtIn = ResourceLocator.locate(inputs: inputs, demoPhoto: false).localizations
        }
        var overrides: [String] = []
        let configHome: String?
        if let x = inputs.environment["XDG_CONFIG_HOME"], x.hasPrefix("/") {
            configHome = x
        } else if let home = inputs.environment["HOME"], !home.isEmpty {
            configHome = home + "/.config"
        } else {
            configHome = nil
        }
        if let c = configHome {
            let d = c + "/selfie-capture/Localizations"
            if inputs.directoryExists(d) { overrides.append(d) }
        }
        overrides += stringsDirectories
        return LocalizationPaths(builtIn: builtIn, overrides: overrides)
    }

    /// The folder part of `path` (`/a/b` → `/a`, `/a` → `/`, `a` → "").
    public static func parent(of path: String) -> String {
        var p = path
        while p.count > 1 && p.hasSuffix("/") { p.removeLast() }
        guard let slash = p.lastIndex(of: "/") else { return "" }
        let head = String(p[..<slash])
        return head.isEmpty ? "/" : head
    }
}
