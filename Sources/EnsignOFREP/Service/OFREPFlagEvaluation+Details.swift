import Ensign

extension OFREPFlagEvaluation {
    /// A flag's details (``AppContext/details(forKeyNamed:)``, the same ones `ensign eval --json`
    /// prints) as OFREP carries them.
    ///
    /// An error code makes a failure (its message the `errorDetails`, always present, as
    /// clients read it unconditionally); otherwise a success, whose value is left out when the
    /// code default applies (`null` details value: no default variant, a disabled flag), as
    /// ADR 0006 defines.
    ///
    /// Ensign's own reasons, `OVERRIDE` and `PREFERENCE`, are not OpenFeature's, and clients
    /// with a closed set of reasons (the Python provider) fail on them: they go out as
    /// `STATIC` (one value for every context, which an override is), with Ensign's reason in
    /// the metadata as `ensignReason`.
    ///
    /// With `writesNullVariant`, a success without a variant says `"variant": null` (see
    /// ``OFREPEvaluationSuccess/writesNullVariant``).
    public init(details: ResolutionDetails<JSONValue>, writesNullVariant: Bool = false) {
        if let errorCode = details.errorCode {
            self = .failure(
                OFREPEvaluationFailure(
                    key: details.key, errorCode: OFREPErrorCode(rawValue: errorCode.rawValue),
                    errorDetails: details.errorMessage ?? "'\(details.key)': \(errorCode.rawValue)",
                    metadata: details.metadata))
            return
        }
        var reason = details.reason.rawValue
        var metadata = details.metadata
        switch details.reason {
        case .override, .preference:
            metadata["ensignReason"] = .string(reason)
            reason = ResolutionReason.staticValue.rawValue
        default: break
        }
        self = .success(
            OFREPEvaluationSuccess(
                key: details.key, value: details.value.isNull ? nil : details.value, reason: reason,
                variant: details.variant, metadata: metadata, writesNullVariant: writesNullVariant))
    }
}
