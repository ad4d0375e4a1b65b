import EnsignSupport

/// Keeps an observer registered; the observer stops when the token is cancelled or released.
///
/// Hold the token for as long as you want to be notified:
///
/// ```swift
/// final class BeneficiariesModule {
///     private var tokens: [ObservationToken] = []
///     init(context: AppContext) {
///         tokens.append(context.observe(.showPendingList, label: "beneficiaries") { _ in Self.render() })
///     }
///     static func render() {}
/// }
/// ```
public final class ObservationToken: Sendable, Hashable {
    private let cancellation: LockedState<LockedCallback<Void>?>

    init(_ cancel: @escaping @Sendable () -> Void) {
        cancellation = LockedState(LockedCallback { _ in cancel() })
    }

    /// Stops the observer; later calls do nothing. Safe from any thread, also from inside
    /// the observer (it is not called again after the current call).
    ///
    /// For an observer that runs on an actor (`on: .mainActor`, `isolatedTo:`), the changes
    /// still queued for it are dropped, and a cancel from another thread while its handler
    /// runs waits for that call to return: once `cancel()` returns, no call starts.
    public func cancel() {
        cancellation.withLock { $0.take() }?.call(())
    }

    /// Whether ``cancel()`` has been called.
    public var isCancelled: Bool { cancellation.withLock { $0 == nil } }

    deinit { cancel() }

    /// Tokens are equal when they are the same token.
    public static func == (lhs: ObservationToken, rhs: ObservationToken) -> Bool { lhs === rhs }

    /// Hashes the token's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
