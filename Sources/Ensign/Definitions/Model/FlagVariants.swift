import EnsignYAML

/// A flag's named values (flagd's `variants`), in file order, looked up by exact name.
///
/// Names are matched by their Unicode scalars, as flagd matches them: `"é"` and `"e\u{301}"`
/// are two variants, and a targeting result names a variant only when its scalars are the
/// same (Swift's `String ==` would call canonically equivalent names equal).
///
/// ```swift
/// let variants: FlagVariants = ["on": true, "off": false]
/// print(variants["on"] ?? .null)  // true
/// ```
package struct FlagVariants: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// One variant: its name and value.
    package struct Variant: Sendable, Hashable {
        /// The name, as written.
        package let name: String
        /// The value.
        package let value: JSONValue
    }

    private let variants: [Variant]
    /// Each name's index, for flags with many variants; empty (no allocation) for the usual
    /// two or three, which a scan finds as fast as a hash lookup and without the table's
    /// few hundred bytes per flag.
    private let positions: [ExactText: Int]

    /// Up to this many variants are found by scanning.
    private static let scannedCount = 8

    /// Variants in the given order; of two with the same name, the first is kept.
    package init(_ variants: [(name: String, value: JSONValue)]) {
        var kept: [Variant] = []
        var positions: [ExactText: Int] = [:]
        for (name, value) in variants where positions[ExactText(name)] == nil {
            positions[ExactText(name)] = kept.count
            kept.append(Variant(name: name, value: value))
        }
        self.variants = kept
        self.positions = kept.count > Self.scannedCount ? positions : [:]
    }

    /// Variants from a literal, in its order.
    package init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements.map { (name: $0.0, value: $0.1) })
    }

    /// No variants.
    package static let none = FlagVariants([])

    /// The value of the variant named exactly `name`, if there is one.
    package subscript(name: String) -> JSONValue? {
        let key = ExactText(name)
        if variants.count <= Self.scannedCount { return variants.first { ExactText($0.name) == key }?.value }
        return positions[key].map { variants[$0].value }
    }

    /// The names, in file order.
    package var names: [String] { variants.map(\.name) }

    /// Whether there are no variants.
    package var isEmpty: Bool { variants.isEmpty }

    /// How many variants there are.
    package var count: Int { variants.count }

    /// The variants, in file order.
    package func makeIterator() -> IndexingIterator<[Variant]> {
        variants.makeIterator()
    }

    /// Equal when the same names (exactly) hold the same values, in any order.
    package static func == (lhs: FlagVariants, rhs: FlagVariants) -> Bool {
        lhs.count == rhs.count && lhs.variants.allSatisfy { rhs[$0.name] == $0.value }
    }

    /// Hashes the names and values independently of their order.
    package func hash(into hasher: inout Hasher) {
        var combined = 0
        for variant in variants {
            var own = Hasher()
            own.combine(ExactText(variant.name))
            own.combine(variant.value)
            combined ^= own.finalize()
        }
        hasher.combine(count)
        hasher.combine(combined)
    }
}
