import EnsignYAML

/// Reads one definitions document (`version`, `namespace`, `flags`, `preferences`,
/// `$evaluators`, `metadata`) into ``FlagDefinition`` values, reporting every problem
/// instead of stopping at the first.
struct DefinitionFileReader {
    let today: CalendarDay
    var diagnostics: [Diagnostic] = []
    /// The errors among ``diagnostics`` confined to one flag, which still loads.
    var flagErrors: [Diagnostic] = []
    var definitions: [FlagDefinition] = []
    var evaluators: [(name: String, rule: LocatedValue, node: YAMLNode)] = []

    init(today: CalendarDay) {
        self.today = today
    }

    static let topLevelFields = ["version", "namespace", "flags", "preferences", "$evaluators", "$schema", "metadata"]
    static let supportedVersion = 1

    mutating func read(_ root: YAMLNode) {
        read(consuming: root)
    }

    /// Reads a document the caller hands over: its `flags:` and `preferences:` entries are
    /// released one by one as they are read (the definitions keep only what they need).
    mutating func read(consuming root: consuming YAMLNode) {
        guard case .mapping(var entries) = root.content else {
            error(
                at: root.location,
                "a definitions file must be a mapping with 'flags:' and/or 'preferences:'; found \(root.kindDescription)"
            )
            return
        }
        let rootLocation = root.location
        root.content = .sequence([])  // `entries` is now the tree's only owner
        var fields: [String: Int] = [:]
        for (index, entry) in entries.enumerated() {
            guard let name = entry.key.scalarText, Self.topLevelFields.contains(name) else {
                let name = entry.key.scalarText ?? "?"
                error(
                    at: entry.key.location,
                    "unknown top-level field '\(name)'\(Suggestions.didYouMean(name, among: Self.topLevelFields))")
                continue
            }
            fields[name] = index
        }
        func take(_ name: String) -> YAMLNode? {
            guard let index = fields[name] else { return nil }
            return Self.take(&entries, at: index).value
        }
        if let version = fields["version"].map({ entries[$0].value }),
            version.resolvedScalar != .int(Self.supportedVersion)
        {
            error(
                at: version.location,
                "unsupported version \(JSONValue(version).jsonText); this Ensign reads version \(Self.supportedVersion)"
            )
        }
        let namespace = fields["namespace"].flatMap { readNamespace(entries[$0].value) }
        let setMetadata = fields["metadata"].flatMap { readMetadata(entries[$0].value, key: nil) } ?? [:]
        if let flags = take("flags") {
            // `consume`: without it the binding keeps the tree alive and nothing is freed early.
            readEntries(consuming: consume flags, kind: .flag, namespace: namespace, setMetadata: setMetadata)
        }
        if let preferences = take("preferences") {
            readEntries(
                consuming: consume preferences, kind: .preference, namespace: namespace, setMetadata: setMetadata)
        }
        if let node = take("$evaluators") { readEvaluators(node) }
        if fields["flags"] == nil, fields["preferences"] == nil {
            error(at: rootLocation, "a definitions file needs 'flags:' or 'preferences:'")
        }
    }

    /// Moves an entry out of `entries`, leaving an empty one in its place.
    static func take(_ entries: inout [YAMLMappingEntry], at index: Int) -> YAMLMappingEntry {
        let entry = entries[index]
        entries[index] = emptyEntry
        return entry
    }

    /// What a read entry is replaced with: made once, since `YAMLNode.null` builds a new node.
    private static let emptyEntry = YAMLMappingEntry(key: .null, value: .null)

    private mutating func readNamespace(_ node: YAMLNode) -> String? {
        guard case .string(let namespace) = node.resolvedScalar, KeySyntax.isValid(namespace) else {
            error(at: node.location, "invalid namespace \(JSONValue(node).jsonText): \(KeySyntax.rule)")
            return nil
        }
        return namespace
    }

    private mutating func readEntries(
        consuming node: consuming YAMLNode, kind: FlagDefinition.Kind, namespace: String?,
        setMetadata: [String: JSONValue]
    ) {
        let section = kind == .flag ? "flags" : "preferences"
        if case .scalar = node.content, node.resolvedScalar == .null { return }  // `flags:` with nothing under it
        guard case .mapping(var entries) = node.content else {
            error(
                at: node.location,
                "'\(section)' must be a mapping of keys to definitions; found \(node.kindDescription)")
            return
        }
        node.content = .sequence([])  // `entries` is now the only owner, so each read entry can go
        definitions.reserveCapacity(definitions.count + entries.count)
        for index in entries.indices {
            let entry = Self.take(&entries, at: index)
            var entryReader = DefinitionEntryReader(
                kind: kind, namespace: namespace, setMetadata: setMetadata, today: today)
            if let definition = entryReader.read(key: entry.key, value: entry.value) {
                definitions.append(definition)
            }
            diagnostics += entryReader.diagnostics
            flagErrors += entryReader.flagErrors
        }
    }

    private mutating func readEvaluators(_ node: YAMLNode) {
        guard let entries = node.mappingEntries else {
            error(at: node.location, "'$evaluators' must be a mapping of names to targeting rules")
            return
        }
        for entry in entries {
            guard let name = entry.key.scalarText, !name.isEmpty else {
                error(at: entry.key.location, "an evaluator needs a name")
                continue
            }
            evaluators.append((name, LocatedValue(JSONValue(entry.value), at: entry.key.location), entry.value))
        }
    }

    private mutating func readMetadata(_ node: YAMLNode, key: String?) -> [String: JSONValue]? {
        MetadataReader.read(node, key: key, diagnostics: &diagnostics)
    }

    private mutating func error(at location: SourcePosition, _ message: String) {
        diagnostics.append(Diagnostic(.error, at: location, message))
    }
}

/// Reads `metadata:` mappings: flagd allows strings, numbers and booleans as values.
enum MetadataReader {
    static func read(_ node: YAMLNode, key: String?, diagnostics: inout [Diagnostic]) -> [String: JSONValue]? {
        guard let entries = node.mappingEntries else {
            diagnostics.append(
                Diagnostic(.error, at: node.location, key: key, "'metadata' must be a mapping of names to values"))
            return nil
        }
        var metadata: [String: JSONValue] = [:]
        for entry in entries {
            let value = JSONValue(entry.value)
            switch value {
            case .bool, .int, .double, .string:
                metadata[entry.key.scalarText ?? ""] = value
            case .null, .array, .object:
                diagnostics.append(
                    Diagnostic(
                        .error, at: entry.value.location, key: key,
                        "metadata '\(entry.key.scalarText ?? "")' must be a string, number or bool"))
            }
        }
        return metadata
    }
}
