extension JSONValue {
    /// The value as compact JSON text, object members sorted by key so output is stable.
    ///
    /// Doubles with no fractional part print with a trailing `.0` so that they read back
    /// as doubles; non-finite doubles (which JSON cannot carry) print as `null`.
    public var jsonText: String {
        var output = ""
        appendJSON(to: &output)
        return output
    }

    private func appendJSON(to output: inout String) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .int(let value): output += String(value)
        case .double(let value): output += Self.jsonNumberText(value)
        case .string(let value): Self.appendQuoted(value, to: &output)
        case .array(let elements):
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += "," }
                element.appendJSON(to: &output)
            }
            output += "]"
        case .object(let members):
            output += "{"
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { output += "," }
                Self.appendQuoted(key, to: &output)
                output += ":"
                members[key]!.appendJSON(to: &output)
            }
            output += "}"
        }
    }

    static func jsonNumberText(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value.rounded() == value, abs(value) < 1e15 {
            return String(Int(value)) + ".0"
        }
        return String(value)
    }

    /// Appends `string` as a JSON string literal with the escapes RFC 8259 requires.
    static func appendQuoted(_ string: String, to output: inout String) {
        output += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}

extension JSONValue {
    /// The value as indented JSON (two spaces, sorted keys), for people to read.
    public var prettyJSONText: String {
        var output = ""
        appendPretty(to: &output, indent: "")
        return output
    }

    private func appendPretty(to output: inout String, indent: String) {
        let inner = indent + "  "
        switch self {
        case .array(let elements) where !elements.isEmpty:
            output += "[\n"
            for (index, element) in elements.enumerated() {
                output += inner
                element.appendPretty(to: &output, indent: inner)
                output += index == elements.count - 1 ? "\n" : ",\n"
            }
            output += indent + "]"
        case .object(let members) where !members.isEmpty:
            output += "{\n"
            let keys = members.keys.sorted()
            for (index, key) in keys.enumerated() {
                output += inner
                Self.appendQuoted(key, to: &output)
                output += ": "
                members[key]!.appendPretty(to: &output, indent: inner)
                output += index == keys.count - 1 ? "\n" : ",\n"
            }
            output += indent + "}"
        default:
            output += jsonText
        }
    }
}
