import EnsignYAML

extension JSONValue {
    /// Equal when of the same kind with equal contents; strings are compared by their Unicode
    /// scalars, as flagd compares them, not by Swift's canonical equivalence:
    /// `"é"` (NFC) and `"e\u{301}"` (NFD) are different values.
    ///
    /// Object keys are `String` dictionary keys, so two keys of one object that are
    /// canonically equivalent are one key (JSON readers refuse such duplicates).
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let left), .bool(let right)): return left == right
        case (.int(let left), .int(let right)): return left == right
        case (.double(let left), .double(let right)): return left == right
        case (.string(let left), .string(let right)): return left.isExactly(right)
        case (.array(let left), .array(let right)): return left == right
        case (.object(let left), .object(let right)): return left == right
        default: return false
        }
    }

    /// Hashes consistently with ``==(_:_:)``: strings by their scalars.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let value):
            hasher.combine(1)
            hasher.combine(value)
        case .int(let value):
            hasher.combine(2)
            hasher.combine(value)
        case .double(let value):
            hasher.combine(3)
            hasher.combine(value)
        case .string(let value):
            hasher.combine(4)
            hasher.combine(ExactText(value))
        case .array(let value):
            hasher.combine(5)
            hasher.combine(value)
        case .object(let value):
            hasher.combine(6)
            hasher.combine(value)
        }
    }
}
