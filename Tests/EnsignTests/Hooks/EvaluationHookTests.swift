import Dispatch
import EnsignTestSupport
import Synchronization
import Testing

@testable import Ensign

/// A hook that writes each stage it runs as `name.stage` and can be told to throw in one.
private struct TracingHook: EvaluationHook {
    struct Failure: Error {}

    let name: String
    let trace: Recorder<String>
    var throwsIn: Set<String> = []
    var returns: EvaluationContext? = nil

    func before(_ context: inout HookContext, hints: [String: JSONValue]) throws -> EvaluationContext? {
        trace.record("\(name).before")
        context.hookData["opened"] = name
        if throwsIn.contains("before") { throw Failure() }
        return returns
    }

    func after(_ context: inout HookContext, details: ResolutionDetails<JSONValue>, hints: [String: JSONValue]) throws {
        trace.record("\(name).after")
        if throwsIn.contains("after") { throw Failure() }
    }

    func error(_ context: inout HookContext, error: any Error, hints: [String: JSONValue]) throws {
        trace.record("\(name).error")
        if throwsIn.contains("error") { throw Failure() }
    }

    func finally(_ context: inout HookContext, details: ResolutionDetails<JSONValue>, hints: [String: JSONValue])
        throws
    {
        // Its own data from `before`, and no other hook's.
        trace.record("\(name).finally(\(context.hookData["opened"] as? String ?? "-"))")
        if throwsIn.contains("finally") { throw Failure() }
    }
}

/// A hook that keeps what each stage was given.
private struct CapturingHook: EvaluationHook {
    let contexts: Recorder<HookContext>
    let finals: Recorder<ResolutionDetails<JSONValue>>
    let errors: Recorder<String>
    let hints: Recorder<[String: JSONValue]>

    init() {
        (contexts, finals, errors, hints) = (Recorder(), Recorder(), Recorder(), Recorder())
    }

    func before(_ context: inout HookContext, hints: [String: JSONValue]) throws -> EvaluationContext? {
        contexts.record(context)
        self.hints.record(hints)
        return nil
    }

    func error(_ context: inout HookContext, error: any Error, hints: [String: JSONValue]) throws {
        errors.record("\(error)")
    }

    func finally(_ context: inout HookContext, details: ResolutionDetails<JSONValue>, hints: [String: JSONValue])
        throws
    {
        finals.record(details)
    }
}

@Suite("Evaluation hooks")
struct EvaluationHookTests {
    @Test("Hooks run stack-wise: root, then child, then the call's own before; the reverse after and finally")
    func stackOrder() throws {
        let context = try ContextFixtures.context()
        let trace = Recorder<String>()
        context.addHook(TracingHook(name: "A", trace: trace))
        context.addHook(TracingHook(name: "B", trace: trace))
        let child = context.makeChild(label: "request")
        child.addHook(TracingHook(name: "C", trace: trace))
        child.addHook(TracingHook(name: "D", trace: trace))
        let details = child.details(
            for: .showPendingList, hooks: [TracingHook(name: "E", trace: trace), TracingHook(name: "F", trace: trace)])
        #expect(details.errorCode == nil)
        let names = ["A", "B", "C", "D", "E", "F"]
        #expect(
            trace.values
                == names.map { "\($0).before" } + names.reversed().map { "\($0).after" }
                + names.reversed().map { "\($0).finally(\($0))" })
    }

    @Test("A root's hooks run for reads through the subscript, scopes and children; a child's only through it")
    func levels() throws {
        let context = try ContextFixtures.context()
        let trace = Recorder<String>()
        let child = context.makeChild(label: "request")
        context.addHook(TracingHook(name: "root", trace: trace))
        child.addHook(TracingHook(name: "child", trace: trace))
        _ = context[.showPendingList]
        _ = context.scope("beneficiaries")[FlagKey("showPendingList", default: false)]
        #expect(trace.takeAll().filter { $0.hasSuffix("before") } == ["root.before", "root.before"])
        _ = child[.showPendingList]
        #expect(trace.takeAll().filter { $0.hasSuffix("before") } == ["root.before", "child.before"])
        _ = context.value(forKeyNamed: "beneficiaries.showPendingList")
        _ = context.details(forKeyNamed: "beneficiaries.showPendingList")
        #expect(trace.takeAll().filter { $0.hasSuffix("before") } == ["root.before", "root.before"])
    }

    @Test("A context a before stage returns is laid over the read's, seen by later hooks and used for targeting")
    func beforeChangesTheEvaluationContext() throws {
        let context = try ContextFixtures.context()
        #expect(context[.newFlow] == false)
        let trace = Recorder<String>()
        let capture = CapturingHook()
        context.addHook(TracingHook(name: "geo", trace: trace, returns: ["country": "FR"]))
        context.addHook(capture)
        let details = context.details(for: .newFlow)
        #expect(details.value == true)
        #expect(details.reason == .targetingMatch)
        #expect(context[.newFlow] == true)
        #expect(capture.contexts.values.first?.evaluationContext.attributes["country"] == "FR")
        // The context's own evaluation context is left as it was.
        #expect(context.evaluationContext.attributes["country"] == nil)
        context.removeAllHooks()
        #expect(context[.newFlow] == false)
    }

    @Test("A before that throws gives the default with GENERAL, skips later befores and runs every error and finally")
    func throwingBefore() throws {
        let context = try ContextFixtures.context(environment: "development")
        #expect(context[.showPendingList] == true)
        let trace = Recorder<String>()
        context.addHook(TracingHook(name: "A", trace: trace))
        context.addHook(TracingHook(name: "B", trace: trace, throwsIn: ["before"]))
        context.addHook(TracingHook(name: "C", trace: trace))
        let details = context.details(for: .showPendingList)
        #expect(details.value == false)
        #expect(details.reason == .error)
        #expect(details.errorCode == .general)
        #expect(details.errorMessage?.contains("before stage of TracingHook") == true)
        #expect(
            trace.values == [
                "A.before", "B.before", "C.error", "B.error", "A.error", "C.finally(-)", "B.finally(B)",
                "A.finally(A)",
            ])
    }

    @Test("An after that throws gives the default with GENERAL, skips the remaining afters, and runs error and finally")
    func throwingAfter() throws {
        let context = try ContextFixtures.context(environment: "development")
        let trace = Recorder<String>()
        context.addHook(TracingHook(name: "A", trace: trace))
        context.addHook(TracingHook(name: "B", trace: trace, throwsIn: ["after"]))
        let details = context.details(for: .showPendingList)
        #expect(details.value == false)
        #expect(details.errorCode == .general)
        #expect(
            trace.values == ["A.before", "B.before", "B.after", "B.error", "A.error", "B.finally(B)", "A.finally(A)"])
    }

    @Test("What error and finally stages throw is dropped; the others still run and the value stands")
    func throwingErrorAndFinally() throws {
        let context = try ContextFixtures.context()
        let trace = Recorder<String>()
        context.addHook(TracingHook(name: "A", trace: trace))
        context.addHook(TracingHook(name: "B", trace: trace, throwsIn: ["error", "finally"]))
        let details = context.details(for: .undefinedFlag)
        #expect(details.value == true)
        #expect(details.errorCode == .flagNotFound)
        #expect(trace.values == ["A.before", "B.before", "B.error", "A.error", "B.finally(B)", "A.finally(A)"])
    }

    @Test("Resolution errors reach the error stage with their code, and finally sees the details the read returns")
    func resolutionErrors() throws {
        let context = try ContextFixtures.context()
        let capture = CapturingHook()
        context.addHook(capture)
        let missing = context.details(for: .undefinedFlag)
        let mismatch = context.details(for: .newFlowAsInt)
        #expect(missing.errorCode == .flagNotFound)
        #expect(mismatch.errorCode == .typeMismatch)
        #expect(capture.errors.values.map { $0.prefix(14) } == ["FLAG_NOT_FOUND", "TYPE_MISMATCH:"])
        let finals = capture.finals.values
        #expect(finals.map(\.value) == [.bool(true), .int(-1)])
        #expect(finals.map(\.reason) == [.error, .error])
        let hookContexts = capture.contexts.values
        #expect(hookContexts.map(\.flagKey) == ["nowhere.defined", "transfers.newFlow"])
        #expect(hookContexts.map(\.valueType) == [.bool, .int])
        #expect(hookContexts.map(\.defaultValue) == [.bool(true), .int(-1)])
        #expect(hookContexts.allSatisfy { $0.providerName == "Ensign" && $0.clientName == context.label })
    }

    @Test("Hints reach every hook as the call gave them")
    func hints() throws {
        let context = try ContextFixtures.context()
        let root = CapturingHook()
        let call = CapturingHook()
        context.addHook(root)
        _ = context.details(for: .newFlow, hooks: [call], hints: ["screen": "list", "attempt": 2])
        #expect(root.hints.values == [["screen": "list", "attempt": 2]])
        #expect(call.hints.values == root.hints.values)
    }

    @Test("The read path's switch is on only while a hook is registered somewhere in the tree")
    func switchFollowsRegistrations() throws {
        let context = try ContextFixtures.context()
        let trace = Recorder<String>()
        do {
            let child = context.makeChild(label: "request")
            child.addHook(TracingHook(name: "child", trace: trace))
            _ = child[.newFlow]
            #expect(trace.count == 3)
        }
        // The child is gone with its hook: reads of the root run none (and the root has none).
        _ = context[.newFlow]
        #expect(trace.count == 3)
        context.addHook(TracingHook(name: "root", trace: trace))
        _ = context[.newFlow]
        #expect(trace.count == 6)
        context.removeAllHooks()
        _ = context[.newFlow]
        #expect(trace.count == 6)
    }

    @Test("Hooks added and removed while other threads read: every before has its finally, values stay right")
    func registrationRacesReads() throws {
        let context = try ContextFixtures.context(environment: "development")
        let child = context.makeChild(label: "request")
        let stages = PairCountingHook()
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            if worker == 0 {
                for round in 0..<500 {
                    (round % 2 == 0 ? context : child).addHook(stages)
                    if round % 3 == 2 {
                        context.removeAllHooks()
                        child.removeAllHooks()
                    }
                }
                context.removeAllHooks()
                child.removeAllHooks()
            } else {
                for _ in 0..<5_000 {
                    // The hook changes nothing, so every read gives the plain value.
                    #expect(child[.showPendingList] == true)
                    #expect(context.details(for: .undefinedFlag).errorCode == .flagNotFound)
                }
            }
        }
        // How many reads met a hook depends on the interleaving; that each paired up does not.
        #expect(stages.befores.load(ordering: .relaxed) == stages.finallys.load(ordering: .relaxed))
        #expect(!context.hookSwitch.isOn, "every registration was counted back down")
        let ran = stages.befores.load(ordering: .relaxed)
        _ = child[.showPendingList]
        #expect(stages.befores.load(ordering: .relaxed) == ran)
        child.addHook(stages)
        _ = child[.showPendingList]
        #expect(stages.befores.load(ordering: .relaxed) == ran + 1)
        #expect(stages.finallys.load(ordering: .relaxed) == ran + 1)
    }
}

/// Counts `before` and `finally` stages, from any thread.
private final class PairCountingHook: EvaluationHook {
    let befores = Atomic<Int>(0)
    let finallys = Atomic<Int>(0)

    func before(_ context: inout HookContext, hints: [String: JSONValue]) throws -> EvaluationContext? {
        befores.add(1, ordering: .relaxed)
        return nil
    }

    func finally(_ context: inout HookContext, details: ResolutionDetails<JSONValue>, hints: [String: JSONValue]) {
        finallys.add(1, ordering: .relaxed)
    }
}
