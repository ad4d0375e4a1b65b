import Ensign
import EnsignJSON

/// The writes a debug menu makes, each turned into the message the menu shows: what was
/// done, or why the app refused it. Nothing here throws, so a refused write never ends a menu.
///
/// Shared by the terminal menu and ``DebugMenuModel``, so both word their messages and read
/// typed text alike.
///
/// ```swift
/// let actions = DebugMenuActions(backend: ContextDebugMenuBackend(context: context))
/// let outcome = actions.set("beneficiaries.pageSize", text: "50")
/// print(outcome.message)   // beneficiaries.pageSize = 50
/// ```
public struct DebugMenuActions: Sendable {
    /// The app the writes go to.
    public let backend: any DebugMenuBackend

    /// Creates the actions for `backend`.
    public init(backend: any DebugMenuBackend) {
        self.backend = backend
    }

    /// Flips a bool entry; any other type gets a message saying to edit it instead.
    public func toggle(_ entry: DebugMenuEntry) -> DebugMenuOutcome {
        guard entry.isToggleable else {
            return .refused("\(entry.key) is \(entry.typeWithArticle): edit it instead")
        }
        return perform("toggled \(entry.key)") { try backend.toggle(entry.key) }
    }

    /// Sets a key from typed text (see ``value(fromTypedText:)``).
    public func set(_ key: String, text: String, persist: Bool = false) -> DebugMenuOutcome {
        set(key, to: Self.value(fromTypedText: text), persist: persist)
    }

    /// Sets a key to a value; `persist` keeps it for the next start.
    public func set(_ key: String, to value: JSONValue, persist: Bool = false) -> DebugMenuOutcome {
        perform(persist ? "persisted \(key) = \(value.jsonText)" : "\(key) = \(value.jsonText)") {
            try backend.set(key, to: value, persist: persist)
        }
    }

    /// Removes a key's override.
    public func reset(_ key: String) -> DebugMenuOutcome {
        perform("reset \(key)") { try backend.reset(key) }
    }

    /// The value typed text stands for: JSON when it parses as JSON (`50`, `true`,
    /// `{"a": 1}`, `"quoted"`), otherwise the text as a string, so a string value needs no
    /// quotes. The app then checks the value against the definition, as every write does.
    public static func value(fromTypedText text: String) -> JSONValue {
        (try? JSONValue(jsonText: text)) ?? .string(text)
    }

    private func perform(_ success: String, _ write: () throws -> Void) -> DebugMenuOutcome {
        do {
            try write()
            return .done(success)
        } catch {
            return .refused("\(error)")
        }
    }
}
