import Ensign
import EnsignDebugMenu

/// What the menu is doing: browsing, typing a search, editing a value, or showing help.
enum MenuMode: Equatable, Sendable {
    case browsing
    case searching(text: String)
    case editing(key: String, text: String)
    case help
}

/// The menu's state, independent of the terminal: entries, filter, selection, mode and the
/// last message. Every key press is a pure transition on it (see ``MenuController``).
struct MenuModel: Equatable, Sendable {
    var entries: [DebugMenuEntry] = []
    var filter = ""
    var selectedKey: String?
    var mode = MenuMode.browsing
    var message = ""
    var isFinished = false
    var title = ""

    /// The entries matching the filter, grouped (sorted by key, so groups are contiguous):
    /// the in-app menu's rule, from EnsignDebugMenu.
    var visibleEntries: [DebugMenuEntry] {
        DebugMenuList(entries: entries, filter: filter).visibleEntries
    }

    var selectedIndex: Int? {
        let visible = visibleEntries
        guard !visible.isEmpty else { return nil }
        return visible.firstIndex { $0.key == selectedKey } ?? 0
    }

    var selectedEntry: DebugMenuEntry? {
        selectedIndex.map { visibleEntries[$0] }
    }

    /// Moves the selection by `offset` entries, staying within the list.
    mutating func moveSelection(by offset: Int) {
        let visible = visibleEntries
        guard !visible.isEmpty else { return }
        let current = selectedIndex ?? 0
        selectedKey = visible[min(max(current + offset, 0), visible.count - 1)].key
    }

    /// Replaces the entries (after a change elsewhere), keeping the selection on the same key.
    mutating func update(_ entries: [DebugMenuEntry]) {
        self.entries = entries
        if selectedKey == nil || !entries.contains(where: { $0.key == selectedKey }) {
            selectedKey = visibleEntries.first?.key
        }
    }
}
