import Ensign

/// What the menu needs from a running app; the live implementation talks to its control
/// server, tests use an in-memory one.
protocol MenuBackend: Sendable {
    /// A title: the app's name, pid and environment.
    var title: String { get }
    /// Every key with its current value.
    func entries() throws -> [MenuEntry]
    /// Flips a bool key.
    func toggle(_ key: String) throws
    /// Sets a key to a value, optionally persisted.
    func set(_ key: String, to value: JSONValue, persist: Bool) throws
    /// Removes a key's override.
    func reset(_ key: String) throws
    /// Calls `onChange` whenever values change elsewhere, until the returned closure is called.
    func watch(_ onChange: @escaping @Sendable () -> Void) throws -> @Sendable () -> Void
}
