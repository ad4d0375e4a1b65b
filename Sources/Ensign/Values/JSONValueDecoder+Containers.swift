// The three decoding containers over a JSONValue. Each reads one value and hands it to
// `ValueDecoder`, which owns the conversions and the error messages, so the containers only
// find the value and extend the coding path.

extension JSONValueDecoder {
    /// Reads the members of an object by key.
    struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let decoder: ValueDecoder
        let members: [String: JSONValue]

        var codingPath: [any CodingKey] { decoder.codingPath }

        var allKeys: [Key] { members.keys.compactMap { Key(stringValue: $0) } }

        func contains(_ key: Key) -> Bool {
            members[key.stringValue] != nil
        }

        /// A decoder for the member at `key`; a missing member throws `keyNotFound`.
        private func member(_ key: Key) throws -> ValueDecoder {
            guard let value = members[key.stringValue] else {
                let description =
                    "No value for key \"\(key.stringValue)\" in the object at \(describeCodingPath(codingPath)); "
                    + "add it, or declare the property Optional."
                throw DecodingError.keyNotFound(
                    key, DecodingError.Context(codingPath: codingPath, debugDescription: description))
            }
            return decoder.child(value, at: key)
        }

        func decodeNil(forKey key: Key) throws -> Bool { try member(key).value.isNull }
        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try member(key).decodeBool() }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { try member(key).decodeString() }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
            try member(key).decodeFloatingPoint(of: type)
        }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
            try member(key).decodeFloatingPoint(of: type)
        }
        /// Every integer type.
        func decode<T: FixedWidthInteger & Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            try member(key).decodeInteger(of: type)
        }
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try T(from: member(key)) }

        func nestedContainer<NestedKey: CodingKey>(
            keyedBy type: NestedKey.Type,
            forKey key: Key
        ) throws -> KeyedDecodingContainer<NestedKey> {
            try member(key).container(keyedBy: type)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try member(key).unkeyedContainer()
        }

        /// The decoder for the `super` member, or for `null` when there is none (as in `JSONDecoder`).
        func superDecoder() throws -> any Decoder {
            decoder.child(members[JSONCodingKey.super.stringValue] ?? .null, at: JSONCodingKey.super)
        }

        func superDecoder(forKey key: Key) throws -> any Decoder {
            decoder.child(members[key.stringValue] ?? .null, at: key)
        }
    }
}

extension JSONValueDecoder {
    /// Reads the elements of an array in order. A failed decode does not advance ``currentIndex``,
    /// so a caller may retry the same element as another type.
    struct UnkeyedContainer: UnkeyedDecodingContainer {
        let decoder: ValueDecoder
        let elements: [JSONValue]
        private(set) var currentIndex = 0

        init(decoder: ValueDecoder, elements: [JSONValue]) {
            self.decoder = decoder
            self.elements = elements
        }

        var codingPath: [any CodingKey] { decoder.codingPath }
        var count: Int? { elements.count }
        var isAtEnd: Bool { currentIndex >= elements.count }

        /// Reads the current element with `read` and, when that succeeds, moves past it.
        private mutating func next<T>(_ type: T.Type, _ read: (ValueDecoder) throws -> T) throws -> T {
            try checkNotAtEnd(type)
            let result = try read(decoder.child(elements[currentIndex], at: JSONCodingKey.index(currentIndex)))
            currentIndex += 1
            return result
        }

        private func checkNotAtEnd(_ type: Any.Type) throws {
            guard isAtEnd else { return }
            let path = codingPath + [JSONCodingKey.index(currentIndex)]
            let description =
                "Expected a value at \(describeCodingPath(path)) but the array has only "
                + "\(elements.count) element\(elements.count == 1 ? "" : "s")."
            throw DecodingError.valueNotFound(
                type, DecodingError.Context(codingPath: path, debugDescription: description))
        }

        /// Moves past the current element when it is `null`.
        mutating func decodeNil() throws -> Bool {
            try checkNotAtEnd(Any?.self)
            guard elements[currentIndex].isNull else { return false }
            currentIndex += 1
            return true
        }

        mutating func decode(_ type: Bool.Type) throws -> Bool { try next(type) { try $0.decodeBool() } }
        mutating func decode(_ type: String.Type) throws -> String { try next(type) { try $0.decodeString() } }
        mutating func decode(_ type: Double.Type) throws -> Double {
            try next(type) { try $0.decodeFloatingPoint(of: type) }
        }
        mutating func decode(_ type: Float.Type) throws -> Float {
            try next(type) { try $0.decodeFloatingPoint(of: type) }
        }
        /// Every integer type.
        mutating func decode<T: FixedWidthInteger & Decodable>(_ type: T.Type) throws -> T {
            try next(type) { try $0.decodeInteger(of: type) }
        }
        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next(type) { try T(from: $0) } }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy type: NestedKey.Type
        ) throws -> KeyedDecodingContainer<NestedKey> {
            try next(KeyedDecodingContainer<NestedKey>.self) { try $0.container(keyedBy: type) }
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            try next((any UnkeyedDecodingContainer).self) { try $0.unkeyedContainer() }
        }

        mutating func superDecoder() throws -> any Decoder {
            try next((any Decoder).self) { $0 }
        }
    }
}

extension JSONValueDecoder {
    /// Reads the decoder's value as one primitive or `Decodable` value.
    struct SingleValueContainer: SingleValueDecodingContainer {
        let decoder: ValueDecoder

        var codingPath: [any CodingKey] { decoder.codingPath }

        func decodeNil() -> Bool { decoder.value.isNull }
        func decode(_ type: Bool.Type) throws -> Bool { try decoder.decodeBool() }
        func decode(_ type: String.Type) throws -> String { try decoder.decodeString() }
        func decode(_ type: Double.Type) throws -> Double { try decoder.decodeFloatingPoint(of: type) }
        func decode(_ type: Float.Type) throws -> Float { try decoder.decodeFloatingPoint(of: type) }
        /// Every integer type.
        func decode<T: FixedWidthInteger & Decodable>(_ type: T.Type) throws -> T {
            try decoder.decodeInteger(of: type)
        }
        func decode<T: Decodable>(_ type: T.Type) throws -> T { try T(from: decoder) }
    }
}
