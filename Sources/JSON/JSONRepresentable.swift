/// A Swift value with an obvious JSON form, for building documents member by member
/// (`["fps": summary.fps.jsonValue]`): numbers as `int`/`double`, strings, booleans, arrays of
/// them, and nil as `null`.
public protocol JSONRepresentable {
    var jsonValue: JSONValue { get }
}

extension JSONValue: JSONRepresentable { public var jsonValue: JSONValue { self } }
extension String: JSONRepresentable { public var jsonValue: JSONValue { .string(self) } }
extension Bool: JSONRepresentable { public var jsonValue: JSONValue { .bool(self) } }
extension Double: JSONRepresentable { public var jsonValue: JSONValue { .double(self) } }
extension Float: JSONRepresentable { public var jsonValue: JSONValue { .double(Double(self)) } }
extension Int: JSONRepresentable { public var jsonValue: JSONValue { .int(self) } }
extension Int32: JSONRepresentable { public var jsonValue: JSONValue { .int(Int(self)) } }
extension Int64: JSONRepresentable { public var jsonValue: JSONValue { .int(Int(self)) } }
extension UInt8: JSONRepresentable { public var jsonValue: JSONValue { .int(Int(self)) } }
extension UInt16: JSONRepresentable { public var jsonValue: JSONValue { .int(Int(self)) } }
extension UInt32: JSONRepresentable { public var jsonValue: JSONValue { .int(Int(self)) } }
extension Optional: JSONRepresentable where Wrapped: JSONRepresentable {
    /// The wrapped value's, or `null`.
    public var jsonValue: JSONValue { map(\.jsonValue) ?? .null }
}
extension Array: JSONRepresentable where Element: JSONRepresentable {
    public var jsonValue: JSONValue { .array(map(\.jsonValue)) }
}
