import EnsignSupport

/// Collects values — what observers were called with, log lines, events — from any thread, in
/// the order they arrive. The one recorder the test targets share.
///
/// ```swift
/// let seen = Recorder<Int>()
/// let token = context.observe(.pageSize) { seen.record($0) }
/// #expect(seen.values == [30])
/// ```
///
/// Behind the package's one lock (`LockedState`, which ThreadSanitizer sees).
public final class Recorder<Value: Sendable>: Sendable {
    private let storage = LockedState<[Value]>([])

    /// An empty recorder.
    public init() {}

    /// Appends `value`.
    public func record(_ value: Value) { storage.withLock { $0.append(value) } }

    /// Everything recorded so far, oldest first.
    public var values: [Value] { storage.withLock { $0 } }

    /// How many values were recorded.
    public var count: Int { storage.withLock { $0.count } }

    /// Removes and returns everything recorded so far, for a test that checks one phase at a time.
    public func takeAll() -> [Value] {
        storage.withLock { values in
            defer { values.removeAll() }
            return values
        }
    }
}
