// The three encoding containers over a JSONValue tree being built. Each writes a node into the
// object, array or encoder it was handed; `ValueEncoder` owns the conversions and the errors.

extension JSONValueEncoder {
    /// Writes the members of an object by key; writing a key twice keeps the last value.
    struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let encoder: ValueEncoder
        let codingPath: [any CodingKey]
        let object: ObjectNode

        private func set(_ value: JSONValue, forKey key: Key) {
            object.members[key.stringValue] = .value(value)
        }

        private func setInteger<T: BinaryInteger>(_ value: T, forKey key: Key) throws {
            set(try encoder.box(value, at: codingPath + [key]), forKey: key)
        }

        mutating func encodeNil(forKey key: Key) throws { set(.null, forKey: key) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), forKey: key) }
        mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), forKey: key) }
        mutating func encode(_ value: Double, forKey key: Key) throws { set(.double(value), forKey: key) }
        mutating func encode(_ value: Float, forKey key: Key) throws { set(encoder.box(value), forKey: key) }
        mutating func encode(_ value: Int, forKey key: Key) throws { set(.int(value), forKey: key) }
        mutating func encode(_ value: Int8, forKey key: Key) throws { try setInteger(value, forKey: key) }
        mutating func encode(_ value: Int16, forKey key: Key) throws { try setInteger(value, forKey: key) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { try setInteger(value, forKey: key) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { try setInteger(value, forKey: key) }
        mutating func encode(_ value: UInt, forKey key: Key) throws { try setInteger(value, forKey: key) }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { try setInteger(value, forKey: key) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { try setInteger(value, forKey: key) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { try setInteger(value, forKey: key) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { try setInteger(value, forKey: key) }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            object.members[key.stringValue] = try encoder.encodeNested(value, at: codingPath + [key])
        }

        /// Asking twice for the same key returns the same object.
        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type,
            forKey key: Key
        ) -> KeyedEncodingContainer<NestedKey> {
            let nested = object.members[key.stringValue]?.objectNode ?? ObjectNode()
            object.members[key.stringValue] = .object(nested)
            let container = KeyedContainer<NestedKey>(encoder: encoder, codingPath: codingPath + [key], object: nested)
            return KeyedEncodingContainer(container)
        }

        /// Asking twice for the same key returns the same array.
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            let nested = object.members[key.stringValue]?.arrayNode ?? ArrayNode()
            object.members[key.stringValue] = .array(nested)
            return UnkeyedContainer(encoder: encoder, codingPath: codingPath + [key], array: nested)
        }

        /// An encoder whose value becomes the `super` member.
        mutating func superEncoder() -> any Encoder {
            makeSuperEncoder(at: JSONCodingKey.super)
        }

        /// An encoder whose value becomes the member at `key`.
        mutating func superEncoder(forKey key: Key) -> any Encoder {
            makeSuperEncoder(at: key)
        }

        private func makeSuperEncoder(at key: any CodingKey) -> any Encoder {
            let nested = encoder.makeNestedEncoder(at: codingPath + [key])
            object.members[key.stringValue] = .encoder(nested)
            return nested
        }
    }
}

extension JSONValueEncoder {
    /// Appends the elements of an array in order.
    struct UnkeyedContainer: UnkeyedEncodingContainer {
        let encoder: ValueEncoder
        let codingPath: [any CodingKey]
        let array: ArrayNode

        var count: Int { array.elements.count }

        /// The coding path of the element about to be appended.
        private var nextPath: [any CodingKey] { codingPath + [JSONCodingKey.index(count)] }

        private func append(_ value: JSONValue) {
            array.elements.append(.value(value))
        }

        private func appendInteger<T: BinaryInteger>(_ value: T) throws {
            append(try encoder.box(value, at: nextPath))
        }

        mutating func encodeNil() throws { append(.null) }
        mutating func encode(_ value: Bool) throws { append(.bool(value)) }
        mutating func encode(_ value: String) throws { append(.string(value)) }
        mutating func encode(_ value: Double) throws { append(.double(value)) }
        mutating func encode(_ value: Float) throws { append(encoder.box(value)) }
        mutating func encode(_ value: Int) throws { append(.int(value)) }
        mutating func encode(_ value: Int8) throws { try appendInteger(value) }
        mutating func encode(_ value: Int16) throws { try appendInteger(value) }
        mutating func encode(_ value: Int32) throws { try appendInteger(value) }
        mutating func encode(_ value: Int64) throws { try appendInteger(value) }
        mutating func encode(_ value: UInt) throws { try appendInteger(value) }
        mutating func encode(_ value: UInt8) throws { try appendInteger(value) }
        mutating func encode(_ value: UInt16) throws { try appendInteger(value) }
        mutating func encode(_ value: UInt32) throws { try appendInteger(value) }
        mutating func encode(_ value: UInt64) throws { try appendInteger(value) }

        mutating func encode<T: Encodable>(_ value: T) throws {
            array.elements.append(try encoder.encodeNested(value, at: nextPath))
        }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type
        ) -> KeyedEncodingContainer<NestedKey> {
            let nested = ObjectNode()
            let path = nextPath
            array.elements.append(.object(nested))
            return KeyedEncodingContainer(KeyedContainer<NestedKey>(encoder: encoder, codingPath: path, object: nested))
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let nested = ArrayNode()
            let path = nextPath
            array.elements.append(.array(nested))
            return UnkeyedContainer(encoder: encoder, codingPath: path, array: nested)
        }

        /// An encoder whose value becomes the next element.
        mutating func superEncoder() -> any Encoder {
            let nested = encoder.makeNestedEncoder(at: nextPath)
            array.elements.append(.encoder(nested))
            return nested
        }
    }
}

extension JSONValueEncoder {
    /// Writes the encoder's value as one primitive or `Encodable` value.
    struct SingleValueContainer: SingleValueEncodingContainer {
        let encoder: ValueEncoder

        var codingPath: [any CodingKey] { encoder.codingPath }

        private func set(_ value: JSONValue) {
            encoder.node = .value(value)
        }

        private func setInteger<T: BinaryInteger>(_ value: T) throws {
            set(try encoder.box(value, at: codingPath))
        }

        mutating func encodeNil() throws { set(.null) }
        mutating func encode(_ value: Bool) throws { set(.bool(value)) }
        mutating func encode(_ value: String) throws { set(.string(value)) }
        mutating func encode(_ value: Double) throws { set(.double(value)) }
        mutating func encode(_ value: Float) throws { set(encoder.box(value)) }
        mutating func encode(_ value: Int) throws { set(.int(value)) }
        mutating func encode(_ value: Int8) throws { try setInteger(value) }
        mutating func encode(_ value: Int16) throws { try setInteger(value) }
        mutating func encode(_ value: Int32) throws { try setInteger(value) }
        mutating func encode(_ value: Int64) throws { try setInteger(value) }
        mutating func encode(_ value: UInt) throws { try setInteger(value) }
        mutating func encode(_ value: UInt8) throws { try setInteger(value) }
        mutating func encode(_ value: UInt16) throws { try setInteger(value) }
        mutating func encode(_ value: UInt32) throws { try setInteger(value) }
        mutating func encode(_ value: UInt64) throws { try setInteger(value) }

        mutating func encode<T: Encodable>(_ value: T) throws {
            encoder.node = try encoder.encodeNested(value, at: codingPath)
        }
    }
}
