import EnsignSupport
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
    /// How many of `flags:` and `preferences:` the document has.
    private var sectionCount = 0
    /// Whether no key is among ``definitions`` twice, without comparing them: they all come from
    /// one mapping, which the parser refuses with a key written twice, under one namespace.
    var hasUniqueKeys: Bool { sectionCount <= 1 }
    var evaluators: [(name: String, rule: LocatedValue, node: YAMLNode)] = []

    /// The namespace and metadata that apply to every definition of the document.
    struct Header {
        var namespace: String?
        var metadata: [String: JSONValue] = [:]
    }

    /// The document's header, when known before its definitions are read (a second reading).
    let knownHeader: Header?
    /// The header as read so far.
    private(set) var header = Header()
    /// Whether `namespace:` or `metadata:` came after definitions that were read without it:
    /// the document must be read again with ``header`` known (see ``DefinitionLoader``).
    private(set) var needsHeaderFirst = false
    private var hasReadDefinitions = false

    /// Whether to stop reading at a top-level `ensignBundle` member (see ``hasBundleMember``).
    let stopsAtBundleMember: Bool
    /// Whether the document has a top-level `ensignBundle` member: it is a definitions bundle,
    /// and when ``stopsAtBundleMember`` it was not read further.
    private(set) var hasBundleMember = false
    /// Whether the document declares definitions by ``ConfigFileKind``'s rule: it has a
    /// definitions-only field at the top, or a definition with a field only definitions have.
    private(set) var declaresDefinitions = false

    /// Where each definition with a targeting rule goes to be compiled while reading goes on.
    let pipeline: RuleCompilationPipeline?

    init(
        today: CalendarDay, knownHeader: Header? = nil, stopsAtBundleMember: Bool = false,
        pipeline: RuleCompilationPipeline? = nil
    ) {
        self.today = today
        self.knownHeader = knownHeader
        self.stopsAtBundleMember = stopsAtBundleMember
        self.pipeline = pipeline
    }

    static let topLevelFields = ["version", "namespace", "flags", "preferences", "$evaluators", "$schema", "metadata"]
    static let supportedVersion = 1

    /// Reads the document whose root is under the reader's cursor, from its events: the
    /// top-level mapping, the `flags:` and `preferences:` mappings and each definition's fields
    /// are walked, and only values that are collections are composed, so the file is never one tree.
    mutating func read(from reader: inout YAMLEventReader) throws(YAMLError) {
        guard reader.kind == .mappingStart else {
            declaresDefinitions = true  // not an overlay either: reported as a definitions file
            let root = try reader.composeNode()
            error(
                at: root.location,
                "a definitions file must be a mapping with 'flags:' and/or 'preferences:'; found \(root.kindDescription)"
            )
            return
        }
        var mapping = try reader.enterMapping()
        var hasDefinitions = false
        while let key = try reader.nextKey(in: &mapping) {
            if let name = key.scalarText, ConfigFileKind.definitionMarkers.contains(name) { declaresDefinitions = true }
            guard let name = key.scalarText, Self.topLevelFields.contains(name) else {
                if key.scalarText == DefinitionsBundle.formatMember {
                    hasBundleMember = true
                    if stopsAtBundleMember { return }
                }
                let name = key.scalarText ?? "?"
                error(
                    at: key.location,
                    "unknown top-level field '\(name)'\(Suggestions.didYouMean(name, among: Self.topLevelFields))")
                _ = try reader.composeNode()
                continue
            }
            switch name {
            case "flags", "preferences":
                hasDefinitions = true
                hasReadDefinitions = true
                try readEntries(from: &reader, kind: name == "flags" ? .flag : .preference)
            case "version":
                let version = try reader.composeNode()
                if version.resolvedScalar != .int(Self.supportedVersion) {
                    error(
                        at: version.location,
                        "unsupported version \(JSONValue(version).jsonText); this Ensign reads version \(Self.supportedVersion)"
                    )
                }
            case "namespace":
                header.namespace = readNamespace(try reader.composeNode())
                needsHeaderFirst = needsHeaderFirst || hasReadDefinitions
            case "metadata":
                header.metadata = readMetadata(try reader.composeNode(), key: nil) ?? [:]
                needsHeaderFirst = needsHeaderFirst || hasReadDefinitions
            case "$evaluators":
                readEvaluators(try reader.composeNode())
            default:  // $schema: for editors
                _ = try reader.composeNode()
            }
        }
        if !hasDefinitions {
            error(at: mapping.location, "a definitions file needs 'flags:' or 'preferences:'")
        }
    }

    private mutating func readNamespace(_ node: YAMLNode) -> String? {
        guard case .string(let namespace) = node.resolvedScalar, KeySyntax.isValid(namespace) else {
            error(at: node.location, "invalid namespace \(JSONValue(node).jsonText): \(KeySyntax.rule)")
            return nil
        }
        return namespace
    }

    /// Reads the `flags:` or `preferences:` value under the cursor, one definition at a time.
    private mutating func readEntries(from reader: inout YAMLEventReader, kind: FlagDefinition.Kind) throws(YAMLError) {
        sectionCount += 1
        if let node = try reader.composeNodeUnlessMapping() {
            if case .scalar = node.content, node.resolvedScalar == .null { return }  // `flags:` with nothing under it
            let section = kind == .flag ? "flags" : "preferences"
            error(
                at: node.location,
                "'\(section)' must be a mapping of keys to definitions; found \(node.kindDescription)")
            return
        }
        let header = knownHeader ?? self.header
        var mapping = try reader.enterMapping()
        while let key = try reader.nextKey(in: &mapping) {
            var entryReader = DefinitionEntryReader(
                kind: kind, namespace: header.namespace, setMetadata: header.metadata, today: today)
            if let definition = try entryReader.read(key: key, from: &reader) {
                definitions.append(definition)
                pipeline?.submit(definition)
            }
            declaresDefinitions = declaresDefinitions || entryReader.hasDefinitionField
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
            evaluators.append((name, LocatedValue(JSONValue(entry.value), at: entry.key.compactPosition), entry.value))
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
