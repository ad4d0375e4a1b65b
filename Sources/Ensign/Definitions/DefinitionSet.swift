/// Every flag and preference an app defines, loaded from its definitions files.
///
/// An immutable value: reloading produces a new set. Keys are unique across files and
/// across flags and preferences.
///
/// ```swift
/// let result = DefinitionLoader().loadDirectory("flags")
/// if let pageSize = result.definitions["beneficiaries.pageSize"] {
///     print(pageSize.type, pageSize.defaultValue?.value ?? "none")
/// }
/// ```
public struct DefinitionSet: Sendable {
    /// The definitions by full key.
    public let definitions: [String: FlagDefinition]
    /// Every key, sorted.
    public let keys: [String]
    /// Named targeting rules from `$evaluators:` in any file, shared by all files.
    public let evaluators: [String: LocatedValue]
    /// The files the definitions came from, in load order.
    public let files: [String]

    /// Creates a set; `definitions` must not hold two definitions with the same key.
    public init(definitions: [FlagDefinition], evaluators: [String: LocatedValue] = [:], files: [String] = []) {
        var byKey: [String: FlagDefinition] = [:]
        byKey.reserveCapacity(definitions.count)
        for definition in definitions where byKey[definition.key] == nil {
            byKey[definition.key] = definition
        }
        self.definitions = byKey
        self.keys = byKey.keys.sorted()
        self.evaluators = evaluators
        self.files = files
    }

    /// A set with no definitions.
    public static let empty = DefinitionSet(definitions: [])

    /// The definition for a full key.
    public subscript(key: String) -> FlagDefinition? { definitions[key] }

    /// How many keys are defined.
    public var count: Int { definitions.count }
}
