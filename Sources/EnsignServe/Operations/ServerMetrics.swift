import Ensign
import EnsignOFREP
import EnsignSupport

/// What `/metrics` counts as requests are answered: requests by endpoint and status, and
/// evaluations by flag, variant and reason.
///
/// One lock for both, taken once per request (a bulk evaluation's flags are counted together).
/// Labels come from the server's own definitions, never from what a client sends: a request
/// for an undefined flag counts as a 404 of its endpoint, not as a flag, so no client can make
/// the set of series grow.
final class ServerMetrics: Sendable {
    /// The endpoint label of a request.
    enum Endpoint: String, Sendable, CaseIterable {
        case evaluateFlag = "evaluate_flag"
        case evaluateFlags = "evaluate_flags"
        case configuration
        case events
        case healthz
        case readyz
        case metrics
        case other

        /// The endpoint a path names, and the OFREP route it is (`.unknown` for the others).
        static func of(path: String, eventStreamPath: String?) -> (Endpoint, Route) {
            if path == eventStreamPath { return (.events, .unknown) }
            switch path {
            case "/healthz": return (.healthz, .unknown)
            case "/readyz": return (.readyz, .unknown)
            case "/metrics": return (.metrics, .unknown)
            default:
                let route = Route(path: path)
                switch route {
                case .single: return (.evaluateFlag, route)
                case .bulk: return (.evaluateFlags, route)
                case .configuration: return (.configuration, route)
                case .unknown: return (.other, route)
                }
            }
        }
    }

    struct RequestLabel: Hashable, Sendable {
        var endpoint: Endpoint
        var status: Int
    }

    struct EvaluationLabel: Hashable, Sendable {
        var flag: String
        var variant: String
        var reason: String

        /// The flag's name alone: a flag has a few variants and reasons, which equality tells
        /// apart, and hashing one string instead of three is counted on every evaluation.
        func hash(into hasher: inout Hasher) {
            hasher.combine(flag)
        }
    }

    struct Counts: Sendable {
        var requests: [RequestLabel: Int] = [:]
        var evaluations: [EvaluationLabel: Int] = [:]
    }

    private let counts = LockedState(Counts())

    /// Counts one request and the evaluations it made. The first evaluation comes apart from the
    /// others, so that a single evaluation's request needs no array.
    func record(_ endpoint: Endpoint, status: Int, first: EvaluationLabel? = nil, others: [EvaluationLabel] = []) {
        counts.withLock { counts in
            counts.requests[RequestLabel(endpoint: endpoint, status: status), default: 0] += 1
            if let first { counts.evaluations[first, default: 0] += 1 }
            for evaluation in others { counts.evaluations[evaluation, default: 0] += 1 }
        }
    }

    /// The label of an evaluation, or `nil` for a key no definition has (not counted by flag).
    static func label(for details: ResolutionDetails<JSONValue>) -> EvaluationLabel? {
        guard details.errorCode != .flagNotFound else { return nil }
        return EvaluationLabel(flag: details.key, variant: details.variant ?? "", reason: details.reason.rawValue)
    }

    /// Everything counted so far.
    var snapshot: Counts { counts.withLock { $0 } }
}
