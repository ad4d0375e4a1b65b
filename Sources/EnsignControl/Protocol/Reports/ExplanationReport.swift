import Ensign

/// One layer's value for a key, in an ``ExplanationReport``.
public struct LayerReport: Codable, Sendable, Hashable {
    /// Where the value comes from.
    public var source: SourceReport
    /// The layer's value.
    public var value: JSONValue
    /// Whether this value is in force.
    public var isWinner: Bool
    /// Extra context: `targeting returned null: the files decide`, `variant on`, …
    public var note: String?

    enum CodingKeys: String, CodingKey {
        case source, value, note
        case isWinner = "winner"
    }

    /// Creates a report of `layer`.
    package init(_ layer: KeyExplanation.LayerValue) {
        source = SourceReport(layer.source)
        value = layer.value
        isWinner = layer.isWinner
        note = layer.note
    }
}

/// Why a key has its value: every layer that has one, lowest first, the winner marked, and
/// the transactions that last changed it. The result of `explain`.
public struct ExplanationReport: Codable, Sendable, Hashable {
    /// The full key.
    public var key: String
    /// `flag` or `preference`; absent when no definition has the key.
    public var kind: String?
    /// The key's type; absent when no definition has the key.
    public var type: String?
    /// The definition's description.
    public var description: String?
    /// Where the key is defined.
    public var definedAt: SourceReport?
    /// The value in force; absent when the code default applies.
    public var value: JSONValue?
    /// Why: `STATIC`, `OVERRIDE`, …
    public var reason: String
    /// What went wrong, if anything.
    public var errorCode: String?
    /// Every layer with a value, lowest first.
    public var layers: [LayerReport]
    /// The most recent transactions that changed the key, oldest first.
    public var recentChanges: [TransactionReport]

    /// Creates a report of `explanation`.
    package init(_ explanation: KeyExplanation) {
        key = explanation.key
        kind = explanation.definition?.kind.rawValue
        type = explanation.definition?.type.rawValue
        description = explanation.definition?.summary
        definedAt = explanation.definition.map {
            SourceReport(
                layer: ValueLayer.definition.wireName, file: $0.location.file,
                line: $0.location.isKnown ? $0.location.line : nil,
                column: $0.location.isKnown ? $0.location.column : nil)
        }
        value = explanation.value
        reason = explanation.reason.rawValue
        errorCode = explanation.errorCode?.rawValue
        layers = explanation.layers.map(LayerReport.init)
        recentChanges = explanation.recentChanges.map(TransactionReport.init)
    }
}
