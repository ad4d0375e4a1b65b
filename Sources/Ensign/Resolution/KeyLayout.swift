import EnsignYAML
import Synchronization

/// The fixed part of a set of snapshots: which keys exist, in which slot each lives, their
/// definitions and compiled targeting. Built once per definitions load and shared by every
/// snapshot until definitions change.
final class KeyLayout: Sendable {
    /// Never reused, so a key's cached slot is only trusted for the layout it came from.
    let identifier: UInt64
    let definitions: DefinitionSet
    let names: [String]
    let definitionBySlot: [FlagDefinition]
    /// The keys with a targeting rule, sorted: the values that depend on the evaluation context.
    let targetedKeys: [String]
    /// Whether the key in each slot has a targeting rule.
    let isTargetedSlot: [Bool]

    private static let nextIdentifier = Atomic<UInt64>(1)

    init(definitions: DefinitionSet) {
        identifier = Self.nextIdentifier.wrappingAdd(1, ordering: .relaxed).oldValue
        self.definitions = definitions
        // A key's slot is its index in the sorted keys: the set's own arrays serve as the layout.
        names = definitions.keys
        definitionBySlot = definitions.orderedDefinitions
        isTargetedSlot = definitionBySlot.map { $0.compiledTargeting != nil }
        targetedKeys = zip(names, isTargetedSlot).filter(\.1).map(\.0)
    }

    /// A layout with no keys: every read gives the code default.
    static let empty = KeyLayout(definitions: .empty)

    var count: Int { names.count }

    func slot(for name: String) -> Int? { definitions.index(ofKey: name) }

    /// Whether the key `name` has a targeting rule.
    func isTargeted(_ name: String) -> Bool { slot(for: name).map { isTargetedSlot[$0] } ?? false }
}
