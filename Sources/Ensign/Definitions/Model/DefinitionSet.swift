import EnsignYAML

/// Every flag and preference an app defines, loaded from its definitions files.
///
/// An immutable value: reloading produces a new set. Keys are unique across files and
/// across flags and preferences.
///
/// ```swift
/// if let pageSize = context.definitions["beneficiaries.pageSize"] {
///     print(pageSize.type, pageSize.summary ?? "", pageSize.location)  // int … flags/beneficiaries.yaml:4:3
/// }
/// ```
package struct DefinitionSet: Sendable {
    /// Every key, sorted.
    package let keys: [String]
    /// The definitions in the order of ``keys``.
    package let orderedDefinitions: [FlagDefinition]
    /// Named targeting rules from `$evaluators:` in any file, shared by all files.
    package let evaluators: [String: LocatedValue]
    /// The files the definitions came from, in load order.
    package let files: [String]
    /// Each key's index in ``keys``: also the key's slot in every snapshot, so a context's
    /// layout shares these arrays instead of building its own. Keys are matched by their
    /// Unicode scalars, as flagd matches them (see `ExactText`).
    private let indexTable: KeySlotTable

    /// Creates a set; when two definitions have the same key, the first is kept.
    package init(definitions: [FlagDefinition], evaluators: [String: LocatedValue] = [:], files: [String] = []) {
        var seen = Set<ExactText>()
        seen.reserveCapacity(definitions.count)
        self.init(
            uniqueDefinitions: definitions.filter { seen.insert(ExactText($0.key)).inserted }, evaluators: evaluators,
            files: files)
    }

    /// Creates a set of definitions whose keys are known to differ (the loader's collector
    /// has kept the first of each), without checking them again.
    init(uniqueDefinitions definitions: [FlagDefinition], evaluators: [String: LocatedValue], files: [String]) {
        let definitionKeys = definitions.map(\.key)
        let order = Self.sortedOrder(of: definitionKeys)
        keys = order.map { definitionKeys[$0] }
        orderedDefinitions = order.map { definitions[$0] }
        indexTable = KeySlotTable(keys: keys)
        self.evaluators = evaluators
        self.files = files
    }

    /// A set with no definitions.
    package static let empty = DefinitionSet(definitions: [])

    /// The definition for a full key, matched by its Unicode scalars.
    package subscript(key: String) -> FlagDefinition? {
        index(ofKey: key).map { orderedDefinitions[$0] }
    }

    /// The index of a full key in ``keys``, matched by its Unicode scalars.
    func index(ofKey key: String) -> Int? { indexTable.index(of: key, in: keys) }

    /// The definitions by full key. Built on each call (O(n)): use the subscript to look one up.
    /// Keys that differ only by Unicode normalisation are one `String` key here (the first in
    /// ``keys`` is kept); the subscript tells them apart.
    package var definitions: [String: FlagDefinition] {
        Dictionary(zip(keys, orderedDefinitions)) { first, _ in first }
    }

    /// How many keys are defined.
    package var count: Int { keys.count }
}
