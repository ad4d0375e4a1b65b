/// A `var` path split into its components once, with what its head means when the root is an
/// ``EvaluationContext`` (which is never merged into one JSON object per evaluation).
///
/// Paths are read as flagd's Go evaluator reads them (`vars.go: getVar`): numbers are written
/// out in fixed notation, the text is split at dots and empty components are skipped (`a..b` is
/// `a.b`), and a component indexes an array by the number it reads as (see
/// ``Component/goArrayIndex(_:)``).
struct VariablePath: Sendable {
    /// One dotted component: an object key, and the array index it denotes.
    struct Component: Sendable {
        let key: String
        let index: Int

        init(_ key: Substring) {
            self.key = String(key)
            index = Self.goArrayIndex(key)
        }

        /// The array index flagd's evaluator reads in `component`: `int(typing.ToNumber(part))`,
        /// the text read with Go's `strconv.ParseFloat`, truncated, and 0 when it is not a number.
        ///
        /// A Go quirk (jsonlogic v3.9.1's `getVar`), followed for parity with flagd's daemon
        /// (json-logic-js and flagd's Python core disagree; `Sources/Ensign/Ensign.docc/FlagdSemantics.md`,
        /// “var paths and other ambiguous cases”):
        /// `tags.length` is `tags[0]`, not the length, and so is `tags.x`; `tags.01` is
        /// `tags[1]`. Reconsider here if a later flagd reads paths differently.
        static func goArrayIndex(_ component: Substring) -> Int {
            GoJsonLogic.integer(GoNumberText.parseFloat(String(component)) ?? 0)
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

    /// Whether the path is `null`: flagd's evaluator then gives the data itself when it is a
    /// boolean, number or text, and nothing when it is an object, an array or `null`.
    let isNullKey: Bool

    /// Splits a `var` argument as flagd's evaluator does: `undefined`, `""` and `[]` mean the
    /// whole data, `null` the data when it is a plain value; numbers are written in fixed
    /// notation and text is split at dots, skipping empty components.
    init(key: JSONValue?) {
        isNullKey = key == .some(.null)
        let text: String
        switch key {
        case .none, .null?: text = ""
        case .string(let string)?: text = string
        case .int(let integer)?: text = String(integer)
        case .double(let double)?: text = GoNumberText.fixedText(for: double)
        case let other?: text = other.javaScriptString
        }
        // Most paths are one attribute name: `split` was about a thirtieth of compiling a small rule.
        let parts =
            text.isEmpty || text.utf8.contains(UInt8(ascii: "."))
            ? text.split(separator: ".").map(Component.init) : [Component(text[...])]
        components = parts
        // Exact names: Swift's `==` would take "targeting\u{212A}ey" (a Kelvin sign) for "targetingKey".
        func component(_ index: Int, is name: String) -> Bool {
            index < parts.count && parts[index].key.isExactly(name)
        }
        if parts.isEmpty {
            (contextHead, contextHeadLength) = (.whole, 0)
        } else if component(0, is: "targetingKey") {
            (contextHead, contextHeadLength) = (.targetingKey, 1)
        } else if component(0, is: "$flagd"), component(1, is: "flagKey") {
            (contextHead, contextHeadLength) = (.flagKey, 2)
        } else if component(0, is: "$flagd"), component(1, is: "timestamp") {
            (contextHead, contextHeadLength) = (.timestamp, 2)
        } else if component(0, is: "$flagd") {
            (contextHead, contextHeadLength) = (.flagdObject, 1)
        } else {
            (contextHead, contextHeadLength) = (.attribute, 1)
        }
        attributeKey = contextHead == .attribute && parts.count == 1 ? parts[0].key : nil
        if parts.isEmpty {
            reductionHead = .whole
        } else if component(0, is: "current") {
            reductionHead = .current
        } else if component(0, is: "accumulator") {
            reductionHead = .accumulator
        } else {
            reductionHead = .other
        }
    }

    /// The member of `members` named exactly `key`: a `String`-keyed dictionary finds a
    /// canonically equivalent key too ("é" for "e\u{301}"), which flagd does not.
    static func member(_ key: String, of members: [String: JSONValue]) -> JSONValue? {
        guard let index = members.index(forKey: key), members[index].key.isExactly(key) else { return .none }
        return members[index].value
    }

    /// The value at this path inside `data`; `nil` when the path leads nowhere or to `null`
    /// (flagd's evaluator reads a `null` value as no value, so a fallback applies).
    func resolve(in data: JSONValue) -> JSONValue? {
        Self.descend(from: data, through: components, startingAt: 0)
    }

    /// Follows `components[start...]` from `value`; `nil` for nowhere or `null`.
    static func descend(from value: JSONValue, through components: [Component], startingAt start: Int) -> JSONValue? {
        var current = value
        var position = start
        while position < components.count {
            switch current {
            case .object(let members):
                guard let next = member(components[position].key, of: members) else { return .none }
                current = next
            case .array(let elements):
                let index = components[position].index
                guard index >= 0, index < elements.count else { return .none }
                current = elements[index]
            default:
                return .none
            }
            position += 1
        }
        if case .null = current { return .none }
        return current
    }
}
