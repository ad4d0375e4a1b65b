import EnsignYAML

/// A targeting rule as the compiler reads it: JSON values, except that an object with one
/// member, an operation, holds its name and operand instead of a dictionary.
///
/// A loaded rule is read into this from its YAML nodes: building a dictionary for each of a
/// rule's operations, only to take its one member out again, was about a twelfth of compiling it.
enum RuleTree {
    /// A string, number, boolean or `null`.
    case scalar(JSONValue)
    /// An array with a collection among its elements.
    case array([RuleTree])
    /// An array of plain values only, as they are: most arrays in rules (`["FR", "BE"]`, a
    /// `fractional` bucket), which are then literals without being rebuilt.
    case values([JSONValue])
    /// An object with exactly one member: an operation, its name and its operand (the array's
    /// one element).
    case operation(String, [RuleTree])
    /// An object with no member or more than one.
    case object([String: JSONValue])

    /// The rule read from JSON values (a rule built in code, an `$evaluators` entry).
    init(_ value: JSONValue) {
        switch value {
        case .array(let elements):
            self = elements.contains(where: \.isCollection) ? .array(elements.map(RuleTree.init)) : .values(elements)
        case .object(let members) where members.count == 1:
            let (name, operand) = members.first!
            self = .operation(name, [RuleTree(operand)])
        case .object(let members): self = .object(members)
        case .null, .bool, .int, .double, .string: self = .scalar(value)
        }
    }

    /// The rule read from a file's YAML nodes, scalars resolved as ``JSONValue`` resolves them.
    init(_ node: YAMLNode) {
        switch node.content {
        case .scalar: self = .scalar(JSONValue(node))
        case .sequence(let elements):
            self =
                elements.contains(where: \.isCollection)
                ? .array(elements.map(RuleTree.init)) : .values(elements.map(JSONValue.init))
        case .mapping(let entries) where entries.count == 1:
            self = .operation(JSONValue.memberName(of: entries[0].key), [RuleTree(entries[0].value)])
        case .mapping:
            guard case .object(let members) = JSONValue(node) else { preconditionFailure("a mapping is an object") }
            self = .object(members)
        }
    }

    /// The rule as a JSON value (built anew for a collection: for literals and messages).
    var value: JSONValue {
        switch self {
        case .scalar(let value): return value
        case .array(let elements): return .array(elements.map(\.value))
        case .values(let values): return .array(values)
        case .operation(let name, let operand): return .object([name: operand[0].value])
        case .object(let members): return .object(members)
        }
    }

    /// The elements of an array (each plain value as a ``scalar(_:)``), or `nil`.
    var elements: [RuleTree]? {
        switch self {
        case .array(let elements): return elements
        case .values(let values): return values.map(RuleTree.scalar)
        case .scalar, .operation, .object: return nil
        }
    }

    /// Whether the part is an array.
    var isArray: Bool {
        switch self {
        case .array, .values: return true
        case .scalar, .operation, .object: return false
        }
    }

    /// Whether the part is an array or an object (which may hold operations).
    var isCollection: Bool {
        if case .scalar = self { return false }
        return true
    }

    /// Whether the part is an object, of any number of members.
    var isObject: Bool {
        switch self {
        case .operation, .object: return true
        case .scalar, .array, .values: return false
        }
    }

    /// Appends the rule's compact JSON text (see ``JSONValue/appendExactJSON(to:)``); `false`
    /// when some double's text would not read back as the same value.
    func appendExactJSON(to output: inout [UInt8]) -> Bool {
        switch self {
        case .scalar(let value):
            return value.appendExactJSON(to: &output)
        case .object(let members):
            return JSONValue.object(members).appendExactJSON(to: &output)
        case .values(let values):
            return JSONValue.array(values).appendExactJSON(to: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                guard element.appendExactJSON(to: &output) else { return false }
            }
            output.append(UInt8(ascii: "]"))
        case .operation(let name, let operand):
            output.append(UInt8(ascii: "{"))
            JSONValue.appendQuoted(name, to: &output)
            output.append(UInt8(ascii: ":"))
            guard operand[0].appendExactJSON(to: &output) else { return false }
            output.append(UInt8(ascii: "}"))
        }
        return true
    }
}

extension YAMLNode {
    /// Whether the node is a sequence or a mapping.
    fileprivate var isCollection: Bool {
        if case .scalar = content { return false }
        return true
    }
}

extension JSONValue {
    /// Whether the value is an array or an object.
    fileprivate var isCollection: Bool {
        switch self {
        case .array, .object: return true
        case .null, .bool, .int, .double, .string: return false
        }
    }
}
