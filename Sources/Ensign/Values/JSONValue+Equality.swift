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
        /// The case's number, then its contents.
        func combine(_ caseNumber: Int, _ contents: some Hashable) {
            hasher.combine(caseNumber)
            hasher.combine(contents)
        }
        switch self {
        case .null: hasher.combine(0)
        case .bool(let value): combine(1, value)
        case .int(let value): combine(2, value)
        case .double(let value): combine(3, value)
        case .string(let value): combine(4, ExactText(value))
        case .array(let value): combine(5, value)
        case .object(let value): combine(6, value)
        }
    }
}
