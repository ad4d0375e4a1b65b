import EnsignSupport
import EnsignYAML

/// Reads one `key: { fields… }` entry of `flags:` or `preferences:` into a ``FlagDefinition``.
///
/// The compact form (`type`, `default`) and flagd's long form (`state`, `variants`,
/// `defaultVariant`) are read into the same model. Every problem is reported; a definition
/// is returned only when its type and values could be established.
struct DefinitionEntryReader {
    let kind: FlagDefinition.Kind
    let namespace: String?
    let setMetadata: [String: JSONValue]
    let today: CalendarDay
    var diagnostics: [Diagnostic] = []
    /// The errors among ``diagnostics`` confined to this flag: it still loads, and fails only
    /// where an evaluation meets the problem (see ``FlagDefinition/configurationProblem``).
    var flagErrors: [Diagnostic] = []
    private(set) var key = ""
    /// Where the key stands, compact: its file name is looked up only for a message.
    private(set) var keyPosition = CompactSourcePosition.none
    var keyLocation: SourcePosition { keyPosition.sourcePosition }
    private(set) var fields = DefinitionFields()
    /// Whether the entry has a field only definitions have (`type`, `default`, `variants`,
    /// `state`, `defaultVariant`): see ``ConfigFileKind``.
    private(set) var hasDefinitionField = false

    init(kind: FlagDefinition.Kind, namespace: String?, setMetadata: [String: JSONValue], today: CalendarDay) {
        self.kind = kind
        self.namespace = namespace
        self.setMetadata = setMetadata
        self.today = today
    }

    /// The fields of flags and preferences, in the order suggestions list them.
    static let commonFields = DefinitionField.allCases.filter { !$0.isFlagOnly }.map(\.name)
    /// The fields of flagd's long form, which preferences do not have.
    static let flagOnlyFields = DefinitionField.allCases.filter(\.isFlagOnly).map(\.name)

    var allowedFields: [String] { kind == .flag ? Self.commonFields + Self.flagOnlyFields : Self.commonFields }

    /// Reads the definition whose key is `keyNode` and whose fields are under the reader's
    /// cursor, walking them from the events: only the values that are collections are composed.
    mutating func read(key keyNode: YAMLNode, from reader: inout YAMLEventReader) throws(YAMLError) -> FlagDefinition? {
        guard let shortKey = keyNode.scalarText else {
            error(at: keyNode.location, "invalid key \(JSONValue(keyNode).jsonText): a key is text")
            try skipValue(from: &reader)
            return nil
        }
        if let problem = KeySyntax.flagKeyProblem(shortKey) {
            error(at: keyNode.location, "invalid key \(JSONValue.string(shortKey).jsonText): \(problem)")
            try skipValue(from: &reader)
            return nil
        }
        key = namespace.map { Self.fullKey(namespace: $0, shortKey: shortKey) } ?? shortKey
        keyPosition = keyNode.compactPosition
        if let node = try reader.composeNodeUnlessMapping() {
            var message = "'\(key)' must be a mapping of fields such as type and default; found \(node.kindDescription)"
            if let text = node.scalarText { message += "; write '\(shortKey): { default: \(text) }'" }
            error(at: node.location, message)
            return nil
        }
        try readFields(from: &reader)
        guard let (type, variants, mixesTypes) = readTypeAndVariants() else { return nil }
        let (minimum, maximum) = readBounds(type: type)
        let allowedValues = readAllowedValues(type: type)
        let rules = ValueRules(type: type, allowedValues: allowedValues, minimum: minimum, maximum: maximum)
        var readVariants: [(name: String, value: JSONValue)] = []
        for (name, node) in variants {
            if mixesTypes, let value = Optional(JSONValue(node)), FlagType(of: value) != type {
                readVariants.append((name, value))  // served as written; a typed read says TYPE_MISMATCH
                continue
            }
            if let value = LocatedValueReader.read(
                node, rules: rules, key: key, role: "variant '\(name)'", diagnostics: &diagnostics)
            {
                readVariants.append((name, value))
            }
        }
        let checkedVariants = FlagVariants(readVariants)
        let (defaultValue, defaultVariant, defaultVariantProblem) = readDefault(rules: rules, variants: checkedVariants)
        var metadata = setMetadata
        if let node = fields[.metadata], let own = MetadataReader.read(node, key: key, diagnostics: &diagnostics) {
            metadata.merge(own) { _, flagValue in flagValue }
        }
        return FlagDefinition(
            key: key, kind: kind, type: type, defaultValue: defaultValue, variants: checkedVariants,
            defaultVariant: defaultVariant, isEnabled: readState(),
            targetingNode: fields[.targeting], environmentValues: readEnvironments(rules: rules),
            allowedValues: allowedValues, minimum: minimum, maximum: maximum, summary: readText(.description),
            owner: readText(.owner), expires: readExpiry(), metadata: metadata, position: keyPosition,
            swiftType: readSwiftType(), defaultVariantProblem: defaultVariantProblem, isSecret: readSecret())
    }

    /// Reads past the value of an entry that is not read, noting whether it has a definition field.
    private mutating func skipValue(from reader: inout YAMLEventReader) throws(YAMLError) {
        let node = try reader.composeNode()
        hasDefinitionField =
            node.mappingEntries?.contains {
                $0.key.scalarText.map(ConfigFileKind.definitionFields.contains) ?? false
            } ?? false
    }

    private mutating func readFields(from reader: inout YAMLEventReader) throws(YAMLError) {
        fields = try DefinitionFields(reading: &reader, isFlag: kind == .flag)
        hasDefinitionField =
            fields.contains(.type) || fields.contains(.default) || fields.contains(.variants)
            || fields.contains(.state) || fields.contains(.defaultVariant)
        for keyNode in fields.refusedKeys {
            let name = keyNode.scalarText ?? "?"
            let hint =
                kind == .preference && Self.flagOnlyFields.contains(name)
                ? "; preferences cannot have '\(name)' (it is for flags)"
                : Suggestions.didYouMean(name, among: allowedFields)
            error(at: keyNode.location, "unknown field '\(name)' in '\(key)'\(hint)")
        }
    }

    /// The type (declared, or inferred from the variants or the default), the raw variants,
    /// and whether the variants (with no declared type) hold values of several types.
    private mutating func readTypeAndVariants() -> (FlagType, [(String, YAMLNode)], mixesTypes: Bool)? {
        var declared: FlagType?
        if let node = fields[.type] {
            guard let type = node.scalarText.flatMap(FlagType.init(rawValue:)) else {
                let text = node.scalarText ?? node.kindDescription
                let names = FlagType.allCases.map(\.rawValue)
                error(
                    at: node.location,
                    "'\(key)' has unknown type '\(text)'; use one of \(names.joined(separator: ", "))"
                        + Self.typeSuggestion(for: text))
                return nil
            }
            declared = type
        }
        var variants: [(String, YAMLNode)] = []
        if let node = fields[.variants] {
            guard let entries = node.mappingEntries, !entries.isEmpty else {
                error(at: node.location, "'\(key)' variants must be a non-empty mapping of names to values")
                return nil
            }
            for entry in entries {
                guard let name = entry.key.scalarText else {
                    error(at: entry.key.location, "'\(key)' has a variant whose name is not a string")
                    continue
                }
                if case .scalar = entry.value.content, entry.value.resolvedScalar == .null {
                    error(at: entry.value.location, "'\(key)' variant '\(name)' is null; give it a value")
                    continue
                }
                variants.append((name, entry.value))
            }
            if declared == nil {
                guard let (inferred, mixed) = inferVariantType(variants, at: node.location) else { return nil }
                if mixed { return (inferred, variants, true) }
                declared = inferred
            }
        }
        if let declared { return (declared, variants, false) }
        guard let defaultNode = fields[.default] else {
            error(at: keyLocation, "'\(key)' needs a default (and optionally a type); add 'default: <value>'")
            return nil
        }
        let value = JSONValue(defaultNode)
        guard let inferred = FlagType(of: value) else {
            error(at: defaultNode.location, "'\(key)' default is null; give a value, or declare 'type:'")
            return nil
        }
        if inferred == .string, case .scalar(let text, .plain) = defaultNode.content,
            let meant = BoolLookalike.meaning(of: text)
        {
            warning(
                at: defaultNode.location,
                "'\(key)' default \(text) is a string in YAML 1.2, so this is a string flag;"
                    + " if you meant a bool, write \(meant)")
        }
        return (inferred, variants, false)
    }

    /// The type of the variants' values, and whether they mix types.
    ///
    /// flagd checks only the variant an evaluation chooses against the type asked for, so a
    /// flag whose variants mix types loads: it takes the type of its default variant (else of
    /// its first variant), the others are served as written, and a typed read that chooses one
    /// gets `TYPE_MISMATCH`. `validate` warns about it; `type:` makes every variant be checked.
    private mutating func inferVariantType(_ variants: [(String, YAMLNode)], at location: SourcePosition)
        -> (FlagType, mixed: Bool)?
    {
        let variantTypes = variants.map { FlagType(of: JSONValue($0.1)) }
        // Almost always one type (null variants have none): no dictionary or set for that.
        if let only = variantTypes.first(where: { $0 != nil }) ?? nil,
            variantTypes.allSatisfy({ $0 == nil || $0 == only })
        {
            return (only, false)
        }
        var types: [FlagType: String] = [:]
        for ((name, _), type) in zip(variants, variantTypes) {
            if let type, types[type] == nil { types[type] = name }
        }
        let kinds = Set(types.keys)
        if kinds == [.int, .double] { return (.double, false) }
        if kinds.isEmpty { return nil }
        let defaultName = fields[.defaultVariant]?.scalarText
        let defaultNode = variants.first { $0.0.isExactly(defaultName ?? "") }?.1
        let chosenNode = defaultNode ?? variants[0].1
        let chosen = FlagType(of: JSONValue(chosenNode)) ?? types.min { $0.value < $1.value }!.key
        let listing = types.sorted { $0.value < $1.value }.map { "'\($0.value)' is \($0.key.withArticle)" }
        warning(
            at: location,
            "'\(key)' variants have mixed types: \(listing.joined(separator: ", ")); it is \(chosen.withArticle) flag"
                + " (from \(defaultNode == nil ? "its first variant" : "its default variant")), and a read that"
                + " chooses a variant of another type gets TYPE_MISMATCH; declare 'type:' to check every variant")
        return (chosen, true)
    }
}

extension DefinitionEntryReader {
    /// `namespace.shortKey`, its bytes copied once into one allocation (string interpolation,
    /// for every key of a large file, cost three allocations; `reserveCapacity` and `+=`, 800
    /// instructions a key).
    static func fullKey(namespace: String, shortKey: String) -> String {
        var (namespace, shortKey) = (namespace, shortKey)
        return namespace.withUTF8 { prefix in
            shortKey.withUTF8 { suffix in
                String(unsafeUninitializedCapacity: prefix.count + 1 + suffix.count) { buffer in
                    _ = buffer.initialize(fromContentsOf: prefix)
                    buffer[prefix.count] = UInt8(ascii: ".")
                    _ = buffer[(prefix.count + 1)...].initialize(fromContentsOf: suffix)
                    return buffer.count
                }
            }
        }
    }

    /// flagd and JSON Schema spell some types differently; point those at Ensign's names.
    static func typeSuggestion(for text: String) -> String {
        let aliases = ["boolean": "bool", "integer": "int", "float": "double", "number": "double"]
        if let canonical = aliases[text.lowercased()] { return "; did you mean '\(canonical)'?" }
        return Suggestions.didYouMean(text, among: FlagType.allCases.map(\.rawValue))
    }
}
