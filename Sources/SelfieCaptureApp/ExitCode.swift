import CaptureFlow
import Localization

/// Process exit codes (DESIGN.md "Exit codes"; values from BSD sysexits.h where one fits).
public enum ExitCode: Int32, Sendable, CaseIterable {
    /// A capture was recorded, or a non-capture command succeeded.
    case ok = 0
    /// Command-line usage error (EX_USAGE).
    case usage = 64
    /// Bad data: a malformed string file or video file (EX_DATAERR).
    case dataError = 65
    /// An input (file, device) does not exist (EX_NOINPUT).
    case noInput = 66
    /// Camera unavailable or busy, or a feature not available yet (EX_UNAVAILABLE).
    case unavailable = 69
    /// The output folder or a file in it cannot be created (EX_CANTCREAT).
    case cannotCreate = 73
    /// Timed out, or the source ended before the capture completed (EX_TEMPFAIL).
    case timedOut = 75
    /// Camera permission denied (EX_NOPERM).
    case permissionDenied = 77
    /// The video encoder cannot be opened (`--video-format mp4` with an FFmpeg without libx264,
    /// or one that refuses the settings): the installation, not the input or the output folder,
    /// needs fixing (EX_CONFIG).
    case encoderUnavailable = 78
    /// Cancelled by the user (Ctrl-C or q): 128 + SIGINT, as shells report it.
    case cancelled = 130
}

/// Every error the command line reports. `ErrorReport` maps each to its message and exit code:
/// that mapping is the only place either is decided.
public enum AppError: Error, Equatable, Sendable {
    /// An option this command does not know; `suggestion` is the closest known option.
    case unknownOption(String, suggestion: String?)
    /// A subcommand that does not exist; `suggestion` is the closest known one.
    case unknownCommand(String, suggestion: String?)
    /// An option that needs a value was given none.
    case missingValue(option: String, expects: String)
    /// An option's value is not one it accepts.
    case invalidValue(option: String, value: String, expects: String)
    /// A required positional argument is missing.
    case missingArgument(command: String, name: String)
    /// More positional arguments than the command takes.
    case unexpectedArgument(String)
    /// A command that a later release fills in.
    case notImplemented(String)
    /// An input file or device does not exist.
    case inputMissing(path: String)
    /// `verify`: the path is not a capture folder (`reason`: "not a folder", "no manifest.json").
    case notACaptureFolder(path: String, reason: String)
    /// No `--source` was given and there is no V4L2 capture device.
    case noCamera
    /// Malformed input data; `message` is already positioned (`file:line:col: error: …`).
    case badData(String)
    /// `verify`: the folder differs from its manifest; one line per missing, extra, changed or
    /// unreadable file (`Discrepancy.line`).
    case evidenceMismatch(folder: String, lines: [String])
    /// The output location cannot be written.
    case cannotCreateOutput(path: String, reason: String)
    /// The camera is busy or unavailable.
    case cameraUnavailable(String)
    /// The video encoder (`encoder`, e.g. FFmpeg's libx264) cannot be opened or failed.
    case encoderUnavailable(encoder: String, reason: String)
    /// Camera access was denied.
    case cameraPermissionDenied(path: String)
    /// The timeout ran out or the source ended first.
    case timedOut(String)
    /// The user cancelled.
    case cancelled
    /// The built-in string tables were found nowhere (`ResourceLocator`; `searched`: the places
    /// looked at, in order). Every command that shows texts stops on it rather than show keys.
    case stringTablesMissing(searched: [String])
    /// The demo photo was found nowhere (`ResourceLocator`; `searched`: the files looked at).
    case demoPhotoMissing(searched: [String])
    /// A camera device path that does not exist (`--source /dev/videoN`).
    case cameraMissing(path: String)
    /// An input that exists but cannot be read (`reason`: strerror, e.g. "Permission denied").
    case unreadable(path: String, reason: String)
    /// `strings lint` given a file it cannot lint alone (`why` says what it wants instead).
    case lintNeedsFolder(path: String, why: String)
    /// `strings lint`: a folder that holds no `xx.lproj` and no String Catalog (nothing to check).
    case noStringTables(folder: String)
    /// `--sign-key`: no key file at `path` (66).
    case signingKeyMissing(path: String)
    /// `--sign-key`: the key could not sign (a passphrase ssh-agent does not hold, a wrong
    /// passphrase, an agent that refused; `reason` says which) (77).
    case signingRefused(key: String, reason: String)
    /// Signing or checking a signature needs OpenSSH's ssh-keygen, which is missing or failed to
    /// start (69).
    case signingUnavailable(reason: String)
    /// `verify --allowed-signers`: the signature is refused (`reason`: one line naming the
    /// file, `SignatureCheck.Refusal.line`); `lines`: the hash differences found as well (65).
    case signatureRejected(folder: String, reason: String, lines: [String])
}

/// The single mapping from `AppError` to what the user reads on stderr and the exit code.
public enum ErrorReport {
    /// Program name used as the message prefix.
    public static let program = "selfie-capture"

    /// The exit code for `error`.
    public static func exitCode(for error: AppError) -> ExitCode {
        switch error {
        case .unknownOption, .unknownCommand, .missingValue, .invalidValue, .missingArgument, .unexpectedArgument:
            return .usage
        case .notImplemented, .cameraUnavailable: return .unavailable
        case .inputMissing, .noCamera, .notACaptureFolder, .stringTablesMissing, .demoPhotoMissing, .cameraMissing, .unreadable,
             .noStringTables:
            return .noInput
        case .lintNeedsFolder: return .usage
        case .signingKeyMissing: return .noInput
        case .signingRefused: return .permissionDenied
        case .signingUnavailable: return .unavailable
        case .signatureRejected: return .dataError
        case .badData, .evidenceMismatch: return .dataError
        case .cannotCreateOutput: return .cannotCreate
        case .cameraPermissionDenied: return .permissionDenied
        case .encoderUnavailable: return .encoderUnavailable
        case .timedOut: return .timedOut
        case .cancelled: return .cancelled
        }
    }

    /// The one-line (or few-line) message for `error`, prefixed with the program name.
    public static func message(for error: AppError) -> String {
        let p = program
        switch error {
        case .unknownOption(let o, let s):
            return "\(p): unknown option '\(o)'" + (s.map { "; did you mean '\($0)'?" } ?? "") + "\nTry '\(p) --help'."
        case .unknownCommand(let c, let s):
            return "\(p): unknown command '\(c)'" + (s.map { "; did you mean '\($0)'?" } ?? "") + "\nTry '\(p) --help'."
        case .missingValue(let o, let e):
            return "\(p): option '\(o)' needs a value: \(e)"
        case .invalidValue(let o, let v, let e):
            return "\(p): invalid value '\(v)' for '\(o)': expected \(e)"
        case .missingArgument(let c, let n):
            return "\(p): '\(c)' needs \(n)\nTry '\(p) \(c) --help'."
        case .unexpectedArgument(let a):
            return "\(p): unexpected argument '\(a)'"
        case .notImplemented(let what):
            return "\(p): \(what) is not implemented yet"
        case .inputMissing(let path):
            return "\(p): no such file or directory: \(path)"
        case .notACaptureFolder(let path, let reason):
            return "\(p): \(path) is not a capture folder: \(reason)"
        case .noCamera:
            return "\(p): no camera found (no V4L2 capture device under /dev/video*)\n"
                + "Try '\(p) --source demo' for the built-in demo, or --source with a .avi, .mjpeg or .y4m file, or - for y4m on stdin."
        case .badData(let m):
            return m
        case .evidenceMismatch(let folder, let lines):
            let n = lines.count == 1 ? "1 file differs" : "\(lines.count) files differ"
            return lines.joined(separator: "\n") + "\n\(p): \(folder) does not match its manifest: \(n)"
        case .cannotCreateOutput(let path, let reason):
            return "\(p): cannot create output '\(path)': \(reason)"
        case .cameraUnavailable(let m):
            return "\(p): \(m)"
        case .encoderUnavailable(let encoder, let reason):
            return "\(p): cannot open the video encoder '\(encoder)': \(reason)\n"
                + "Install FFmpeg's libavcodec with libx264 (Debian: libavcodec59), or use '--video-format avi'."
        case .cameraPermissionDenied(let path):
            return "\(p): permission denied for \(path): add your user to the 'video' group (sudo usermod -aG video $USER), then log in again"
        case .timedOut(let m):
            return "\(p): \(m)"
        case .cancelled:
            return "\(p): cancelled"
        case .stringTablesMissing(let searched):
            return "\(p): cannot find the built-in string tables (Localizations/en.lproj); looked in: \(searched.joined(separator: ", "))\n"
                + "Install with 'make install' (they go to PREFIX/share/selfie-capture), run the binary from its build tree, or set SELFIE_CAPTURE_LOCALIZATIONS to a folder of xx.lproj."
        case .demoPhotoMissing(let searched):
            return "\(p): cannot find the demo photo; looked for: \(searched.joined(separator: ", "))\n"
                + "Run 'make setup' in the build tree (it places Resources/demo/astronaut.png), install with 'make install', or set SELFIE_CAPTURE_DEMO_PHOTO to a PNG file."
        case .cameraMissing(let path):
            return "\(p): no camera at \(path)\nTry '\(p) devices' for the cameras present, or '--source demo'."
        case .unreadable(let path, let reason):
            return "\(p): cannot read \(path): \(reason)"
        case .noStringTables(let folder):
            return "\(p): strings lint: \(folder) holds no xx.lproj folder and no \(StringsFolder.catalogName): nothing to check"
        case .signingKeyMissing(let path):
            return "\(p): no signing key at \(path) (--sign-key: a private key, or a .pub whose key ssh-agent holds)"
        case .signingRefused(let key, let reason):
            return "\(p): cannot sign with \(key): \(reason); nothing was signed"
        case .signingUnavailable(let reason):
            return "\(p): cannot sign or check signatures: \(reason)"
        case .signatureRejected(let folder, let reason, let lines):
            return (lines + [reason]).joined(separator: "\n") + "\n\(p): \(folder): signature rejected"
        case .lintNeedsFolder(let path, let why):
            return "\(p): strings lint: \(path) \(why)\nTry '\(p) strings lint --help'."
        }
    }
}

extension ExitCode {
    init(flow: FlowExit) {
        switch flow {
        case .recorded: self = .ok
        case .cameraUnavailable: self = .unavailable
        case .timedOut: self = .timedOut
        case .cancelled: self = .cancelled
        }
    }
}
