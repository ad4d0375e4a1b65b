/// What a hook knows about the evaluation it runs around: the key, the type and default the
/// code asked with, the evaluation context, who evaluates, and the hook's own data.
///
/// Each hook gets its own copy for one evaluation and keeps it from `before` to `finally`:
/// what it puts in ``hookData`` in one stage it finds in the next, and no other hook sees it.
public struct HookContext: Sendable {
    /// The full key being read (`beneficiaries.pageSize`).
    public let flagKey: String
    /// The type the code reads the key as.
    public let valueType: FlagType
    /// The code default, which the read returns when the key has no usable value.
    public let defaultValue: JSONValue
    /// The merged evaluation context the key is evaluated for: the context's own, with what
    /// earlier `before` stages returned laid over it. Only a `before` stage can change it, by
    /// returning a context.
    public internal(set) var evaluationContext: EvaluationContext
    /// The label of the context read through (OpenFeature's client name): the root's label,
    /// or the child's.
    public let clientName: String
    /// The provider's name (OpenFeature's provider metadata): `Ensign`.
    public let providerName: String
    /// Whether the definition marks the value `secret: true`: a hook that exports or logs
    /// evaluations must leave the value out (the key and variant may go).
    public let isSecret: Bool
    /// This hook's data for this evaluation, shared between its stages (a span opened in
    /// `before` and ended in `finally`).
    public var hookData: [String: any Sendable] = [:]

    init(
        flagKey: String, valueType: FlagType, defaultValue: JSONValue, evaluationContext: EvaluationContext,
        clientName: String, isSecret: Bool
    ) {
        self.flagKey = flagKey
        self.valueType = valueType
        self.defaultValue = defaultValue
        self.evaluationContext = evaluationContext
        self.clientName = clientName
        self.providerName = HookContext.providerName
        self.isSecret = isSecret
    }

    static let providerName = "Ensign"
}

extension HookContext {
    /// The error a hook's `error` stage receives when the key resolved with an error code
    /// (`FLAG_NOT_FOUND`, `TYPE_MISMATCH`, …) rather than a throwing hook.
    public struct ResolutionFailure: Error, Sendable, Hashable, CustomStringConvertible {
        /// OpenFeature's code for the problem.
        public var code: ResolutionErrorCode
        /// A sentence about it.
        public var message: String?

        /// `TYPE_MISMATCH: 'a' is a string, but the code reads it as a bool`.
        public var description: String { message.map { "\(code): \($0)" } ?? code.description }
    }
}
