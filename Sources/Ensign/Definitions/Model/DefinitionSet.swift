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
    /// Every key, sorted.
    public let keys: [String]
    /// The definitions in the order of ``keys``.
    public let orderedDefinitions: [FlagDefinition]
    /// Named targeting rules from `$evaluators:` in any file, shared by all files.
    public let evaluators: [String: LocatedValue]
    /// The files the definitions came from, in load order.
    public let files: [String]
    /// Each key's index in ``keys``: also the key's slot in every snapshot, so a context's
    /// layout shares these arrays instead of building its own.
    let indexByKey: [String: Int]

    /// Creates a set; when two definitions have the same key, the first is kept.
    public init(definitions: [FlagDefinition], evaluators: [String: LocatedValue] = [:], files: [String] = []) {
        var firstByKey: [String: Int] = [:]
        firstByKey.reserveCapacity(definitions.count)
        for (position, definition) in definitions.enumerated() where firstByKey[definition.key] == nil {
            firstByKey[definition.key] = position
        }
        let sorted = firstByKey.sorted { $0.key < $1.key }
        keys = sorted.map(\.key)
        orderedDefinitions = sorted.map { definitions[$0.value] }
        var indexByKey: [String: Int] = [:]
        indexByKey.reserveCapacity(sorted.count)
        for (index, key) in keys.enumerated() { indexByKey[key] = index }
        self.indexByKey = indexByKey
        self.evaluators = evaluators
        self.files = files
    }

    /// A set with no definitions.
    public static let empty = DefinitionSet(definitions: [])

    /// The definition for a full key.
    public subscript(key: String) -> FlagDefinition? {
        indexByKey[key].map { orderedDefinitions[$0] }
    }

    /// The definitions by full key. Built on each call (O(n)): use the subscript to look one up.
    public var definitions: [String: FlagDefinition] {
        Dictionary(uniqueKeysWithValues: zip(keys, orderedDefinitions))
    }

    /// How many keys are defined.
    public var count: Int { keys.count }
}
