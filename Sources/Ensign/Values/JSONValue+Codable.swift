/// `JSONValue` reads and writes itself through any coder, such as `JSONEncoder`/`JSONDecoder`, or
/// `JSONValueEncoder`/`JSONValueDecoder`, which copy it as is.
///
/// Decoding tries, in order: `null`, `Bool`, `Int`, `Double`, `String`, an array, then an object.
/// So `true` stays `.bool(true)` and `1` stays `.int(1)`. Through JSON text a double with no
/// fractional part (`2.0`) comes back as `.int(2)`, because the text no longer tells them apart.
extension JSONValue: Codable {
    /// Reads whichever kind of value the decoder holds.
    ///
    /// - Throws: `DecodingError.typeMismatch` when the value is none of the seven kinds.
    public init(from decoder: any Decoder) throws {
        if let valueDecoder = decoder as? JSONValueDecoder.ValueDecoder {
            self = valueDecoder.value
            return
        }
        if let scalar = Self.decodeScalar(from: decoder) {
            self = scalar
        } else if var container = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            if let count = container.count { elements.reserveCapacity(count) }
            while !container.isAtEnd {
                elements.append(try container.decode(JSONValue.self))
            }
            self = .array(elements)
        } else if let container = try? decoder.container(keyedBy: JSONCodingKey.self) {
            var members: [String: JSONValue] = [:]
            for key in container.allKeys {
                members[key.stringValue] = try container.decode(JSONValue.self, forKey: key)
            }
            self = .object(members)
        } else {
            let description =
                "Expected null, a boolean, a number, a string, an array or an object at "
                + "\(describeCodingPath(decoder.codingPath)), but the decoder holds none of them."
            throw DecodingError.typeMismatch(
                JSONValue.self, DecodingError.Context(codingPath: decoder.codingPath, debugDescription: description))
        }
    }

    /// The value when the decoder holds `null`, a boolean, a number or a string; `nil` otherwise.
    private static func decodeScalar(from decoder: any Decoder) -> JSONValue? {
        guard let container = try? decoder.singleValueContainer() else { return nil }
        if container.decodeNil() { return .null }
        if let bool = try? container.decode(Bool.self) { return .bool(bool) }
        if let int = try? container.decode(Int.self) { return .int(int) }
        if let double = try? container.decode(Double.self) { return .double(double) }
        if let string = try? container.decode(String.self) { return .string(string) }
        return nil
    }

    /// Writes the value with a single-value, unkeyed or keyed container.
    public func encode(to encoder: any Encoder) throws {
        if let valueEncoder = encoder as? JSONValueEncoder.ValueEncoder {
            valueEncoder.node = .value(self)
            return
        }
        switch self {
        case .null, .bool, .int, .double, .string:
            var container = encoder.singleValueContainer()
            switch self {
            case .bool(let bool): try container.encode(bool)
            case .int(let int): try container.encode(int)
            case .double(let double): try container.encode(double)
            case .string(let string): try container.encode(string)
            default: try container.encodeNil()
            }
        case .array(let elements):
            var container = encoder.unkeyedContainer()
            for element in elements {
                try container.encode(element)
            }
        case .object(let members):
            var container = encoder.container(keyedBy: JSONCodingKey.self)
            for (key, member) in members {
                try container.encode(member, forKey: JSONCodingKey(stringValue: key))
            }
        }
    }
}
