import Dispatch
import EnsignTestSupport
import Synchronization
import Testing

@testable import Ensign

/// An exposure hook that records the results it is told of, and every tracked event.
private final class ExposureRecorder: EvaluationHook {
    let results = Recorder<String>()
    let tracked = Recorder<AppContext.TrackingEvent>()
    let secrets = Recorder<Bool>()
    let exposuresOnly: Bool

    init(exposuresOnly: Bool = true) { self.exposuresOnly = exposuresOnly }

    var runsForExposuresOnly: Bool { exposuresOnly }

    func before(_ context: inout HookContext, hints: [String: JSONValue]) throws -> EvaluationContext? {
        results.record("before")
        return nil
    }

    func finally(_ context: inout HookContext, details: ResolutionDetails<JSONValue>, hints: [String: JSONValue]) {
        let variant = details.variant ?? "-"
        results.record(
            "\(details.key)=\(variant)/\(details.value.jsonText)@\(context.evaluationContext.targetingKey ?? "-")")
        secrets.record(context.isSecret)
    }

    func track(_ event: AppContext.TrackingEvent) { tracked.record(event) }
}

@Suite("Exposures and tracking")
struct ExposureTests {
    static let definitions = """
        version: 1
        flags:
          checkout.newFlow:
            variants: { "on": true, "off": false }
            defaultVariant: "off"
            targeting:
              if:
                - in: [{ var: country }, [FR, BE]]
                - "on"
                - null
          checkout.pageSize: { type: int, default: 20 }
          support.token: { type: string, default: "s3cr3t", secret: true }
        """

    static let newFlow = FlagKey("checkout.newFlow", default: false)
    static let pageSize = FlagKey("checkout.pageSize", default: 0)

    @Test("An exposure hook runs once per result: many reads of one value are one exposure")
    func oncePerResult() throws {
        let context = try AppContext(definitions: Self.definitions)
        let hook = ExposureRecorder()
        context.addHook(hook)
        for _ in 0..<100 {
            #expect(context[Self.newFlow] == false)
            #expect(context[Self.pageSize] == 20)
        }
        #expect(hook.results.values.sorted() == ["checkout.newFlow=off/false@-", "checkout.pageSize=-/20@-"])
        // A new value of a key without variants is a new result; going back is not.
        try context.setOverride(Self.pageSize, to: 50)
        #expect(context[Self.pageSize] == 50)
        context.removeOverride(Self.pageSize)
        #expect(context[Self.pageSize] == 20)
        #expect(hook.results.count == 3)
        #expect(hook.results.values.last == "checkout.pageSize=-/50@-")
    }

    @Test("Each targeting key and each variant is its own exposure, through children too")
    func perTargetingKeyAndVariant() throws {
        let context = try AppContext(definitions: Self.definitions)
        let hook = ExposureRecorder()
        context.addHook(hook)
        for round in 0..<3 {
            for (user, country) in [("u1", "FR"), ("u2", "DE"), ("u3", "BE")] {
                let request = context.makeChild(
                    label: "request",
                    evaluationContext: EvaluationContext(targetingKey: user, attributes: ["country": .string(country)]))
                #expect(request[Self.newFlow] == (country != "DE"), "round \(round)")
            }
        }
        #expect(
            hook.results.values.sorted() == [
                "checkout.newFlow=off/false@u2", "checkout.newFlow=on/true@u1", "checkout.newFlow=on/true@u3",
            ])
        // The same user moving to a country the rule serves gets the other variant: a new exposure.
        let moved = context.makeChild(
            label: "request", evaluationContext: EvaluationContext(targetingKey: "u2", attributes: ["country": "FR"]))
        #expect(moved[Self.newFlow])
        #expect(hook.results.values.last == "checkout.newFlow=on/true@u2")
        #expect(hook.results.count == 4)
    }

    @Test("Exposure hooks skip before; an every-evaluation hook beside them still runs for every read")
    func mixedHooks() throws {
        let context = try AppContext(definitions: Self.definitions)
        let exposures = ExposureRecorder()
        let every = ExposureRecorder(exposuresOnly: false)
        context.addHook(exposures)
        context.addHook(every)
        for _ in 0..<5 { _ = context[Self.pageSize] }
        #expect(exposures.results.values == ["checkout.pageSize=-/20@-"])
        #expect(every.results.values.count(where: { $0 == "before" }) == 5)
        #expect(every.results.count == 10)
        context.removeAllHooks()
        #expect(!context.hookSwitch.isOn)
    }

    @Test("resetExposures() makes the next read of each result an exposure again")
    func reset() throws {
        let context = try AppContext(definitions: Self.definitions)
        let hook = ExposureRecorder()
        context.addHook(hook)
        _ = context[Self.newFlow]
        _ = context[Self.newFlow]
        context.resetExposures()
        _ = context[Self.newFlow]
        _ = context.details(for: Self.newFlow)
        #expect(hook.results.values == ["checkout.newFlow=off/false@-", "checkout.newFlow=off/false@-"])
    }

    @Test("The set of exposures is bounded: past its capacity it starts again")
    func bounded() {
        let log = ExposureLog(capacity: 3)
        let exposures = (0..<4).map {
            ExposureLog.Exposure(key: "k", variant: "v\($0)", value: .null, targetingKey: nil)
        }
        #expect(exposures.prefix(3).allSatisfy { log.record($0, slot: nil, generation: nil) })
        #expect(!log.record(exposures[0], slot: nil, generation: nil), "still remembered below the capacity")
        #expect(log.record(exposures[3], slot: nil, generation: nil))
        #expect(log.record(exposures[0], slot: nil, generation: nil), "forgotten when the set started again")
    }

    @Test("Hooks see secret: true, and a key without it is not secret")
    func secretFlag() throws {
        let context = try AppContext(definitions: Self.definitions)
        let hook = ExposureRecorder(exposuresOnly: false)
        context.addHook(hook)
        #expect(context.value(forKeyNamed: "support.token") == "s3cr3t")
        _ = context[Self.pageSize]
        #expect(hook.secrets.values == [true, false])
    }

    @Test("track(_:value:attributes:) reaches the hooks of the context's path with its evaluation context")
    func tracking() throws {
        let context = try AppContext(definitions: Self.definitions)
        let root = ExposureRecorder()
        let childHook = ExposureRecorder()
        context.addHook(root)
        context.track("before any child", value: 1)
        let child = context.makeChild(
            label: "checkout", evaluationContext: EvaluationContext(targetingKey: "u1", attributes: ["country": "FR"]))
        child.addHook(childHook)
        child.track("checkout.completed", value: 42.5, attributes: ["currency": "EUR"])
        #expect(root.tracked.values.map(\.name) == ["before any child", "checkout.completed"])
        let event = try #require(childHook.tracked.values.first)
        #expect(childHook.tracked.count == 1)
        #expect(event.value == 42.5)
        #expect(event.attributes == ["currency": "EUR"])
        #expect(event.evaluationContext.targetingKey == "u1")
        #expect(event.evaluationContext.attributes["country"] == "FR")
        #expect(event.clientName == "checkout")
        #expect(event.time.secondsSince1970 > 1_700_000_000)
    }

    @Test("Readers racing writers: each result is reported exactly once, whatever the interleaving")
    func racingExposures() throws {
        let context = try AppContext(definitions: Self.definitions)
        let hook = ExposureRecorder()
        context.addHook(hook)
        let seen = Mutex<Set<Int>>([])
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for round in 0..<2_000 {
                if worker == 0 {
                    try? context.setOverride(Self.pageSize, to: 20 + round % 7)
                } else {
                    let value = context[Self.pageSize]
                    seen.withLock { _ = $0.insert(value) }
                }
            }
        }
        let reported = hook.results.values
        #expect(reported.count == Set(reported).count, "a result was reported twice: \(reported.sorted())")
        // Every value a reader saw was reported; a value only written, never read, may not be.
        for value in seen.withLock({ $0 }) {
            #expect(reported.contains("checkout.pageSize=-/\(value)@-"), "\(value) was read but never exposed")
        }
    }
}
