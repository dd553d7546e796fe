import Foundation

/// What an SSH signature file (`manifest.json.sig`, OpenSSH's SSHSIG format) says about itself,
/// read without checking it: the signing key and the namespace. Checking is OpenSSH's
/// (`ssh-keygen -Y verify`); this only lets `verify` name the key of a signer that the allowed
/// signers do not list, and name a signature made for another namespace.
///
/// Format: OpenSSH `PROTOCOL.sshsig` — an armored blob between
/// `-----BEGIN SSH SIGNATURE-----` and `-----END SSH SIGNATURE-----`, base64 of
/// `"SSHSIG" || uint32 version (1) || string publickey || string namespace || string reserved ||
/// string hash_algorithm || string signature` (RFC 4251 `string`: uint32 length, then bytes).
public struct SSHSignatureInfo: Equatable, Sendable {
    /// The namespace every selfie-capture manifest signature is made in (`ssh-keygen -Y sign -n`).
    /// A signature made for another purpose (e.g. `git`, `file`) does not verify in this one.
    public static let manifestNamespace = "selfie-capture-manifest@v1"

    /// The public key's type, e.g. `ssh-ed25519`, `sk-ssh-ed25519@openssh.com`.
    public var keyType: String
    /// The public key blob (SSH wire format), whose SHA-256 is the key's fingerprint.
    public var publicKey: [UInt8]
    public var namespace: String
    /// `sha512` or `sha256`.
    public var hashAlgorithm: String

    /// Reads an armored SSHSIG.
    /// - Throws: `SSHSignatureError.malformed` with what is wrong (no armor, bad base64, wrong
    ///   magic or version, a field running past the end).
    public static func parse(_ text: [UInt8]) throws -> SSHSignatureInfo {
        let s = String(decoding: text, as: UTF8.self)
        let begin = "-----BEGIN SSH SIGNATURE-----", end = "-----END SSH SIGNATURE-----"
        guard let b = s.range(of: begin), let e = s.range(of: end, range: b.upperBound..<s.endIndex) else {
            throw SSHSignatureError.malformed("no '\(begin)' … '\(end)' armor")
        }
        let body = s[b.upperBound..<e.lowerBound].filter { !$0.isWhitespace }
        guard let data = Data(base64Encoded: String(body)) else { throw SSHSignatureError.malformed("the armored body is not base64") }
        var r = WireReader(bytes: Array(data))
        guard try r.raw(6) == Array("SSHSIG".utf8) else { throw SSHSignatureError.malformed("no SSHSIG magic") }
        let version = try r.uint32()
        guard version == 1 else { throw SSHSignatureError.malformed("unsupported SSHSIG version \(version)") }
        let key = try r.string()
        let namespace = String(decoding: try r.string(), as: UTF8.self)
        _ = try r.string()   // reserved
        let hash = String(decoding: try r.string(), as: UTF8.self)
        _ = try r.string()   // signature
        var k = WireReader(bytes: key)
        let type = String(decoding: try k.string(), as: UTF8.self)
        return SSHSignatureInfo(keyType: type, publicKey: key, namespace: namespace, hashAlgorithm: hash)
    }

    /// `SHA256:` and the unpadded base64 of `digest` (the SHA-256 of `publicKey`), as
    /// `ssh-keygen -l` prints a fingerprint.
    public static func fingerprint(sha256 digest: [UInt8]) -> String {
        "SHA256:" + Data(digest).base64EncodedString().replacingOccurrences(of: "=", with: "")
    }

    struct WireReader {
        let bytes: [UInt8]
        var at = 0
        mutating func raw(_ n: Int) throws -> [UInt8] {
            guard n >= 0, bytes.count - at >= n else { throw SSHSignatureError.malformed("truncated at byte \(at)") }
            defer { at += n }
            return Array(bytes[at..<at + n])
        }
        mutating func uint32() throws -> Int {
            try raw(4).reduce(0) { $0 << 8 | Int($1) }
        }
        mutating func string() throws -> [UInt8] { try raw(try uint32()) }
    }
}

/// A signature file that is not an SSHSIG.
public enum SSHSignatureError: Error, Equatable, Sendable {
    case malformed(String)
}
