import Foundation
import Testing

@testable import Ensign

/// Waits, without sleeping blindly, for an observer of `key` to see `expected`.
func waitForValue(
    _ context: AppContext, key: String, toBe expected: JSONValue, timeout: Duration = .seconds(5)
) async -> Bool {
    let (stream, continuation) = AsyncStream.makeStream(of: JSONValue?.self)
    let token = context.observe(keysNamed: [key]) { batch in continuation.yield(batch.changes.first?.newValue) }
    defer { token.cancel() }
    if context.value(forKeyNamed: key) == expected { return true }
    return await withTaskGroup(of: Bool.self) { group in
        group.addTask {
            for await value in stream where value == expected { return true }
            return false
        }
        group.addTask {
            try? await Task.sleep(for: timeout)
            return false
        }
        let result = await group.next() ?? false
        continuation.finish()
        group.cancelAll()
        return result
    }
}
