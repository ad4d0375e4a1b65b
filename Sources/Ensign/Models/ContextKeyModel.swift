import Observation

/// One key of a context as an `@Observable` model: a view or view model that reads its
/// ``value`` depends on this key alone, and a settings screen binds to ``editableValue``.
///
/// The model observes its key on the main actor (``AppContext/observe(_:label:on:_:)``), so
/// ``value`` changes only when the key's value does: a change to another key, or a write that
/// leaves the value as it was, invalidates nothing that read it. Setting ``editableValue``
/// writes through the context, validated like the API (an override for a flag, the user's
/// preference for a preference); a refused write leaves ``value`` as it was and says why in
/// ``lastWriteError``.
///
/// The model holds its context, and the context holds the model only weakly: releasing the
/// model ends its observer.
///
/// ```swift
/// @MainActor final class SettingsScreenModel {
///     let darkMode: ContextKeyModel<Bool, PreferenceKeyKind>
///     init(context: AppContext) { darkMode = ContextKeyModel(context: context, key: .darkMode) }
/// }
///
/// // In SwiftUI: Toggle("Dark mode", isOn: $screen.darkMode.editableValue)
/// let screen = SettingsScreenModel(context: context)
/// screen.darkMode.editableValue = true          // context.setPreference(.darkMode, to: true)
/// if let error = screen.darkMode.lastWriteError { print(error) }
/// ```
@MainActor
@Observable
public final class ContextKeyModel<Value: FlagValueConvertible, Kind: KeyKind> {
    /// The key's current value in the context, tracked by Observation.
    ///
    /// Updated on the main actor once a change is delivered, so just after another thread's
    /// write it may still be the previous value; a write through ``editableValue`` updates it
    /// at once.
    public private(set) var value: Value

    /// Why the last write through ``editableValue`` was refused, or `nil` when it succeeded.
    ///
    /// With ``ContextWriteError/notPersisted(key:path:reason:)`` the value is in force but
    /// was not saved.
    public private(set) var lastWriteError: ContextWriteError?

    /// The context the model reads and writes.
    public let context: AppContext

    /// The key the model stands for.
    public let key: ContextKey<Value, Kind>

    @ObservationIgnored private var token: ObservationToken?

    /// Who the model's writes are attributed to in the change log and in `details(for:)`.
    private static var writer: String { "settings" }

    /// A model of `key` in `context`, starting with the key's current value.
    public init(context: AppContext, key: ContextKey<Value, Kind>) {
        self.context = context
        self.key = key
        value = context.untrackedSnapshot[key]
        token = context.observe(key, label: "ContextKeyModel of \(key.name)", on: .mainActor) { [weak self] _ in
            self?.refresh()
        }
        // A change committed between the first read and the registration was not delivered.
        refresh()
    }

    /// The value, for a two-way binding: reading it is reading ``value``; setting it writes
    /// the key through the context.
    ///
    /// A flag's value is set as an override (`setOverride`), a preference's as the user's
    /// choice (`setPreference`), checked against the key's definition. A refused write
    /// changes nothing and sets ``lastWriteError``; a write that succeeds clears it.
    public var editableValue: Value {
        get { value }
        set { write(newValue) }
    }

    /// The current value's details: variant, reason, error and source, for a debug row.
    ///
    /// Read through the context, so it is tracked per key too: a view that shows it is
    /// invalidated when this key changes, and not when another key does.
    public var details: ResolutionDetails<Value> { context.details(for: key) }

    private func write(_ newValue: Value) {
        do throws(ContextWriteError) {
            switch Kind.definitionKind {
            case .preference: try context.setPreference(keyNamed: key.name, to: newValue.flagValue, actor: Self.writer)
            case .flag: try context.setOverride(keyNamed: key.name, to: newValue.flagValue, actor: Self.writer)
            }
            lastWriteError = nil
        } catch {
            lastWriteError = error
        }
        // At once, not when the change arrives: a control bound to the value must not flick back.
        refresh()
    }

    /// Takes the context's current value, if it differs: a change is delivered with the value
    /// of its commit, and by then a newer one may be in force (read first by `init` or a write).
    private func refresh() {
        let current = context.untrackedSnapshot[key]
        if current != value { value = current }
    }
}
