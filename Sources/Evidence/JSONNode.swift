import Foundation

/// Any JSON value, for the parts of the manifest that repeat another document (result.json's
/// `settings`) without this module knowing their shape.
public indirect enum JSONNode: Codable, Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONNode])
    case object([String: JSONNode])

    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let i = try? c.decode(Int.self) { self = .int(i) }
        else if let d = try? c.decode(Double.self) { self = .double(d) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let a = try? c.decode([JSONNode].self) { self = .array(a) }
        else if let o = try? c.decode([String: JSONNode].self) { self = .object(o) }
        else { throw DecodingError.dataCorruptedError(in: c, debugDescription: "not a JSON value") }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case .bool(let b): try c.encode(b)
        case .int(let i): try c.encode(i)
        case .double(let d): try c.encode(d.isFinite ? d : 0)
        case .string(let s): try c.encode(s)
        case .array(let a): try c.encode(a)
        case .object(let o): try c.encode(o)
        }
    }

    /// Converts the Swift values `JSONSerialization` takes (`[String: Any]`, `[Any]`, `String`,
    /// `Bool`, `Int`, `Double`, `NSNull`; an `NSNumber` becomes an int when whole, else a
    /// double); nil for anything else.
    public init?(foundation value: Any) {
        switch value {
        case is NSNull: self = .null
        case let v as Bool where type(of: value) == Bool.self: self = .bool(v)
        case let v as Int where type(of: value) == Int.self: self = .int(v)
        case let v as Double where type(of: value) == Double.self: self = .double(v)
        case let v as String: self = .string(v)
        case let v as [Any]:
            var out: [JSONNode] = []
            for e in v { guard let n = JSONNode(foundation: e) else { return nil }; out.append(n) }
            self = .array(out)
        case let v as [String: Any]:
            var out: [String: JSONNode] = [:]
            for (k, e) in v { guard let n = JSONNode(foundation: e) else { return nil }; out[k] = n }
            self = .object(out)
        case let n as NSNumber:
            // Numbers bridged from Objective-C style containers: whole values as Int.
            let d = n.doubleValue
            self = d == d.rounded() && abs(d) < 9e15 ? .int(Int(d)) : .double(d)
        default: return nil
        }
    }

    /// JSON equality: numbers compare by value (`1` written from a Double reads back as an int).
    public static func == (a: JSONNode, b: JSONNode) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.int(let x), .int(let y)): return x == y
        case (.double(let x), .double(let y)): return x == y
        case (.int(let x), .double(let y)), (.double(let y), .int(let x)): return Double(x) == y
        case (.string(let x), .string(let y)): return x == y
        case (.array(let x), .array(let y)): return x == y
        case (.object(let x), .object(let y)): return x == y
        default: return false
        }
    }

    /// The member `key` of an object, nil otherwise.
    public subscript(key: String) -> JSONNode? {
        if case .object(let o) = self { return o[key] }
        return nil
    }
}
