#if canImport(SwiftUI)
    import Ensign
    import SwiftUI

    extension EnvironmentValues {
        /// The context views read their keys from; `.unconfigured` (every key its code
        /// default) until an ancestor injects one, so a missing injection never crashes.
        ///
        /// ```swift
        /// BeneficiariesScreen().appContext(context)
        /// ```
        @Entry public var appContext: AppContext = .unconfigured
    }

    extension View {
        /// Gives this view and its subtree `context`, the way `.environment(_:_:)` does.
        public func appContext(_ context: AppContext) -> some View {
            environment(\.appContext, context)
        }
    }
#endif
