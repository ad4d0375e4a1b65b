import Ensign
import EnsignSupport

/// Checks that a ``Ensign/ValueProvider`` keeps the protocol's contract, from the provider
/// author's own tests: the conformance test every provider runs (like swift-configuration's
/// `ProviderCompatTest`).
///
/// It attaches the provider to a context and checks, in order, that:
///
/// 1. its initial values arrive: it holds at least one, each with a non-empty provenance in
///    the fleet layer, and the context resolves each defined key to the provider's value with that
///    provenance (unless a higher layer, such as targeting, decides the key);
/// 2. it reports its health: healthy, under a name, at its revision (and, when the caller can
///    cut its store off through `outage`, unreachable with the values kept, then healthy again);
/// 3. a change the test makes (through `change`, while attached) is delivered, and only the
///    keys whose value changed notify observers, in transactions caused by the provider;
/// 4. after ``Ensign/ValueProvider/stop()``, a further change (`change` again) delivers
///    nothing: no delivery, no transaction, no value changes.
///
/// It returns the failures (``run(_:outage:change:)``) or throws them (``check(_:outage:change:)``), so it
/// works from Swift Testing and XCTest alike:
///
/// ```swift
/// import EnsignTesting
/// import Testing
///
/// @Test func remoteFlagsKeepTheContract() throws {
///     let server = FakeFlagServer(values: ["list.pageSize": 50])
///     let provider = RemoteFlags(client: server.client)
///     let test = ValueProviderCompatibilityTest(
///         definitions: "flags: { list.pageSize: { type: int, default: 20 }, list.dense: { default: false } }")
///     try test.check(provider) { round in
///         switch round {
///         case .attached:
///             server.set("list.pageSize", 60)
///             return ["list.pageSize": 60]  // what the context should resolve once it is delivered
///         case .stopped:
///             server.set("list.pageSize", 70)
///             return ["list.pageSize": 70]  // what it must not resolve
///         }
///     }
/// }
/// ```
///
/// The provider is attached to a context built from ``definitions``. The test stops the
/// provider at the end, whatever the outcome.
public struct ValueProviderCompatibilityTest: Sendable {
    /// The definitions of the context the provider is attached to (YAML text).
    public var definitions: String
    /// How long to wait for a delivery before reporting that it did not arrive.
    public var timeout: Duration
    /// How long to watch for deliveries that must not arrive (after the provider stopped).
    public var quietPeriod: Duration

    /// When the test calls the caller's `change` closure.
    public enum Round: Sendable, Hashable {
        /// While the provider is attached: the change must be delivered.
        case attached
        /// After the provider stopped: the change must not reach the context.
        case stopped
    }

    /// One broken promise: which check, and what was seen.
    public struct Failure: Sendable, Hashable, CustomStringConvertible {
        /// The check: `initial values`, `provenance`, `health`, `change`, `stop`, …
        public var check: String
        /// What went wrong, in a sentence that names keys and values.
        public var message: String

        /// Creates a failure.
        public init(check: String, message: String) {
            self.check = check
            self.message = message
        }

        /// `check: message`.
        public var description: String { "\(check): \(message)" }
    }

    /// The failures of a run, thrown by ``check(_:outage:change:)``.
    public struct Failures: Error, Sendable, CustomStringConvertible {
        /// Every failure, in the order found.
        public var failures: [Failure]

        /// One failure per line.
        public var description: String {
            "the value provider broke \(failures.count) promise\(failures.count == 1 ? "" : "s"):\n"
                + failures.map { "- \($0)" }.joined(separator: "\n")
        }
    }

    /// Creates a test; `definitions` is the context's definitions (YAML text).
    public init(definitions: String = "", timeout: Duration = .seconds(10), quietPeriod: Duration = .milliseconds(500))
    {
        self.definitions = definitions
        self.timeout = timeout
        self.quietPeriod = quietPeriod
    }

    /// Runs every check against `provider` and returns the failures (empty when it keeps the
    /// contract).
    ///
    /// - Parameters:
    ///   - provider: a provider not started yet, holding at least one value (or able to read one).
    ///   - change: makes a change in the provider's store, and returns the values (by full key)
    ///     the context should resolve once the change is delivered. Called once per ``Round``.
    ///   - outage: for a provider whose store the test can cut off: `outage(true)`
    ///     makes the store unreachable, `outage(false)` reachable again. When given, the test
    ///     also checks that the provider reports the outage (the status turns degraded, the
    ///     values stay in force) and the recovery.
    public func run<Provider: ValueProvider>(
        _ provider: Provider, outage: ((Bool) throws -> Void)? = nil,
        change: (Round) throws -> [String: JSONValue]
    ) -> [Failure] {
        var run = CompatibilityRun(test: self)
        defer { provider.stop() }
        guard let context = run.attach(provider) else { return run.failures }
        run.checkInitialValues(provider, context)
        run.checkHealth(provider, context)
        if let outage { run.checkOutage(provider, context, outage) }
        run.checkChange(provider, context, change)
        run.checkStop(provider, context, change)
        return run.failures
    }

    /// Runs every check against `provider`, throwing the failures if there are any.
    ///
    /// - Throws: ``Failures``.
    public func check<Provider: ValueProvider>(
        _ provider: Provider, outage: ((Bool) throws -> Void)? = nil,
        change: (Round) throws -> [String: JSONValue]
    ) throws(Failures) {
        let failures = run(provider, outage: outage, change: change)
        guard failures.isEmpty else { throw Failures(failures: failures) }
    }
}

/// One run of the checks, collecting failures.
private struct CompatibilityRun {
    let test: ValueProviderCompatibilityTest
    var failures: [ValueProviderCompatibilityTest.Failure] = []

    init(test: ValueProviderCompatibilityTest) {
        self.test = test
    }

    mutating func fail(_ check: String, _ message: String) {
        failures.append(.init(check: check, message: message))
    }

    /// Builds the context and attaches the provider.
    mutating func attach<Provider: ValueProvider>(_ provider: Provider) -> AppContext? {
        do {
            let context = try AppContext(definitions: test.definitions)
            context.attach(provider)
            return context
        } catch {
            fail("attach", "the context could not be created from the test's definitions: \(error)")
            return nil
        }
    }

    /// The keys of `held` the context resolves otherwise than the provider says (values the
    /// context refused, undefined keys and keys a higher layer decides are left out).
    func mismatches(_ held: ProvidedValues, _ context: AppContext) -> [String] {
        let refused = Set(context.status.diagnostics.compactMap(\.key))
        return held.values.keys.sorted().filter { key in
            guard context.definitions[key] != nil, !refused.contains(key) else { return false }
            let details = context.details(forKeyNamed: key)
            guard details.source.layer <= .fleet else { return false }
            return details.value != held.values[key]!.value
                || details.source.description != held.values[key]!.provenance.description
        }
    }

    mutating func checkInitialValues<Provider: ValueProvider>(_ provider: Provider, _ context: AppContext) {
        let arrived = waitUntil(context, timeout: test.timeout) { context in
            let held = provider.currentValues()
            return !held.values.isEmpty && mismatches(held, context).isEmpty
                && context.providerDeliveryCount > 0
        }
        let held = provider.currentValues()
        guard !held.values.isEmpty else {
            return fail(
                "initial values",
                "'\(provider.name)' holds no values after \(test.timeout); give it at least one, so that its"
                    + " provenance can be checked")
        }
        if !arrived {
            for key in mismatches(held, context) {
                let details = context.details(forKeyNamed: key)
                fail(
                    "initial values",
                    "'\(key)' resolves to \(details.value.jsonText) from \(details.source), but the provider holds"
                        + " \(held.values[key]!.value.jsonText) from \(held.values[key]!.provenance)")
            }
            if context.providerDeliveryCount == 0 {
                fail("initial values", "'\(provider.name)' delivered nothing within \(test.timeout) of being attached")
            }
        }
        for (key, value) in held.values.sorted(by: { $0.key < $1.key }) {
            if value.origin.isEmpty {
                fail("provenance", "'\(key)' has an empty provenance: give its location or origin text")
            }
            if value.provenance.layer != .fleet {
                fail("provenance", "'\(key)' is in layer \(value.provenance.layer), not the fleet layer providers feed")
            }
            if value.path.isEmpty { fail("provenance", "'\(key)' has an empty path for its diagnostics") }
        }
    }

    mutating func checkHealth<Provider: ValueProvider>(_ provider: Provider, _ context: AppContext) {
        if provider.name.isEmpty { fail("health", "the provider's name is empty") }
        // Health is reported after the values it comes with are in force: wait for it.
        _ = waitUntil(context, timeout: test.timeout) { $0.status.fleet?.isReachable == true }
        guard let fleet = context.status.fleet else {
            return fail("health", "'\(provider.name)' reported no health (ContextStatus.fleet is nil)")
        }
        if !fleet.isReachable {
            fail("health", "'\(provider.name)' reports its store unreachable: \(fleet.lastError ?? "no reason")")
        }
        if fleet.source.isEmpty { fail("health", "the status names no source") }
        if let revision = provider.currentValues().revision, fleet.revision != revision {
            fail("health", "the status is at revision \(fleet.revision), the provider at \(revision)")
        }
    }

    mutating func checkOutage<Provider: ValueProvider>(
        _ provider: Provider, _ context: AppContext, _ outage: (Bool) throws -> Void
    ) {
        let keys = context.definitions.keys
        let before = Dictionary(uniqueKeysWithValues: keys.map { ($0, context.value(forKeyNamed: $0)) })
        do {
            try outage(true)
        } catch {
            return fail("outage", "the store could not be cut off: \(error)")
        }
        let reported = waitUntil(context, timeout: test.timeout) { $0.status.fleet?.isReachable == false }
        if !reported {
            fail("outage", "'\(provider.name)' did not report its store unreachable within \(test.timeout)")
        } else {
            let status = context.status
            if !status.isDegraded { fail("outage", "the context is not degraded while the store is unreachable") }
            if status.fleet?.lastError?.isEmpty ?? true { fail("outage", "the outage is reported with no error") }
        }
        for key in keys where context.value(forKeyNamed: key) != before[key] {
            fail("outage", "'\(key)' changed during the outage; the last delivered values should stay in force")
        }
        do {
            try outage(false)
        } catch {
            return fail("outage", "the store could not be made reachable again: \(error)")
        }
        if !waitUntil(context, timeout: test.timeout, { $0.status.fleet?.isReachable == true }) {
            fail("outage", "'\(provider.name)' did not report its store reachable again within \(test.timeout)")
        }
    }

    mutating func checkChange<Provider: ValueProvider>(
        _ provider: Provider, _ context: AppContext,
        _ change: (ValueProviderCompatibilityTest.Round) throws -> [String: JSONValue]
    ) {
        let keys = context.definitions.keys
        let before = Dictionary(uniqueKeysWithValues: keys.map { ($0, context.value(forKeyNamed: $0)) })
        let batches = LockedState<[ChangeBatch]>([])
        let token = context.observeAll { batch in batches.withLock { $0.append(batch) } }
        defer { token.cancel() }
        // One observer per key too, as modules observe: each must hear only of its own key.
        let perKey = LockedState<[String: Int]>([:])
        let keyTokens = keys.map { key in
            context.observe(keysNamed: [key]) { batch in
                perKey.withLock { counts in
                    for change in batch.changes { counts[change.key, default: 0] += 1 }
                }
            }
        }
        defer { for token in keyTokens { token.cancel() } }
        let expected: [String: JSONValue]
        do {
            expected = try change(.attached)
        } catch {
            return fail("change", "the change could not be made: \(error)")
        }
        guard !expected.isEmpty else { return fail("change", "the change names no key to expect") }
        let changed = Set(expected.keys.filter { before[$0] != expected[$0] })
        if changed.isEmpty { fail("change", "the change sets no key to a new value; change at least one") }
        let delivered = waitUntil(context, timeout: test.timeout) { context in
            expected.allSatisfy { context.value(forKeyNamed: $0.key) == $0.value }
                && changed.isSubset(of: batches.withLock { $0.flatMap(\.keys) })
                && changed.isSubset(of: perKey.withLock { $0.keys })
        }
        if !delivered {
            for (key, value) in expected.sorted(by: { $0.key < $1.key })
            where context.value(forKeyNamed: key) != value {
                fail(
                    "change",
                    "'\(key)' resolves to \(context.value(forKeyNamed: key)?.jsonText ?? "nothing") \(test.timeout)"
                        + " after the change, not \(value.jsonText)")
            }
        }
        let seen = batches.withLock { $0 }
        let notified = Set(seen.flatMap(\.keys))
        for key in notified.subtracting(changed).sorted() {
            fail("change", "observers of '\(key)' were notified, but its value did not change")
        }
        for key in changed.subtracting(notified).sorted() where delivered {
            fail("change", "'\(key)' changed without notifying its observers")
        }
        let counts = perKey.withLock { $0 }
        for key in Set(counts.keys).subtracting(changed).subtracting(notified).sorted() {
            fail("change", "the observer of '\(key)' ran, but its value did not change")
        }
        for (key, count) in counts.sorted(by: { $0.key < $1.key }) where count > 1 {
            fail("change", "the observer of '\(key)' ran \(count) times; one change should reach it once")
        }
        for key in changed.sorted() where delivered && counts[key] == nil {
            fail("change", "the observer of '\(key)' did not run, but its value changed")
        }
        for batch in seen where !isProviderDelivery(batch.cause) {
            fail("change", "transaction \(batch.transaction) has cause '\(batch.cause)', not the provider")
        }
        for key in changed.sorted() {
            let source = context.details(forKeyNamed: key).source
            if source.location.map({ $0.description.isEmpty }) ?? true {
                fail("change", "'\(key)' resolves with an empty provenance after the change: \(source)")
            }
        }
    }

    mutating func checkStop<Provider: ValueProvider>(
        _ provider: Provider, _ context: AppContext,
        _ change: (ValueProviderCompatibilityTest.Round) throws -> [String: JSONValue]
    ) {
        provider.stop()
        let deliveries = context.providerDeliveryCount
        let keys = context.definitions.keys
        let before = Dictionary(uniqueKeysWithValues: keys.map { ($0, context.value(forKeyNamed: $0)) })
        let batches = LockedState<[ChangeBatch]>([])
        let token = context.observeAll { batch in batches.withLock { $0.append(batch) } }
        defer { token.cancel() }
        do {
            _ = try change(.stopped)
        } catch {
            return fail("stop", "the change after stopping could not be made: \(error)")
        }
        _ = waitUntil(context, timeout: test.quietPeriod) { _ in false }
        if context.providerDeliveryCount != deliveries {
            fail(
                "stop",
                "'\(provider.name)' made \(context.providerDeliveryCount - deliveries) deliveries after stop() returned"
            )
        }
        for batch in batches.withLock({ $0 }) {
            fail("stop", "a transaction changed \(batch.keys) after the provider stopped (cause '\(batch.cause)')")
        }
        for key in keys where context.value(forKeyNamed: key) != before[key] {
            fail("stop", "'\(key)' changed after the provider stopped")
        }
    }

    /// Whether a transaction's cause is a provider's delivery (every provider feeds the fleet layer).
    private func isProviderDelivery(_ cause: ChangeCause) -> Bool {
        if case .fleet(let source) = cause { return !source.isEmpty }
        return false
    }

    /// Waits until `condition` holds, re-checking after each of the context's transactions
    /// and every 20 ms (health reports are not transactions); returns whether it held.
    private func waitUntil(
        _ context: AppContext, timeout: Duration, _ condition: (AppContext) -> Bool
    ) -> Bool {
        let signal = LockedCondition(0)
        let token = context.observeAll { _ in signal.update { $0 += 1 } }
        defer { token.cancel() }
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let seen = signal.withLock { $0 }
            if condition(context) { return true }
            _ = signal.wait(until: { $0 != seen }, timeout: .milliseconds(20))
        }
        return condition(context)
    }
}
