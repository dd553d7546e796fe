// The project's one JSON value type (issue #26): the event stream, the analysis log, result.json,
// manifest.json and String Catalogs are built as a `JSONValue` and written by `JSONWriter`.
// This module imports nothing, so every module (the pure ones included) can use it.

/// Any JSON value (RFC 8259). Numbers keep Swift's two kinds: `int` is written as its digits,
/// `double` by `JSONWriter.number` (NaN and ±infinity, which JSON cannot say, as `null`).
/// Objects keep their members in the order given; `JSONWriter` sorts them unless asked not to
/// (`JSONWriter.KeyOrder.asGiven`, for the line streams whose order is documented).
///
/// Equality is JSON's, not the cases': numbers compare by value (`.int(1) == .double(1)`, since
/// a whole double is written `1` and reads back as an int), objects by their members whatever
/// their order (member lists that differ only in order are the same object).
public indirect enum JSONValue: Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    /// Members in the order given (a key should appear once; the writer writes them all).
    case object([JSONMember])

    /// The value of member `key` (the last one if repeated), when this is an object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.key == key }?.value
    }

    /// Member `key` set to `value` (replacing every member of that name, added last when new);
    /// nothing happens when this is not an object.
    public mutating func set(_ key: String, _ value: JSONValue) {
        guard case .object(var members) = self else { return }
        if let i = members.firstIndex(where: { $0.key == key }) {
            members.removeAll { $0.key == key }   // every one at or after i
            members.insert(JSONMember(key, value), at: i)
        } else {
            members.append(JSONMember(key, value))
        }
        self = .object(members)
    }

    /// The members of an object (nil otherwise), in the order given.
    public var members: [JSONMember]? { if case .object(let m) = self { return m }; return nil }
    /// The elements of an array (nil otherwise).
    public var elements: [JSONValue]? { if case .array(let a) = self { return a }; return nil }
    /// The text of a string (nil otherwise).
    public var stringValue: String? { if case .string(let s) = self { return s }; return nil }
    /// An `int`, or a `double` that is a whole number in `Int`'s range (nil otherwise).
    public var intValue: Int? {
        switch self {
        case .int(let i): return i
        case .double(let d) where d == d.rounded() && abs(d) < 9.2e18: return Int(d)
        default: return nil
        }
    }
    /// An `int` or a `double` as a `Double` (nil otherwise).
    public var doubleValue: Double? {
        switch self {
        case .int(let i): return Double(i)
        case .double(let d): return d
        default: return nil
        }
    }
    /// The value of a `bool` (nil otherwise).
    public var boolValue: Bool? { if case .bool(let b) = self { return b }; return nil }
}

/// One member of a JSON object: its key and value.
public struct JSONMember: Sendable, Equatable {
    public var key: String
    public var value: JSONValue
    public init(_ key: String, _ value: JSONValue) { self.key = key; self.value = value }
}

extension JSONValue: Equatable {
    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.int(let x), .int(let y)): return x == y
        case (.double(let x), .double(let y)): return x == y
        case (.int(let x), .double(let y)), (.double(let y), .int(let x)): return Double(x) == y
        case (.string(let x), .string(let y)): return x == y
        case (.array(let x), .array(let y)): return x == y
        case (.object(let x), .object(let y)):
            guard x.count == y.count else { return false }
            let byKey: (JSONMember, JSONMember) -> Bool = { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            return zip(x.sorted(by: byKey), y.sorted(by: byKey)).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }
}

// MARK: literals (tests and fixed shapes)

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public typealias Key = String
    public typealias Value = JSONValue
    public typealias ArrayLiteralElement = JSONValue
    /// An object with the members in the literal's order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(elements.map { JSONMember($0.0, $0.1) }) }
}

extension JSONValue {
    /// `.string(s)`, or `.null` for nil.
    public static func string(_ s: String?) -> JSONValue { s.map { .string($0) } ?? .null }
    /// `.int(i)`, or `.null` for nil.
    public static func int(_ i: Int?) -> JSONValue { i.map { .int($0) } ?? .null }
    /// `.double(d)`, or `.null` for nil.
    public static func double(_ d: Double?) -> JSONValue { d.map { .double($0) } ?? .null }
    /// `.bool(b)`, or `.null` for nil.
    public static func bool(_ b: Bool?) -> JSONValue { b.map { .bool($0) } ?? .null }
    /// An array of strings.
    public static func strings(_ a: [String]) -> JSONValue { .array(a.map { .string($0) }) }
    /// An array of ints.
    public static func ints(_ a: [Int]) -> JSONValue { .array(a.map { .int($0) }) }
}

// MARK: Codable (JSONDecoder reads manifest.json's `settings` into it)

extension JSONValue: Codable {
    struct MemberKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { return nil }
    }

    /// Reads any JSON value; an object's members sorted by key (a decoder's keyed container
    /// does not keep the text's order).
    public init(from decoder: Decoder) throws {
        if let c = try? decoder.container(keyedBy: MemberKey.self) {
            var members: [JSONMember] = []
            for k in c.allKeys { members.append(JSONMember(k.stringValue, try c.decode(JSONValue.self, forKey: k))) }
            self = .object(members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) })
            return
        }
        if var c = try? decoder.unkeyedContainer() {
            var items: [JSONValue] = []
            while !c.isAtEnd { items.append(try c.decode(JSONValue.self)) }
            self = .array(items)
            return
        }
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let i = try? c.decode(Int.self) { self = .int(i) }
        else if let d = try? c.decode(Double.self) { self = .double(d) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else { throw DecodingError.dataCorruptedError(in: c, debugDescription: "not a JSON value") }
    }

    /// Writes the value through any encoder (a non-finite double as null, as `JSONWriter` does).
    public func encode(to encoder: Encoder) throws {
        switch self {
        case .object(let members):
            var c = encoder.container(keyedBy: MemberKey.self)
            for m in members { try c.encode(m.value, forKey: MemberKey(stringValue: m.key)) }
        case .array(let items):
            var c = encoder.unkeyedContainer()
            for v in items { try c.encode(v) }
        case .null: var c = encoder.singleValueContainer(); try c.encodeNil()
        case .bool(let b): var c = encoder.singleValueContainer(); try c.encode(b)
        case .int(let i): var c = encoder.singleValueContainer(); try c.encode(i)
        case .double(let d):
            var c = encoder.singleValueContainer()
            if d.isFinite { try c.encode(d) } else { try c.encodeNil() }
        case .string(let s): var c = encoder.singleValueContainer(); try c.encode(s)
        }
    }
}
