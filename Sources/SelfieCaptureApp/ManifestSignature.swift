import Digest
import Evidence
import Foundation
import Spawn
import TerminalUI

#if canImport(Glibc)
import Glibc
#endif

/// OpenSSH's `ssh-keygen`, run through the one spawn primitive (`Spawn.ChildProcess`) and
/// waited for (signing happens once, after the recording, and `verify` is a command line tool):
/// its standard input from a file (`/dev/null` by default), its output and error collected.
/// `SSH_ASKPASS_REQUIRE=never`: no graphical passphrase prompt.
///
/// It runs in a session of its own (setsid: no controlling terminal), so it can never open
/// `/dev/tty` to ask for a passphrase on the screen the capture owns (a key needing one must be
/// in ssh-agent; DECISIONS 2026-12-02). For the same reason Ctrl-C at the terminal does not
/// reach it: the capture's `SignalGuard` takes it, and a signal that ends the run
/// (`SignalGuard.requested`) stops ssh-keygen at once (`stopWhen`) rather than after its
/// time limit; the run then ends cancelled (130) and nothing half-signed stays.
///
/// Time limits (`Limit`): signing waits up to 120 s, since a hardware security key waits for a
/// touch (a FIDO token gives up by itself after its own 15–30 s) and a key added with
/// `ssh-add -c` for a confirmation; checking a signature involves no person (30 s).
enum OpenSSH {
    struct Outcome {
        var status: Int32
        var out: String
        var err: String
    }

    /// How long ssh-keygen may take, in seconds.
    enum Limit {
        /// `-Y sign`: a touch or a confirmation may be awaited.
        static let signing: TimeInterval = 120
        /// `-Y find-principals`, `-Y verify`: no person involved.
        static let checking: TimeInterval = 30
    }

    /// `ssh-keygen` found in `PATH`, else nil.
    static func keygen() -> String? { ChildProcess.which("ssh-keygen") }

    /// Runs `ssh-keygen ARGS` to its end, or to `limit` seconds, or until a signal ends the run.
    /// - Throws: `AppError.signingUnavailable` when ssh-keygen is not installed, cannot start or
    ///   outlasted `limit`; `AppError.cancelled` when a signal (Ctrl-C) ended the run first.
    static func keygen(_ arguments: [String], stdin: String = "/dev/null", limit: TimeInterval) throws -> Outcome {
        guard let exe = keygen() else {
            throw AppError.signingUnavailable(reason: "ssh-keygen not found in PATH (Debian: apt-get install openssh-client)")
        }
        let input = open(stdin, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw AppError.unreadable(path: stdin, reason: String(cString: strerror(errno))) }
        defer { close(input) }
        var env = ProcessInfo.processInfo.environment
        env["SSH_ASKPASS_REQUIRE"] = "never"
        let r: ChildProcess.Result
        do {
            r = try ChildProcess.run(exe, arguments, environment: env, stdin: .descriptor(input), timeout: limit, newSession: true,
                                     stopWhen: { SignalGuard.requested.load(ordering: .relaxed) != 0 })
        } catch {
            throw AppError.signingUnavailable(reason: "cannot start \(exe): \(error)")
        }
        if r.stopped { throw AppError.cancelled }
        if r.timedOut {
            let what = arguments.first == "-Y" && arguments.count > 1 ? "ssh-keygen -Y \(arguments[1])" : "ssh-keygen"
            throw AppError.signingUnavailable(reason: "\(what) did not finish within \(Int(limit)) s and was stopped"
                + (arguments.contains("sign") ? " (a hardware key waits for its touch, a key added with 'ssh-add -c' for its confirmation)" : ""))
        }
        return Outcome(status: r.code, out: String(decoding: r.out, as: UTF8.self), err: String(decoding: r.err, as: UTF8.self))
    }

    /// A folder made by mkdtemp (mode 0700) under TMPDIR or /tmp, removed with its files.
    struct TemporaryFolder {
        let path: String
        init() throws {
            let base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
            var template = Array((base + "/selfie-capture-ssh.XXXXXX").utf8CString)
            guard let p = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
                throw AppError.signingUnavailable(reason: "cannot create a temporary folder in \(base): \(String(cString: strerror(errno)))")
            }
            path = String(cString: p)
        }
        func remove() { try? FileManager.default.removeItem(atPath: path) }
    }
}

/// `--sign-key KEY`: manifest.json signed with `ssh-keygen -Y sign -n selfie-capture-manifest@v1`
/// (SSHSIG, OpenSSH `PROTOCOL.sshsig`) into `manifest.json.sig`. KEY is a private key file,
/// or a public key (`.pub`) whose private half ssh-agent holds (hardware keys too); a key
/// protected by a passphrase must be in ssh-agent (`ssh-add KEY`): the capture never asks for
/// a passphrase, since the screen belongs to the capture. The manifest holds the source's
/// identity and the capture's times, so they are signed with it.
enum ManifestSigner {
    /// The signature's name in the output folder.
    static let signatureFileName = Manifest.fileName + ".sig"
    static var namespace: String { SSHSignatureInfo.manifestNamespace }

    /// Signs a small probe with KEY before the screen starts, so a missing key, a passphrase
    /// ssh-agent does not hold or an agent that refuses stops the run before anyone is filmed.
    /// - Throws: `AppError.signingKeyMissing` (66), `.signingRefused` (77),
    ///   `.signingUnavailable` (69).
    static func check(key: String) throws {
        _ = try sign(Array("selfie-capture signing check\n".utf8), key: key)
    }

    /// The SSHSIG armored signature of `bytes` by KEY (the bytes are copied into a private
    /// temporary folder, signed there, and the folder removed: nothing half-written ever
    /// reaches the output folder).
    /// - Throws: as `check`.
    static func sign(_ bytes: [UInt8], key: String) throws -> [UInt8] {
        guard access(key, F_OK) == 0 else { throw AppError.signingKeyMissing(path: key) }
        guard access(key, R_OK) == 0 else {
            throw AppError.unreadable(path: key, reason: String(cString: strerror(errno)))
        }
        let dir = try OpenSSH.TemporaryFolder()
        defer { dir.remove() }
        let data = dir.path + "/" + Manifest.fileName
        guard FileManager.default.createFile(atPath: data, contents: Data(bytes), attributes: [.posixPermissions: 0o600]) else {
            throw AppError.signingUnavailable(reason: "cannot write a temporary copy in \(dir.path)")
        }
        let r = try OpenSSH.keygen(["-Y", "sign", "-f", key, "-n", namespace, data], limit: OpenSSH.Limit.signing)
        guard r.status == 0, let sig = FileManager.default.contents(atPath: data + ".sig") else {
            throw classify(r.err, key: key)
        }
        return Array(sig)
    }

    /// ssh-keygen's complaint as an `AppError` (OpenSSH 9.2's messages).
    static func classify(_ err: String, key: String) -> AppError {
        let said = err.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("Enter passphrase") && !$0.isEmpty }
            .joined(separator: "; ")
        if err.contains("incorrect passphrase") || err.contains("passphrase") {
            return .signingRefused(key: key, reason: "the key is protected by a passphrase that ssh-agent does not hold, or the passphrase is wrong (selfie-capture never asks for one: run 'ssh-add \(key)' first)")
        }
        if err.contains("agent refused") || err.contains("communication with agent failed") {
            return .signingRefused(key: key, reason: "ssh-agent refused to sign (a key added with 'ssh-add -c' needs its confirmation, a hardware key its touch): \(said)")
        }
        if err.contains("No such file") { return .signingKeyMissing(path: key) }
        return .signingRefused(key: key, reason: "ssh-keygen -Y sign failed: \(said.isEmpty ? "no message" : said)")
    }
}

/// `verify DIR --allowed-signers FILE`: the signature side (`EvidenceFolder.verify` does the
/// hashes). OpenSSH decides (`ssh-keygen -Y find-principals`, then `-Y verify`); the SSHSIG's
/// own fields (`SSHSignatureInfo`) only name the key and namespace in the messages.
enum SignatureCheck {
    /// Who signed, once the signature verified.
    struct Signer: Equatable {
        var principal: String
        var keyType: String
        var fingerprint: String
    }

    /// Checks DIR/manifest.json.sig against DIR/manifest.json and FILE (OpenSSH's
    /// allowed_signers format, `ssh-keygen(1)` "ALLOWED SIGNERS").
    /// - Returns: the signer, or the reason the signature is refused (one line, beginning with
    ///   the file it is about).
    /// - Throws: `AppError.inputMissing` (FILE missing, 66), `.signingUnavailable` (no ssh-keygen, 69).
    static func check(folder dir: String, allowedSigners: String) throws -> Result<Signer, Refusal> {
        guard access(allowedSigners, F_OK) == 0 else { throw AppError.inputMissing(path: allowedSigners) }
        guard access(allowedSigners, R_OK) == 0 else {
            throw AppError.unreadable(path: allowedSigners, reason: String(cString: strerror(errno)))
        }
        let manifest = (dir as NSString).appendingPathComponent(Manifest.fileName)
        let sigPath = (dir as NSString).appendingPathComponent(ManifestSigner.signatureFileName)
        guard let sig = FileManager.default.contents(atPath: sigPath) else { return .failure(.missing) }
        let info: SSHSignatureInfo
        do { info = try SSHSignatureInfo.parse(Array(sig)) } catch SSHSignatureError.malformed(let why) {
            return .failure(.malformed(why))
        }
        let digest: [UInt8]
        do { let h = try SHA256(); try h.update(info.publicKey); digest = try h.finish() } catch {
            throw AppError.signingUnavailable(reason: "SHA-256 unavailable: \(error)")
        }
        let fp = SSHSignatureInfo.fingerprint(sha256: digest)
        guard info.namespace == SSHSignatureInfo.manifestNamespace else {
            return .failure(.wrongNamespace(info.namespace))
        }
        let found = try OpenSSH.keygen(["-Y", "find-principals", "-s", sigPath, "-f", allowedSigners], limit: OpenSSH.Limit.checking)
        let principals = found.out.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
        guard found.status == 0, !principals.isEmpty else {
            return .failure(.unknownSigner(keyType: info.keyType, fingerprint: fp, allowedSigners: allowedSigners))
        }
        for p in principals {
            let r = try OpenSSH.keygen(["-Y", "verify", "-f", allowedSigners, "-I", p, "-n", SSHSignatureInfo.manifestNamespace,
                                        "-s", sigPath], stdin: manifest, limit: OpenSSH.Limit.checking)
            if r.status == 0 { return .success(Signer(principal: p, keyType: info.keyType, fingerprint: fp)) }
        }
        return .failure(.doesNotMatch(principal: principals[0]))
    }

    /// Why a signature is refused; each has its own line.
    enum Refusal: Error, Equatable {
        case missing
        case malformed(String)
        case wrongNamespace(String)
        case unknownSigner(keyType: String, fingerprint: String, allowedSigners: String)
        case doesNotMatch(principal: String)

        var line: String {
            let sig = ManifestSigner.signatureFileName
            switch self {
            case .missing: return "\(sig): missing (the capture is not signed)"
            case .malformed(let why): return "\(sig): not an SSH signature (\(why))"
            case .wrongNamespace(let ns):
                return "\(sig): made for namespace '\(ns)', not '\(SSHSignatureInfo.manifestNamespace)'"
            case .unknownSigner(let t, let fp, let file):
                return "\(sig): signed by \(t) key \(fp), which \(file) does not list (wrong signer)"
            case .doesNotMatch(let p):
                return "\(Manifest.fileName): changed since it was signed (the signature by \(p) does not match it)"
            }
        }
    }
}
