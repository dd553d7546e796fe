import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `selfie-capture verify DIR`: re-hashes a capture folder and compares it with its
/// `manifest.json` (`EvidenceFolder.verify`). Exit 0 and one line on stdout when it matches;
/// otherwise `AppError.evidenceMismatch` (exit 65), which names each missing, extra, changed or
/// unreadable file on its own line. A missing folder or manifest is 66, a malformed manifest 65.
/// With `--allowed-signers FILE` the signature `manifest.json.sig` is checked too
/// (`SignatureCheck`, OpenSSH's ssh-keygen) and the signer named; a missing, foreign or
/// non-matching signature is `AppError.signatureRejected` (65), with its own line.
public enum VerifyCommand {
    public static let handler: CommandHandler = { args, console in
        guard let dir = args.positionals.first?.text else {
            throw AppError.missingArgument(command: "verify", name: "DIR")
        }
        let (count, discrepancies) = try EvidenceFolder.verify(dir)
        let lines = discrepancies.map { $0.line(folder: dir) }
        guard let allowed = args.value("--allowed-signers") else {
            guard lines.isEmpty else { throw AppError.evidenceMismatch(folder: dir, lines: lines) }
            let signed = access((dir as NSString).appendingPathComponent(ManifestSigner.signatureFileName), F_OK) == 0
            console.out("\(dir): \(count) files match manifest.json" + (signed ? " (signature not checked: no --allowed-signers)" : "") + "\n")
            return .ok
        }
        switch try SignatureCheck.check(folder: dir, allowedSigners: allowed) {
        case .failure(let refusal):
            throw AppError.signatureRejected(folder: dir, reason: refusal.line, lines: lines)
        case .success(let signer):
            guard lines.isEmpty else { throw AppError.evidenceMismatch(folder: dir, lines: lines) }
            console.out("\(dir): \(count) files match manifest.json, signed by \(signer.principal) (\(signer.keyType) \(signer.fingerprint))\n")
            return .ok
        }
    }
}
