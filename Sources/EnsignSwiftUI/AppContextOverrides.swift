#if canImport(SwiftUI)
    import Ensign
    import EnsignDebugMenu
    import SwiftUI

    extension View {
        /// Gives this subtree a child of the environment's context with overrides, for
        /// previews and tests: the overrides stay in the child.
        ///
        /// ```swift
        /// #Preview {
        ///     BeneficiariesList()
        ///         .appContextOverrides(label: "pending shown") { try $0.setOverride(.showPendingBeneficiariesList, to: true) }
        ///         .appContext(AppContext(values: ["beneficiaries.showPendingBeneficiariesList": false]))
        /// }
        /// ```
        ///
        /// The parent must define the overridden keys. An override the child refuses (a key
        /// the parent does not define, a value outside the definition) leaves the child
        /// without it and prints the reason once.
        public func appContextOverrides(
            label: String = "overrides", _ configure: @escaping (AppContext) throws -> Void
        ) -> some View {
            modifier(AppContextOverridesModifier(label: label, configure: configure))
        }
    }

    /// Injects the child an `OverrideChildCache` (EnsignDebugMenu) keeps for the parent.
    struct AppContextOverridesModifier: ViewModifier {
        let label: String
        let configure: (AppContext) throws -> Void
        @Environment(\.appContext) private var parent
        @State private var cache = OverrideChildCache()

        func body(content: Content) -> some View {
            content.environment(\.appContext, cache.child(of: parent, label: label, configure: configure))
        }
    }
#endif
