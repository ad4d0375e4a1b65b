/// Every layer that has a value for a key, lowest first, with the winner marked: the answer
/// to "why does this key have this value?" (`ensign explain`).
///
/// ```swift
/// let explanation = context.explain(keyNamed: "beneficiaries.pageSize")
/// for layer in explanation.layers {
///     print(layer.isWinner ? "→" : " ", layer.source, layer.value.jsonText)
/// }
/// ```
package struct KeyExplanation: Sendable {
    /// One layer's value for the key.
    package struct LayerValue: Sendable, Hashable {
        /// Where the value comes from (layer, file position, who set it and when).
        package var source: ValueSource
        /// The value this layer has.
        package var value: JSONValue
        /// Whether this is the value in force.
        package var isWinner: Bool
        /// Extra context: "targeting returned null", "variant on", …
        package var note: String?
    }

    /// The full key.
    package var key: String
    /// Its definition, when it has one.
    package var definition: FlagDefinition?
    /// The value in force (`nil`: the code default).
    package var value: JSONValue?
    /// Why.
    package var reason: ResolutionReason
    /// What went wrong, if anything.
    package var errorCode: ResolutionErrorCode?
    /// Every layer with a value, lowest first.
    package var layers: [LayerValue]
    /// The most recent transactions that changed the key, oldest first.
    package var recentChanges: [ContextTransaction]
}

extension ContextSnapshot {
    /// The explanation of a full key in this snapshot.
    func explanation(of key: String, changeLog: [ContextTransaction]) -> KeyExplanation {
        let entry = entry(named: key)
        let recent = changeLog.filter { $0.changes.contains { $0.key == key } }.suffix(5)
        guard let definition = definition(forKeyNamed: key) else {
            return KeyExplanation(
                key: key, definition: nil, value: nil, reason: entry.reason, errorCode: entry.errorCode, layers: [],
                recentChanges: Array(recent))
        }
        var layers: [KeyExplanation.LayerValue] = []
        func add(
            _ layer: ValueLayer, _ value: JSONValue, location: SourcePosition?, actor: String? = nil,
            time: WallClockTime? = nil, note: String? = nil
        ) {
            let source = ValueSource(layer: layer, location: location, actor: actor, time: time)
            layers.append(KeyExplanation.LayerValue(source: source, value: value, isWinner: false, note: note))
        }
        if let value = definition.defaultValue {
            add(
                .definition, value.value, location: value.location,
                note: definition.defaultVariant.map { "variant \($0)" })
        }
        if let value = definition.environmentValues[inputs.environment] {
            add(.environment, value.value, location: value.location, note: "inline, environment \(inputs.environment)")
        }
        if let value = inputs.environmentOverlay?.value(for: key, kind: definition.kind) {
            add(.environment, value.value, location: value.location)
        }
        for overlay in inputs.deploymentOverlays {
            if let value = overlay.value(for: key, kind: definition.kind) {
                add(.deployment, value.value, location: value.location)
            }
        }
        if let value = inputs.fleetOverlay?.value(for: key, kind: definition.kind) {
            add(.fleet, value.value, location: value.location)
        }
        if let rule = definition.compiledTargeting {
            switch rule.result(context: evaluationContext, flagKey: key) {
            case .success(let result):
                let note =
                    result.isNull
                    ? "targeting returned null: the files decide" : "targeting returned \(result.jsonText)"
                add(.targeting, result, location: definition.targetingLocation, note: note)
            case .failure(let error):
                add(
                    .targeting, .null, location: definition.targetingLocation,
                    note: "targeting failed (PARSE_ERROR): \(error.message)")
            }
        }
        if let value = inputs.preferences[key] {
            add(.preference, value.value, location: value.location, actor: value.actor, time: value.time)
        }
        if let value = inputs.overrides[key] {
            add(.override, value.value, location: value.location, actor: value.actor, time: value.time)
        }
        if let value = scopeOverrides[key] {
            add(.scopeOverride, value.value, location: nil, actor: value.actor, time: value.time)
        }
        // The winner is the last layer matching the entry's source (a null targeting result never wins).
        if let index = layers.lastIndex(where: {
            $0.source.layer == entry.source.layer && $0.source.location == entry.source.location
                && !($0.source.layer == .targeting && $0.value.isNull)
        }) {
            layers[index].isWinner = true
        }
        return KeyExplanation(
            key: key, definition: definition, value: entry.value, reason: entry.reason, errorCode: entry.errorCode,
            layers: layers, recentChanges: Array(recent))
    }
}

extension AppContext {
    /// Every layer's value for a key given by name (relative to this context's scope), the
    /// winner marked, and the key's recent changes.
    package func explain(keyNamed name: String) -> KeyExplanation {
        store.snapshot().explanation(of: fullName(name), changeLog: store.changeLog.transactions)
    }
}
