/// Code that runs around every evaluation of a key: before it, after it, when it fails, and
/// in all cases at the end, as OpenFeature's hooks do.
///
/// Register a hook on a root context to run it for every read in the app (OpenFeature's API
/// level), on a child context for reads through that child (the client level), or pass it to
/// one call (the invocation level):
///
/// ```swift
/// struct AuditHook: EvaluationHook {
///     func after(_ context: inout HookContext, details: ResolutionDetails<JSONValue>, hints: [String: JSONValue]) {
///         print("\(context.flagKey) = \(details.value) (\(details.reason))")
///     }
/// }
/// let context = try AppContext(configuration: .init(definitionsDirectory: "flags", environment: "production"))
/// context.addHook(AuditHook())
/// ```
///
/// `before` runs from the root to the context read through, then the call's own hooks, each
/// in the order they were added; `after`, `error` and `finally` run in the reverse order. A
/// hook implements only the stages it needs: the others do nothing.
///
/// An evaluation never throws. A `before` that throws makes the read give the code default
/// with `GENERAL`, runs every hook's `error` and `finally`, and skips the hooks after it; an
/// `after` that throws does the same for the value it would have returned. What `error` and
/// `finally` throw is dropped. Hooks run on the reading thread, synchronously: keep them short
/// and hand anything slow (export, I/O) to another thread.
///
/// A hook that reports exposures rather than reads returns `true` from
/// ``runsForExposuresOnly``: it then runs for the first evaluation of each (key, variant,
/// targeting key) in the context tree, and a read of a result already exposed costs about
/// twice a read without hooks. ``track(_:)`` receives the outcomes the app records with
/// ``AppContext/track(_:value:attributes:)``.
public protocol EvaluationHook: Sendable {
    /// Whether the hook runs only for exposures: the first evaluation of each (key, variant,
    /// targeting key) in the context tree, through whichever context of the tree reads it
    /// (for a key without variants, its value stands for the variant).
    /// Its `before` stage never runs (the variant is known only once the key is resolved);
    /// `after` or `error`, then `finally`, run for that first evaluation. `false` by default.
    ///
    /// The tree remembers up to 100,000 exposures and then starts again, so a result may be
    /// reported twice in a long-lived server; ``AppContext/resetExposures()`` starts again at once.
    var runsForExposuresOnly: Bool { get }

    /// Runs before the key is resolved. Return an evaluation context to lay over the read's
    /// (its attributes win, key by key), or `nil` to leave it; later hooks see the result.
    func before(_ context: inout HookContext, hints: [String: JSONValue]) throws -> EvaluationContext?

    /// Runs after a resolution without an error, with the details the read returns.
    func after(_ context: inout HookContext, details: ResolutionDetails<JSONValue>, hints: [String: JSONValue]) throws

    /// Runs when resolution gave an error code, or a `before` or `after` threw: `error` is a
    /// ``HookContext/ResolutionFailure`` for the former and what the hook threw for the latter.
    func error(_ context: inout HookContext, error: any Error, hints: [String: JSONValue]) throws

    /// Runs last, always, with the details the read returns.
    func finally(_ context: inout HookContext, details: ResolutionDetails<JSONValue>, hints: [String: JSONValue]) throws

    /// Receives an outcome the app tracked (``AppContext/track(_:value:attributes:)``) through
    /// a context this hook runs for, on the thread that called `track`.
    func track(_ event: AppContext.TrackingEvent)
}

extension EvaluationHook {
    /// Every evaluation.
    public var runsForExposuresOnly: Bool { false }

    /// Does nothing.
    public func track(_ event: AppContext.TrackingEvent) {}

    /// Leaves the evaluation context as it is.
    public func before(_ context: inout HookContext, hints: [String: JSONValue]) throws -> EvaluationContext? { nil }

    /// Does nothing.
    public func after(_ context: inout HookContext, details: ResolutionDetails<JSONValue>, hints: [String: JSONValue])
        throws
    {}

    /// Does nothing.
    public func error(_ context: inout HookContext, error: any Error, hints: [String: JSONValue]) throws {}

    /// Does nothing.
    public func finally(_ context: inout HookContext, details: ResolutionDetails<JSONValue>, hints: [String: JSONValue])
        throws
    {}
}
