import EnsignJSON
import EnsignTestSupport
import Foundation
import Testing

@testable import Ensign

/// Interprets the steps of OpenFeature's suites against Ensign's public API, one case per
/// runner, each over its own context loaded from the converted `test-flags.json`.
///
/// OpenFeature's levels map to contexts:
/// - API: the root ``AppContext`` (its evaluation context set with `setEvaluationContext`, its
///   hooks added with `addHook`);
/// - transaction: a child of the root made current for the task with `withAppContext`, which is
///   how Ensign propagates a context to the code of one task (OpenFeature's transaction context
///   propagator);
/// - client: a child of the current context, `makeChild(label:evaluationContext:)`;
/// - invocation: Ensign has no per-call evaluation context parameter, so a child made for the
///   call with the invocation's context (the request child Ensign documents); per-call hooks are
///   `details(for:hooks:hints:)`'s;
/// - before hooks: a hook whose `before` returns the context.
///
/// Each child's evaluation context is merged over its parent's key by key, so the chain gives
/// OpenFeature's precedence. "A stable provider with retrievable context" is a hook on the root
/// that keeps ``HookContext/evaluationContext`` in `finally`: the merged context the key was
/// evaluated for.
struct OpenFeatureSpecRunner {
    enum Level: String, CaseIterable {
        case api = "API"
        case transaction = "Transaction"
        case client = "Client"
        case invocation = "Invocation"
        case beforeHooks = "Before Hooks"
    }

    struct StageDetails: Sendable {
        var stage: String
        var details: ResolutionDetails<JSONValue>
    }

    private let specCase: OpenFeatureSpecSuite.SpecCase
    /// Holds the flag file for as long as the case runs.
    private let directory: TemporaryDirectory
    private let root: AppContext

    // What the steps set up.
    private var levels: [Level: [String: JSONValue]] = [:]
    private var precedence: [Level] = []
    private var clientHasHook = false
    private var optionHooks: [any EvaluationHook] = []
    private var flag: (type: String, key: String, fallback: JSONValue)?
    private var original: EvaluationContext?

    // What the evaluations gave.
    private var details: ResolutionDetails<JSONValue>?
    private var invocationContext: EvaluationContext?
    private let stages = Recorder<String>()
    private let stageDetails = Recorder<StageDetails>()
    private let optionTrace = Recorder<String>()
    private let mergedContexts = Recorder<EvaluationContext>()

    init(_ specCase: OpenFeatureSpecSuite.SpecCase) throws {
        self.specCase = specCase
        directory = try TemporaryDirectory()
        try directory.write("openfeature-test-flags.json", try OpenFeatureSpecSuite.flagdFileText.get())
        root = try unwatchedContext(directory.path, environment: "test")
    }

    mutating func run() {
        for step in specCase.scenario.steps { perform(step) }
    }

    // MARK: Steps

    private mutating func perform(_ step: GherkinFeature.Step) {
        let text = step.text
        let quoted = GherkinFeature.quotedValues(text)
        switch true {
        case text == "a stable provider":
            return
        case text == "a stable provider with retrievable context is registered":
            root.addHook(ContextCapturingHook(contexts: mergedContexts))
        case text == "a client with added hook":
            clientHasHook = true
        case text.contains("-flag with key \"") && text.contains("\" and a fallback value \""):
            let type = String(text.dropFirst(2).prefix { $0 != "-" })
            let fallbackText = Self.quotedTail(of: text, after: "a fallback value ")
            guard let fallback = GherkinFeature.value(fallbackText, ofType: type) else {
                Issue.record("\(specCase): fallback of '\(text)' is not a \(type)")
                return
            }
            flag = (type, quoted[0], fallback)
        case text.hasPrefix("a context containing a key \"") && text.hasSuffix("\" with null value"):
            levels[.invocation, default: [:]][quoted[0]] = .null
        case text.hasPrefix("a context containing a key \""):
            guard let value = GherkinFeature.value(quoted[2], ofType: quoted[1]) else {
                Issue.record("\(specCase): '\(quoted[2])' is not a \(quoted[1])")
                return
            }
            levels[.invocation, default: [:]][quoted[0]] = value
        case text == "an evaluation context with modifiable data":
            let data: [String: JSONValue] = ["email": "ballmer@macrosoft.com", "roles": ["admin"], "age": 65]
            levels[.invocation] = data
            original = EvaluationContext(targetingKey: nil, attributes: data)
        case text == "evaluation options containing specific hooks":
            optionHooks = ["first", "second"].map { TracingHook(name: $0, trace: optionTrace) }
        case text == "the flag was evaluated with details",
            text == "the flag was evaluated with details using the evaluation options":
            evaluate()
        case text == "Some flag was evaluated":
            flag = ("Boolean", "boolean-flag", false)
            evaluate()
        case text.hasPrefix("A context entry with key \""):
            guard let level = level(named: quoted[2]) else { return }
            levels[level, default: [:]][quoted[0]] = .string(quoted[1])
        case text == "A table with levels of increasing precedence":
            precedence = step.table.compactMap { row in row.first.flatMap { level(named: $0) } }
        case text.hasPrefix("Context entries for each level from API level down to the \""):
            // Each level gets its own name as the value, so the merged context holds the target
            // level's name only if that level wins over every level before it.
            guard let target = level(named: quoted[0]) else { return }
            #expect(quoted[2] == target.rawValue, "\(specCase): the value template names the target level")
            for level in precedence {
                levels[level, default: [:]][quoted[1]] = .string(level.rawValue)
                if level == target { break }
            }
            #expect(precedence.contains(target), "\(specCase): '\(target.rawValue)' is in the precedence table")
        case text.hasPrefix("The merged context contains an entry with key \""):
            let merged = mergedContexts.values
            #expect(merged.count == 1, "\(specCase): one evaluation seen by the provider")
            #expect(
                merged.last?.attributes[quoted[0]] == .string(quoted[1]),
                "\(specCase): merged context entry '\(quoted[0])'")
        case text.hasPrefix("the \"") && text.hasSuffix("\" hook should have been executed"):
            #expect(stages.values.contains(quoted[0]), "\(specCase): the \(quoted[0]) stage ran")
        case text.hasPrefix("the \"") && text.hasSuffix("\" hooks should be called with evaluation details"):
            for stage in quoted[0].components(separatedBy: ", ") {
                checkHookDetails(stage: stage, table: step.table)
            }
        default:
            check(step, quoted: quoted)
        }
    }

    /// The `Then` steps about the evaluation's details.
    private mutating func check(_ step: GherkinFeature.Step, quoted: [String]) {
        let text = step.text
        let key = flag?.key ?? "?"
        switch true {
        case text.hasPrefix("the resolved details value should be \""):
            // The expected value may itself contain quotes (an object's JSON), escaped in a step.
            let expected = Self.quotedTail(of: text, after: "should be ").replacingAll("\\\"", with: "\"")
            let value = GherkinFeature.value(expected, ofType: flag?.type ?? "")
            #expect(value != nil, "\(specCase): '\(expected)' is a \(flag?.type ?? "?")")
            #expect(details?.value == value, "\(specCase): value of '\(key)'")
        case text.hasPrefix("the reason should be \""):
            #expect(details?.reason.rawValue == quoted[0], "\(specCase): reason of '\(key)'")
        case text.hasPrefix("the error-code should be \""):
            #expect(details?.errorCode?.rawValue == Self.nullable(quoted[0]), "\(specCase): error code of '\(key)'")
        case text.hasPrefix("the variant should be \""):
            #expect(details?.variant == Self.nullable(quoted[0]), "\(specCase): variant of '\(key)'")
        case text.hasPrefix("the flag key should be \""):
            #expect(details?.key == quoted[0], "\(specCase): flag key")
        case text == "the resolved metadata is empty":
            #expect(details?.metadata.isEmpty == true, "\(specCase): metadata of '\(key)'")
        case text == "the resolved metadata should contain":
            #expect(step.table.first == ["key", "metadata_type", "value"], "\(specCase): metadata table header")
            for row in step.table.dropFirst() {
                #expect(row.count == 3, "\(specCase): metadata row \(row)")
                guard row.count == 3 else { continue }
                let expected = GherkinFeature.value(row[2], ofType: row[1])
                #expect(expected != nil, "\(specCase): '\(row[2])' is a \(row[1])")
                #expect(details?.metadata[row[0]] == expected, "\(specCase): metadata '\(row[0])' of '\(key)'")
            }
        case text == "the specified hooks should execute during evaluation":
            for name in ["first", "second"] {
                for stage in ["before", "after", "finally"] {
                    #expect(optionTrace.values.contains("\(name).\(stage)"), "\(specCase): \(name).\(stage) ran")
                }
            }
        case text == "the hook order should be maintained":
            let order = [
                "first.before", "second.before", "second.after", "first.after", "second.finally", "first.finally",
            ]
            #expect(optionTrace.values == order, "\(specCase): hook order")
        case text == "the original evaluation context should remain unmodified":
            #expect(original != nil && invocationContext == original, "\(specCase): the call's context is unchanged")
            #expect(root.evaluationContext == .empty, "\(specCase): the root's context is unchanged")
        case text == "the evaluation details should be immutable":
            // Details are a value: a caller changing its copy changes no later read's.
            guard var copy = details else {
                Issue.record("\(specCase): no details")
                return
            }
            let first = copy
            copy.value = "changed"
            copy.reason = .error
            evaluate()
            #expect(details == first && copy != first, "\(specCase): details are a value")
        default:
            Issue.record("\(specCase): unknown step '\(text)'")
        }
    }

    private func level(named name: String) -> Level? {
        let level = Level(rawValue: name)
        if level == nil { Issue.record("\(specCase): unknown level '\(name)'") }
        return level
    }

    private func checkHookDetails(stage: String, table: [[String]]) {
        #expect(stages.values.contains(stage), "\(specCase): the \(stage) stage ran")
        let recorded = stageDetails.values.filter { $0.stage == stage }
        #expect(recorded.count == 1, "\(specCase): the \(stage) stage was given details once")
        guard let details = recorded.first?.details else { return }
        #expect(table.first == ["data_type", "key", "value"], "\(specCase): details table header")
        for row in table.dropFirst() where row.count == 3 {
            let (type, name, text) = (row[0], row[1], row[2])
            let context = Comment(rawValue: "\(specCase): \(name) given to \(stage)")
            switch name {
            case "flag_key": #expect(details.key == text, context)
            case "value": #expect(details.value == GherkinFeature.value(text, ofType: type), context)
            case "variant": #expect(details.variant == Self.nullable(text), context)
            case "reason": #expect(details.reason.rawValue == text, context)
            case "error_code": #expect(details.errorCode?.rawValue == Self.nullable(text), context)
            default: Issue.record("\(specCase): unknown detail '\(name)'")
            }
        }
    }

    // MARK: Evaluation

    private func evaluationContext(_ level: Level) -> EvaluationContext {
        EvaluationContext(targetingKey: nil, attributes: levels[level] ?? [:])
    }

    /// Evaluates the flag through API → transaction → client → invocation, with the call's hooks.
    private mutating func evaluate() {
        guard let flag else {
            Issue.record("\(specCase): no flag to evaluate")
            return
        }
        if levels[.api] != nil { root.setEvaluationContext(evaluationContext(.api)) }
        let transaction = root.makeChild(label: "transaction", evaluationContext: evaluationContext(.transaction))
        var hooks = optionHooks
        if levels[.beforeHooks] != nil { hooks.append(ContextReturningHook(context: evaluationContext(.beforeHooks))) }
        let clientHook = clientHasHook ? StageRecordingHook(stages: stages, details: stageDetails) : nil
        let (client, invocation) = (evaluationContext(.client), evaluationContext(.invocation))
        let result = withAppContext(transaction) { () -> (ResolutionDetails<JSONValue>?, EvaluationContext) in
            let client = AppContext.current.makeChild(label: "client", evaluationContext: client)
            if let clientHook { client.addHook(clientHook) }
            let call = client.makeChild(label: "invocation", evaluationContext: invocation)
            return (Self.read(flag, from: call, hooks: hooks), call.evaluationContext)
        }
        (details, invocationContext) = result
        #expect(details != nil, "\(specCase): '\(flag.type)' is a type the suite reads")
    }

    private static func read(
        _ flag: (type: String, key: String, fallback: JSONValue), from context: AppContext,
        hooks: [any EvaluationHook]
    ) -> ResolutionDetails<JSONValue>? {
        switch flag.type.lowercased() {
        case "boolean": return read(Bool.self, flag, from: context, hooks: hooks)
        case "string": return read(String.self, flag, from: context, hooks: hooks)
        case "integer": return read(Int.self, flag, from: context, hooks: hooks)
        case "float": return read(Double.self, flag, from: context, hooks: hooks)
        // OpenFeature's structure: an object, so another type is a TYPE_MISMATCH.
        case "object": return read([String: JSONValue].self, flag, from: context, hooks: hooks)
        default: return nil
        }
    }

    private static func read<Value: FlagValueConvertible>(
        _: Value.Type, _ flag: (type: String, key: String, fallback: JSONValue), from context: AppContext,
        hooks: [any EvaluationHook]
    ) -> ResolutionDetails<JSONValue>? {
        guard let fallback = Value(flagValue: flag.fallback) else { return nil }
        let key = FlagKey(flag.key, default: fallback)
        return (hooks.isEmpty ? context.details(for: key) : context.details(for: key, hooks: hooks)).jsonView
    }

    // MARK: Values

    /// `null` in a step means no value.
    static func nullable(_ text: String) -> String? { text == "null" ? nil : text }

    /// The text between the quote after `marker` and the step's last quote: a value that may
    /// itself contain quotes.
    static func quotedTail(of text: String, after marker: String) -> String {
        guard let range = text.range(of: marker + "\""), text.hasSuffix("\"") else { return "" }
        return String(text[range.upperBound...].dropLast())
    }
}

// MARK: Hooks

/// The client's hook in `hooks.feature`: which stages ran, and the details each was given.
private struct StageRecordingHook: EvaluationHook {
    let stages: Recorder<String>
    let details: Recorder<OpenFeatureSpecRunner.StageDetails>

    func before(_ context: inout HookContext, hints: [String: JSONValue]) throws -> EvaluationContext? {
        stages.record("before")
        return nil
    }

    func after(_ context: inout HookContext, details: ResolutionDetails<JSONValue>, hints: [String: JSONValue]) {
        stages.record("after")
        self.details.record(.init(stage: "after", details: details))
    }

    func error(_ context: inout HookContext, error: any Error, hints: [String: JSONValue]) {
        stages.record("error")
    }

    func finally(_ context: inout HookContext, details: ResolutionDetails<JSONValue>, hints: [String: JSONValue]) {
        stages.record("finally")
        self.details.record(.init(stage: "finally", details: details))
    }
}

/// The provider that can tell the context it evaluated for: the merged context, after every
/// `before` stage, as `finally` sees it.
private struct ContextCapturingHook: EvaluationHook {
    let contexts: Recorder<EvaluationContext>

    func finally(_ context: inout HookContext, details: ResolutionDetails<JSONValue>, hints: [String: JSONValue]) {
        contexts.record(context.evaluationContext)
    }
}

/// The "Before Hooks" level: a hook whose `before` lays `context` over the evaluation's.
private struct ContextReturningHook: EvaluationHook {
    let context: EvaluationContext

    func before(_ context: inout HookContext, hints: [String: JSONValue]) throws -> EvaluationContext? {
        self.context
    }
}

/// An evaluation option's hook: writes `name.stage` for each stage it runs.
private struct TracingHook: EvaluationHook {
    let name: String
    let trace: Recorder<String>

    func before(_ context: inout HookContext, hints: [String: JSONValue]) throws -> EvaluationContext? {
        trace.record("\(name).before")
        return nil
    }

    func after(_ context: inout HookContext, details: ResolutionDetails<JSONValue>, hints: [String: JSONValue]) {
        trace.record("\(name).after")
    }

    func error(_ context: inout HookContext, error: any Error, hints: [String: JSONValue]) {
        trace.record("\(name).error")
    }

    func finally(_ context: inout HookContext, details: ResolutionDetails<JSONValue>, hints: [String: JSONValue]) {
        trace.record("\(name).finally")
    }
}
