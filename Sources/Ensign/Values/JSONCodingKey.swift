/// A coding key that can name any object member or array index.
///
/// `JSONValueEncoder` and `JSONValueDecoder` use it for array positions in coding paths and for
/// the `super` key, and `JSONValue`'s own `Codable` conformance uses it for arbitrary member names.
struct JSONCodingKey: CodingKey, Hashable {
    let stringValue: String
    let intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        self.intValue = nil
    }

    init(intValue: Int) {
        self.stringValue = "Index \(intValue)"
        self.intValue = intValue
    }

    /// The key of the element at `index` in an array.
    static func index(_ index: Int) -> JSONCodingKey {
        JSONCodingKey(intValue: index)
    }

    /// The key `superEncoder()` and `superDecoder()` use, as Foundation's JSON coders do.
    static let `super` = JSONCodingKey(stringValue: "super")
}

/// A coding path written for people: `user.addresses[1].city`, or `the top level` for an empty path.
func describeCodingPath(_ path: [any CodingKey]) -> String {
    guard !path.isEmpty else { return "the top level" }
    var text = ""
    for key in path {
        if let index = key.intValue, key is JSONCodingKey {
            text += "[\(index)]"
        } else {
            text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
        }
    }
    return text
}

extension JSONValue {
    /// What the value is, for error messages: `the string "abc"`, `an array of 3 elements`.
    var codingDescription: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return "the boolean \(value)"
        case .int(let value): return "the number \(value)"
        case .double(let value): return "the number \(value)"
        case .string(let value):
            let shown = value.count > 40 ? "\(value.prefix(40))…" : value
            return "the string \"\(shown)\""
        case .array(let elements): return "an array of \(elements.count) element\(elements.count == 1 ? "" : "s")"
        case .object(let members): return "an object with \(members.count) member\(members.count == 1 ? "" : "s")"
        }
    }
}
