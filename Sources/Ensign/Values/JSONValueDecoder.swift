/// Decodes `Decodable` types from a ``JSONValue`` tree, without going through JSON text.
///
/// It follows the conventions of Foundation's `JSONDecoder`: a missing key throws
/// `DecodingError.keyNotFound`, `null` where a value is required throws `valueNotFound`, a value
/// of the wrong kind throws `typeMismatch`, and a number that does not fit the requested type
/// throws `dataCorrupted`. Every error carries the coding path to the offending value.
///
/// Numbers convert where nothing is lost: a `.double` with no fractional part decodes as any
/// integer type it fits, and an `.int` decodes as `Double` or `Float`. Booleans and numbers never
/// convert into each other.
///
/// ```swift
/// struct Banner: Decodable { var title: String; var priority: Int8 }
/// let banner = try JSONValueDecoder().decode(Banner.self, from: ["title": "Sale", "priority": 2])
/// ```
package struct JSONValueDecoder: Sendable {
    /// Values handed to every `init(from:)` through `Decoder.userInfo`.
    package var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// Creates a decoder with empty ``userInfo``.
    package init() {}

    /// Decodes a value of `type` from `value`.
    ///
    /// The work is proportional to the size of the part of `value` that `type` reads.
    ///
    /// - Throws: `DecodingError` with the coding path of the first value that does not match.
    package func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        let decoder = ValueDecoder(value: value, codingPath: [], userInfo: userInfo)
        return try T(from: decoder)
    }
}

extension JSONValueDecoder {
    /// The `Decoder` for one value of the tree, at one coding path.
    struct ValueDecoder: Decoder {
        let value: JSONValue
        let codingPath: [any CodingKey]
        let userInfo: [CodingUserInfoKey: Any]

        init(value: JSONValue, codingPath: [any CodingKey], userInfo: [CodingUserInfoKey: Any]) {
            self.value = value
            self.codingPath = codingPath
            self.userInfo = userInfo
        }

        /// A decoder for `value` one level below this one, at `key`.
        func child(_ value: JSONValue, at key: any CodingKey) -> ValueDecoder {
            ValueDecoder(value: value, codingPath: codingPath + [key], userInfo: userInfo)
        }

        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            guard case .object(let members) = value else {
                throw mismatch([String: JSONValue].self, expected: "an object")
            }
            return KeyedDecodingContainer(KeyedContainer<Key>(decoder: self, members: members))
        }

        func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
            guard case .array(let elements) = value else {
                throw mismatch([JSONValue].self, expected: "an array")
            }
            return UnkeyedContainer(decoder: self, elements: elements)
        }

        func singleValueContainer() throws -> any SingleValueDecodingContainer {
            SingleValueContainer(decoder: self)
        }
    }
}

// MARK: - Reading the value as one type

extension JSONValueDecoder.ValueDecoder {
    /// The error for a value that is not the `expected` kind: `valueNotFound` for `null`, so that
    /// callers can tell a missing value from a wrong one, and `typeMismatch` otherwise.
    func mismatch(_ type: Any.Type, expected: String) -> DecodingError {
        let location = describeCodingPath(codingPath)
        guard !value.isNull else {
            let description =
                "Expected \(expected) at \(location) but found null; declare it Optional if null is allowed."
            return DecodingError.valueNotFound(
                type, DecodingError.Context(codingPath: codingPath, debugDescription: description))
        }
        let description = "Expected \(expected) at \(location) but found \(value.codingDescription)."
        return DecodingError.typeMismatch(
            type, DecodingError.Context(codingPath: codingPath, debugDescription: description))
    }

    func decodeBool() throws -> Bool {
        guard case .bool(let bool) = value else { throw mismatch(Bool.self, expected: "Bool") }
        return bool
    }

    func decodeString() throws -> String {
        guard case .string(let string) = value else { throw mismatch(String.self, expected: "String") }
        return string
    }

    /// The value as `T`, from an `.int` that fits or a `.double` that is a whole number that fits.
    func decodeInteger<T: FixedWidthInteger>(of type: T.Type) throws -> T {
        let number: String
        switch value {
        case .int(let int):
            if let exact = T(exactly: int) { return exact }
            number = "\(int)"
        case .double(let double):
            if let exact = T(exactly: double) { return exact }
            guard double.isFinite, double.rounded(.towardZero) == double else {
                throw corrupted("The number \(double) is not a whole number, so it cannot be decoded as \(T.self)")
            }
            number = "\(double)"
        default:
            throw mismatch(T.self, expected: "\(T.self)")
        }
        throw corrupted("The number \(number) does not fit in \(T.self) (\(T.min)...\(T.max))")
    }

    /// The value as `T`, from any number; a finite `.double` beyond `T`'s range is an error.
    func decodeFloatingPoint<T: BinaryFloatingPoint>(of type: T.Type) throws -> T {
        switch value {
        case .int(let int):
            return T(int)
        case .double(let double):
            let converted = T(double)
            guard converted.isFinite || !double.isFinite else {
                throw corrupted("The number \(double) does not fit in \(T.self)")
            }
            return converted
        default:
            throw mismatch(T.self, expected: "\(T.self)")
        }
    }

    /// `dataCorrupted` for a number that is there but cannot become the requested type.
    private func corrupted(_ problem: String) -> DecodingError {
        let context = DecodingError.Context(
            codingPath: codingPath,
            debugDescription: "\(problem), at \(describeCodingPath(codingPath)). Decode a wider type or fix the value."
        )
        return DecodingError.dataCorrupted(context)
    }
}
