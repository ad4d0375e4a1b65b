extension JSONValue {
    /// The value as compact JSON text, object members sorted by key so output is stable.
    ///
    /// Doubles with no fractional part print with a trailing `.0` so that they read back
    /// as doubles; non-finite doubles (which JSON cannot carry) print as `null`.
    public var jsonText: String {
        var output: [UInt8] = []
        appendJSON(to: &output, sortingMembers: true)
        return String(decoding: output, as: UTF8.self)
    }

    /// Appends the value as compact JSON, as UTF-8 bytes in one pass. With `sortingMembers`
    /// off, object members come in storage order: the same value when read back, without
    /// sorting every object's keys.
    package func appendJSON(to output: inout [UInt8], sortingMembers: Bool) {
        _ = appendJSON(to: &output, sortingMembers: sortingMembers, exactOnly: false)
    }

    /// Appends the value as compact JSON in storage order and returns whether the text reads
    /// back as this very value: `false`, with the text unfinished, at the first double JSON
    /// cannot write as it is (an infinity, NaN or `-0.0`). Loading keeps a thousand targeting
    /// rules as text with it, in one walk of each.
    func appendExactJSON(to output: inout [UInt8]) -> Bool {
        appendJSON(to: &output, sortingMembers: false, exactOnly: true)
    }

    private func appendJSON(to output: inout [UInt8], sortingMembers: Bool, exactOnly: Bool) -> Bool {
        switch self {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let value): output.append(contentsOf: (value ? "true" : "false").utf8)
        case .int(let value): output.append(contentsOf: String(value).utf8)
        case .double(let value):
            if exactOnly, !value.isFinite || (value == 0 && value.sign == .minus) { return false }
            output.append(contentsOf: Self.jsonNumberText(value).utf8)
        case .string(let value): Self.appendQuoted(value, to: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                guard element.appendJSON(to: &output, sortingMembers: sortingMembers, exactOnly: exactOnly) else {
                    return false
                }
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            func appendMember(_ key: String, _ value: JSONValue, first: Bool) -> Bool {
                if !first { output.append(UInt8(ascii: ",")) }
                Self.appendQuoted(key, to: &output)
                output.append(UInt8(ascii: ":"))
                return value.appendJSON(to: &output, sortingMembers: sortingMembers, exactOnly: exactOnly)
            }
            if sortingMembers {
                for (index, key) in members.keys.sorted().enumerated() {
                    guard appendMember(key, members[key]!, first: index == 0) else { return false }
                }
            } else {
                // Storage order: no array of keys, and no lookup for each member.
                var first = true
                for (key, value) in members {
                    guard appendMember(key, value, first: first) else { return false }
                    first = false
                }
            }
            output.append(UInt8(ascii: "}"))
        }
        return true
    }

    static func jsonNumberText(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value.rounded() == value, abs(value) < 1e15 {
            return String(Int(value)) + ".0"
        }
        return String(value)
    }

    /// Appends `string` as a JSON string literal with the escapes RFC 8259 requires; other
    /// bytes of its UTF-8 as they are.
    package static func appendQuoted(_ string: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        // Most text needs no escape: then it goes in whole, checked and copied as a buffer (a
        // short string's bytes are copied out of line once), not through its view a byte at a time.
        var string = string
        let isPlain = string.withUTF8 { bytes in
            guard !bytes.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") })
            else { return false }
            output.append(contentsOf: bytes)
            return true
        }
        if isPlain {
            output.append(UInt8(ascii: "\""))
            return
        }
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: "\\\"".utf8)
            case UInt8(ascii: "\\"): output.append(contentsOf: "\\\\".utf8)
            case UInt8(ascii: "\n"): output.append(contentsOf: "\\n".utf8)
            case UInt8(ascii: "\r"): output.append(contentsOf: "\\r".utf8)
            case UInt8(ascii: "\t"): output.append(contentsOf: "\\t".utf8)
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                output.append(contentsOf: "\\u00".utf8)
                output.append(hex[Int(byte >> 4)])
                output.append(hex[Int(byte & 0xF)])
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
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
                var quoted: [UInt8] = []
                Self.appendQuoted(key, to: &quoted)
                output += String(decoding: quoted, as: UTF8.self) + ": "
                members[key]!.appendPretty(to: &output, indent: inner)
                output += index == keys.count - 1 ? "\n" : ",\n"
            }
            output += indent + "}"
        default:
            output += jsonText
        }
    }
}
