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

        mutating func encodeNil(forKey key: Key) throws { set(.null, forKey: key) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), forKey: key) }
        mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), forKey: key) }
        mutating func encode(_ value: Double, forKey key: Key) throws { set(.double(value), forKey: key) }
        mutating func encode(_ value: Float, forKey key: Key) throws { set(encoder.box(value), forKey: key) }
        mutating func encode(_ value: Int, forKey key: Key) throws { set(.int(value), forKey: key) }
        /// The other nine integer types.
        mutating func encode<T: FixedWidthInteger & Encodable>(_ value: T, forKey key: Key) throws {
            set(try encoder.box(value, at: codingPath + [key]), forKey: key)
        }

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
    struct UnkeyedContainer: UnkeyedEncodingContainer, OneSlotEncodingContainer {
        let encoder: ValueEncoder
        let codingPath: [any CodingKey]
        let array: ArrayNode

        var count: Int { array.elements.count }

        /// The coding path of the element about to be appended.
        var slotPath: [any CodingKey] { codingPath + [JSONCodingKey.index(count)] }

        func fill(with node: Node) {
            array.elements.append(node)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type
        ) -> KeyedEncodingContainer<NestedKey> {
            let nested = ObjectNode()
            let path = slotPath
            array.elements.append(.object(nested))
            return KeyedEncodingContainer(KeyedContainer<NestedKey>(encoder: encoder, codingPath: path, object: nested))
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let nested = ArrayNode()
            let path = slotPath
            array.elements.append(.array(nested))
            return UnkeyedContainer(encoder: encoder, codingPath: path, array: nested)
        }

        /// An encoder whose value becomes the next element.
        mutating func superEncoder() -> any Encoder {
            let nested = encoder.makeNestedEncoder(at: slotPath)
            array.elements.append(.encoder(nested))
            return nested
        }
    }
}

extension JSONValueEncoder {
    /// Writes the encoder's value as one primitive or `Encodable` value.
    struct SingleValueContainer: SingleValueEncodingContainer, OneSlotEncodingContainer {
        let encoder: ValueEncoder

        var codingPath: [any CodingKey] { encoder.codingPath }

        /// The encoder's own value.
        var slotPath: [any CodingKey] { codingPath }

        func fill(with node: Node) {
            encoder.node = node
        }
    }
}

/// The unkeyed and single-value containers write each value into one slot, the next element or
/// the encoder's own value, so their primitive writes are one set, here.
protocol OneSlotEncodingContainer {
    var encoder: JSONValueEncoder.ValueEncoder { get }
    /// The coding path of the value about to be written.
    var slotPath: [any CodingKey] { get }
    /// Writes `node` into the slot.
    func fill(with node: JSONValueEncoder.Node)
}

extension OneSlotEncodingContainer {
    mutating func encodeNil() throws { fill(with: .value(.null)) }
    mutating func encode(_ value: Bool) throws { fill(with: .value(.bool(value))) }
    mutating func encode(_ value: String) throws { fill(with: .value(.string(value))) }
    mutating func encode(_ value: Double) throws { fill(with: .value(.double(value))) }
    mutating func encode(_ value: Float) throws { fill(with: .value(encoder.box(value))) }
    mutating func encode(_ value: Int) throws { fill(with: .value(.int(value))) }
    /// The other nine integer types.
    mutating func encode<T: FixedWidthInteger & Encodable>(_ value: T) throws {
        fill(with: .value(try encoder.box(value, at: slotPath)))
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        fill(with: try encoder.encodeNested(value, at: slotPath))
    }
}
