import Ensign

/// A debug menu backend over a context in this process: the in-app menu's, and the one tests
/// of a menu use without a socket.
///
/// Writes are overrides made by the actor `menu`, so `ensign log` and `explain` show the menu
/// as their cause. In a child context they stay in the child.
///
/// ```swift
/// let backend = ContextDebugMenuBackend(context: context)
/// try backend.toggle("beneficiaries.showPendingList")
/// ```
public struct ContextDebugMenuBackend: DebugMenuBackend {
    /// The context the menu shows and writes to.
    public let context: AppContext

    /// Creates a backend over `context`.
    public init(context: AppContext) {
        self.context = context
    }
}

extension ContextDebugMenuBackend {
    /// The context's label and environment.
    public var title: String { "\(context.label) (\(context.environment))" }

    /// Every defined key, with its details in this context.
    public func entries() throws -> [DebugMenuEntry] {
        let definitions = context.definitions
        return definitions.keys.compactMap { key -> DebugMenuEntry? in
            guard let definition = definitions[key] else { return nil }
            let details = context.details(forKeyNamed: key)
            let layer = details.source.layer
            return DebugMenuEntry(
                key: key, type: definition.type.rawValue, value: details.value, reason: details.reason.rawValue,
                isOverridden: layer == .override || layer == .scopeOverride, summary: definition.summary ?? "")
        }
    }

    /// Flips the bool key's override.
    public func toggle(_ key: String) throws {
        try context.toggle(keyNamed: key, actor: "menu")
    }

    /// Overrides the key; `persist` keeps it for the next start.
    public func set(_ key: String, to value: JSONValue, persist: Bool) throws {
        try context.setOverride(keyNamed: key, to: value, actor: "menu", persist: persist)
    }

    /// Removes the key's override.
    public func reset(_ key: String) throws {
        context.removeOverride(keyNamed: key, actor: "menu")
    }

    /// Calls `onChange` once per transaction that changes any key.
    public func watch(_ onChange: @escaping @Sendable () -> Void) throws -> @Sendable () -> Void {
        let token = context.observeAll(label: "debug menu") { _ in onChange() }
        return { token.cancel() }
    }
}
