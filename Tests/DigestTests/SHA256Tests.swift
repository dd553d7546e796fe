import Digest
import Foundation
import Glibc
import Testing
import TestSupport

/// SHA-256 through OpenSSL against the FIPS 180-2 appendix B test vectors (also NIST CAVP's
/// short/long messages), whole and streamed in chunks, and files against `sha256sum`.
@Suite struct SHA256Tests {
    static let vectors: [(name: String, message: [UInt8], hex: String)] = [
        ("abc", Array("abc".utf8), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("empty", [], "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("448-bit", Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8),
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        ("million a", [UInt8](repeating: 0x61, count: 1_000_000),
         "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"),
    ]

    @Test(arguments: 0..<vectors.count)
    func fipsVectorWhole(index: Int) throws {
        let v = Self.vectors[index]
        #expect(try SHA256.hex(of: v.message) == v.hex, "\(v.name)")
    }

    /// The same digests fed in uneven pieces (1, 7, 64, 1000 and 65 537 bytes), as files are.
    @Test(arguments: [1, 7, 64, 1000, 65_537])
    func fipsVectorsStreamed(chunk: Int) throws {
        for v in Self.vectors where v.message.count <= 1000 || chunk >= 64 {
            let d = try SHA256()
            var i = 0
            while i < v.message.count {
                try d.update(Array(v.message[i..<min(v.message.count, i + chunk)]))
                i += chunk
            }
            #expect(SHA256.hex(try d.finish()) == v.hex, "\(v.name) in \(chunk)-byte pieces")
        }
    }

    @Test func finishTwiceThrows() throws {
        let d = try SHA256()
        _ = try d.finish()
        #expect(throws: DigestError.self) { _ = try d.finish() }
        #expect(throws: DigestError.self) { try d.update([1]) }
    }

    /// A file of one million 'a' hashed in small and default chunks gives the FIPS digest;
    /// a 3 MB pseudo-random file agrees with `sha256sum`.
    @Test func filesStreamInChunks() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sha-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let a = dir + "/a"
        try Data(repeating: 0x61, count: 1_000_000).write(to: URL(fileURLWithPath: a))
        for chunk in [4096, SHA256.fileChunkBytes] {
            let r = try SHA256.file(a, chunkBytes: chunk)
            #expect(r.bytes == 1_000_000 && r.sha256 == Self.vectors[3].hex)
        }
        var rng = SplitMix(seed: 12)
        let big = dir + "/big"
        try Data((0..<3_000_001).map { _ in UInt8(truncatingIfNeeded: rng.next()) }).write(to: URL(fileURLWithPath: big))
        let oracle = try ChildProcess.run("/usr/bin/sha256sum", [big], timeout: 60)
        let expected = String(decoding: oracle.out, as: UTF8.self).split(separator: " ").first.map(String.init)
        #expect(oracle.code == 0 && expected?.count == 64)
        let r = try SHA256.file(big)
        #expect(r.bytes == 3_000_001 && r.sha256 == expected)
    }

    @Test func fileErrorsNameThePath() throws {
        #expect(throws: DigestError.open(path: "/nonexistent/x", errno: ENOENT)) { _ = try SHA256.file("/nonexistent/x") }
        #expect(throws: DigestError.notARegularFile(path: "/tmp")) { _ = try SHA256.file("/tmp") }
    }
}
