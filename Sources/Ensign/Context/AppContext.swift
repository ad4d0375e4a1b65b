import Observation

/// An app's flags and preferences for one environment, resolved through every layer, read
/// through typed keys, and observed per key.
///
/// Build one root context when the app starts, inject it into modules (or scope it to each
/// module), and read values through a subscript:
///
/// ```swift
/// let context = try AppContext(configuration: .init(definitionsDirectory: "flags", environment: "staging"))
/// if context[.showPendingList] { showPending() }  // FlagKey("beneficiaries.showPendingList", default: false)
///
/// // A module reads its own keys by their short names through a scope:
/// let beneficiaries = context.scope("beneficiaries")
/// let pageSize = beneficiaries[FlagKey("pageSize", default: 20)]  // beneficiaries.pageSize
/// ```
///
/// Each key resolves through these layers, lowest first: the code default in the typed key,
/// the definition's default, the environment's value, deployment files, the fleet layer,
/// targeting rules, the user's preference (preferences only), runtime overrides, and a child
/// context's scope overrides. `details(for:)` tells which layer won and why.
///
/// Reads never throw and never block on writers: a read takes the current immutable
/// snapshot and indexes into it. Writes (overrides, preferences, evaluation context,
/// reloads) build the next snapshot, swap it in, and then notify exactly the observers
/// whose values changed.
public final class AppContext: Sendable {
    let store: ContextStore
    /// For a prefix scope: the prefix with its trailing dot (`payments.`).
    let keyPrefix: String?
    let scopedKeys: ScopedKeyTable?
    /// The tree's switch: on while any hook is registered, and then reads run hooks.
    @usableFromInline let hookSwitch: HookSwitch

    init(store: ContextStore, keyPrefix: String?) {
        self.store = store
        self.hookSwitch = store.tree.hookSwitch
        self.keyPrefix = keyPrefix
        self.scopedKeys = keyPrefix.map { ScopedKeyTable(prefix: $0) }
    }

    /// The identity to read `identity`'s key with: itself, or its prefixed twin in a scope.
    @inline(__always)
    func resolvedIdentity(_ identity: KeyIdentity) -> KeyIdentity {
        guard let scopedKeys else { return identity }
        return scopedKeys.identity(for: identity)
    }

    /// The full key name for a name as this context sees it.
    func fullName(_ name: String) -> String {
        guard let keyPrefix else { return name }
        return keyPrefix + name
    }

    // MARK: Reading

    /// The value of a flag or preference: its resolved value, or its code default when no
    /// layer has one, the key is not defined, or the value has another type.
    @inlinable
    public subscript<Value, Kind>(key: ContextKey<Value, Kind>) -> Value {
        if _slowPath(hookSwitch.isOn) {
            guard let exposed = alreadyExposedValue(key.identity) else { return details(for: key).value }
            return exposed.flatMap(Value.init(flagValue:)) ?? key.defaultValue
        }
        guard let value = resolvedValue(key.identity) else { return key.defaultValue }
        return Value(flagValue: value) ?? key.defaultValue
    }

    /// The resolved value of a key, read from the current snapshot (and tracked by
    /// Observation); `nil` when the code default applies.
    ///
    /// The read path's non-generic core: the generic subscripts are inlined into their callers,
    /// where the value type is known, so a read looks up no type metadata at run time.
    @usableFromInline
    func resolvedValue(_ identity: KeyIdentity) -> JSONValue? {
        // A branch rather than a mapped identity, so an unscoped read takes no extra reference.
        if let scopedKeys { return read(scopedKeys.identity(for: identity)) }
        return read(identity)
    }

    @inline(__always)
    private func read(_ identity: KeyIdentity) -> JSONValue? {
        if store.settings.isUnconfigured { Self.warnUnconfiguredRead(of: identity.name) }
        store.trackAccess(self, keyPath: identity.observationKeyPath)
        // Inside the borrow: a slot index and a copy of the value, no lock taken.
        return store.withSnapshot { $0.entryValue(identity: identity) }
    }

    /// The current snapshot: read several keys from it to get values that belong together.
    /// Taken through a prefix scope, it reads keys relative to the prefix too.
    ///
    /// Reads through it are tracked by Observation per key, like the context's subscripts: a
    /// view that reads `snapshot[.pageSize]` is invalidated when `pageSize` changes, and not
    /// when another key does. Each access makes a small object; take it once per render.
    public var snapshot: ContextSnapshot {
        store.snapshot().viewed(scopedBy: scopedKeys, trackedBy: self)
    }

    /// The current snapshot, without Observation tracking: for code outside any view that
    /// reads many values in a loop (a read is then an index and nothing more), and for
    /// code that must not make a view depend on what it reads.
    public var untrackedSnapshot: ContextSnapshot {
        guard let scopedKeys else { return store.snapshot() }
        return store.snapshot().viewed(scopedBy: scopedKeys, trackedBy: nil)
    }

    /// The value, variant, reason, error, metadata and source of a flag's or preference's
    /// current value.
    ///
    /// ```swift
    /// let details = context.details(for: .pageSize)
    /// print(details.value, details.reason, details.source)  // 50 STATIC environment flags/environments/development.yaml:3:27
    /// ```
    @_specialize(where Value == Bool, Kind == FlagKeyKind)
    @_specialize(where Value == Int, Kind == FlagKeyKind)
    @_specialize(where Value == Double, Kind == FlagKeyKind)
    @_specialize(where Value == String, Kind == FlagKeyKind)
    @_specialize(where Value == Bool, Kind == PreferenceKeyKind)
    @_specialize(where Value == String, Kind == PreferenceKeyKind)
    public func details<Value, Kind>(for key: ContextKey<Value, Kind>) -> ResolutionDetails<Value> {
        // Specialised above for the common value types: a read through hooks comes here from
        // the inlined subscript with only type metadata, and generic code would look that up
        // at every step of the hooks' run (about a third of a hooked read's time, measured).
        if hookSwitch.isOn { return details(for: key, hooks: [], hints: [:]) }
        return resolvedDetails(for: key, in: store.snapshot(), evaluatedFor: nil)
    }

    /// A key's details in `snapshot` without hooks: for this context's evaluation context, or
    /// for `merged` (this context's with what `before` hooks returned laid over it).
    func resolvedDetails<Value, Kind>(
        for key: ContextKey<Value, Kind>, in snapshot: ContextSnapshot, evaluatedFor merged: EvaluationContext?
    ) -> ResolutionDetails<Value> {
        let name = fullName(key.name)
        store.registrar.access(self, keyPath: resolvedIdentity(key.identity).observationKeyPath)
        return ResolutionDetails(
            key: name, entry: entry(named: name, relativeName: key.name, in: snapshot, evaluatedFor: merged),
            definition: snapshot.definition(forKeyNamed: name), defaultValue: key.defaultValue)
    }

    /// The entry for `name`, evaluated for `merged` when it is given; when it is not defined
    /// only because a scope put its prefix in front of a key that already had it, the error says so.
    private func entry(
        named name: String, relativeName: String, in snapshot: ContextSnapshot, evaluatedFor merged: EvaluationContext?
    ) -> ResolvedEntry {
        var entry =
            merged.map { snapshot.entry(forKeyNamed: name, evaluatedFor: $0) } ?? snapshot.entry(named: name)
        guard entry.errorCode == .flagNotFound, let keyPrefix, snapshot.definition(forKeyNamed: relativeName) != nil
        else { return entry }
        let remedy =
            relativeName.hasPrefix(keyPrefix)
            ? "here its key is '\(relativeName.dropFirst(keyPrefix.count))'" : "read it through an unscoped context"
        entry.errorMessage =
            "'\(name)' is not defined: this context is scoped to '\(keyPrefix)' and reads keys relative to it;"
            + " '\(relativeName)' is defined; \(remedy)"
        return entry
    }

    /// The details of a key given by name (relative to this context's scope), without a Swift
    /// type: `value` is `null` when the code default applies. For tools such as the debug CLI.
    public func details(forKeyNamed name: String) -> ResolutionDetails<JSONValue> {
        if hookSwitch.isOn { return untypedDetailsThroughHooks(forKeyNamed: name) }
        return untypedDetails(forKeyNamed: name, in: store.snapshot(), evaluatedFor: nil)
    }

    /// A key's details in `snapshot` without a Swift type and without hooks (see
    /// ``resolvedDetails(for:in:evaluatedFor:)``).
    func untypedDetails(
        forKeyNamed name: String, in snapshot: ContextSnapshot, evaluatedFor merged: EvaluationContext?
    ) -> ResolutionDetails<JSONValue> {
        let key = fullName(name)
        store.trackAccess(self, keyPath: \AppContext.[observedKey: key])
        return ResolutionDetails(
            key: key, entry: entry(named: key, relativeName: name, in: snapshot, evaluatedFor: merged),
            definition: snapshot.definition(forKeyNamed: key))
    }

    /// The resolved value of a key given by name (relative to this context's scope), or
    /// `nil` when the code default applies. For tools; app code uses typed keys.
    public func value(forKeyNamed name: String) -> JSONValue? {
        if hookSwitch.isOn {
            let details = untypedDetailsThroughHooks(forKeyNamed: name)
            return details.errorCode == nil && details.value != .null ? details.value : nil
        }
        let key = fullName(name)
        store.trackAccess(self, keyPath: \AppContext.[observedKey: key])
        return store.snapshot().value(forKeyNamed: key)
    }

    /// Whether the context's files loaded cleanly, or the last reload failed (the previous
    /// values stay in force until a good reload), and the fleet layer's health.
    public var status: ContextStatus { store.status }

    /// The environment the context resolves for (`development`, `staging`, `production`, …).
    public var environment: String { store.snapshot().inputs.environment }

    /// The definitions the context uses.
    package var definitions: DefinitionSet { store.snapshot().layout.definitions }

    /// Recent transactions, oldest first: cause, keys changed, observers run and their durations.
    package var changeLog: [ContextTransaction] { store.changeLog.transactions }

    /// The name used for this context in the change log (`root`, or a child's label).
    public var label: String { store.label }

    /// A marker for Observation: every key has its own key path, so a view that reads one key
    /// depends on that key alone.
    subscript(observedKey name: String) -> Int { 0 }
}

extension AppContext: Observable {}

/// Whether a context's configuration is in force as loaded, or a reload failed, or its fleet
/// layer is degraded.
public struct ContextStatus: Sendable, Hashable {
    /// Whether the last reload failed (the last good values are still in force), or the fleet
    /// store is unreachable (the last good fleet layer is still in force), or a fleet value was refused.
    public var isDegraded: Bool
    /// The problems that made the reload fail, then the fleet layer's problems.
    public var diagnostics: [Diagnostic]
    /// When the context became degraded.
    public var since: WallClockTime?
    /// The fleet layer's health, when a fleet source feeds the context.
    public var fleet: FleetHealth? = nil
    /// Flags that read `PARSE_ERROR` because their file configures them in a way that cannot
    /// be served — a targeting rule that does not compile, a `defaultVariant` that names no
    /// variant — one warning per flag, whose message names the problem's file:line:column.
    ///
    /// They do not make the context degraded: every other key is in force as loaded, and a
    /// reload that fixes the file empties the list. `ensign validate` reports them as errors.
    ///
    /// ```swift
    /// for problem in context.status.flagProblems { logger.warning("\(problem)") }
    /// ```
    public var flagProblems: [Diagnostic] = []

    /// Everything loaded cleanly.
    public static let healthy = ContextStatus(isDegraded: false, diagnostics: [], since: nil)
}
