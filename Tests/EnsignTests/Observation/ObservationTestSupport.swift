import Synchronization

/// Collects what observers were called with, from any thread.
final class Recorder<Value: Sendable>: Sendable {
    private let storage = Mutex<[Value]>([])

    func record(_ value: Value) { storage.withLock { $0.append(value) } }

    var values: [Value] { storage.withLock { $0 } }
    var count: Int { storage.withLock { $0.count } }
}
