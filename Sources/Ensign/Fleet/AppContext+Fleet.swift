/// The fleet layer's entry points below the public ``ValueProviderUpdates`` handle: providers
/// reach them through it; tests, the fuzz targets and the
/// stress probe of this package call them directly (`package`).
extension AppContext {
    /// Replaces the whole fleet layer with `values` (by full key) as one transaction.
    ///
    /// Each value is checked against its key's definition (type, `enum`, bounds): values that
    /// fit form the layer, with their ``ProvidedValue/origin`` as their provenance (reason
    /// `STATIC`, source `fleet etcd http://127.0.0.1:2379 rev 42`); a value that does not fit
    /// is left out and reported with its store path, while every other key keeps working.
    /// Observers run only for keys whose resolved value changed. The change log records the
    /// transaction with cause ``ChangeCause/fleet(source:)`` and any new problem.
    ///
    /// Calling it also marks the store reachable at `revision` in ``ContextStatus/fleet``.
    ///
    /// - Parameters:
    ///   - values: every key the store holds under the source's prefix, parsed.
    ///   - source: the source and the endpoint used: `etcd http://127.0.0.1:2379`.
    ///   - revision: the store revision the values reflect.
    ///   - problems: values the source could not parse (reported like refused values).
    /// - Returns: every problem in force: unparseable values, refused values (errors) and
    ///   values for undefined keys (warnings).
    @discardableResult
    package func replaceFleetLayer(
        _ values: [String: ProvidedValue], source: String, revision: Int64, problems: [Diagnostic] = []
    ) -> [Diagnostic] {
        rootStore.replaceFleetLayer(values, source: source, revision: revision, problems: problems)
    }

    /// Records that the source reaches its store again at `revision`, with nothing to change.
    package func reportFleetReachable(source: String, revision: Int64) {
        rootStore.recordFleetReachable(source: source, revision: revision)
    }

    /// Records that the source cannot reach its store: the status turns degraded (since the
    /// first failure) and the last good fleet layer stays in force. Logged once per outage.
    package func reportFleetUnreachable(source: String, error: String) {
        rootStore.recordFleetUnreachable(source: source, error: error)
    }
}

extension ContextStore {
    /// See ``AppContext/replaceFleetLayer(_:source:revision:problems:)``; a `nil` revision (a
    /// provider without revisions) names the source alone in the change log and keeps the
    /// status's revision.
    @discardableResult
    func replaceFleetLayer(
        _ values: [String: ProvidedValue], source: String, revision: Int64?, problems: [Diagnostic]
    ) -> [Diagnostic] {
        let current = inputs
        let layer = FleetLayer(values: values, sourceProblems: problems, layout: current.layout, reusing: current.fleet)
        let previous = current.fleet?.values ?? [:]
        let affected = Set(values.keys).union(previous.keys).filter { previous[$0] != values[$0] }
        let known = Set(current.fleet?.problems ?? [])
        let fresh = layer.problems.filter { !known.contains($0) }
        commit(
            cause: .fleet(source: Self.fleetCause(source, revision)), affecting: .some(Array(affected)),
            diagnostics: fresh
        ) {
            state in
            // A reload between reading the inputs and this commit brought other definitions.
            state.inputs.fleet =
                state.inputs.layout === current.layout ? layer : layer.rechecked(against: state.inputs.layout)
        }
        let (before, _) = updateFleetStatus(source: source) { status in
            status.source = source
            if let revision { status.revision = revision }
            status.isReachable = true
            status.lastError = nil
        }
        if let before, !before.isReachable { recordFleetReconnection(source: source, revision: revision) }
        return layer.problems
    }

    /// See ``AppContext/reportFleetReachable(source:revision:)``.
    func recordFleetReachable(source: String, revision: Int64?) {
        let (before, _) = updateFleetStatus(source: source) { status in
            status.source = source
            if let revision { status.revision = max(status.revision, revision) }
            status.isReachable = true
            status.lastError = nil
        }
        if let before, !before.isReachable { recordFleetReconnection(source: source, revision: revision) }
    }

    /// See ``AppContext/reportFleetUnreachable(source:error:)``.
    func recordFleetUnreachable(source: String, error: String) {
        let (before, after) = updateFleetStatus(source: source) { status in
            status.source = source
            status.isReachable = false
            status.lastError = error
        }
        guard before?.isReachable != false else { return }
        _ = changeLog.record(
            cause: .fleet(source: source), context: label, changes: [],
            diagnostics: after.problems.filter { $0.location.file == source })
    }

    private func recordFleetReconnection(source: String, revision: Int64?) {
        _ = changeLog.record(
            cause: .fleet(source: Self.fleetCause(source, revision)), context: label, changes: [],
            diagnostics: [Diagnostic(.note, at: .unknown(source), "the fleet store is reachable again")])
    }

    /// `etcd http://127.0.0.1:2379 rev 42`, or the source alone without a revision.
    private static func fleetCause(_ source: String, _ revision: Int64?) -> String {
        revision.map { "\(source) rev \($0)" } ?? source
    }
}

extension RootState {
    /// Applies `change` to the fleet status, then brings its diagnostics and `since` in step
    /// with the current fleet layer.
    mutating func updateFleet(_ change: (inout ContextStatus.FleetHealth) -> Void) {
        guard var status = fleet else { return }
        let wasDegraded = status.isDegraded
        change(&status)
        status.diagnostics = inputs.fleet?.problems ?? []
        if !status.isDegraded {
            status.since = nil
        } else if !wasDegraded || status.since == nil {
            status.since = .now()
        }
        fleet = status
    }
}
