import EnsignYAML

/// A definition's inline `environments:` values, by environment name.
///
/// A small array rather than a dictionary: a flag names a few environments at most, and a
/// dictionary's hash table costs several hundred bytes per flag where these entries cost 56
/// each. Lookups compare names exactly, as a `[String: LocatedValue]` did.
package struct EnvironmentValues: Sendable, Sequence {
    /// One environment's value.
    private struct Entry: Sendable {
        let name: String
        let value: JSONValue
        let position: CompactSourcePosition
    }

    private let entries: [Entry]

    /// The values of `dictionary`, sorted by environment name so iteration is stable.
    package init(_ dictionary: [String: LocatedValue]) {
        // Most flags name no environment: no sort, no array.
        guard !dictionary.isEmpty else {
            entries = []
            return
        }
        entries = dictionary.sorted { $0.key < $1.key }.map {
            Entry(name: $0.key, value: $0.value.value, position: $0.value.position)
        }
    }

    /// No values.
    package static let none = EnvironmentValues([:])

    /// The value for the environment `name`, if the definition gives one.
    package subscript(name: String) -> LocatedValue? {
        guard let entry = entries.first(where: { $0.name == name }) else { return nil }
        return LocatedValue(entry.value, at: entry.position.sourcePosition)
    }

    /// The environments with a value, sorted.
    package var keys: [String] { entries.map(\.name) }

    /// Whether no environment has a value.
    package var isEmpty: Bool { entries.isEmpty }

    /// How many environments have a value.
    package var count: Int { entries.count }

    /// The values, by environment name, in name order.
    package func makeIterator() -> some IteratorProtocol<(key: String, value: LocatedValue)> {
        entries.lazy.map { (key: $0.name, value: LocatedValue($0.value, at: $0.position.sourcePosition)) }
            .makeIterator()
    }
}
