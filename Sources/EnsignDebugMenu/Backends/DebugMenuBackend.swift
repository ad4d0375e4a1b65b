import Ensign

/// What a debug menu needs from an app: its keys, and the writes a menu makes.
///
/// ``ContextDebugMenuBackend`` serves an in-process context (the in-app menu, tests);
/// `ensign menu` implements it over a running app's control socket.
public protocol DebugMenuBackend: Sendable {
    /// A title: the app's name and environment.
    var title: String { get }
    /// Every key with its current value.
    func entries() throws -> [DebugMenuEntry]
    /// Flips a bool key.
    func toggle(_ key: String) throws
    /// Sets a key to a value, persisted for the next start when `persist` is true.
    func set(_ key: String, to value: JSONValue, persist: Bool) throws
    /// Removes a key's override.
    func reset(_ key: String) throws
    /// Calls `onChange`, on any thread, whenever values change elsewhere, until the returned
    /// closure is called.
    func watch(_ onChange: @escaping @Sendable () -> Void) throws -> @Sendable () -> Void
}
