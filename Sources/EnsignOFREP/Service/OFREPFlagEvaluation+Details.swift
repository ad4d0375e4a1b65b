import Ensign

extension OFREPFlagEvaluation {
    /// A flag's details (``AppContext/details(forKeyNamed:)``, the same ones `ensign eval --json`
    /// prints) as OFREP carries them.
    ///
    /// An error code makes a failure (its message the `errorDetails`); otherwise a success,
    /// whose value is left out when the code default applies (`null` details value: no
    /// default variant, a disabled flag), as ADR 0006 defines.
    public init(details: ResolutionDetails<JSONValue>) {
        if let errorCode = details.errorCode {
            self = .failure(
                OFREPEvaluationFailure(
                    key: details.key, errorCode: OFREPErrorCode(rawValue: errorCode.rawValue),
                    errorDetails: details.errorMessage, metadata: details.metadata))
        } else {
            self = .success(
                OFREPEvaluationSuccess(
                    key: details.key, value: details.value.isNull ? nil : details.value,
                    reason: details.reason.rawValue, variant: details.variant, metadata: details.metadata))
        }
    }
}
