import Ensign

/// Waits for an observer of `key` in `context` to be called with `expected` (with
/// ``waitUntil(_:timeout:pollingEvery:fileID:line:isolation:_:)``), or finds it there already.
///
/// ```swift
/// try directory.write("deploy/flags.yaml", "flags:\n  list.pageSize: 40\n")
/// #expect(await waitForObserver(of: "list.pageSize", in: context, toSee: 40))
/// ```
///
/// It waits for an observer's call, not for a read of the value, so that a test's own observers,
/// registered before, have been called too when it returns.
public func waitForObserver(
    of key: String, in context: AppContext, toSee expected: JSONValue, timeout: Duration = .seconds(10)
) async -> Bool {
    let seen = Recorder<JSONValue?>()
    let token = context.observe(keysNamed: [key]) { batch in seen.record(batch.changes.first?.newValue) }
    defer { token.cancel() }
    if context.value(forKeyNamed: key) == expected { return true }
    return await waitUntil("an observer of \(key) to see \(expected)", timeout: timeout) { () async in
        seen.values.contains(expected)
    }
}
