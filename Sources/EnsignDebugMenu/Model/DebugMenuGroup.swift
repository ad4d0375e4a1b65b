/// The entries of one namespace, as a debug menu lists them under a heading.
public struct DebugMenuGroup: Equatable, Sendable, Identifiable {
    /// The namespace: the keys' first segment.
    public var name: String
    /// The group's entries, sorted by key.
    public var entries: [DebugMenuEntry]

    /// The namespace, which identifies the group in a list.
    public var id: String { name }

    /// Creates a group.
    public init(name: String, entries: [DebugMenuEntry]) {
        self.name = name
        self.entries = entries
    }
}
