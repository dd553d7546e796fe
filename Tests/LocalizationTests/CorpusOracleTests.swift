import Foundation
import Testing
import TestSupport
@testable import Localization

/// One row of `../shared/corpus/strings/SOURCES.tsv`.
struct CorpusFile: CustomStringConvertible, Sendable {
    var local: String
    var kind: String
    var encoding: String
    var notes: String
    var path: String
    var description: String { local }

    /// Broken files: `BROKEN-` in the name, or a `.strings` row whose notes start with "invalid:".
    var isNegative: Bool {
        local.contains("BROKEN-") || (kind == "strings" && (notes.hasPrefix("invalid:") || notes.contains("not a strings file")))
    }
    var isBinary: Bool { encoding == "binary-plist" }

    static let all: [CorpusFile] = {
        guard let dir = TestSupport.shared("corpus/strings"),
              let tsv = try? String(contentsOfFile: dir + "/SOURCES.tsv", encoding: .utf8) else { return [] }
        return tsv.split(separator: "\n").dropFirst().compactMap { line in
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard f.count >= 10 else { return nil }
            return CorpusFile(local: f[0], kind: f[7], encoding: f[6], notes: f[9], path: dir + "/" + f[0])
        }
    }()
}

/// Our value compared with what Foundation's PropertyListSerialization returned.
func sameAsFoundation(_ ours: PlistValue, _ theirs: Any) -> Bool {
    switch ours {
    case .string(let s): return (theirs as? String) == s
    case .integer(let i): return (theirs as? NSNumber)?.intValue == i
    case .real(let d): return (theirs as? NSNumber)?.doubleValue == d
    case .bool(let b): return (theirs as? Bool) == b
    case .date: return theirs is Date
    case .data(let d): return (theirs as? Data).map { Array($0) } == d
    case .array(let a):
        guard let t = theirs as? [Any], t.count == a.count else { return false }
        return zip(a, t).allSatisfy { sameAsFoundation($0, $1) }
    case .dict(let e):
        guard let t = theirs as? [String: Any], t.count == e.count else { return false }
        return e.allSatisfy { k, v in t[k].map { sameAsFoundation(v, $0) } ?? false }
    }
}

@Suite struct CorpusOracleTests {
    static let valid = CorpusFile.all.filter { !$0.isNegative && !$0.isBinary }
    static let broken = CorpusFile.all.filter { $0.isNegative }

    /// Every valid corpus file parses to exactly what Foundation's PropertyListSerialization gives.
    @Test(.enabled(if: !CorpusFile.all.isEmpty, "../shared/corpus/strings absent"), arguments: valid)
    func matchesFoundation(file: CorpusFile) throws {
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: file.path)))
        let ours: PlistValue
        if file.kind == "strings" {
            let t = try StringsParser.parse(bytes, file: file.local)
            ours = .dict(t.order.map { ($0, .string(t.values[$0] ?? "")) })
        } else {
            ours = try XMLPlist.parse(bytes, file: file.local)
        }
        let theirs: Any
        do {
            theirs = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)
        } catch {
            // Foundation rejects files with no entries (empty, blank, comment-only); ours is an empty table.
            #expect(ours == .dict([]), "Foundation failed (\(error)) but we parsed entries")
            return
        }
        #expect(sameAsFoundation(ours, theirs), "differs from Foundation")
    }

    /// Every broken corpus file gives a positioned error.
    @Test(.enabled(if: !CorpusFile.all.isEmpty, "../shared/corpus/strings absent"), arguments: broken)
    func brokenFileIsPositionedError(file: CorpusFile) throws {
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: file.path)))
        #expect(throws: StringsFileError.self) {
            if file.kind == "strings" { _ = try StringsParser.parse(bytes, file: file.local) } else { _ = try XMLPlist.parse(bytes, file: file.local) }
        }
    }

    /// Every binary-plist corpus file reads exactly as Foundation reads it.
    @Test(.enabled(if: !CorpusFile.all.isEmpty, "../shared/corpus/strings absent"), arguments: CorpusFile.all.filter(\.isBinary))
    func binaryPlistMatchesFoundation(file: CorpusFile) throws {
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: file.path)))
        let theirs = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)
        #expect(sameAsFoundation(try XMLPlist.parse(bytes, file: file.local), theirs), "plist differs from Foundation")
        if file.kind == "strings" {
            let t = try StringsParser.parse(bytes, file: file.local)
            #expect(t.encoding == .binary)
            #expect(sameAsFoundation(.dict(t.order.map { ($0, .string(t.values[$0] ?? "")) }), theirs), "table differs from Foundation")
        }
    }

    /// Every valid text corpus file, written as a binary plist by Foundation, reads back 1:1.
    @Test(.enabled(if: !CorpusFile.all.isEmpty, "../shared/corpus/strings absent"), arguments: valid)
    func foundationBinaryReadsBack(file: CorpusFile) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: file.path))
        guard let theirs = try? PropertyListSerialization.propertyList(from: data, options: [], format: nil) else { return }
        let binary = try PropertyListSerialization.data(fromPropertyList: theirs, format: .binary, options: 0)
        #expect(binary.starts(with: Array("bplist00".utf8)))
        let ours = try XMLPlist.parse(Array(binary), file: file.local)
        #expect(sameAsFoundation(ours, theirs), "binary read back differs from Foundation")
        if file.kind == "strings" {
            let t = try StringsParser.parse(Array(binary), file: file.local)
            let text = try StringsParser.parse(Array(data), file: file.local)
            #expect(t.values == text.values, "binary and text tables differ")
        }
    }
}
