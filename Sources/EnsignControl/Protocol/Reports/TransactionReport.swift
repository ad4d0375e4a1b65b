import Ensign

/// What caused a transaction, on the wire.
///
/// `{"kind": "override", "actor": "cli", "description": "override by cli"}`
public struct CauseReport: Codable, Sendable, Hashable, CustomStringConvertible {
    /// `load`, `reload`, `failedReload`, `override`, `preference`, `evaluationContext`, `scope`,
    /// `batch` or `fleet`.
    public var kind: String
    /// Who wrote, for overrides and preferences.
    public var actor: String?
    /// The files, for reloads.
    public var files: [String]?
    /// The scope's or batch's label, or the fleet source.
    public var label: String?
    /// A short phrase: `override by cli`, `reload of flags/app.yaml`.
    public var description: String

    /// Creates a report of `cause`.
    public init(_ cause: ChangeCause) {
        description = cause.description
        switch cause {
        case .load: kind = "load"
        case .reload(let files): (kind, self.files) = ("reload", files)
        case .failedReload(let files): (kind, self.files) = ("failedReload", files)
        case .override(let actor): (kind, self.actor) = ("override", actor)
        case .preference(let actor): (kind, self.actor) = ("preference", actor)
        case .evaluationContext: kind = "evaluationContext"
        case .scope(let label): (kind, self.label) = ("scope", label)
        case .batch(let label): (kind, self.label) = ("batch", label)
        case .fleet(let source): (kind, self.label) = ("fleet", source)
        }
    }
}

/// One key's change in a transaction, on the wire: `{"key": …, "old": 20, "new": 50, "source": …}`.
///
/// An absent `old` or `new` means the code default applied.
public struct ChangeReport: Codable, Sendable, Hashable {
    /// The full key.
    public var key: String
    /// The value before; `nil` when the code default applied.
    public var oldValue: JSONValue?
    /// The value after; `nil` when the code default applies.
    public var newValue: JSONValue?
    /// Where the new value comes from.
    public var source: SourceReport

    enum CodingKeys: String, CodingKey {
        case key, source
        case oldValue = "old"
        case newValue = "new"
    }

    /// Creates a report of `change`.
    public init(_ change: ChangeBatch.Change) {
        key = change.key
        oldValue = change.oldValue
        newValue = change.newValue
        source = SourceReport(change.source)
    }
}

/// One observer's run during a transaction, on the wire.
public struct ObserverRunReport: Codable, Sendable, Hashable {
    /// The observer's label.
    public var label: String
    /// The keys it was told about.
    public var keys: [String]
    /// How long it ran, in microseconds.
    public var microseconds: Double
    /// Whether it ran longer than the app's slow-observer threshold.
    public var isSlow: Bool

    enum CodingKeys: String, CodingKey {
        case label, keys, microseconds
        case isSlow = "slow"
    }

    /// Creates a report of `run`.
    package init(_ run: ContextTransaction.ObserverRun) {
        label = run.label
        keys = run.keys
        let (seconds, attoseconds) = run.duration.components
        microseconds = Double(seconds) * 1e6 + Double(attoseconds) / 1e12
        isSlow = run.isSlow
    }
}

/// One transaction of the app's change log: the result rows of `log`, and the recent
/// changes in `explain`.
public struct TransactionReport: Codable, Sendable, Hashable, Identifiable {
    /// Increases with each transaction.
    public var id: UInt64
    /// When it was committed, ISO 8601 in UTC.
    public var time: String
    /// What caused it.
    public var cause: CauseReport
    /// The label of the context it was committed in.
    public var context: String
    /// The keys whose values changed.
    public var changes: [ChangeReport]
    /// The observers that ran, in order, with their durations.
    public var observers: [ObserverRunReport]
    /// Problems reported with it (a failed reload's diagnostics), one per line.
    public var diagnostics: [String]

    /// Creates a report of `transaction`.
    package init(_ transaction: ContextTransaction) {
        id = transaction.id
        time = transaction.time.description
        cause = CauseReport(transaction.cause)
        context = transaction.context
        changes = transaction.changes.map(ChangeReport.init)
        observers = transaction.observerRuns.map(ObserverRunReport.init)
        diagnostics = transaction.diagnostics.map(\.description)
    }
}

/// A watch event: keys that changed in one transaction (only those the watch asked for).
public struct ChangeEventReport: Codable, Sendable, Hashable {
    /// The transaction's identifier in the change log (`ensign log`).
    public var transaction: UInt64
    /// When the server saw the change, ISO 8601 in UTC.
    public var time: String
    /// What caused it.
    public var cause: CauseReport
    /// The changes.
    public var changes: [ChangeReport]

    /// Creates a report of `batch`, seen at `time`.
    public init(_ batch: ChangeBatch, time: WallClockTime) {
        transaction = batch.transaction
        self.time = time.description
        cause = CauseReport(batch.cause)
        changes = batch.changes.map(ChangeReport.init)
    }
}
