/// Any `Encodable` as a `JSONValue`, so that a `Codable` document (manifest.json) is written by
/// `JSONWriter` with its one schema, its `CodingKeys`, for both directions. As `JSONEncoder`
/// does by default: an optional that is nil is left out (synthesized `encodeIfPresent`), a
/// nested `Encodable` becomes its own value.
public enum JSONValueEncoder {
    /// `value` as a JSON value.
    /// - Throws: what `value.encode(to:)` throws; `EncodingError.invalidValue` when it encodes nothing.
    public static func encode<T: Encodable>(_ value: T) throws -> JSONValue {
        let node = Node()
        try value.encode(to: NodeEncoder(node: node, codingPath: []))
        guard let v = node.value else {
            throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "\(T.self) encoded no value"))
        }
        return v
    }

    /// A value being built: a scalar, or an object/array whose members are nodes still filling.
    final class Node {
        enum State { case empty, scalar(JSONValue), object([(String, Node)]), array([Node]) }
        var state = State.empty

        var value: JSONValue? {
            switch state {
            case .empty: return nil
            case .scalar(let v): return v
            case .object(let m): return .object(m.map { JSONMember($0.0, $0.1.value ?? .null) })
            case .array(let a): return .array(a.map { $0.value ?? .null })
            }
        }

        func child(key: String) -> Node {
            if case .object(let m) = state, let found = m.last(where: { $0.0 == key }) { return found.1 }
            let n = Node()
            if case .object(var m) = state { m.append((key, n)); state = .object(m) } else { state = .object([(key, n)]) }
            return n
        }

        func appendChild() -> Node {
            let n = Node()
            if case .array(var a) = state { a.append(n); state = .array(a) } else { state = .array([n]) }
            return n
        }

        func makeObject() { if case .object = state { return }; state = .object([]) }
        func makeArray() { if case .array = state { return }; state = .array([]) }
    }

    struct NodeEncoder: Encoder {
        let node: Node
        var codingPath: [CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            node.makeObject()
            return KeyedEncodingContainer(Keyed<Key>(node: node, codingPath: codingPath))
        }
        func unkeyedContainer() -> UnkeyedEncodingContainer {
            node.makeArray()
            return Unkeyed(node: node, codingPath: codingPath)
        }
        func singleValueContainer() -> SingleValueEncodingContainer { Single(node: node, codingPath: codingPath) }
    }

    /// Scalars and nested values, shared by the three containers.
    static func encode<T: Encodable>(_ value: T, into node: Node, path: [CodingKey]) throws {
        switch value {
        case let v as JSONValue: node.state = .scalar(v)
        case let v as String: node.state = .scalar(.string(v))
        case let v as Bool: node.state = .scalar(.bool(v))
        case let v as Double: node.state = .scalar(.double(v))
        case let v as Float: node.state = .scalar(.double(Double(v)))
        case let v as Int: node.state = .scalar(.int(v))
        case let v as Int8: node.state = .scalar(.int(Int(v)))
        case let v as Int16: node.state = .scalar(.int(Int(v)))
        case let v as Int32: node.state = .scalar(.int(Int(v)))
        case let v as Int64: node.state = .scalar(.int(Int(v)))
        case let v as UInt8: node.state = .scalar(.int(Int(v)))
        case let v as UInt16: node.state = .scalar(.int(Int(v)))
        case let v as UInt32: node.state = .scalar(.int(Int(v)))
        case let v as UInt: node.state = .scalar(v <= UInt(Int.max) ? .int(Int(v)) : .double(Double(v)))
        case let v as UInt64: node.state = .scalar(v <= UInt64(Int.max) ? .int(Int(v)) : .double(Double(v)))
        default: try value.encode(to: NodeEncoder(node: node, codingPath: path))
        }
    }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let node: Node
        var codingPath: [CodingKey]
        mutating func encodeNil(forKey key: Key) throws { node.child(key: key.stringValue).state = .scalar(.null) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            try JSONValueEncoder.encode(value, into: node.child(key: key.stringValue), path: codingPath + [key])
        }
        mutating func nestedContainer<N: CodingKey>(keyedBy keyType: N.Type, forKey key: Key) -> KeyedEncodingContainer<N> {
            let child = node.child(key: key.stringValue)
            child.makeObject()
            return KeyedEncodingContainer(Keyed<N>(node: child, codingPath: codingPath + [key]))
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> UnkeyedEncodingContainer {
            let child = node.child(key: key.stringValue)
            child.makeArray()
            return Unkeyed(node: child, codingPath: codingPath + [key])
        }
        mutating func superEncoder() -> Encoder { NodeEncoder(node: node.child(key: "super"), codingPath: codingPath) }
        mutating func superEncoder(forKey key: Key) -> Encoder {
            NodeEncoder(node: node.child(key: key.stringValue), codingPath: codingPath + [key])
        }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let node: Node
        var codingPath: [CodingKey]
        var count: Int { if case .array(let a) = node.state { return a.count }; return 0 }
        mutating func encodeNil() throws { node.appendChild().state = .scalar(.null) }
        mutating func encode<T: Encodable>(_ value: T) throws {
            try JSONValueEncoder.encode(value, into: node.appendChild(), path: codingPath)
        }
        mutating func nestedContainer<N: CodingKey>(keyedBy keyType: N.Type) -> KeyedEncodingContainer<N> {
            let child = node.appendChild()
            child.makeObject()
            return KeyedEncodingContainer(Keyed<N>(node: child, codingPath: codingPath))
        }
        mutating func nestedUnkeyedContainer() -> UnkeyedEncodingContainer {
            let child = node.appendChild()
            child.makeArray()
            return Unkeyed(node: child, codingPath: codingPath)
        }
        mutating func superEncoder() -> Encoder { NodeEncoder(node: node.appendChild(), codingPath: codingPath) }
    }

    struct Single: SingleValueEncodingContainer {
        let node: Node
        var codingPath: [CodingKey]
        mutating func encodeNil() throws { node.state = .scalar(.null) }
        mutating func encode<T: Encodable>(_ value: T) throws { try JSONValueEncoder.encode(value, into: node, path: codingPath) }
    }
}
