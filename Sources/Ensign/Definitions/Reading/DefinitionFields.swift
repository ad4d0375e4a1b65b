import EnsignYAML

/// A field a definition entry may have (`type:`, `default:`, …).
enum DefinitionField: Int, CaseIterable {
    case type, `default`, description, owner, expires, environments, `enum`, minimum, maximum, metadata, swiftType
    case secret
    case variants, defaultVariant, state, targeting

    /// The field's name in a file.
    var name: String {
        switch self {
        case .type: "type"
        case .default: "default"
        case .description: "description"
        case .owner: "owner"
        case .expires: "expires"
        case .environments: "environments"
        case .enum: "enum"
        case .minimum: "minimum"
        case .maximum: "maximum"
        case .metadata: "metadata"
        case .swiftType: "swiftType"
        case .secret: "secret"
        case .variants: "variants"
        case .defaultVariant: "defaultVariant"
        case .state: "state"
        case .targeting: "targeting"
        }
    }

    /// Every field's name, by raw value, for the reader to match keys from their bytes.
    static let knownKeys = YAMLKnownKeys(allCases.map(\.name))

    /// Whether only flags (not preferences) have this field: flagd's long form.
    var isFlagOnly: Bool { rawValue >= DefinitionField.variants.rawValue }

    /// The field called `name`, or `nil` for an unknown one: the same byte match as the
    /// reader's (``knownKeys``), for keys that reach here as nodes (tagged, anchored, replayed).
    /// Byte equality is `String` equality for these ASCII names: none holds the one ASCII
    /// letter with a singleton decomposition (K, from U+212A).
    init?(named name: String) {
        guard let raw = Self.knownKeys.index(of: name) else { return nil }
        self.init(rawValue: raw)
    }
}

/// The fields of one definition entry, indexed once when the entry is read: each lookup is
/// then a shift and an array access, where scanning the entry's keys with `String ==` for
/// every field asked for (fifteen per entry) was a fifth of loading a large file.
///
/// Unknown fields are reported when the entry is read and never looked up.
struct DefinitionFields {
    private var entries: [YAMLMappingEntry] = []
    /// One byte per ``DefinitionField`` (by raw value, eight to a word): 0 when the entry does
    /// not have the field, else the entry's index plus one; ``beyondIndex`` for an index too
    /// large for a byte (an entry with hundreds of keys), found by scanning instead.
    private var slots: (UInt64, UInt64) = (0, 0)

    private static let beyondIndex: UInt64 = 0xFF

    init() {}

    /// The indices of the entries the entry's kind does not accept, in file order: unknown
    /// fields, and flagd's long-form fields in a preference (indexed all the same).
    private var refusedIndices: [Int] = []

    /// The keys of the fields the entry's kind does not accept, in file order.
    var refusedKeys: [YAMLNode] { refusedIndices.map { entries[$0].key } }

    /// Reads and indexes the fields of the mapping under the reader's cursor (the parser
    /// refuses duplicate keys); `isFlag` tells whether the long-form fields are accepted.
    /// Field names are matched from the keys' bytes, and values that are scalars never go
    /// through the composer.
    init(reading reader: inout YAMLEventReader, isFlag: Bool) throws(YAMLError) {
        var mapping = try reader.enterMapping()
        entries.reserveCapacity(8)  // one allocation for a definition's usual handful of fields
        while let readKey = try reader.nextKey(in: &mapping, known: DefinitionField.knownKeys) {
            let index = entries.count
            let key: YAMLNode
            let field: DefinitionField?
            switch readKey {
            case .known(let raw, let position):
                field = DefinitionField(rawValue: raw)
                // The name's text is a literal's: the node costs no allocation.
                key = YAMLNode(.scalar(field?.name ?? "", .plain), at: position)
            case .other(let node):
                key = node
                field = node.scalarText.flatMap(DefinitionField.init(named:))
            }
            entries.append(YAMLMappingEntry(key: key, value: try reader.composeNode()))
            guard let field else {
                refusedIndices.append(index)
                continue
            }
            if field.isFlagOnly, !isFlag { refusedIndices.append(index) }
            setSlot(field, to: index < Int(Self.beyondIndex) - 1 ? UInt64(index + 1) : Self.beyondIndex)
        }
    }

    /// The node of `field`, if the entry has it.
    subscript(field: DefinitionField) -> YAMLNode? {
        let slot = self.slot(field)
        if slot == 0 { return nil }
        if slot == Self.beyondIndex {
            return entries.first { $0.key.scalarText.flatMap(DefinitionField.init(named:)) == field }?.value
        }
        return entries[Int(slot) - 1].value
    }

    /// Whether the entry has `field`.
    func contains(_ field: DefinitionField) -> Bool { slot(field) != 0 }

    private func slot(_ field: DefinitionField) -> UInt64 {
        let shift = UInt64(field.rawValue % 8) * 8
        return ((field.rawValue < 8 ? slots.0 : slots.1) >> shift) & 0xFF
    }

    private mutating func setSlot(_ field: DefinitionField, to value: UInt64) {
        let shift = UInt64(field.rawValue % 8) * 8
        if field.rawValue < 8 {
            slots.0 = slots.0 & ~(0xFF << shift) | value << shift
        } else {
            slots.1 = slots.1 & ~(0xFF << shift) | value << shift
        }
    }
}
