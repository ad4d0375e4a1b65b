import Ensign

/// A menu backend over an in-process context: for apps that embed the debug menu, and for
/// tests of the menu without a socket.
struct ContextMenuBackend: MenuBackend {
    let context: AppContext

    var title: String { "\(context.label) (\(context.environment))" }

    func entries() throws -> [MenuEntry] {
        let overrides = context.overrides
        return context.definitions.keys.compactMap { key -> MenuEntry? in
            guard let definition = context.definitions[key] else { return nil }
            let details = context.details(forKeyNamed: key)
            return MenuEntry(
                key: key, type: definition.type.rawValue, value: details.value, reason: details.reason.rawValue,
                isOverridden: overrides[key] != nil, summary: definition.summary ?? "")
        }
    }

    func toggle(_ key: String) throws {
        try context.toggle(keyNamed: key, actor: "menu")
    }

    func set(_ key: String, to value: JSONValue, persist: Bool) throws {
        try context.setOverride(keyNamed: key, to: value, actor: "menu", persist: persist)
    }

    func reset(_ key: String) throws {
        context.removeOverride(keyNamed: key, actor: "menu")
    }

    func watch(_ onChange: @escaping @Sendable () -> Void) throws -> @Sendable () -> Void {
        let token = context.observeAll(label: "debug menu") { _ in onChange() }
        return { token.cancel() }
    }
}
