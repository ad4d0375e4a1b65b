import EnsignTestSupport
import Foundation
import Testing

@testable import Ensign

/// Waits for an observer of `key` to see `expected` (with the shared `waitUntil`).
///
/// It waits for an observer's call, not for a read of the value, so that a test's own observers,
/// registered before, have been called too when it returns.
func waitForValue(
    _ context: AppContext, key: String, toBe expected: JSONValue, timeout: Duration = .seconds(5)
) async -> Bool {
    let seen = Recorder<JSONValue?>()
    let token = context.observe(keysNamed: [key]) { batch in seen.record(batch.changes.first?.newValue) }
    defer { token.cancel() }
    if context.value(forKeyNamed: key) == expected { return true }
    return await waitUntil("an observer of \(key) to see \(expected)", timeout: timeout) { () async in
        seen.values.contains(expected)
    }
}
