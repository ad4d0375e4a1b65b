/// A debug menu's list: every entry, the search filter, and what the filter leaves, sorted
/// and grouped by namespace.
///
/// Pure state, with no backend and no isolation, so that the terminal menu and the in-app
/// menu filter and group exactly alike.
///
/// ```swift
/// var list = DebugMenuList(entries: try ContextDebugMenuBackend(context: context).entries())
/// list.filter = "pending"
/// for group in list.groups { print(group.name, group.entries.map { $0.key }) }
/// ```
public struct DebugMenuList: Equatable, Sendable {
    /// Every entry, in the order the backend gave them.
    public var entries: [DebugMenuEntry]
    /// Case-insensitive text a key must contain to be visible; empty shows every entry.
    public var filter: String

    /// Creates a list.
    public init(entries: [DebugMenuEntry] = [], filter: String = "") {
        self.entries = entries
        self.filter = filter
    }

    /// The entries the filter leaves, sorted by key (so a group's entries are contiguous).
    public var visibleEntries: [DebugMenuEntry] {
        let sorted = entries.sorted { $0.key < $1.key }
        guard !filter.isEmpty else { return sorted }
        let needle = filter.lowercased()
        return sorted.filter { $0.key.lowercased().contains(needle) }
    }

    /// The visible entries by namespace, groups in key order.
    public var groups: [DebugMenuGroup] {
        var groups: [DebugMenuGroup] = []
        for entry in visibleEntries {
            if groups.last?.name == entry.group {
                groups[groups.count - 1].entries.append(entry)
            } else {
                groups.append(DebugMenuGroup(name: entry.group, entries: [entry]))
            }
        }
        return groups
    }

    /// The entry for `key`, if the list has it.
    public func entry(forKey key: String) -> DebugMenuEntry? {
        entries.first { $0.key == key }
    }
}
