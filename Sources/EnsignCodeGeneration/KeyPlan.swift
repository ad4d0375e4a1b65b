import Ensign

/// What the generator will declare, worked out from the definitions before any text is
/// written: each key's Swift name, value type and default expression, the enums for string
/// keys with `enum:`, and every problem that stops generation.
struct KeyPlan {
    /// One key to declare.
    struct Key {
        let definition: FlagDefinition
        /// The declared name (in backticks when it is a keyword).
        let member: String
        /// The Swift value type: `Bool`, `JSONValue`, a generated enum or a `swiftType:`.
        let valueType: String
        /// The code default.
        let defaultValue: DefaultValue
    }

    /// A key's code default, as the renderer will write it.
    enum DefaultValue {
        /// A literal or an enum case, written as it is.
        case expression(String)
        /// A ``JSONValue`` expression, laid out to fit the line.
        case json(JSONValue)
        /// A `swiftType:` value converted from the definition's default when first used.
        case converted(JSONValue)
    }

    /// A `String`-backed enum for a string key with `enum:`.
    struct Enumeration {
        let definition: FlagDefinition
        let typeName: String
        /// Case names (escaped) and raw values, in the order of `enum:`.
        let cases: [(name: String, rawValue: String)]
    }

    private(set) var keys: [Key] = []
    private(set) var enumerations: [Enumeration] = []
    private(set) var diagnostics: [Diagnostic] = []
    /// The definition that took each member name, by kind (flags and preferences are members
    /// of different types, so they may share names).
    private var members: [FlagDefinition.Kind: [String: FlagDefinition]] = [:]
    /// The definition that took each generated enum name.
    private var typeNames: [String: FlagDefinition] = [:]
    /// The `swiftType:` names in use, which a generated enum must not take.
    private let swiftTypes: [String: FlagDefinition]

    /// Plans the keys of `definitions`, in key order.
    init(definitions: DefinitionSet) {
        var swiftTypes: [String: FlagDefinition] = [:]
        for key in definitions.keys {
            if let definition = definitions[key], let swiftType = definition.swiftType, swiftTypes[swiftType] == nil {
                swiftTypes[swiftType] = definition
            }
        }
        self.swiftTypes = swiftTypes
        for key in definitions.keys {
            guard let definition = definitions[key], let member = claimMember(for: definition) else { continue }
            guard let defaultValue = definition.defaultValue?.value else {
                missingDefault(definition)
                continue
            }
            guard let (valueType, code) = valueTypeAndDefault(of: definition, default: defaultValue) else { continue }
            keys.append(Key(definition: definition, member: member, valueType: valueType, defaultValue: code))
        }
        diagnostics = diagnostics.sortedByLocation()
    }

    /// The member name for a definition (escaped), or `nil` after reporting why there is none.
    private mutating func claimMember(for definition: FlagDefinition) -> String? {
        guard let identifier = SwiftName.memberIdentifier(for: definition.key) else {
            error(definition, "'\(definition.key)' has no letters or digits to make a Swift name from; rename the key")
            return nil
        }
        if let first = members[definition.kind]?[identifier] {
            collision(definition, first, name: ".\(identifier)")
            return nil
        }
        members[definition.kind, default: [:]][identifier] = definition
        return SwiftName.escapingKeyword(identifier)
    }

    /// The key's Swift value type and code default, or `nil` after reporting why there are none.
    private mutating func valueTypeAndDefault(of definition: FlagDefinition, default value: JSONValue)
        -> (String, DefaultValue)?
    {
        if let swiftType = definition.swiftType { return (swiftType, .converted(value)) }
        guard definition.type == .string, let allowed = definition.allowedValues else {
            return (Self.swiftType(of: definition.type), Self.literal(value, type: definition.type))
        }
        guard let enumeration = makeEnumeration(definition, allowed: allowed) else { return nil }
        if let first = typeNames[enumeration.typeName] {
            collision(definition, first, name: "enum \(enumeration.typeName)")
            return nil
        }
        if let other = swiftTypes[enumeration.typeName] {
            diagnostics.append(
                .clash(
                    "'\(definition.key)' would generate the enum \(enumeration.typeName), the type '\(other.key)' names"
                        + " with swiftType:; rename one of the keys, or give '\(definition.key)' a swiftType: too",
                    at: definition, with: other, note: "'\(other.key)' is defined here"))
            return nil
        }
        typeNames[enumeration.typeName] = definition
        guard let chosen = enumeration.cases.first(where: { .string($0.rawValue) == value }) else {
            error(definition, "'\(definition.key)' default \(value.jsonText) is not one of its enum values")
            return nil
        }
        enumerations.append(enumeration)
        return (enumeration.typeName, .expression("." + chosen.name))
    }

    /// The Swift type of a definition type without `enum:` or `swiftType:`.
    static func swiftType(of type: FlagType) -> String {
        switch type {
        case .bool: return "Bool"
        case .int: return "Int"
        case .double: return "Double"
        case .string: return "String"
        case .object: return "JSONValue"
        }
    }

    /// The code default for a value of a definition type (already checked against it by the loader).
    static func literal(_ value: JSONValue, type: FlagType) -> DefaultValue {
        switch (type, value) {
        case (.bool, .bool(let bool)): return .expression("\(bool)")
        case (.int, _) where value.intValue != nil: return .expression("\(value.intValue!)")
        case (.double, _) where value.numericValue != nil: return .expression(SwiftLiteral.double(value.numericValue!))
        case (.string, .string(let text)): return .expression(SwiftLiteral.string(text))
        default: return .json(value)
        }
    }

    private mutating func makeEnumeration(_ definition: FlagDefinition, allowed: [JSONValue]) -> Enumeration? {
        guard let typeName = SwiftName.type(for: definition.key) else { return nil }
        var cases: [(name: String, rawValue: String)] = []
        var firstValue: [String: String] = [:]
        var isValid = true
        for case .string(let rawValue) in allowed {
            guard let identifier = SwiftName.memberIdentifier(for: rawValue) else {
                error(
                    definition,
                    "'\(definition.key)' enum value \(SwiftLiteral.string(rawValue)) has no letters or digits to make"
                        + " a Swift case name from; use another value, or 'swiftType:' with your own enum")
                isValid = false
                continue
            }
            if let first = firstValue[identifier] {
                error(
                    definition,
                    "'\(definition.key)' enum values \(SwiftLiteral.string(first)) and \(SwiftLiteral.string(rawValue))"
                        + " both become the Swift case '\(identifier)'; change one, or use 'swiftType:' with your own enum"
                )
                isValid = false
                continue
            }
            firstValue[identifier] = rawValue
            cases.append((SwiftName.escapingKeyword(identifier), rawValue))
        }
        return isValid ? Enumeration(definition: definition, typeName: typeName, cases: cases) : nil
    }

    private mutating func missingDefault(_ definition: FlagDefinition) {
        let fix =
            definition.variants.isEmpty
            ? "add 'default: <value>'"
            : "add 'defaultVariant: <variant>' (one of \(definition.variants.names.sorted().joined(separator: ", ")))"
        error(
            definition,
            "'\(definition.key)' has no default, and a generated key needs one as its code default; \(fix)")
    }

    /// Reports two keys with one Swift name: at the one written later, with a note at the other.
    private mutating func collision(_ one: FlagDefinition, _ other: FlagDefinition, name: String) {
        let (first, definition) = other.location <= one.location ? (other, one) : (one, other)
        diagnostics.append(
            .clash(
                "'\(first.key)' and '\(definition.key)' both become the Swift name '\(name)'; rename one of the keys",
                at: definition, with: first, note: "'\(first.key)' is defined here"))
    }

    private mutating func error(_ definition: FlagDefinition, _ message: String) {
        diagnostics.append(Diagnostic(.error, at: definition.location, key: definition.key, message))
    }
}
