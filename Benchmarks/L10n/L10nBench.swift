// Parser benchmark (built by Benchmarks/l10n.sh with `swiftc -O`, not a SwiftPM target):
// parses every corpus file with our parsers and with Foundation's PropertyListSerialization in
// the same run, and prints the time of each and the ratio (anchor: PropertyListSerialization).
import Foundation

@main
struct L10nBench {
    static func main() throws {
        let args = CommandLine.arguments.dropFirst()
        guard let dir = args.first else { print("usage: l10n-bench CORPUS_DIR [ROUNDS]"); return }
        let rounds = args.dropFirst().first.flatMap(Int.init) ?? 20
        var files: [(name: String, bytes: [UInt8], dict: Bool)] = []
        let fm = FileManager.default
        for case let rel as String in fm.enumerator(atPath: dir)! {
            let isStrings = rel.hasSuffix(".strings"), isDict = rel.hasSuffix(".stringsdict")
            guard isStrings || isDict, !rel.contains("BROKEN-") else { continue }
            guard let d = fm.contents(atPath: dir + "/" + rel) else { continue }
            let bytes = Array(d)
            // Only files both parsers accept (skips known-invalid files; binary plists are in).
            let ours: Bool = isDict ? ((try? XMLPlist.parse(bytes, file: rel)) != nil) : ((try? StringsParser.parse(bytes, file: rel)) != nil)
            let theirs = (try? PropertyListSerialization.propertyList(from: d, options: [], format: nil)) != nil
            if ours && theirs { files.append((rel, bytes, isDict)) }
        }
        let datas = files.map { Data($0.bytes) }
        let totalBytes = files.reduce(0) { $0 + $1.bytes.count }
        print("l10n-bench: \(files.count) files, \(totalBytes / 1024) KiB, \(rounds) rounds (anchor and ours alternating), best round of each")
        let clock = ContinuousClock()
        // The anchor and ours run alternately, round by round, so both see the same load on a
        // shared machine; the best round of each is kept.
        func bestPair(_ anchor: () -> Int, _ candidate: () -> Int) -> (anchor: (Duration, Int), ours: (Duration, Int)) {
            var a = Duration.seconds(1_000_000), b = Duration.seconds(1_000_000)
            var sa = 0, sb = 0
            for _ in 0..<rounds {
                var t0 = clock.now
                sa &+= anchor()
                a = min(a, clock.now - t0)
                t0 = clock.now
                sb &+= candidate()
                b = min(b, clock.now - t0)
            }
            return ((a, sa), (b, sb))
        }
        let (textAnchor, textOurs) = bestPair({
            var n = 0
            for d in datas {
                if let p = try? PropertyListSerialization.propertyList(from: d, options: [], format: nil) as? [String: Any] { n &+= p.count }
            }
            return n
        }, {
            var n = 0
            for f in files {
                if f.dict {
                    if case .dict(let e)? = try? XMLPlist.parse(f.bytes, file: f.name) { n &+= e.count }
                } else if let t = try? StringsParser.parse(f.bytes, file: f.name) {
                    n &+= t.values.count
                }
            }
            return n
        })
        let (foundation, s1) = textAnchor
        let (ours, s2) = textOurs
        func ms(_ d: Duration) -> Double { Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15 }
        print(String(format: "PropertyListSerialization (anchor): %8.2f ms  (%d entries)", ms(foundation), s1 / rounds))
        print(String(format: "pure-Swift parsers:                 %8.2f ms  (%d entries)", ms(ours), s2 / rounds))
        print(String(format: "ratio: ours is %.2fx faster than PropertyListSerialization (goal >= 4x)", ms(foundation) / ms(ours)))
        // The same tables as Foundation writes them in binary (`bplist00`): the binary reader alone.
        let binaries = datas.compactMap { d -> Data? in
            guard let p = try? PropertyListSerialization.propertyList(from: d, options: [], format: nil) else { return nil }
            return try? PropertyListSerialization.data(fromPropertyList: p, format: .binary, options: 0)
        }
        let binaryBytes = binaries.map { Array($0) }
        let (binaryAnchor, binaryOurs) = bestPair({
            var n = 0
            for d in binaries {
                if let p = try? PropertyListSerialization.propertyList(from: d, options: [], format: nil) as? [String: Any] { n &+= p.count }
            }
            return n
        }, {
            var n = 0
            for b in binaryBytes { if case .dict(let e)? = try? BinaryPlist.parse(b, file: "b") { n &+= e.count } }
            return n
        })
        let (bFoundation, b1) = binaryAnchor
        let (bOurs, b2) = binaryOurs
        print(String(format: "binary plists (%d, written by Foundation): PropertyListSerialization %.2f ms (%d entries), ours %.2f ms (%d entries): %.2fx",
                     binaries.count, ms(bFoundation), b1 / rounds, ms(bOurs), b2 / rounds, ms(bFoundation) / ms(bOurs)))
    }
}
