extension ContextStatus {
    /// The health of a context's fleet layer: whether its source reaches the store, the revision
    /// the layer reflects, and the values it refused.
    ///
    /// ```swift
    /// if let fleet = context.status.fleet, fleet.isDegraded {
    ///     print("fleet degraded since \(fleet.since!): \(fleet.lastError ?? "invalid values")")
    /// }
    /// ```
    public struct FleetHealth: Sendable, Hashable {
        /// The source: `etcd http://127.0.0.1:2379` (the endpoint last used).
        public var source: String
        /// The store revision the fleet layer reflects (0 before the first read).
        public var revision: Int64
        /// Whether the source currently reaches its store. While it does not, the last good fleet
        /// layer stays in force.
        public var isReachable: Bool
        /// Why the store is unreachable, while it is.
        public var lastError: String?
        /// Values refused by their definitions (errors) or set for undefined keys (warnings),
        /// each with the store path of the value (`etcd:/myapp/flags/list.pageSize`).
        public var diagnostics: [Diagnostic]
        /// When the layer became degraded (`nil` while it is not).
        public var since: WallClockTime?

        /// Creates a status.
        public init(
            source: String, revision: Int64, isReachable: Bool, lastError: String? = nil,
            diagnostics: [Diagnostic] = [],
            since: WallClockTime? = nil
        ) {
            self.source = source
            self.revision = revision
            self.isReachable = isReachable
            self.lastError = lastError
            self.diagnostics = diagnostics
            self.since = since
        }

        /// Whether the store is unreachable or a value was refused.
        public var isDegraded: Bool { !isReachable || diagnostics.containsErrors }

        /// The problems to show in ``ContextStatus/diagnostics``: being unreachable, and refused values.
        var problems: [Diagnostic] {
            var problems = diagnostics.filter(\.isError)
            if !isReachable {
                let when = since.map { " since \($0)" } ?? ""
                problems.insert(
                    Diagnostic(
                        .error, at: .unknown(source),
                        "the fleet store is unreachable\(when) (\(lastError ?? "no answer")); the last good fleet layer"
                            + " (rev \(revision)) stays in force"),
                    at: 0)
            }
            return problems
        }
    }
}

extension ContextStatus {
    /// This status with the fleet layer's health folded in.
    func including(_ fleet: FleetHealth?) -> ContextStatus {
        guard let fleet else { return self }
        var status = self
        status.fleet = fleet
        guard fleet.isDegraded else { return status }
        status.isDegraded = true
        status.diagnostics += fleet.problems
        status.since = [since, fleet.since].compactMap { $0 }.min()
        return status
    }
}
