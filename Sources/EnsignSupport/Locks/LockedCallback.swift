/// A closure kept behind a lock, for a ``LockedState`` whose state would otherwise be a bare
/// closure.
///
/// A bare closure (or optional closure) must not be a lock's whole state: `withLock` hands the
/// state over `inout` through its generic parameter, and Swift converts a function value to
/// the generic representation and back on every such round trip, wrapping it in one more
/// reabstraction thunk each time. Each access then leaked about 100 bytes and made the
/// stored closure one call deeper: a persisted write reported its outcome that way, so after
/// some 200,000 persisted writes the nested thunks overflowed the stack. Inside a struct the
/// closure keeps its one representation.
///
/// ```swift
/// let handler = LockedState<LockedCallback<String>?>(nil)
/// handler.withLock { $0 = LockedCallback { print($0) } }
/// handler.withLock { $0 }?.call("hello")
/// ```
package struct LockedCallback<Argument>: Sendable {
    /// The closure.
    package let call: @Sendable (Argument) -> Void

    /// Wraps `call`.
    package init(_ call: @escaping @Sendable (Argument) -> Void) {
        self.call = call
    }
}
