/// One evaluation through hooks, in the order and with the failure rules of OpenFeature's
/// hooks (its specification's section 4): `before` in registration order, the rest reversed;
/// a throwing `before` or `after` gives the code default with `GENERAL`; what `error` and
/// `finally` throw is dropped.
struct HookRun {
    private var hooks: [any EvaluationHook]
    private let hints: [String: JSONValue]
    /// Each hook's context: its own ``HookContext/hookData`` for this evaluation.
    private var contexts: [HookContext]

    /// A run of `hooks` (in `before` order), each starting from `context`.
    init(hooks: [any EvaluationHook], hints: [String: JSONValue], context: HookContext) {
        self.hooks = hooks
        self.hints = hints
        self.contexts = Array(repeating: context, count: hooks.count)
    }

    /// Runs the stages around `resolve`, which evaluates the key for the evaluation context the
    /// `before` stages returned (`nil` when none returned one), and returns what the read returns.
    ///
    /// Exposure hooks (``EvaluationHook/runsForExposuresOnly``) skip `before`, and after the
    /// resolution stay in the run only when `isExposure` says the result is a new exposure.
    mutating func evaluate<Value>(
        defaultValue: Value, resolve: (EvaluationContext?) -> ResolutionDetails<Value>,
        isExposure: (ResolutionDetails<Value>, EvaluationContext) -> Bool
    ) -> ResolutionDetails<Value> {
        guard let first = contexts.first else { return resolve(nil) }
        var merged = first.evaluationContext
        var changed = false
        for index in hooks.indices where !hooks[index].runsForExposuresOnly {
            contexts[index].evaluationContext = merged
            do {
                if let returned = try hooks[index].before(&contexts[index], hints: hints) {
                    merged = returned.merged(over: merged)
                    changed = true
                }
            } catch {
                let hook = hooks[index]
                return fail(defaultValue, stage: "before", hook: hook, error: error, isExposure: isExposure)
            }
        }
        for index in contexts.indices { contexts[index].evaluationContext = merged }
        let details = resolve(changed ? merged : nil)
        dropExposureHooks(unless: details, isExposure: isExposure)
        let view = details.jsonView
        if let code = details.errorCode {
            runErrorStage(HookContext.ResolutionFailure(code: code, message: details.errorMessage))
            return finish(details, view: view)
        }
        for index in hooks.indices.reversed() {
            do {
                try hooks[index].after(&contexts[index], details: view, hints: hints)
            } catch {
                // The exposure hooks still here were kept for this result: it is an exposure.
                return fail(defaultValue, stage: "after", hook: hooks[index], error: error) { _, _ in true }
            }
        }
        return finish(details, view: view)
    }

    /// Leaves the exposure hooks out of the stages still to run unless `details` is a new exposure.
    private mutating func dropExposureHooks<Value>(
        unless details: ResolutionDetails<Value>, isExposure: (ResolutionDetails<Value>, EvaluationContext) -> Bool
    ) {
        guard hooks.contains(where: { $0.runsForExposuresOnly }), !isExposure(details, contexts[0].evaluationContext)
        else { return }
        let kept = hooks.indices.filter { !hooks[$0].runsForExposuresOnly }
        hooks = kept.map { hooks[$0] }
        contexts = kept.map { contexts[$0] }
    }

    /// The code default with `GENERAL`, after a stage threw: every hook's `error`, then
    /// `finally` (the exposure hooks' when `isExposure` says the result is a new exposure).
    private mutating func fail<Value>(
        _ defaultValue: Value, stage: String, hook: any EvaluationHook, error: any Error,
        isExposure: (ResolutionDetails<Value>, EvaluationContext) -> Bool
    ) -> ResolutionDetails<Value> {
        let key = contexts[0].flagKey
        let details = ResolutionDetails(
            key: key, value: defaultValue, variant: nil, reason: .error, errorCode: .general,
            errorMessage: "the \(stage) stage of \(type(of: hook)) failed for '\(key)': \(error)", metadata: [:],
            source: .codeDefault)
        dropExposureHooks(unless: details, isExposure: isExposure)
        runErrorStage(error)
        return finish(details)
    }

    private mutating func runErrorStage(_ error: any Error) {
        for index in hooks.indices.reversed() {
            _ = try? hooks[index].error(&contexts[index], error: error, hints: hints)
        }
    }

    /// Runs every `finally` with `view`, the JSON view of `details` (made when not given).
    private mutating func finish<Value>(
        _ details: ResolutionDetails<Value>, view: ResolutionDetails<JSONValue>? = nil
    ) -> ResolutionDetails<Value> {
        let view = view ?? details.jsonView
        for index in hooks.indices.reversed() {
            _ = try? hooks[index].finally(&contexts[index], details: view, hints: hints)
        }
        return details
    }
}

extension ResolutionDetails {
    /// The details with the value as JSON, as hooks see them.
    var jsonView: ResolutionDetails<JSONValue> {
        ResolutionDetails<JSONValue>(
            key: key, value: value.flagValue, variant: variant, reason: reason, errorCode: errorCode,
            errorMessage: errorMessage, metadata: metadata, source: source)
    }
}
