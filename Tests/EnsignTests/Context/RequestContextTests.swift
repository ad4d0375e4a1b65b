import EnsignTestSupport
import Foundation
import Testing

@testable import Ensign

extension FlagKey<Bool> {
    /// On for `country == FR` and `plan == pro` together: a rule two attributes decide.
    fileprivate static let premium = FlagKey("offers.premium", default: false)
}

extension FlagKey<String> {
    fileprivate static let greeting = FlagKey("offers.greeting", default: "?")
    fileprivate static let bucket = FlagKey("offers.bucket", default: "?")
    fileprivate static let banner = FlagKey("offers.banner", default: "?")
}

@Suite("Per-request evaluation contexts: a child's own, merged over its parent's")
struct RequestContextTests {
    static let offers = """
        version: 1
        namespace: offers
        flags:
          premium:
            variants: { "on": true, "off": false }
            defaultVariant: "off"
            targeting:
              if:
                - and: [{ "==": [{ var: country }, FR] }, { "==": [{ var: plan }, pro] }]
                - "on"
                - null
          greeting:
            variants: { en: Hello, fr: Bonjour }
            defaultVariant: en
            targeting:
              if: [{ "==": [{ var: country }, FR] }, fr, null]
          bucket:
            variants: { a: A, b: B }
            defaultVariant: a
            targeting:
              fractional: [[a, 50], [b, 50]]
          banner:
            default: plain
            environments: { test: plain }
        """

    static func context() throws -> AppContext {
        try AppContext(definitions: offers)
    }

    static func user(_ id: String? = nil, _ attributes: [String: JSONValue] = [:]) -> EvaluationContext {
        EvaluationContext(targetingKey: id, attributes: attributes)
    }

    @Test("A request child's targeted keys read its own context; the parent and a sibling are untouched")
    func ownContext() throws {
        let root = try Self.context()
        root.setEvaluationContext(Self.user(nil, ["country": "DE"]))
        let french = root.makeChild(label: "request 1", evaluationContext: Self.user("u1", ["country": "FR"]))
        let other = root.makeChild(label: "request 2", evaluationContext: Self.user("u2", ["plan": "pro"]))

        #expect(french[.greeting] == "Bonjour")
        #expect(french.details(for: .greeting).reason == .targetingMatch)
        #expect(root[.greeting] == "Hello")
        #expect(other[.greeting] == "Hello")
        #expect(french.evaluationContext == Self.user("u1", ["country": "FR"]))
        #expect(root.evaluationContext == Self.user(nil, ["country": "DE"]))

        french.setEvaluationContext(Self.user("u1", ["country": "DE"]))
        #expect(french[.greeting] == "Hello")
        #expect(root.evaluationContext == Self.user(nil, ["country": "DE"]))
    }

    @Test("The child's attributes win key by key; the parent's others stay, live")
    func mergedKeyByKey() throws {
        let root = try Self.context()
        root.setEvaluationContext(Self.user("parent", ["country": "FR", "plan": "free"]))
        let child = root.makeChild(label: "request", evaluationContext: Self.user(nil, ["plan": "pro"]))
        // country from the parent, plan from the child.
        #expect(child[.premium] == true)
        #expect(root[.premium] == false)
        #expect(child.evaluationContext == Self.user("parent", ["country": "FR", "plan": "pro"]))

        // The parent's later change reaches the child where the child does not set the attribute.
        root.setEvaluationContext(Self.user("parent", ["country": "DE", "plan": "free"]))
        #expect(child[.premium] == false)
        root.setEvaluationContext(Self.user("parent", ["country": "FR", "plan": "team"]))
        #expect(child[.premium] == true)
    }

    @Test("The targeting key: the child's when it has one, else the parent's")
    func targetingKey() throws {
        let root = try Self.context()
        let evaluator = FlagEvaluator(filesOf: root)
        let users = (0..<40).map { "user-\($0)" }
        let expected = users.map { evaluator.details(forKeyNamed: "offers.bucket", context: Self.user($0)).value }
        #expect(Set(expected).count == 2, "the users land in both buckets")
        for (user, value) in zip(users, expected) {
            #expect(root.makeChild(label: "r", evaluationContext: Self.user(user))[.bucket] == value.stringValue)
            root.setEvaluationContext(Self.user(user))
            #expect(
                root.makeChild(label: "r", evaluationContext: Self.user(nil, ["x": 1]))[.bucket] == value.stringValue)
        }
    }

    @Test("Scope overrides and the root's overrides still win over a child's targeting")
    func layersAboveTargeting() throws {
        let root = try Self.context()
        let child = root.makeChild(label: "request", evaluationContext: Self.user(nil, ["country": "FR"]))
        try child.setOverride(.greeting, to: "Hallo")
        #expect(child[.greeting] == "Hallo")
        #expect(child.details(for: .greeting).source.layer == .scopeOverride)
        child.removeOverride(.greeting)
        #expect(child[.greeting] == "Bonjour")

        try root.setOverride(.greeting, to: "Ciao")
        #expect(child[.greeting] == "Ciao")
        #expect(child.details(for: .greeting).source.layer == .override)
        // A grandchild with no context of its own reads its parent's, and its own overrides.
        let grandchild = child.makeChild(label: "component")
        root.removeOverride(.greeting)
        #expect(grandchild[.greeting] == "Bonjour")
        #expect(grandchild.evaluationContext == child.evaluationContext)
    }

    @Test("Making a child evaluates nothing; each targeted key is evaluated on its first read")
    func lazyEvaluation() throws {
        let root = try Self.context()
        let child = root.makeChild(label: "request", evaluationContext: Self.user("u1", ["country": "FR"]))
        let targeting = try #require(child.store.snapshot().targeting)
        #expect(targeting.evaluatedCount == 0)
        _ = child[.banner]
        #expect(targeting.evaluatedCount == 0, "a key without targeting reads the parent's entry")
        _ = child[.greeting]
        _ = child[.greeting]
        #expect(targeting.evaluatedCount == 1)
        // A child without a context of its own has no targeting of its own.
        #expect(root.makeChild(label: "plain").store.snapshot().targeting == nil)
        // An empty context is the parent's.
        #expect(root.makeChild(label: "empty", evaluationContext: .empty).store.snapshot().targeting == nil)
    }

    @Test("Observers of a child hear exactly the changes of its own values")
    func observers() throws {
        let root = try Self.context()
        root.setEvaluationContext(Self.user(nil, ["country": "FR"]))
        let child = root.makeChild(label: "user", evaluationContext: Self.user(nil, ["plan": "pro"]))
        let rootSeen = Recorder<Bool>()
        let childSeen = Recorder<Bool>()
        let greetings = Recorder<String>()
        let tokens = [
            root.observe(.premium) { rootSeen.record($0) }, child.observe(.premium) { childSeen.record($0) },
            child.observe(.greeting) { greetings.record($0) },
        ]
        defer { for token in tokens { token.cancel() } }
        #expect(child[.premium] == true)

        // The root's context changes; the root's value does not (no plan), the child's does.
        root.setEvaluationContext(Self.user(nil, ["country": "DE"]))
        #expect(rootSeen.values == [])
        #expect(childSeen.takeAll() == [false])
        #expect(greetings.takeAll() == ["Hello"])

        // The child's own context changes: only the child hears it.
        child.setEvaluationContext(Self.user(nil, ["plan": "pro", "country": "FR"]))
        #expect(childSeen.takeAll() == [true])
        #expect(greetings.takeAll() == ["Bonjour"])
        #expect(rootSeen.values == [])

        // An override at the root that leaves the root's value as it was changes the child's.
        try root.setOverride(.premium, to: false)
        #expect(rootSeen.values == [])
        #expect(childSeen.takeAll() == [false])
        root.removeOverride(.premium)
        #expect(childSeen.takeAll() == [true])

        // A context change that changes no value notifies nobody and logs nothing.
        let logged = child.changeLog.count
        child.setEvaluationContext(Self.user(nil, ["plan": "pro", "country": "FR", "unread": true]))
        #expect(childSeen.values == [] && greetings.values == [])
        #expect(child.changeLog.count == logged)
    }

    @Test("A grandchild with no context of its own follows its parent's context changes")
    func grandchildInherits() throws {
        let root = try Self.context()
        let child = root.makeChild(label: "user", evaluationContext: Self.user(nil, ["country": "DE"]))
        let grandchild = child.makeChild(label: "screen")
        let seen = Recorder<String>()
        let token = grandchild.observe(.greeting) { seen.record($0) }
        defer { token.cancel() }
        child.setEvaluationContext(Self.user(nil, ["country": "FR"]))
        #expect(seen.takeAll() == ["Bonjour"])
        #expect(grandchild[.greeting] == "Bonjour")
        // A grandchild with its own context is told of its parent's context changes that reach it.
        let french = child.makeChild(label: "ticket", evaluationContext: Self.user(nil, ["plan": "pro"]))
        let premium = Recorder<Bool>()
        let premiumToken = french.observe(.premium) { premium.record($0) }
        defer { premiumToken.cancel() }
        #expect(french[.premium] == true)
        child.setEvaluationContext(Self.user(nil, ["country": "DE"]))
        #expect(premium.takeAll() == [false])
        #expect(seen.takeAll() == ["Hello"])
    }

    @Test("A batch sets a child's overrides and its own context in one transaction")
    func batch() throws {
        let root = try Self.context()
        let child = root.makeChild(label: "user")
        let batches = Recorder<[String]>()
        let token = child.observeAll { batches.record($0.keys.sorted()) }
        defer { token.cancel() }
        try child.batch { batch in
            try batch.setOverride(.banner, to: "sale")
            batch.setEvaluationContext(Self.user(nil, ["country": "FR"]))
        }
        #expect(batches.values == [["offers.banner", "offers.greeting"]])
        #expect(child[.greeting] == "Bonjour")
        #expect(root[.greeting] == "Hello")
        #expect(root.evaluationContext == .empty)
    }

    @Test("Observation tracks a child's targeted key per key")
    func observationTracking() throws {
        let root = try Self.context()
        let child = root.makeChild(label: "user", evaluationContext: Self.user(nil, ["plan": "pro"]))
        let greetingChanged = trackedChanges { _ = child[.greeting] }
        let bannerChanged = trackedChanges { _ = child[.banner] }
        root.setEvaluationContext(Self.user(nil, ["country": "FR"]))
        #expect(greetingChanged.count == 1)
        #expect(bannerChanged.count == 0)
    }

    @Test("A reload that changes a rule reaches a child with its own context")
    func reloadChangesRule() throws {
        let directory = try TemporaryDirectory()
        _ = try directory.write("offers.yaml", Self.offers)
        var configuration = AppContextConfiguration(definitionsDirectory: directory.path, environment: "test")
        configuration.watchesFiles = false
        let root = try AppContext(configuration: configuration)
        let child = root.makeChild(label: "user", evaluationContext: Self.user(nil, ["country": "BE"]))
        let seen = Recorder<String>()
        let token = child.observe(.greeting) { seen.record($0) }
        defer { token.cancel() }
        #expect(child[.greeting] == "Hello")
        _ = try directory.write(
            "offers.yaml", Self.offers.replacingOccurrences(of: "country }, FR]", with: "country }, BE]"))
        #expect(root.reload() == [])
        #expect(seen.values == ["Bonjour"])
        #expect(root[.greeting] == "Hello")
    }

    @Test("Threads making request children for different users each read their own user's values")
    func concurrentRequests() async throws {
        let root = try Self.context()
        let evaluator = FlagEvaluator(filesOf: root)
        let failures = Recorder<String>()
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for round in 0..<500 {
                if thread == 0 {
                    root.setEvaluationContext(Self.user(nil, ["country": round % 2 == 0 ? "FR" : "DE"]))
                    continue
                }
                let user = "user-\(thread)-\(round)"
                let country: JSONValue = round % 3 == 0 ? "FR" : "DE"
                let request = root.makeChild(
                    label: "request", evaluationContext: Self.user(user, ["country": country, "plan": "pro"]))
                let expectedBucket = evaluator.details(forKeyNamed: "offers.bucket", context: Self.user(user)).value
                    .stringValue
                if request[.premium] != (country == "FR") || request[.bucket] != expectedBucket {
                    failures.record("\(user) \(country): premium \(request[.premium]), bucket \(request[.bucket])")
                }
            }
        }
        #expect(failures.values == [])
    }
}
