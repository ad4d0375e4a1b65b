#if canImport(SwiftUI)
    import Ensign
    import EnsignDebugMenu
    import SwiftUI

    /// One key of the environment's context, read by a view and tracked per key: the view
    /// renders again when this key's value changes, and for no other key.
    ///
    /// A `ContextKeyModel` (from `Ensign`) does the work and a `ContextKeyModelSlot` (from
    /// `EnsignDebugMenu`) decides when to make one, both tested on every platform; this
    /// wrapper only finds the context in the environment and keeps the slot in view state.
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
        // A reference in `@State`: making a model when the context changes is then not a
        // state change in the middle of an update.
        @State private var slot = ContextKeyModelSlot<Value, Kind>()
        private let key: ContextKey<Value, Kind>

        /// Reads `key` from the environment's context.
        public init(_ key: ContextKey<Value, Kind>) {
            self.key = key
        }

        /// The key's value in the environment's context.
        public var wrappedValue: Value { slot.model(for: context, key: key).value }

        /// A binding whose writes go through the context (`editableValue`).
        public var projectedValue: Binding<Value> {
            let model = slot.model(for: context, key: key)
            return Binding(get: { model.editableValue }, set: { model.editableValue = $0 })
        }
    }
#endif
