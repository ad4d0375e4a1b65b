/// A JSON document as the differential generator writes it: members keep their order and
/// numbers keep their exact text (`2.0` is not `2`, `1e3` is not `1000`).
///
/// The harness hands the same bytes to Ensign and to the reference, so it needs a tree
/// that says precisely which bytes those are — and one it can shrink node by node when a
/// mismatch is found. ``JSONValue`` sorts keys and normalises numbers, so it cannot be it.
indirect enum GeneratedJSON: Sendable, Hashable {
    case null
    case bool(Bool)
    /// A number, as the literal text written to the file.
    case number(String)
    case string(String)
    case array([GeneratedJSON])
    case object([Member])

    /// One member of an object.
    struct Member: Sendable, Hashable {
        var key: String
        var value: GeneratedJSON
    }

    /// An object from key-value pairs, in order.
    static func members(_ pairs: [(String, GeneratedJSON)]) -> GeneratedJSON {
        .object(pairs.map { Member(key: $0.0, value: $0.1) })
    }

    /// A one-member object: how JsonLogic writes an operation.
    static func operation(_ name: String, _ arguments: GeneratedJSON) -> GeneratedJSON {
        .object([Member(key: name, value: arguments)])
    }

    static func int(_ value: Int) -> GeneratedJSON { .number(String(value)) }

    /// The value of member `key`, the first one when a key repeats.
    subscript(key: String) -> GeneratedJSON? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key.unicodeScalars.elementsEqual(key.unicodeScalars) }?.value
    }

    /// The same object with member `key` replaced (or added).
    func setting(_ key: String, to value: GeneratedJSON) -> GeneratedJSON {
        guard case .object(var members) = self else { return self }
        if let index = members.firstIndex(where: { $0.key.unicodeScalars.elementsEqual(key.unicodeScalars) }) {
            members[index].value = value
        } else {
            members.append(Member(key: key, value: value))
        }
        return .object(members)
    }

    /// The same object without member `key`.
    func removing(_ key: String) -> GeneratedJSON {
        guard case .object(let members) = self else { return self }
        return .object(members.filter { !$0.key.unicodeScalars.elementsEqual(key.unicodeScalars) })
    }

    /// How many nodes the tree has (what shrinking makes smaller).
    var size: Int {
        switch self {
        case .array(let elements): return 1 + elements.reduce(0) { $0 + $1.size }
        case .object(let members): return 1 + members.reduce(0) { $0 + $1.value.size }
        default: return 1
        }
    }
}

extension GeneratedJSON: ExpressibleByStringLiteral {
    /// A string literal is a JSON string (`.operation("var", "email")`).
    init(stringLiteral value: String) { self = .string(value) }
}

extension GeneratedJSON {
    /// Compact JSON text. With `escapingNonASCII`, every character outside ASCII is written as a
    /// `\u` escape (a surrogate pair above U+FFFF), which the reader must decode to the same
    /// string; control characters, quotes and backslashes are always escaped.
    func text(escapingNonASCII: Bool = false) -> String {
        var output = ""
        append(to: &output, escapingNonASCII: escapingNonASCII)
        return output
    }

    private func append(to output: inout String, escapingNonASCII: Bool) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .number(let text): output += text
        case .string(let value): Self.appendQuoted(value, to: &output, escapingNonASCII: escapingNonASCII)
        case .array(let elements):
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += "," }
                element.append(to: &output, escapingNonASCII: escapingNonASCII)
            }
            output += "]"
        case .object(let members):
            output += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { output += "," }
                Self.appendQuoted(member.key, to: &output, escapingNonASCII: escapingNonASCII)
                output += ":"
                member.value.append(to: &output, escapingNonASCII: escapingNonASCII)
            }
            output += "}"
        }
    }

    private static func appendQuoted(_ string: String, to output: inout String, escapingNonASCII: Bool) {
        output += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\t": output += "\\t"
            case "\r": output += "\\r"
            case _ where scalar.value < 0x20 || (escapingNonASCII && scalar.value > 0x7E):
                for unit in String(scalar).utf16 { output += "\\u" + hex(unit) }
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }

    private static func hex(_ unit: UInt16) -> String {
        let digits = String(unit, radix: 16)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }
}
