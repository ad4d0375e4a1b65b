/// Encodes `Encodable` values into a ``JSONValue`` tree, without going through JSON text.
///
/// Integers become `.int`, `Float` and `Double` become `.double` (infinities and NaN included, as
/// `JSONValue` can hold them), and `nil` written with `encodeNil` becomes `.null`. Optionals
/// written with the synthesized `encodeIfPresent` leave their key out, as `JSONEncoder` does.
///
/// ```swift
/// struct Banner: Encodable { var title: String; var priority: Int8 }
/// let value = try JSONValueEncoder().encode(Banner(title: "Sale", priority: 2))
/// // value == ["title": "Sale", "priority": 2]
/// ```
package struct JSONValueEncoder: Sendable {
    /// Values handed to every `encode(to:)` through `Encoder.userInfo`.
    package var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// Creates an encoder with empty ``userInfo``.
    package init() {}

    /// Encodes `value` as a ``JSONValue``.
    ///
    /// The work is proportional to the size of the encoded tree.
    ///
    /// - Throws: `EncodingError.invalidValue` for an unsigned integer above `Int.max`, which
    ///   `JSONValue.int` cannot hold, or when `value` encodes nothing at all.
    package func encode<T: Encodable>(_ value: T) throws -> JSONValue {
        let encoder = ValueEncoder(codingPath: [], userInfo: userInfo)
        try value.encode(to: encoder)
        guard let node = encoder.node else {
            let description =
                "\(T.self) did not encode any value; its encode(to:) must ask the encoder for a container."
            throw EncodingError.invalidValue(
                value, EncodingError.Context(codingPath: [], debugDescription: description))
        }
        return node.resolved
    }
}

extension JSONValueEncoder {
    /// What an encoder or container has written so far.
    ///
    /// Containers hand out references (`ObjectNode`, `ArrayNode`, nested encoders) that their
    /// callers keep writing to after the call returns, so the tree is built from references and
    /// turned into a `JSONValue` once, when the top-level `encode(to:)` has returned.
    enum Node {
        case value(JSONValue)
        case object(ObjectNode)
        case array(ArrayNode)
        /// Whatever a nested encoder ends up holding; an encoder that wrote nothing is `{}`.
        case encoder(ValueEncoder)

        var resolved: JSONValue {
            switch self {
            case .value(let value): return value
            case .object(let object): return .object(object.members.mapValues(\.resolved))
            case .array(let array): return .array(array.elements.map(\.resolved))
            case .encoder(let encoder): return encoder.node?.resolved ?? .object([:])
            }
        }

        /// The object, when this node is one; containers asked for twice reuse it.
        var objectNode: ObjectNode? {
            if case .object(let object) = self { return object }
            return nil
        }

        /// The array, when this node is one; containers asked for twice reuse it.
        var arrayNode: ArrayNode? {
            if case .array(let array) = self { return array }
            return nil
        }
    }

    /// The members of an object being encoded.
    final class ObjectNode {
        var members: [String: Node] = [:]
    }

    /// The elements of an array being encoded.
    final class ArrayNode {
        var elements: [Node] = []
    }

    /// The `Encoder` for one value of the tree, at one coding path.
    final class ValueEncoder: Encoder {
        let codingPath: [any CodingKey]
        let userInfo: [CodingUserInfoKey: Any]
        /// What this encoder holds; `nil` until something is encoded.
        var node: Node?

        init(codingPath: [any CodingKey], userInfo: [CodingUserInfoKey: Any]) {
            self.codingPath = codingPath
            self.userInfo = userInfo
        }

        /// A fresh encoder for a value nested at `path`, sharing this encoder's ``userInfo``.
        func makeNestedEncoder(at path: [any CodingKey]) -> ValueEncoder {
            ValueEncoder(codingPath: path, userInfo: userInfo)
        }

        /// Encodes `value` with a fresh encoder at `path` and returns the node that holds the result.
        func encodeNested<T: Encodable>(_ value: T, at path: [any CodingKey]) throws -> Node {
            let nested = makeNestedEncoder(at: path)
            try value.encode(to: nested)
            return .encoder(nested)
        }

        /// Asking twice (as a subclass and its superclass both do) returns the same object.
        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            let object = node?.objectNode ?? ObjectNode()
            node = .object(object)
            return KeyedEncodingContainer(KeyedContainer<Key>(encoder: self, codingPath: codingPath, object: object))
        }

        /// Asking twice returns the same array.
        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            let array = node?.arrayNode ?? ArrayNode()
            node = .array(array)
            return UnkeyedContainer(encoder: self, codingPath: codingPath, array: array)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer {
            SingleValueContainer(encoder: self)
        }
    }
}

// MARK: - Primitive values

extension JSONValueEncoder.ValueEncoder {
    /// `value` as `.int`; unsigned values above `Int.max` do not fit and throw.
    func box<T: BinaryInteger>(_ value: T, at path: [any CodingKey]) throws -> JSONValue {
        guard let int = Int(exactly: value) else {
            let description =
                "\(T.self) \(value) at \(describeCodingPath(path)) is above Int.max, the largest integer a "
                + "JSONValue holds; encode it as a String or a Double instead."
            throw EncodingError.invalidValue(
                value, EncodingError.Context(codingPath: path, debugDescription: description))
        }
        return .int(int)
    }

    /// `value` as `.double`, keeping the short decimal a person wrote: `Float(0.1)` becomes `0.1`,
    /// not `0.10000000149011612`, whenever that decimal converts back to the same `Float`.
    func box(_ value: Float) -> JSONValue {
        if let shortest = Double(value.description), Float(shortest) == value {
            return .double(shortest)
        }
        return .double(Double(value))
    }
}
