import Foundation
import Testing
@testable import Localization

/// Builds a `bplist00` file from raw objects (marker + payload each), as CFBinaryPList.c lays it
/// out: header, objects, offset table, 32-byte trailer. Sizes can be overridden to forge bad files.
private struct BPlist {
    var objects: [[UInt8]]
    var top = 0
    var refSize = 1
    var offsetSize = 1
    var countOverride: UInt64?
    var tableOffsetOverride: UInt64?
    var offsetOverride: [Int: UInt64] = [:]

    var bytes: [UInt8] {
        var out = Array("bplist00".utf8)
        var offsets: [UInt64] = []
        for o in objects { offsets.append(UInt64(out.count)); out += o }
        let table = UInt64(out.count)
        for (k, off) in offsets.enumerated() { out += be(offsetOverride[k] ?? off, offsetSize) }
        out += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(refSize)]
        out += be(countOverride ?? UInt64(objects.count), 8) + be(UInt64(top), 8) + be(tableOffsetOverride ?? table, 8)
        return out
    }
}

private func be(_ v: UInt64, _ size: Int) -> [UInt8] { (0..<size).reversed().map { UInt8(truncatingIfNeeded: v >> (8 * UInt64($0))) } }
private func ascii(_ s: String) -> [UInt8] { [0x50 | UInt8(s.utf8.count)] + Array(s.utf8) }
private func dict(_ keys: [Int], _ values: [Int]) -> [UInt8] { [0xD0 | UInt8(keys.count)] + keys.map(UInt8.init) + values.map(UInt8.init) }
private func array(_ refs: [Int]) -> [UInt8] { [0xA0 | UInt8(refs.count)] + refs.map(UInt8.init) }

/// The `.binary` error of parsing `bytes`, or nil.
private func binaryError(_ bytes: [UInt8]) -> (offset: Int, expected: String)? {
    do { _ = try XMLPlist.parse(bytes, file: "b.plist"); return nil } catch let e as StringsFileError {
        if case .binary(let off, let expected) = e.reason { return (off, expected) }
        return nil
    } catch { return nil }
}

@Suite struct BinaryPlistTests {
    /// Foundation's own binary output for a stringsdict-like tree (shared strings, nested dicts,
    /// integers, reals, booleans, data, a date and non-ASCII text) reads back as Foundation reads it.
    @Test func readsWhatFoundationWrites() throws {
        let tree: [String: Any] = [
            "files": ["NSStringLocalizedFormatKey": "%#@n@", "n": ["NSStringFormatSpecTypeKey": "NSStringPluralRuleType",
                                                                    "NSStringFormatValueTypeKey": "d", "one": "%d plik", "few": "%d pliki"]],
            "ünïcødé 😀": "Ça va ? — 日本語", "int": 1 << 40, "neg": -5, "big": Int64.max, "real": 2.5, "yes": true, "no": false,
            "data": Data([0, 1, 2, 255]), "list": ["a", "a", ["b"]], "empty": [String: Any](), "date": Date(timeIntervalSinceReferenceDate: 0),
            "long": String(repeating: "x", count: 300),
        ]
        let data = try PropertyListSerialization.data(fromPropertyList: tree, format: .binary, options: 0)
        let ours = try XMLPlist.parse(Array(data), file: "t.plist")
        #expect(sameAsFoundation(ours, try PropertyListSerialization.propertyList(from: data, options: [], format: nil)))
        #expect(ours["date"] == .date("2001-01-01T00:00:00Z"))
        #expect(ours["big"] == .integer(Int.max))
    }

    /// A binary `.strings` table and a binary `.stringsdict` load through the normal readers.
    @Test func stringsAndStringsdict() throws {
        let strings = try PropertyListSerialization.data(fromPropertyList: ["a": "1", "b": "two"], format: .binary, options: 0)
        #expect(try StringsParser.parse(Array(strings), file: "L.strings").values == ["a": "1", "b": "two"])
        let sd: [String: Any] = ["k": ["NSStringLocalizedFormatKey": "%#@n@",
                                       "n": ["NSStringFormatSpecTypeKey": "NSStringPluralRuleType", "NSStringFormatValueTypeKey": "d",
                                             "one": "%d file", "other": "%d files"]]]
        let sdData = try PropertyListSerialization.data(fromPropertyList: sd, format: .binary, options: 0)
        let table = try StringsdictModel.parse(Array(sdData), file: "L.stringsdict")
        #expect(table.diagnostics.isEmpty)
        #expect(try TextFormatter.format(#require(table.entries["k"]), [.int(2)], locale: "en") == "2 files")
        // A binary file whose root is not a dictionary of strings is a `.strings` error.
        let arr = try PropertyListSerialization.data(fromPropertyList: ["a"], format: .binary, options: 0)
        #expect(throws: StringsFileError.self) { _ = try StringsParser.parse(Array(arr), file: "L.strings") }
    }

    /// Hand-built files: 1-, 2- and 4-byte offsets and references, a 0xF length, UTF-16 strings.
    @Test func handBuilt() throws {
        var p = BPlist(objects: [dict([1], [2]), ascii("key"), [0x63, 0x00, 0xE9, 0xD8, 0x3D, 0xDE, 0x00]])
        #expect(try XMLPlist.parse(p.bytes, file: "b") == .dict([("key", .string("é😀"))]))
        p.offsetSize = 4
        #expect(try XMLPlist.parse(p.bytes, file: "b") == .dict([("key", .string("é😀"))]))
        let long = String(repeating: "z", count: 20)
        let q = BPlist(objects: [[0xA1, 0x00, 0x01], [0x5F, 0x10, 20] + Array(long.utf8)], refSize: 2)
        #expect(try XMLPlist.parse(q.bytes, file: "b") == .array([.string(long)]))
    }

    /// Malformed files: each a `.binary` error at the byte that is wrong, naming what was expected.
    @Test func malformedFilesArePositionedErrors() throws {
        let good = BPlist(objects: [dict([1], [2]), ascii("k"), ascii("v")])
        let n = good.bytes.count
        #expect(try XMLPlist.parse(good.bytes, file: "b") == .dict([("k", .string("v"))]))
        // Header: another version.
        var v01 = good.bytes; v01[7] = UInt8(ascii: "1")
        #expect(binaryError(v01)?.offset == 7)
        // Truncated: no room for a trailer.
        #expect(binaryError(Array(good.bytes.prefix(20)))?.offset == 20)
        // Trailer sizes.
        var badSize = good.bytes; badSize[n - 32 + 6] = 0
        #expect(binaryError(badSize)?.offset == n - 26)
        badSize = good.bytes; badSize[n - 32 + 7] = 9
        #expect(binaryError(badSize)?.offset == n - 25)
        // Object count beyond the file, top object beyond the count, table outside the file.
        var p = good; p.countOverride = 1 << 40
        #expect(binaryError(p.bytes)?.offset == n - 24)
        p = good; p.countOverride = 0
        #expect(binaryError(p.bytes)?.expected.contains("object count") == true)
        p = good; p.top = 3
        #expect(binaryError(p.bytes)?.offset == n - 16)
        p = good; p.tableOffsetOverride = UInt64.max
        #expect(binaryError(p.bytes)?.offset == n - 8)
        // An offset pointing into the header or past the objects.
        p = good; p.offsetOverride = [1: 2]
        let tableStart = n - 32 - 3
        #expect(binaryError(p.bytes)?.offset == tableStart + 1)
        p = good; p.offsetOverride = [2: UInt64(tableStart)]
        #expect(binaryError(p.bytes)?.offset == tableStart + 2)
        // A reference beyond the object count.
        p = BPlist(objects: [dict([1], [7]), ascii("k"), ascii("v")])
        #expect(binaryError(p.bytes)?.offset == 8 + 2)
        // A string longer than the object area.
        p = BPlist(objects: [dict([1], [2]), ascii("k"), [0x5F, 0x10, 30, 0x41]])
        #expect(binaryError(p.bytes)?.expected.contains("ASCII string") == true)
        p = BPlist(objects: [dict([1], [2]), ascii("k"), [0x5F, 0x13] + be(UInt64.max, 8)])
        #expect(binaryError(p.bytes)?.offset == 14)
        // A non-string key, a UID, a null, a lone surrogate, a non-ASCII byte in an ASCII string.
        p = BPlist(objects: [dict([2], [1]), ascii("v"), [0x10, 0x05]])
        #expect(binaryError(p.bytes)?.offset == 9)
        p = BPlist(objects: [array([1]), [0x80, 0x01]])
        #expect(binaryError(p.bytes)?.expected.contains("UID") == true)
        p = BPlist(objects: [array([1]), [0x00]])
        #expect(binaryError(p.bytes)?.offset == 10)
        p = BPlist(objects: [array([1]), [0x61, 0xDC, 0x00]])
        #expect(binaryError(p.bytes)?.expected.contains("surrogate") == true)
        p = BPlist(objects: [array([1]), [0x51, 0xE9]])
        #expect(binaryError(p.bytes)?.offset == 11)
    }

    /// A container that contains itself is refused (never a hang or a stack overflow), and so
    /// is nesting deeper than `XMLPlist.maxDepth`.
    @Test func cyclesAndDepth() throws {
        let selfLoop = BPlist(objects: [array([0])])
        #expect(binaryError(selfLoop.bytes)?.expected.contains("cycle") == true)
        let twoLoop = BPlist(objects: [array([1]), dict([2], [0]), ascii("k")])
        #expect(binaryError(twoLoop.bytes)?.offset == 8)
        // 300 nested arrays (2-byte references).
        var objects: [[UInt8]] = []
        for k in 0..<300 { objects.append([0xA1] + be(UInt64(k + 1), 2)) }
        objects.append(ascii("leaf"))
        #expect(binaryError(BPlist(objects: objects, refSize: 2, offsetSize: 2).bytes)?.expected.contains("nesting") == true)
    }

    /// Shared collections that would expand exponentially (each array lists the next one twice)
    /// stop at the value budget instead of running for ever; a shared *string* is fine.
    @Test func sharedExpansionIsBounded() throws {
        var objects: [[UInt8]] = []
        for k in 0..<60 { objects.append(array([k + 1, k + 1])) }
        objects.append(ascii("x"))
        #expect(binaryError(BPlist(objects: objects).bytes)?.expected.contains("at most") == true)
        let shared = BPlist(objects: [array([1, 1, 1]), ascii("x")])
        #expect(try XMLPlist.parse(shared.bytes, file: "b") == .array([.string("x"), .string("x"), .string("x")]))
    }

    /// Every prefix and every single-byte change of a real file gives a value or a positioned
    /// error (never a crash); the fuzzer (`make fuzz`) does this at scale.
    @Test func mutationsNeverCrash() throws {
        let data = try PropertyListSerialization.data(fromPropertyList: ["a": ["b": [1, 2.5, "c"]], "d": "é"], format: .binary, options: 0)
        let bytes = Array(data)
        for len in 0..<bytes.count { _ = try? XMLPlist.parse(Array(bytes.prefix(len)), file: "b") }
        for i in bytes.indices {
            for v: UInt8 in [0x00, 0x0F, 0x7F, 0xFF] {
                var m = bytes; m[i] = v
                _ = try? XMLPlist.parse(m, file: "b")
            }
        }
    }

    /// The message of a binary error: file, byte offset and what was expected.
    @Test func messageShape() {
        let e = StringsFileError(file: "L.strings", line: 1, column: 1, reason: .binary(byteOffset: 42, expected: "an object reference below 3, found 7"))
        #expect(e.description == "L.strings: error: binary property list: at byte offset 42: expected an object reference below 3, found 7")
        #expect(Diagnostic(e).description == "L.strings: error: binary property list: at byte offset 42: expected an object reference below 3, found 7")
    }
}
