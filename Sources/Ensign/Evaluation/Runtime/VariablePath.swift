/// A `var` path split into its components once, with what its head means when the root is an
/// ``EvaluationContext`` (which is never merged into one JSON object per evaluation).
struct VariablePath: Sendable {
    /// One dotted component: an object key, and the array index it denotes when it is a
    /// canonical non-negative integer ("0", "12" but not "01" or "-1"), as JavaScript indexes arrays.
    struct Component: Sendable {
        let key: String
        let index: Int?

        init(_ key: Substring) {
            self.key = String(key)
            if let number = Int(key), number >= 0, String(number) == key {
                index = number
            } else {
                index = nil
            }
        }
    }

    /// What the first components mean against an ``EvaluationContext`` root.
    enum ContextHead: Sendable {
        /// No components: the whole data.
        case whole
        /// `targetingKey`.
        case targetingKey
        /// `$flagd` (or `$flagd.<other>`).
        case flagdObject
        /// `$flagd.flagKey`.
        case flagKey
        /// `$flagd.timestamp`.
        case timestamp
        /// An attribute, by the first component's key.
        case attribute
    }

    /// What the first component means inside `reduce`, whose data is `{current, accumulator}`.
    enum ReductionHead: Sendable {
        case whole, current, accumulator, other
    }

    let components: [Component]
    let contextHead: ContextHead
    /// How many components ``contextHead`` consumes.
    let contextHeadLength: Int
    let reductionHead: ReductionHead
    /// The key, when the path is a single attribute name (the common `{"var": "country"}`).
    let attributeKey: String?

    /// Splits a `var` argument as json-logic-js does: `undefined`, `null` and `""` mean the whole
    /// data; anything else is converted to text and split at dots.
    init(key: JSONValue?) {
        switch key {
        case .none, .null?, .string("")?:
            components = []
        case let key?:
            components = key.javaScriptString.split(separator: ".", omittingEmptySubsequences: false).map(
                Component.init)
        }
        switch components.first?.key {
        case nil:
            (contextHead, contextHeadLength) = (.whole, 0)
        case "targetingKey":
            (contextHead, contextHeadLength) = (.targetingKey, 1)
        case "$flagd" where components.count > 1 && components[1].key == "flagKey":
            (contextHead, contextHeadLength) = (.flagKey, 2)
        case "$flagd" where components.count > 1 && components[1].key == "timestamp":
            (contextHead, contextHeadLength) = (.timestamp, 2)
        case "$flagd":
            (contextHead, contextHeadLength) = (.flagdObject, 1)
        default:
            (contextHead, contextHeadLength) = (.attribute, 1)
        }
        attributeKey = contextHead == .attribute && components.count == 1 ? components[0].key : nil
        switch components.first?.key {
        case nil: reductionHead = .whole
        case "current": reductionHead = .current
        case "accumulator": reductionHead = .accumulator
        default: reductionHead = .other
        }
    }

    /// The value at this path inside `data`; `nil` (JavaScript's `undefined`) when the path
    /// leads nowhere. A `null` on the way means not found; a `null` at the end is a value.
    func resolve(in data: JSONValue) -> JSONValue? {
        Self.descend(from: data, through: components, startingAt: 0)
    }

    /// Follows `components[start...]` from `value`.
    static func descend(from value: JSONValue, through components: [Component], startingAt start: Int) -> JSONValue? {
        var current = value
        var position = start
        while position < components.count {
            switch current {
            case .object(let members):
                guard let next = members[components[position].key] else { return .none }
                current = next
            case .array(let elements):
                guard let index = components[position].index, index < elements.count else { return .none }
                current = elements[index]
            default:
                return .none
            }
            position += 1
        }
        return current
    }
}
