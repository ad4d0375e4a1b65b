/// How flagd's daemon reads a targeting result as a variant name (`json.go: evaluateVariant`):
/// it encodes the result as Go's `encoding/json` does — HTML-escaped — and removes every `"`
/// from the text. So `"on"` names `on`, `true` names `true`, `1.0` names `1`, `["on"]` names
/// `[on]` and `{"a": 1}` names `{a:1}`; a string holding `"`, `\`, `<`, `>`, `&`, a control
/// character, U+2028 or U+2029 names its escaped form (`"a<b"` names `a\u003cb`), so a variant
/// whose name holds one of those can be served only as the default variant.
enum FlagdVariantName {
    /// The variant name `result` selects; `nil` for `null`, which selects none (the default
    /// variant applies), and for a result JSON cannot represent (`NaN`, infinities).
    static func name(for result: JSONValue) -> String? {
        switch result {
        case .null: return nil
        case .string(let text) where !needsEscaping(text): return text
        default:
            var output: [UInt8] = []
            guard encode(result, into: &output) else { return nil }
            return String(decoding: output.lazy.filter { $0 != UInt8(ascii: "\"") }, as: UTF8.self)
        }
    }

    /// Whether Go's encoder writes any of `text`'s characters as an escape.
    private static func needsEscaping(_ text: String) -> Bool {
        var previous: (UInt8, UInt8) = (0, 0)
        for byte in text.utf8 {
            switch byte {
            case 0..<0x20, UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "<"), UInt8(ascii: ">"),
                UInt8(ascii: "&"):
                return true
            case 0xA8,
                0xA9 where previous == (0xE2, 0x80):  // U+2028, U+2029
                return true
            default:
                previous = (previous.1, byte)
            }
        }
        return false
    }

    /// Appends `value` as Go's `json.Encoder` writes it (object members sorted by their bytes);
    /// `false` when it holds a number JSON cannot represent.
    private static func encode(_ value: JSONValue, into output: inout [UInt8]) -> Bool {
        switch value {
        case .null:
            output += Array("null".utf8)
        case .bool(let bool):
            output += Array((bool ? "true" : "false").utf8)
        case .int(let integer):
            // Go holds every JSON number as a double.
            guard let text = GoNumberText.jsonText(for: Double(integer)) else { return false }
            output += Array(abs(Double(integer)) < JSONValue.exactIntegerLimit ? String(integer).utf8 : text.utf8)
        case .double(let double):
            guard let text = GoNumberText.jsonText(for: double) else { return false }
            output += Array(text.utf8)
        case .string(let text):
            appendString(text, to: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                guard encode(element, into: &output) else { return false }
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            let keys = members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            for (index, key) in keys.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                appendString(key, to: &output)
                output.append(UInt8(ascii: ":"))
                guard encode(members[key] ?? .null, into: &output) else { return false }
            }
            output.append(UInt8(ascii: "}"))
        }
        return true
    }

    /// A JSON string as Go writes it with HTML escaping (and, as since Go 1.22, `\b` and `\f`).
    private static func appendString(_ text: String, to output: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        output.append(UInt8(ascii: "\""))
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x22, 0x5C: output += [UInt8(ascii: "\\"), UInt8(scalar.value)]
            case 0x08: output += Array("\\b".utf8)
            case 0x0C: output += Array("\\f".utf8)
            case 0x0A: output += Array("\\n".utf8)
            case 0x0D: output += Array("\\r".utf8)
            case 0x09: output += Array("\\t".utf8)
            case 0..<0x20, 0x3C, 0x3E, 0x26, 0x2028, 0x2029:
                let value = Int(scalar.value)
                output += Array("\\u".utf8)
                output += [hex[value >> 12 & 0xF], hex[value >> 8 & 0xF], hex[value >> 4 & 0xF], hex[value & 0xF]]
            default:
                output += Array(String(scalar).utf8)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
