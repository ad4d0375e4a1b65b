/// The facts about one evaluation — who is asking and in what situation — that targeting
/// rules read with `var`.
///
/// The targeting key identifies the subject (a user, a device, a tenant) and is what
/// `fractional` hashes by default, so the same subject always lands in the same bucket.
/// Attributes may nest; a rule reads `{"var": "user.address.country"}` through objects and
/// `{"var": "devices.0"}` through arrays.
///
/// Besides the attributes, a rule sees `targetingKey` (this context's key) and flagd's
/// `$flagd.flagKey` and `$flagd.timestamp`, which the evaluation supplies.
///
/// ```swift
/// let context: EvaluationContext = ["targetingKey": "user-42", "country": "FR", "plan": "pro"]
/// let same = EvaluationContext(targetingKey: "user-42", attributes: ["country": "FR", "plan": "pro"])
/// ```
public struct EvaluationContext: Sendable, Hashable {
    /// The subject's stable identifier, used by `fractional` to bucket it; `nil` when anonymous.
    public var targetingKey: String?

    /// The attributes rules can read with `var`; values may be nested objects and arrays.
    public var attributes: [String: JSONValue]

    /// A context with no targeting key and no attributes.
    public static let empty = EvaluationContext(targetingKey: nil, attributes: [:])

    /// Creates a context from a targeting key and attributes.
    public init(targetingKey: String? = nil, attributes: [String: JSONValue] = [:]) {
        self.targetingKey = targetingKey
        self.attributes = attributes
    }

    /// Creates a context from a JSON object such as `ensign eval --context` takes.
    ///
    /// A string member named `targetingKey` becomes the targeting key; every other member
    /// (and a `targetingKey` that is not a string) stays an attribute. A value that is not an
    /// object gives an empty context.
    public init(json: JSONValue) {
        guard case .object(let members) = json else {
            self.init(targetingKey: nil, attributes: [:])
            return
        }
        self.init(jsonObject: members)
    }

    /// Creates a context from a JSON object's members, as ``init(json:)`` does; a server that
    /// owns the members alone hands them over, and the targeting key is taken out of them in place
    /// rather than from a copy.
    public init(jsonObject members: consuming [String: JSONValue]) {
        var key: String?
        // Exactly "targetingKey": a dictionary lookup would also find a canonically equivalent
        // name, such as one spelled with the Kelvin sign U+212A.
        if let index = members.index(forKey: "targetingKey"), members[index].key.isExactly("targetingKey"),
            case .string(let text) = members[index].value
        {
            key = text
            members.remove(at: index)
        }
        self.init(targetingKey: key, attributes: members)
    }

    /// The attribute named `name`, if present.
    public subscript(name: String) -> JSONValue? {
        get { attributes[name] }
        set { attributes[name] = newValue }
    }

    /// The context as the JSON object a JsonLogic rule sees at its root: the attributes plus
    /// `targetingKey` when there is one.
    public var jsonValue: JSONValue {
        var members = attributes
        if let targetingKey { members["targetingKey"] = .string(targetingKey) }
        return .object(members)
    }
}

extension EvaluationContext: ExpressibleByDictionaryLiteral {
    /// Creates a context from literal members; a string `targetingKey` member becomes the targeting
    /// key, as in ``init(json:)``.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(json: .object(Dictionary(elements, uniquingKeysWith: { _, last in last })))
    }
}
