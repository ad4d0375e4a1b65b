extension AppContext {
    /// A view of this context in which keys are relative to `prefix`.
    ///
    /// A module that owns the `beneficiaries.*` keys declares them with short names and reads
    /// them through its scope; everything else (values, observers, overrides) is shared with
    /// this context.
    ///
    /// ```swift
    /// let showPendingList = FlagKey("showPendingList", default: false)
    /// let beneficiaries = context.scope("beneficiaries")
    /// let isShown = beneficiaries[showPendingList]  // reads beneficiaries.showPendingList
    /// ```
    public func scope(_ prefix: String) -> AppContext {
        let trimmed = prefix.hasSuffix(".") ? String(prefix.dropLast()) : prefix
        return AppContext(store: store, keyPrefix: fullName(trimmed) + ".")
    }

    /// A child context with its own overrides that inherits everything else, live, from
    /// this one, the way `.environment(\.key, value)` overrides a value for a SwiftUI subtree.
    ///
    /// Writes of overrides to the child stay in the child (layer 8, scope overrides), and so
    /// does its evaluation context (merged over the parent's); preference writes go to the
    /// root. The child's observers fire when a change in the parent reaches them, and not when
    /// the child's own override masks it.
    ///
    /// ```swift
    /// let preview = try context.makeChild(label: "preview") { child in
    ///     try child.setOverride(.showPendingList, to: true)
    /// }
    /// ```
    public func makeChild(label: String, configure: (AppContext) throws -> Void) rethrows -> AppContext {
        let child = makeChild(label: label)
        try configure(child)
        return child
    }

    /// A child context with no overrides yet; see ``makeChild(label:configure:)``.
    public func makeChild(label: String) -> AppContext {
        AppContext(store: ContextStore(label: label, parent: store), keyPrefix: keyPrefix)
    }

    /// A child context for one request or one user: its targeted keys are evaluated for
    /// `evaluationContext` merged over this context's, key by key (the more specific wins).
    ///
    /// Made for a server's request path: making the child evaluates nothing, and each
    /// targeted key is evaluated once, on its first read. The parent and every other child
    /// keep their own evaluation contexts. Release the child when the request ends.
    ///
    /// ```swift
    /// let request = context.makeChild(
    ///     label: "request", evaluationContext: EvaluationContext(targetingKey: "user-42", attributes: ["plan": "pro"]))
    /// if request[.showPendingList] { showPending() }
    /// ```
    public func makeChild(label: String, evaluationContext: EvaluationContext) -> AppContext {
        let own = ChildLayers(evaluationContext: evaluationContext == .empty ? nil : evaluationContext)
        return AppContext(store: ContextStore(label: label, parent: store, own: own), keyPrefix: keyPrefix)
    }
}
