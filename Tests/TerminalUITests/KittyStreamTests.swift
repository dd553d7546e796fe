import Testing
import Foundation
import Glibc
@testable import TerminalUI
import TestSupport

/// Issue #27: kitty pictures that stay. Over a stream each frame used to replace image 1, so the
/// old picture vanished when the new upload began and the screen was black until it ended.
/// Now frames alternate between two image ids, the old one deleted only after the new one's
/// last chunk, and the pixels travel zlib-compressed (`o=z`).
@Suite struct KittyStreamTests {
    /// The APC commands of a stream: (control keys, payload) each.
    static func commands(_ bytes: [UInt8]) -> [(keys: String, payload: String)] {
        String(decoding: bytes, as: UTF8.self).components(separatedBy: "\u{1B}\\").compactMap { chunk in
            guard let r = chunk.range(of: "\u{1B}_G") else { return nil }
            let parts = chunk[r.upperBound...].split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
            return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
        }
    }

    static func picture(_ seed: Int) -> PreviewPicture {
        let img = PreviewImage(width: 60, height: 40, rgb: (0..<(60 * 40 * 3)).map { UInt8(truncatingIfNeeded: ($0 / 3 % 60) * 4 + seed) })
        return PreviewPicture(rect: CellRect(x: 2, y: 1, width: 12, height: 4), image: img, cellWidth: 5, cellHeight: 10)
    }

    /// zlib's inflate as the oracle (Python's zlib module, the same RFC 1950 the terminal reads).
    static func inflate(_ data: Data) throws -> [UInt8]? {
        let candidates: [String] = ["/usr/bin/python3", "/bin/python3"]
        guard let py = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else { return nil }
        let r = try ChildProcess.run(py, ["-c", "import sys,zlib; sys.stdout.buffer.write(zlib.decompress(sys.stdin.buffer.read()))"],
                                     stdin: .data(data), timeout: 30)
        return r.code == 0 ? Array(r.out) : nil
    }

    @Test func kittyFramesAlternateImageIdsAndDeleteTheOldOnlyAfterTheNewArrived() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        let placer = PicturePlacer(mode: .kitty, fd: fds[1], tmux: false, environment: ["SSH_CONNECTION": "x"])
        func read() -> [UInt8] {
            var buf = [UInt8](repeating: 0, count: 1 << 16)
            let flags = fcntl(fds[0], F_GETFL); _ = fcntl(fds[0], F_SETFL, flags | O_NONBLOCK)
            let n = Glibc.read(fds[0], &buf, buf.count)
            return n > 0 ? Array(buf.prefix(n)) : []
        }
        var ids: [Int] = []
        for frame in 0..<4 {
            placer.place(Self.picture(frame), force: false, drained: true)
            let cmds = Self.commands(read())
            let first = try #require(cmds.first)
            let id = try #require(first.keys.split(separator: ",").first { $0.hasPrefix("i=") }.flatMap { Int($0.dropFirst(2)) })
            ids.append(id)
            #expect(first.keys.hasPrefix("a=T,i=\(id),p=1,f=24,s=60,v=40,c=12,r=4,C=1,q=2,t=d,o=z,"), "\(first.keys)")
            // The transfer's chunks, then (from the second frame) the delete of the other id: last.
            let upload = cmds.prefix { !$0.keys.hasPrefix("a=d") }
            #expect(upload.last?.keys.hasSuffix("m=0") == true)
            if frame == 0 {
                #expect(upload.count == cmds.count, "nothing to delete before the first picture")
            } else {
                #expect(cmds.count == upload.count + 1)
                #expect(cmds.last?.keys == "a=d,d=I,i=\(KittyGraphics.otherID(id)),q=2")
            }
            // The payload inflates to the picture's RGB exactly.
            let z = try #require(Data(base64Encoded: upload.map(\.payload).joined()))
            #expect(z.count < 60 * 40 * 3, "compressed")
            if let raw = try Self.inflate(z) { #expect(raw == Self.picture(frame).image.rgb) }
        }
        #expect(ids == [1, 2, 1, 2])
        // Clearing deletes both ids.
        placer.clear()
        let end = Self.commands(read()).map(\.keys)
        #expect(end == ["a=d,d=I,i=1,q=2", "a=d,d=I,i=2,q=2"])
    }
}
