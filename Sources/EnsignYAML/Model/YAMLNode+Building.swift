extension YAMLNode {
    /// A location for nodes built in code rather than parsed.
    static let built = SourcePosition.unknown("<built>")

    /// A string scalar; it is written quoted when plain text would read back as another type.
    package static func string(_ text: String) -> YAMLNode {
        let style: ScalarStyle = needsQuotes(text) ? .doubleQuoted : .plain
        return YAMLNode(.scalar(text, style), location: built)
    }

    /// A boolean scalar (`true` / `false`).
    package static func bool(_ value: Bool) -> YAMLNode {
        YAMLNode(.scalar(value ? "true" : "false", .plain), location: built)
    }

    /// An integer scalar.
    package static func int(_ value: Int) -> YAMLNode {
        YAMLNode(.scalar(String(value), .plain), location: built)
    }

    /// A floating-point scalar that reads back as a double (`1.0`, `.inf`, `.nan`).
    package static func double(_ value: Double) -> YAMLNode {
        let text: String
        if value.isNaN {
            text = ".nan"
        } else if value.isInfinite {
            text = value < 0 ? "-.inf" : ".inf"
        } else if value.rounded() == value, abs(value) < 1e15 {
            text = String(Int(value)) + ".0"
        } else {
            text = String(value)
        }
        return YAMLNode(.scalar(text, .plain), location: built)
    }

    /// A null scalar.
    package static var null: YAMLNode {
        YAMLNode(.scalar("null", .plain), location: built)
    }

    /// A sequence.
    package static func sequence(_ elements: [YAMLNode]) -> YAMLNode {
        YAMLNode(.sequence(elements), location: built)
    }

    /// A mapping with string keys, in the order given.
    package static func mapping(_ entries: KeyValuePairs<String, YAMLNode>) -> YAMLNode {
        mapping(entries.map { ($0.key, $0.value) })
    }

    /// A mapping with string keys, in the order given.
    package static func mapping(_ entries: [(String, YAMLNode)]) -> YAMLNode {
        YAMLNode(.mapping(entries.map { YAMLMappingEntry(key: .string($0.0), value: $0.1) }), location: built)
    }

    /// Whether `text` written plain would not read back as the same string.
    static func needsQuotes(_ text: String) -> Bool {
        if case .string = resolvePlain(text) {
            switch text.lowercased() {
            case "yes", "no", "on", "off", "y", "n": return true
            default: return false
            }
        }
        return true
    }
}
