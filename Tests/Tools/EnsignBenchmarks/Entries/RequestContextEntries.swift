import Ensign

/// (i) A server's request path: a child context made with the request's user, its targeted
/// flag read once (evaluated lazily for that user), and a read of the same key again.
enum RequestContextEntries {
    static func group() -> BenchmarkGroup {
        ReferenceDictionaries.group(
            "request contexts", iterations: Iterations(full: 200_000, quick: 20_000),
            fixture: try RequestContextFixture()
        ) { entries in
            [
                entries.entry(
                    id: "request child", name: "makeChild(label:evaluationContext:), released",
                    target: .time(atMostNanoseconds: 2000),
                    note: "a child of a 100-flag context with the request's user; nothing is evaluated yet"
                ) { fixture, count in
                    let (context, users) = (fixture.context, fixture.users)
                    for index in 0..<count {
                        blackHole(context.makeChild(label: "request", evaluationContext: users[index & 63]))
                    }
                },
                entries.entry(
                    id: "request first read", name: "request child + first targeted read",
                    target: .time(atMostNanoseconds: 3000),
                    note: "the child's cost plus one evaluation (2 conditions + fractional); aim: ≤ 1 µs over the child"
                ) { fixture, count in
                    let (context, users, keys) = (fixture.context, fixture.users, fixture.targetedKeys)
                    for index in 0..<count {
                        let request = context.makeChild(label: "request", evaluationContext: users[index & 63])
                        blackHole(request[keys[opaqueZero]])
                    }
                },
                entries.entry(
                    id: "request read again", name: "a request child's targeted key, read again",
                    target: .time(atMostNanoseconds: 1000),
                    note: "the key was evaluated for this child already: a lookup of what it evaluated"
                ) { fixture, count in
                    let (request, keys) = (fixture.request, fixture.targetedKeys)
                    for _ in 0..<count { blackHole(request[keys[opaqueZero]]) }
                },
            ]
        }
    }
}

/// A 100-flag context, 64 users, and one request child that has read the targeted flag.
final class RequestContextFixture: DictionaryReferenced {
    let context: AppContext
    let users: [EvaluationContext]
    let request: AppContext
    let reference: ReferenceDictionaries
    /// One element: the targeted flag's typed key.
    let targetedKeys: [FlagKey<Bool>]

    init() throws {
        context = try AppContext(definitions: GeneratedDefinitions.hundredFlags(), environment: "production")
        users = (0..<64).map {
            EvaluationContext(
                targetingKey: "user-\($0)", attributes: ["country": $0.isMultiple(of: 2) ? "FR" : "BE", "plan": "pro"])
        }
        targetedKeys = [FlagKey(GeneratedDefinitions.targetedKey, default: false)]
        request = context.makeChild(label: "request", evaluationContext: users[0])
        let snapshot = context.untrackedSnapshot
        var dictionary: [String: Bool] = [:]
        for key in snapshot.keys { dictionary[key] = snapshot.value(forKeyNamed: key)?.boolValue ?? false }
        reference = ReferenceDictionaries(dictionary, key: GeneratedDefinitions.staticKey)
        // The entries measure what they claim: the rule is evaluated for each request's user.
        let details = request.details(forKeyNamed: GeneratedDefinitions.targetedKey)
        guard details.reason == .targetingMatch || details.reason == .split, context[targetedKeys[0]] == false else {
            throw BenchmarkFailure(
                "the request child should read the targeted flag through its rule (got \(details.reason)),"
                    + " the root (no user) its default")
        }
    }
}
