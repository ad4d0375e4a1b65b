/// Thrown where flagd's evaluator fails on a rule (arithmetic on `null`, `<` given a lone
/// number, …): ``TargetingRule/result(context:flagKey:timestamp:)`` reports it, and the flag
/// reads `PARSE_ERROR` for that evaluation. Only the parts of a rule that are evaluated can
/// fail, so a branch never taken never does.
struct EvaluationFailure: Error {
    /// What went wrong, naming the operator.
    let message: String

    init(_ message: String) {
        self.message = message
    }
}

/// The data `var` reads at a point of evaluation.
enum Scope {
    /// The evaluation's root data (the context, or the JSON given to `evaluate(data:)`).
    case root
    /// An element inside `map`, `filter`, `all`, `none` or `some`.
    case value(JSONValue)
    /// Inside `reduce`: the object `{"current": …, "accumulator": …}`, without building it.
    case reduction(current: JSONValue, accumulator: JSONValue)
}

/// What one evaluation of a rule sees: its root data, the flag key and the time.
struct EvaluationEnvironment {
    /// The context (empty when the root is plain data).
    let context: EvaluationContext
    /// The root when it is plain JSON (the JsonLogic suite's `data`); `nil` for a context.
    let data: JSONValue?
    let flagKey: String
    /// The time given by the caller, if any; otherwise the clock is read when a rule asks.
    let fixedTimestamp: Int?

    /// An environment whose root is `context`: `targetingKey` and `$flagd.*` are answered
    /// without merging them into the attributes. Takes ownership of its arguments, so that no
    /// reference in them is retained again.
    init(context: consuming EvaluationContext, flagKey: consuming String, timestamp: Int?) {
        self.context = context
        data = .none
        self.flagKey = flagKey
        fixedTimestamp = timestamp
    }

    /// An environment whose root is arbitrary JSON, read as is.
    init(data: JSONValue, flagKey: String, timestamp: Int?) {
        context = .empty
        self.data = data
        self.flagKey = flagKey
        fixedTimestamp = timestamp
    }

    /// `$flagd.timestamp`: unix time in whole seconds.
    var timestamp: Int {
        if let fixedTimestamp { return fixedTimestamp }
        return Int(WallClockTime.now().secondsSince1970.rounded(.down))
    }

    /// The value `path` denotes in `scope`, or `nil` (JavaScript's `undefined`) when there is none.
    ///
    /// As in flagd, a `null` value counts as no value, and the `null` path gives the data only
    /// when that is a plain value (a boolean, number or text).
    func lookUp(_ path: VariablePath, in scope: Scope) -> JSONValue? {
        let found = find(path, in: scope)
        switch found {
        case .null?: return .none
        case .array?, .object?: return path.isNullKey ? .none : found
        default: return found
        }
    }

    private func find(_ path: VariablePath, in scope: Scope) -> JSONValue? {
        switch scope {
        case .value(let value):
            return path.resolve(in: value)
        case .reduction(let current, let accumulator):
            switch path.reductionHead {
            case .whole: return .object(["current": current, "accumulator": accumulator])
            case .current: return VariablePath.descend(from: current, through: path.components, startingAt: 1)
            case .accumulator: return VariablePath.descend(from: accumulator, through: path.components, startingAt: 1)
            case .other: return .none
            }
        case .root:
            if let data { return path.resolve(in: data) }
            if let key = path.attributeKey { return VariablePath.member(key, of: context.attributes) }
            return lookUpInContext(path)
        }
    }

    private func lookUpInContext(_ path: VariablePath) -> JSONValue? {
        let head: JSONValue?
        switch path.contextHead {
        case .whole:
            return rootObject
        case .targetingKey:
            head =
                context.targetingKey.map(JSONValue.string)
                ?? VariablePath.member("targetingKey", of: context.attributes)
        case .flagdObject:
            head = flagdObject
        case .flagKey:
            head = .string(flagKey)
        case .timestamp:
            head = .int(timestamp)
        case .attribute:
            head = VariablePath.member(path.components[0].key, of: context.attributes)
        }
        guard let head else { return .none }
        if path.components.count == path.contextHeadLength { return head }
        return VariablePath.descend(from: head, through: path.components, startingAt: path.contextHeadLength)
    }

    /// `$flagd` as an object.
    private var flagdObject: JSONValue {
        .object(["flagKey": .string(flagKey), "timestamp": .int(timestamp)])
    }

    /// The context as one object, as flagd builds it: attributes, `targetingKey`, `$flagd`.
    private var rootObject: JSONValue {
        guard case .object(var members) = context.jsonValue else { return .null }
        members["$flagd"] = flagdObject
        return .object(members)
    }

    /// The MurmurHash3 of flagd's default bucketing key, the flag key followed by the targeting
    /// key, hashed without building the concatenated string; `nil`, as in flagd, when the
    /// targeting key is absent, not a string, or empty.
    func defaultBucketingHash() -> UInt32? {
        let flagKey: String
        let targetingKey: String
        if let data {
            let members = data.objectValue ?? [:]
            guard case .string(let key)? = VariablePath.member("targetingKey", of: members) else { return .none }
            let flagd = VariablePath.member("$flagd", of: members)?.objectValue ?? [:]
            flagKey = VariablePath.member("flagKey", of: flagd)?.stringValue ?? self.flagKey
            targetingKey = key
        } else if let key = context.targetingKey {
            flagKey = self.flagKey
            targetingKey = key
        } else {
            guard case .string(let key)? = VariablePath.member("targetingKey", of: context.attributes) else {
                return .none
            }
            flagKey = self.flagKey
            targetingKey = key
        }
        guard !targetingKey.isEmpty else { return .none }
        var hasher = MurmurHash3()
        hasher.combine(flagKey)
        hasher.combine(targetingKey)
        return hasher.finalize()
    }
}
