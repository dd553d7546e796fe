import Evidence
import Foundation
import JSON
import Media

#if canImport(Glibc)
import Glibc
#endif

/// Publishes a finished folder's documents, in order: result.json, then manifest.json (sizes and
/// SHA-256 of every other file, result.json as written: `EvidenceFolder.writeManifest`), then,
/// with `--sign-key`, manifest.json.sig (`ManifestSigner`). The one home of that order, used by a
/// recorded run and by `--keep-failed`'s failed run alike.
///
/// All or nothing: when a step fails, the documents already written are removed, so a folder is
/// never left looking complete without its manifest, or signed in part.
struct EvidenceWriter {
    let folder: OutputFolder
    /// manifest.json's `settings` (`ResultWriter.settings`).
    let settings: JSONValue
    /// `--sign-key` (nil: unsigned).
    let signKey: String?

    /// The paths written.
    struct Published: Equatable {
        var result: String
        var manifest: String
        var signature: String?
    }

    /// Writes `result` as result.json, then the manifest describing `source` (run started at
    /// `startedAt`, ended at `endedAt`, wall clock), then its signature.
    /// - Throws: `AppError` naming the file that could not be written (exit 73), or the signing
    ///   error; nothing of the three stays behind then.
    func publish(result: [UInt8], source: SourceRecord, startedAt: Date, endedAt: Date) throws -> Published {
        var written: [String] = []
        do {
            let resultPath: String
            do { resultPath = try folder.write(result, to: Manifest.resultFileName) } catch {
                throw RecordingSession.outputError(error, path: folder.file(Manifest.resultFileName))
            }
            written.append(resultPath)
            let manifestPath: String
            do {
                manifestPath = try EvidenceFolder.writeManifest(in: folder, settings: settings, source: source,
                                                                startedAt: startedAt, endedAt: endedAt)
            } catch {
                throw AppError.media(error) ?? .cannotCreateOutput(path: folder.file(Manifest.fileName), reason: EvidenceFolder.describe(error))
            }
            written.append(manifestPath)
            var signature: String?
            if let key = signKey {
                do {
                    let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: manifestPath)))
                    signature = try folder.write(try ManifestSigner.sign(bytes, key: key), to: ManifestSigner.signatureFileName)
                } catch {
                    throw error as? AppError ?? AppError.media(error)
                        ?? .cannotCreateOutput(path: folder.file(ManifestSigner.signatureFileName), reason: "\(error)")
                }
            }
            return Published(result: resultPath, manifest: manifestPath, signature: signature)
        } catch {
            for p in written { unlink(p) }
            throw error
        }
    }
}
