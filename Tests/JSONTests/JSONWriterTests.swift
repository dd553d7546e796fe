import Foundation
import JSON
import Testing
import TestSupport

/// The one JSON writer against Foundation's reader and writer (the oracle): generated values
/// round-trip, RFC 8259's escapes, the number rules, sorted keys, Foundation's pretty layout.
@Suite struct JSONWriterTests {
    /// Reads `text` with Foundation's JSONDecoder into a `JSONValue` (its Decodable).
    static func oracle(_ text: String) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }

    /// A random scalar from all of Unicode's planes, controls, quotes and `/` favoured.
    static func scalar(_ r: inout SplitMix) -> Unicode.Scalar {
        let special: [UInt32] = [0x00, 0x01, 0x08, 0x09, 0x0A, 0x0C, 0x0D, 0x1F, 0x20, 0x22, 0x2F, 0x5C, 0x7F,
                                 0xE9, 0x2028, 0x2029, 0xFEFF, 0xFFFD, 0x1F600, 0x10FFFF]
        switch r.next() % 4 {
        case 0: return Unicode.Scalar(special[Int(r.next() % UInt64(special.count))])!
        case 1: return Unicode.Scalar(UInt32(0x20 + r.next() % 0x5F))!
        default:
            while true {
                if let u = Unicode.Scalar(UInt32(r.next() % 0x110000)) { return u }   // not a surrogate
            }
        }
    }

    static func string(_ r: inout SplitMix) -> String {
        var s = String.UnicodeScalarView()
        for _ in 0..<Int(r.next() % 12) { s.append(scalar(&r)) }
        return String(s)
    }

    static func double(_ r: inout SplitMix) -> Double {
        switch r.next() % 4 {
        case 0: return Double(Int64(bitPattern: r.next()) % 100_000) / 100          // two decimals
        case 1: return Double(Int64(bitPattern: r.next()) >> 8)                      // whole, up to 2^55
        case 2: return (r.uniform() - 0.5) * pow(10, Double(Int(r.next() % 600) - 300))
        default:
            while true {
                let d = Double(bitPattern: r.next())                               // any finite double
                if d.isFinite { return d }
            }
        }
    }

    static func value(_ r: inout SplitMix, depth: Int) -> JSONValue {
        switch r.next() % (depth > 3 ? 6 : 8) {
        case 0: return .null
        case 1: return .bool(r.next() % 2 == 0)
        case 2: return .int(r.next() % 3 == 0 ? Int(bitPattern: UInt(r.next())) : Int(Int64(bitPattern: r.next()) % 1000))
        case 3: return .double(double(&r))
        case 4, 5: return .string(string(&r))
        case 6: return .array((0..<Int(r.next() % 5)).map { _ in value(&r, depth: depth + 1) })
        default:
            var seen = Set<String>()
            var members: [JSONMember] = []
            for _ in 0..<Int(r.next() % 5) {
                let k = string(&r)
                if seen.insert(k).inserted { members.append(JSONMember(k, value(&r, depth: depth + 1))) }
            }
            return .object(members)
        }
    }

    /// 2,000 generated values, each written in the four ways, read back by Foundation to the
    /// same value (numbers by value, object members whatever their order).
    @Test func generatedValuesRoundTripThroughFoundation() throws {
        var r = SplitMix(seed: 26)
        for _ in 0..<2000 {
            let v = Self.value(&r, depth: 0)
            for keys in [JSONWriter.KeyOrder.sorted, .asGiven] {
                for layout in [JSONWriter.Layout.compact, .pretty] {
                    let text = JSONWriter.text(v, keys: keys, layout: layout)
                    let back = try Self.oracle(text)
                    #expect(back == v, "\(text)")
                    // JSONSerialization accepts it too (another reader).
                    #expect((try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])) != nil, "\(text)")
                }
            }
        }
    }

    /// RFC 8259 §7: `"`, `\` and U+0000–U+001F must be escaped; the rest may stand as it is.
    @Test func escapesWhatRFC8259Requires() throws {
        for c in UInt32(0)..<0x20 {
            let s = String(Character(Unicode.Scalar(c)!))
            let text = JSONWriter.string(s)
            let expected = [0x0A: "\\n", 0x0D: "\\r", 0x09: "\\t"][Int(c)] ?? String(format: "\\u%04x", c)
            #expect(text == "\"" + expected + "\"")
            #expect(try Self.oracle(text) == .string(s))
        }
        #expect(JSONWriter.string("a\"b\\c") == #""a\"b\\c""#)
        #expect(JSONWriter.string("x/y") == #""x/y""#)                 // `/` needs no escape
        #expect(JSONWriter.string("é😀\u{7F}") == "\"é😀\u{7F}\"")      // UTF-8 as it is
        #expect(JSONWriter.string("\u{2028}\u{2029}") == #""\u2028\u2029""#)
        #expect(try Self.oracle(JSONWriter.string("\u{2028}é/")) == .string("\u{2028}é/"))
    }

    /// Numbers: ints as digits, whole doubles below 10¹⁵ as integers, others as Swift's
    /// shortest round-trip text, non-finite as null.
    @Test func numbers() throws {
        let cases: [(JSONValue, String)] = [
            (.int(Int.min), "-9223372036854775808"), (.int(0), "0"), (.double(30), "30"), (.double(-0.0), "0"),
            (.double(0.1), "0.1"), (.double(1e-5), "1e-05"), (.double(1e15), "1000000000000000.0"), (.double(1e16), "1e+16"), (.double(999_999_999_999_999), "999999999999999"),
            (.double(1.0 / 3), "0.3333333333333333"), (.double(.nan), "null"), (.double(.infinity), "null"),
            (.double(-.infinity), "null"), (.double(5e-324), "5e-324"), (.double(.greatestFiniteMagnitude), "1.7976931348623157e+308"),
        ]
        for (v, text) in cases {
            #expect(JSONWriter.text(v) == text)
            if case .double(let d) = v, d.isFinite { #expect(try Self.oracle(text).doubleValue == d) }
        }
    }

    /// Keys sorted by their UTF-8 bytes (code points) at every depth; `.asGiven` keeps the order
    /// given. Foundation's `.sortedKeys` agrees on keys of one case (on Linux it puts `a` before
    /// `B`, a localized order; code points are the same on every machine).
    @Test func sortedKeys() throws {
        let v: JSONValue = ["b": 1, "a": ["z": true, "Z": false, "é": nil], "B": [["y": 1, "x": 2]], "aa": "s"]
        #expect(JSONWriter.text(v) == #"{"B":[{"x":2,"y":1}],"a":{"Z":false,"z":true,"é":null},"aa":"s","b":1}"#)
        #expect(JSONWriter.text(v, keys: .asGiven) == #"{"b":1,"a":{"z":true,"Z":false,"é":null},"B":[{"y":1,"x":2}],"aa":"s"}"#)
        let foundation = try JSONSerialization.data(withJSONObject: ["b": 1, "a": ["z": true, "y": false], "c": [["y": 1, "x": 2]], "aa": "s"] as [String: Any],
                                                    options: [.sortedKeys])
        let ours = JSONWriter.text(["b": 1, "a": ["z": true, "y": false], "c": [["y": 1, "x": 2]], "aa": "s"])
        #expect(ours == String(decoding: foundation, as: UTF8.self))
    }

    /// The pretty layout is Foundation's `.prettyPrinted` (Xcode writes catalogs the same way),
    /// empty containers included.
    @Test func prettyLayoutIsFoundations() throws {
        let any: [String: Any] = ["name": "x", "n": 3, "d": 2.5, "empty": [Any](), "none": [String: Any](), "nested": ["k": [1, [2, 3]]],
                                  "flag": false, "nothing": NSNull()]
        let v: JSONValue = ["name": "x", "n": 3, "d": 2.5, "empty": [], "none": .object([]), "nested": ["k": [1, [2, 3]]],
                            "flag": false, "nothing": nil]
        let foundation = try JSONSerialization.data(withJSONObject: any, options: [.prettyPrinted, .sortedKeys])
        #expect(JSONWriter.text(v, layout: .pretty) == String(decoding: foundation, as: UTF8.self))
    }

    /// A Codable document through `JSONValueEncoder` writes what JSONEncoder writes (pretty,
    /// sorted, slashes as they are): nil optionals left out, nested values, arrays.
    @Test func encodableAsJSONEncoderWritesIt() throws {
        struct Inner: Codable { var u: UInt8 = 7; var f: Float = 0.5; var tags: [String] = ["a/b", "c"] }
        struct Doc: Codable {
            enum Kind: String, Codable { case one }
            var kind = Kind.one; var count = 3; var fps = 30.0; var rate = 29.97; var maybe: String? = nil
            var present: Int? = 4; var inner = Inner(); var list = [Inner(), Inner(u: 1, f: 2, tags: [])]; var any: JSONValue = ["x": [1, nil]]
        }
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let foundation = String(decoding: try e.encode(Doc()), as: UTF8.self)
        #expect(JSONWriter.text(try JSONValueEncoder.encode(Doc()), layout: .pretty) == foundation)
    }

    /// JSON equality: numbers by value, members whatever their order; `set` replaces in place.
    @Test func equalityAndSet() {
        #expect(JSONValue.int(1) == .double(1) && JSONValue.double(1.5) != .int(1) && JSONValue.bool(true) != .int(1))
        #expect(JSONValue.object([JSONMember("a", 1), JSONMember("b", 2)]) == ["b": 2, "a": 1])
        #expect(JSONValue.object([JSONMember("a", 1)]) != ["a": 1, "b": 2])
        var v: JSONValue = ["a": 1, "b": 2]
        v.set("a", "x"); v.set("c", nil)
        #expect(JSONWriter.text(v, keys: .asGiven) == #"{"a":"x","b":2,"c":null}"#)
    }
}
