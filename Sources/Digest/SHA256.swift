import CCrypto
#if canImport(Glibc)
import Glibc
#endif

/// Errors of the digest layer, each naming the call that failed (DESIGN.md "C").
public enum DigestError: Error, Equatable, Sendable {
    /// An OpenSSL EVP call failed (`EVP_MD_CTX_new`/`EVP_DigestInit_ex`, `EVP_DigestUpdate`,
    /// `EVP_DigestFinal_ex`), or the digest was used after `finish()`.
    case evp(String)
    /// `open(2)` of a file to hash failed.
    case open(path: String, errno: Int32)
    /// `read(2)` of a file to hash failed.
    case read(path: String, errno: Int32)
    /// The path is not a regular file (a folder, device, socket…).
    case notARegularFile(path: String)
    /// libcrypto (dlopened on first use, issue #28) could not be loaded: its name and dlerror's words.
    case library(String, String)
}

/// SHA-256 (FIPS 180-4) computed by OpenSSL's libcrypto through the `CCrypto` shim, streaming:
/// `update` any number of times, then `finish` once. Owns its EVP context (freed on deinit).
///
/// Tested against the FIPS 180-2 appendix B / NIST CAVP vectors ("abc", the empty message, the
/// 448-bit message, one million "a").
public final class SHA256 {
    /// Digest length in bytes.
    public static let byteCount = 32

    private var context: OpaquePointer?

    /// A fresh digest.
    /// - Throws: `DigestError.evp("EVP_DigestInit_ex")` when OpenSSL cannot set one up.
    public init() throws {
        if let why = ccrypto_load() { throw DigestError.library(CCRYPTO_LIBRARY, String(cString: why)) }
        guard let c = ccrypto_sha256_new() else { throw DigestError.evp("EVP_DigestInit_ex") }
        context = c
    }

    deinit { ccrypto_sha256_free(context) }

    /// Adds `bytes` to the message.
    /// - Throws: `DigestError.evp("EVP_DigestUpdate")`.
    public func update(_ bytes: UnsafeRawBufferPointer) throws {
        guard let c = context else { throw DigestError.evp("EVP_DigestUpdate (after finish)") }
        guard bytes.count > 0 else { return }
        guard ccrypto_sha256_update(c, bytes.baseAddress, bytes.count) == 1 else { throw DigestError.evp("EVP_DigestUpdate") }
    }

    /// Adds `bytes` to the message.
    public func update(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try update($0) }
    }

    /// Ends the message and returns its 32-byte digest; the object cannot be used afterwards.
    /// - Throws: `DigestError.evp("EVP_DigestFinal_ex")`.
    public func finish() throws -> [UInt8] {
        guard let c = context else { throw DigestError.evp("EVP_DigestFinal_ex (after finish)") }
        var out = [UInt8](repeating: 0, count: Self.byteCount)
        let ok = out.withUnsafeMutableBufferPointer { ccrypto_sha256_final(c, $0.baseAddress) }
        ccrypto_sha256_free(c)
        context = nil
        guard ok == 1 else { throw DigestError.evp("EVP_DigestFinal_ex") }
        return out
    }

    /// The digest of `bytes`, in lowercase hex (64 characters).
    public static func hex(of bytes: [UInt8]) throws -> String {
        let d = try SHA256()
        try d.update(bytes)
        return hex(try d.finish())
    }

    /// `digest` as lowercase hex, two characters a byte.
    public static func hex(_ digest: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(digest.count * 2)
        for b in digest { out.append(digits[Int(b >> 4)]); out.append(digits[Int(b & 15)]) }
        return String(decoding: out, as: UTF8.self)
    }

    /// Chunk size used to stream files: 64 KiB, so a large video never sits in memory whole.
    public static let fileChunkBytes = 1 << 16

    /// Size and SHA-256 of a regular file, read in `chunkBytes` pieces.
    /// - Returns: the bytes read and the digest in lowercase hex.
    /// - Throws: `DigestError.open`, `.read`, `.notARegularFile`, `.evp`.
    public static func file(_ path: String, chunkBytes: Int = fileChunkBytes) throws -> (bytes: Int, sha256: String) {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw DigestError.open(path: path, errno: errno) }
        defer { Glibc.close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw DigestError.read(path: path, errno: errno) }
        guard (st.st_mode & S_IFMT) == S_IFREG else { throw DigestError.notARegularFile(path: path) }
        let d = try SHA256()
        var buffer = [UInt8](repeating: 0, count: max(1, chunkBytes))
        var total = 0
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw DigestError.read(path: path, errno: errno)
            }
            if n == 0 { break }
            try buffer.withUnsafeBytes { try d.update(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
            total += n
        }
        return (total, hex(try d.finish()))
    }

    /// The OpenSSL version string (for diagnostics).
    public static var libraryVersion: String { ccrypto_version().map { String(cString: $0) } ?? "libcrypto not loaded" }

    /// Whether libcrypto was loaded in this process (it is dlopened by the first digest).
    public static var libraryLoaded: Bool { ccrypto_is_loaded() != 0 }
}
