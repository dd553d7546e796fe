import Digest
import Evidence
import Foundation
import JSON
import Media

#if canImport(Glibc)
import Glibc
#endif

/// The file side of `manifest.json` (the document itself is `Evidence.Manifest`): listing and
/// hashing an output folder, writing its manifest last, and checking a folder against it
/// (`selfie-capture verify`).
enum EvidenceFolder {
    /// Every entry under `root` except the top-level `manifest.json` and its signature
    /// `manifest.json.sig` (made after it, so it cannot list it), sorted by path (UTF-8
    /// bytes): regular files with their size and SHA-256 (streamed, `SHA256.file`); anything
    /// else (a symbolic link, a FIFO, an unreadable file or folder) as `unreadable` with the
    /// reason. Folders are walked, not listed.
    /// - Throws: `DigestError.open` when `root` itself cannot be listed.
    static func scan(_ root: String) throws -> [ObservedFile] {
        var out: [ObservedFile] = []
        guard let top = try? FileManager.default.contentsOfDirectory(atPath: root) else {
            var st = stat()
            throw DigestError.open(path: root, errno: stat(root, &st) != 0 ? errno : ENOTDIR)
        }
        func walk(_ relative: String, _ names: [String]) {
            for name in names {
                let rel = relative.isEmpty ? name : relative + "/" + name
                if rel == Manifest.fileName || rel == ManifestSigner.signatureFileName { continue }
                let full = root + "/" + rel
                var st = stat()
                guard lstat(full, &st) == 0 else { out.append(.unreadable(path: rel, reason: String(cString: strerror(errno)))); continue }
                switch st.st_mode & S_IFMT {
                case S_IFDIR:
                    if let sub = try? FileManager.default.contentsOfDirectory(atPath: full) { walk(rel, sub) } else {
                        out.append(.unreadable(path: rel, reason: "folder cannot be listed"))
                    }
                case S_IFREG:
                    do {
                        let d = try SHA256.file(full)
                        out.append(.file(FileRecord(path: rel, bytes: d.bytes, sha256: d.sha256)))
                    } catch {
                        out.append(.unreadable(path: rel, reason: describe(error)))
                    }
                default:
                    out.append(.unreadable(path: rel, reason: "not a regular file"))
                }
            }
        }
        walk("", top)
        return out.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
    }

    /// Writes `manifest.json` into `folder`, last: lists and hashes every other file (so
    /// result.json is hashed as written), then writes under a temporary name, fsyncs and renames
    /// (`OutputFolder.write`, mode 0600).
    /// - Returns: the manifest's path.
    /// - Throws: `MediaError.cannotCreateOutput`/`.writeFailed`; `DigestError` when a file of
    ///   the folder cannot be hashed (something else is writing there).
    @discardableResult
    static func writeManifest(in folder: OutputFolder, settings: JSONValue, source: SourceRecord,
                              startedAt: Date, endedAt: Date) throws -> String {
        var files: [FileRecord] = []
        for o in try scan(folder.path) {
            switch o {
            case .file(let r): files.append(r)
            case .unreadable(let p, let reason):
                throw MediaError.cannotCreateOutput(path: folder.file(p), reason: "cannot hash it for the manifest: \(reason)")
            }
        }
        guard let result = files.first(where: { $0.path == Manifest.resultFileName }) else {
            throw MediaError.cannotCreateOutput(path: folder.file(Manifest.resultFileName), reason: "missing when the manifest was made")
        }
        let manifest = Manifest(app: ErrorReport.program, appVersion: Commands.version, startedAt: startedAt, endedAt: endedAt,
                                settings: settings, source: source, files: files,
                                resultSha256: result.sha256)
        return try folder.write(try manifest.encoded(), to: Manifest.fileName)
    }

    /// Checks `dir` against its `manifest.json`.
    /// - Returns: the number of files checked and the differences (empty when it matches).
    /// - Throws: `AppError.inputMissing` (no folder or no manifest, 66), `.badData` (a manifest
    ///   that cannot be read as one, 65).
    static func verify(_ dir: String) throws -> (files: Int, discrepancies: [Discrepancy]) {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDir) else { throw AppError.inputMissing(path: dir) }
        guard isDir.boolValue else { throw AppError.notACaptureFolder(path: dir, reason: "not a folder") }
        let path = (dir as NSString).appendingPathComponent(Manifest.fileName)
        guard access(path, F_OK) == 0 else {
            throw AppError.notACaptureFolder(path: dir, reason: "no \(Manifest.fileName) (a capture writes it last)")
        }
        guard access(path, R_OK) == 0, let data = FileManager.default.contents(atPath: path) else {
            throw AppError.inputMissing(path: "\(path) (\(String(cString: strerror(errno))))")
        }
        let manifest: Manifest
        do { manifest = try Manifest.decode(Array(data)) } catch ManifestError.malformed(let reason) {
            throw AppError.badData("\(path): error: not a valid manifest: \(reason)")
        }
        let observed: [ObservedFile]
        do { observed = try scan(dir) } catch { throw AppError.inputMissing(path: "\(dir) (\(describe(error)))") }
        return (manifest.files.count, Verification.compare(manifest, observed: observed))
    }

    static func describe(_ error: Error) -> String {
        switch error as? DigestError {
        case .open(_, let e)?, .read(_, let e)?: return String(cString: strerror(e))
        case .notARegularFile?: return "not a regular file"
        case .evp(let call)?: return "OpenSSL \(call) failed"
        case .library(let name, let why)?: return "cannot load \(name) (\(why)); install libssl3"
        case nil: return "\(error)"
        }
    }
}
