import Foundation

/// Thrown inside evaluation where json-logic-js would throw (for example `all` over `null`);
/// ``TargetingRule`` turns it into a `null` result, as flagd treats an errored rule.
struct EvaluationFailure: Error {}

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
    /// The root data.
    enum Root {
        /// A context: `targetingKey` and `$flagd.*` are answered without merging them into the attributes.
        case context(EvaluationContext)
        /// Arbitrary JSON, read as is (the JsonLogic suite's `data`).
        case data(JSONValue)
    }

    let root: Root
    let flagKey: String
    /// The time given by the caller, if any; otherwise the clock is read when a rule asks.
    let fixedTimestamp: Int?

    /// `$flagd.timestamp`: unix time in whole seconds.
    var timestamp: Int {
        if let fixedTimestamp { return fixedTimestamp }
        return Int(Date().timeIntervalSince1970.rounded(.down))
    }

    /// The value `path` denotes in `scope`, or `nil` (JavaScript's `undefined`) when there is none.
    func lookUp(_ path: VariablePath, in scope: Scope) -> JSONValue? {
        switch scope {
        case .value(let data):
            return path.resolve(in: data)
        case .reduction(let current, let accumulator):
            switch path.reductionHead {
            case .whole: return .object(["current": current, "accumulator": accumulator])
            case .current: return VariablePath.descend(from: current, through: path.components, startingAt: 1)
            case .accumulator: return VariablePath.descend(from: accumulator, through: path.components, startingAt: 1)
            case .other: return .none
            }
        case .root:
            switch root {
            case .data(let data): return path.resolve(in: data)
            case .context(let context): return lookUp(path, in: context)
            }
        }
    }

    private func lookUp(_ path: VariablePath, in context: EvaluationContext) -> JSONValue? {
        let head: JSONValue?
        switch path.contextHead {
        case .whole:
            return rootObject(of: context)
        case .targetingKey:
            head = context.targetingKey.map(JSONValue.string) ?? context.attributes["targetingKey"]
        case .flagdObject:
            head = flagdObject
        case .flagKey:
            head = .string(flagKey)
        case .timestamp:
            head = .int(timestamp)
        case .attribute:
            head = context.attributes[path.components[0].key]
        }
        guard let head else { return .none }
        return VariablePath.descend(from: head, through: path.components, startingAt: path.contextHeadLength)
    }

    /// `$flagd` as an object.
    private var flagdObject: JSONValue {
        .object(["flagKey": .string(flagKey), "timestamp": .int(timestamp)])
    }

    /// The context as one object, as flagd builds it: attributes, `targetingKey`, `$flagd`.
    private func rootObject(of context: EvaluationContext) -> JSONValue {
        guard case .object(var members) = context.jsonValue else { return .null }
        members["$flagd"] = flagdObject
        return .object(members)
    }

    /// The MurmurHash3 of flagd's default bucketing key, the flag key followed by the targeting
    /// key, hashed without building the concatenated string; `nil` when there is no targeting key.
    func defaultBucketingHash() -> UInt32? {
        var hasher = MurmurHash3()
        switch root {
        case .context(let context):
            guard let key = context.targetingKey ?? context.attributes["targetingKey"]?.stringValue else {
                return .none
            }
            hasher.combine(flagKey)
            hasher.combine(key)
        case .data(let data):
            guard case .string(let key)? = data["targetingKey"] else { return .none }
            hasher.combine(data["$flagd"]?["flagKey"]?.stringValue ?? flagKey)
            hasher.combine(key)
        }
        return hasher.finalize()
    }
}
