#if canImport(SwiftUI)
    import Ensign
    import EnsignDebugMenu
    import SwiftUI

    /// The in-app debug menu: every key of the environment's context by namespace, with a
    /// search field, toggles for bools, fields for other values, and a reset for overrides.
    ///
    /// A view of `DebugMenuModel` (EnsignDebugMenu, tested on every platform), which holds
    /// the logic: present it in a sheet of a debug build.
    ///
    /// ```swift
    /// .sheet(isPresented: $showsDebugMenu) { NavigationStack { AppContextDebugMenu() } }
    /// ```
    public struct AppContextDebugMenu: View {
        @Environment(\.appContext) private var context
        @State private var model: DebugMenuModel?

        /// Creates the menu for the environment's context.
        public init() {}

        /// The entries by namespace, the search field, and the last write's message.
        public var body: some View {
            List {
                if let model {
                    ForEach(model.groups) { group in
                        Section(group.name) {
                            ForEach(group.entries) { entry in DebugMenuRow(entry: entry, model: model) }
                        }
                    }
                    if !model.message.isEmpty { Text(model.message).font(.footnote) }
                }
            }
            .searchable(text: Binding(get: { model?.filter ?? "" }, set: { model?.filter = $0 }))
            .navigationTitle(model?.title ?? "Flags")
            .onAppear { if model == nil { model = DebugMenuModel(context: context) } }
        }
    }

    /// One entry: a toggle for a bool, a field for the rest, a reset when it is overridden.
    struct DebugMenuRow: View {
        let entry: DebugMenuEntry
        let model: DebugMenuModel
        @State private var text = ""

        var body: some View {
            VStack(alignment: .leading) {
                if entry.isToggleable {
                    Toggle(entry.key, isOn: Binding(get: { entry.isOn }, set: { _ in model.toggle(entry.key) }))
                } else {
                    // Refilled whenever the value changes, here or elsewhere (a reset, a reload).
                    TextField(entry.key, text: $text).onSubmit { model.set(entry.key, text: text) }
                        .onChange(of: entry.editableText, initial: true) { text = entry.editableText }
                }
                HStack {
                    Text(entry.reason).font(.caption)
                    if entry.isOverridden { Button("Reset") { model.reset(entry.key) }.font(.caption) }
                }
                if !entry.summary.isEmpty { Text(entry.summary).font(.caption2) }
            }
        }
    }
#endif
