import EnsignYAML

extension JSONValue {
    /// The value of a YAML node: scalars resolved with the core schema, mappings keyed by
    /// their keys' text.
    package init(_ node: YAMLNode) {
        switch node.content {
        case .scalar:
            switch node.resolvedScalar {
            case .null: self = .null
            case .bool(let value): self = .bool(value)
            case .int(let value): self = .int(value)
            case .double(let value): self = .double(value)
            case .string(let value): self = .string(value)
            }
        case .sequence(let elements):
            self = .array(elements.map(JSONValue.init))
        case .mapping(let entries):
            var members: [String: JSONValue] = [:]
            members.reserveCapacity(entries.count)
            for entry in entries {
                members[Self.memberName(of: entry.key)] = JSONValue(entry.value)
            }
            self = .object(members)
        }
    }

    /// The member name a mapping's key gives: a scalar's text, or another key's JSON text.
    static func memberName(of key: YAMLNode) -> String {
        key.scalarText ?? JSONValue(key).jsonText
    }

    /// A YAML node for this value, for writing overlay files.
    package var yamlNode: YAMLNode {
        switch self {
        case .null: return .null
        case .bool(let value): return .bool(value)
        case .int(let value): return .int(value)
        case .double(let value): return .double(value)
        case .string(let value): return .string(value)
        case .array(let elements): return .sequence(elements.map(\.yamlNode))
        case .object(let members): return .mapping(members.keys.sorted().map { ($0, members[$0]!.yamlNode) })
        }
    }
}
