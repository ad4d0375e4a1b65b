/// The changes of one transaction, as delivered to observers of several keys or of all keys.
///
/// ```swift
/// let token = context.observeAll(label: "analytics") { batch in
///     for change in batch.changes { print(change.key, change.oldValue ?? "default", "→", change.newValue ?? "default") }
/// }
/// ```
public struct ChangeBatch: Sendable, Hashable {
    /// What caused the transaction.
    public var cause: ChangeCause
    /// The keys whose values changed, with old and new values (only those the observer asked for).
    public var changes: [Change]
    /// The transaction's identifier in the change log.
    public var transaction: UInt64

    /// The full keys that changed.
    public var keys: [String] { changes.map(\.key) }
}

extension ChangeBatch {
    /// One key's change in a transaction.
    public struct Change: Sendable, Hashable {
        /// The full key.
        public var key: String
        /// The value before (`nil`: the code default applied).
        public var oldValue: JSONValue?
        /// The value after (`nil`: the code default applies).
        public var newValue: JSONValue?
        /// Where the new value comes from.
        public var source: ValueSource
    }
}
