extension AppContext {
    /// The keys of the flags in the flag set `id`, in the definitions' order: the flags whose
    /// `metadata` (their own, or their file's) has `flagSetId: id`, as flagd groups flags.
    ///
    /// A server with one team's flags per set serves each set apart (`ensign serve` by flagd's
    /// selector); an app reads the set it owns:
    ///
    /// ```swift
    /// for key in context.flagKeys(inSet: "payments") {
    ///     print(key, context.details(forKeyNamed: key).value)
    /// }
    /// ```
    ///
    /// In a prefix scope, only the set's keys under the prefix, relative to it.
    public func flagKeys(inSet id: String) -> [String] {
        definitions.orderedDefinitions.compactMap { definition in
            guard definition.kind == .flag, definition.flagSetID == id else { return nil }
            guard let keyPrefix else { return definition.key }
            return definition.key.hasPrefix(keyPrefix) ? String(definition.key.dropFirst(keyPrefix.count)) : nil
        }
    }

    /// Calls `handler` once per transaction that changes a flag of the flag set `id`, with
    /// those flags' changes only.
    ///
    /// Membership is read when the change is delivered, from the definitions the change left:
    /// a reload that moves a flag into the set reports it from then on. A transaction that
    /// changes none of the set's flags runs nothing and logs no run in the change log (`ensign log`).
    ///
    /// ```swift
    /// let token = context.observe(flagSet: "payments", label: "payments menu") { batch in
    ///     print("payments flags changed:", batch.keys)
    /// }
    /// ```
    public func observe(
        flagSet id: String, label: String? = nil, _ handler: @escaping @Sendable (ChangeBatch) -> Void
    ) -> ObservationToken {
        addBatchObserver(keys: nil, flagSet: id, label: label, handler)
    }
}
