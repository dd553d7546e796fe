// Nested plural validation benchmark (built by Benchmarks/l10n-nesting.sh with `swiftc -O`,
// not a SwiftPM target). Issue #14: a valid 3.4 KB .stringsdict with 8 nested variables took
// 13-16 s to validate (categories^depth paths). Generated files: one entry whose variables
// v0…v(n-1) each have all six categories referring to the next. Prints, per file, the time to
// parse the XML (XMLPlist), to validate (StringsdictModel.parse: parse + checks), the ratio of
// the two, and Foundation's PropertyListSerialization parsing the same bytes as the anchor.
import Foundation

@main
struct NestedPluralBench {
    static func file(levels: Int) -> String {
        let cats = ["zero", "one", "two", "few", "many", "other"]
        var s = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n<key>k</key>\n<dict>\n"
        s += "<key>NSStringLocalizedFormatKey</key><string>%1$#@v0@</string>\n"
        for i in 0..<levels {
            s += "<key>v\(i)</key>\n<dict>\n<key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>\n"
            s += "<key>NSStringFormatValueTypeKey</key><string>d</string>\n"
            for c in cats {
                s += "<key>\(c)</key><string>\(c)\(i)" + (i + 1 < levels ? " %\(i + 2)$#@v\(i + 1)@" : "") + "</string>\n"
            }
            s += "</dict>\n"
        }
        return s + "</dict>\n</dict>\n</plist>\n"
    }

    static func main() throws {
        let rounds = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 200
        let clock = ContinuousClock()
        func ms(_ d: Duration) -> Double { Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15 }
        func best(_ body: () -> Int) -> (Double, Int) {
            var b = Duration.seconds(1_000_000), sink = 0
            for _ in 0..<rounds {
                let t0 = clock.now
                sink &+= body()
                b = min(b, clock.now - t0)
            }
            return (ms(b), sink)
        }
        print("nested-plural-bench: best of \(rounds) rounds; before issue #14, validating the 8-level file took 13-16 s")
        for levels in [8, 10] {
            let bytes = Array(file(levels: levels).utf8)
            let data = Data(bytes)
            let (foundation, _) = best { ((try? PropertyListSerialization.propertyList(from: data, options: [], format: nil)) as? [String: Any])?.count ?? 0 }
            let (parse, _) = best { if case .dict(let e)? = try? XMLPlist.parse(bytes, file: "n") { return e.count }; return 0 }
            var diagnostics = 0
            let (validate, _) = best {
                guard let t = try? StringsdictModel.parse(bytes, file: "n") else { return 0 }
                diagnostics = t.diagnostics.count
                return t.entries.count
            }
            print(String(format: "%2d levels (%.1f KB, %d diagnostic(s)): validate %.3f ms = %.2fx our XML parse (%.3f ms); PropertyListSerialization parse %.3f ms (anchor): validate/anchor %.2fx",
                         levels, Double(bytes.count) / 1024, diagnostics, validate, validate / parse, parse, foundation, validate / foundation))
        }
    }
}
