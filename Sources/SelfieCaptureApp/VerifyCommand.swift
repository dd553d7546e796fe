/// `selfie-capture verify DIR`: re-hashes a capture folder and compares it with its
/// `manifest.json` (`EvidenceFolder.verify`). Exit 0 and one line on stdout when it matches;
/// otherwise `AppError.evidenceMismatch` (exit 65), which names each missing, extra, changed or
/// unreadable file on its own line. A missing folder or manifest is 66, a malformed manifest 65.
public enum VerifyCommand {
    public static let handler: CommandHandler = { args, console in
        guard let dir = args.positionals.first?.text else {
            throw AppError.missingArgument(command: "verify", name: "DIR")
        }
        let (count, discrepancies) = try EvidenceFolder.verify(dir)
        guard discrepancies.isEmpty else {
            throw AppError.evidenceMismatch(folder: dir, lines: discrepancies.map { $0.line(folder: dir) })
        }
        console.out("\(dir): \(count) files match manifest.json\n")
        return .ok
    }
}
