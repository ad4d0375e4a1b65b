import Ensign

/// Keeps the one ``ContextKeyModel`` a view reads a key through, for `EnsignSwiftUI`'s
/// `@ContextFlag`: the same model while the context and the key stay, a new one when either
/// changes.
///
/// A UI framework reads a view's properties on every update; making a model each time would
/// register an observer each time and lose Observation's tracking. The choice of when to make
/// one lives here, outside SwiftUI, so it is tested on every platform.
///
/// ```swift
/// @MainActor func showsPending(in context: AppContext, slot: ContextKeyModelSlot<Bool, FlagKeyKind>) -> Bool {
///     slot.model(for: context, key: .showPendingList).value
/// }
/// ```
@MainActor
public final class ContextKeyModelSlot<Value: FlagValueConvertible, Kind: KeyKind> {
    private var current: ContextKeyModel<Value, Kind>?

    /// Creates an empty slot; the first ``model(for:key:)`` makes its model.
    public init() {}

    /// The model of `key` in `context`: the kept one when it reads the same key of the same
    /// context, otherwise a new one, which replaces (and so releases) the old.
    public func model(for context: AppContext, key: ContextKey<Value, Kind>) -> ContextKeyModel<Value, Kind> {
        if let current, current.context === context, current.key.name == key.name { return current }
        let made = ContextKeyModel(context: context, key: key)
        current = made
        return made
    }
}
