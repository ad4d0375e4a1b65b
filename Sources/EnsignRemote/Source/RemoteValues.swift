import Ensign
import EnsignOFREP

/// Turns a bulk evaluation into the fleet layer's values: each flag's value by its key (the
/// app's full key), a flag the server evaluated to its code default left out (the lower layers
/// decide it, as ADR 0006 means), and a flag whose evaluation failed reported for that key
/// alone while every other key keeps working.
package enum RemoteValues {
    /// The values and problems of `response`, with `origin` as each value's provenance
    /// (`ofrep http://127.0.0.1:8016`, followed by the variant when the server names one).
    package static func provided(from response: OFREPBulkEvaluationResponse, origin: String) -> ProvidedValues {
        var values: [String: ProvidedValue] = [:]
        var problems: [Diagnostic] = []
        for flag in response.flags {
            let path = "ofrep:" + flag.key
            switch flag {
            case .success(let success):
                guard let value = success.value else { continue }
                let source = success.variant.map { "\(origin) variant \($0)" } ?? origin
                values[success.key] = ProvidedValue(value, origin: source, path: path)
            case .failure(let failure):
                let details = failure.errorDetails.map { " (\($0))" } ?? ""
                problems.append(
                    Diagnostic(
                        .error, at: .unknown(path), key: failure.key,
                        "'\(failure.key)' could not be evaluated by the server: \(failure.errorCode)\(details); the"
                            + " lower layers decide the key until it evaluates"))
            }
        }
        problems.sort { $0.location < $1.location }
        return ProvidedValues(values: values, diagnostics: problems)
    }
}
