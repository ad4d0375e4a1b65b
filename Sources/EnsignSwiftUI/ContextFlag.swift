#if canImport(SwiftUI)
    import Ensign
    import SwiftUI

    /// One key of the environment's context, read by a view and tracked per key: the view
    /// renders again when this key's value changes, and for no other key.
    ///
    /// A `ContextKeyModel` (from `Ensign`, tested on every platform) does the work; this
    /// wrapper only finds the context in the environment and keeps the model in view state.
    ///
    /// ```swift
    /// struct BeneficiariesList: View {
    ///     @ContextFlag(.showPendingBeneficiariesList) private var showsPending
    ///     var body: some View { if showsPending { PendingSection() } }
    /// }
    /// ```
    ///
    /// The projected value is a `Binding` for settings screens: `Toggle("Dark mode",
    /// isOn: $darkMode)` writes through the context, validated like the API.
    @MainActor
    @propertyWrapper
    public struct ContextFlag<Value: FlagValueConvertible, Kind: KeyKind>: DynamicProperty {
        @Environment(\.appContext) private var context
        @State private var holder = ContextKeyModelHolder<Value, Kind>()
        private let key: ContextKey<Value, Kind>

        /// Reads `key` from the environment's context.
        public init(_ key: ContextKey<Value, Kind>) {
            self.key = key
        }

        /// The key's value in the environment's context.
        public var wrappedValue: Value { holder.model(for: context, key: key).value }

        /// A binding whose writes go through the context (`editableValue`).
        public var projectedValue: Binding<Value> {
            let model = holder.model(for: context, key: key)
            return Binding(get: { model.editableValue }, set: { model.editableValue = $0 })
        }
    }

    /// Keeps one model per context, made again when the environment's context changes; a
    /// reference in `@State`, so that swapping the model is not a state change mid-update.
    @MainActor
    final class ContextKeyModelHolder<Value: FlagValueConvertible, Kind: KeyKind> {
        private var model: ContextKeyModel<Value, Kind>?

        func model(for context: AppContext, key: ContextKey<Value, Kind>) -> ContextKeyModel<Value, Kind> {
            if let model, model.context === context, model.key.name == key.name { return model }
            let made = ContextKeyModel(context: context, key: key)
            model = made
            return made
        }
    }
#endif
