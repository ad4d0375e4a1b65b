import Ensign
import EnsignDebugMenu

/// A key the terminal delivered, decoded from its escape sequence.
enum MenuKey: Equatable, Sendable {
    case character(Character)
    case up, down, pageUp, pageDown, home, end
    case enter, escape, backspace
    case interrupt
}

/// Applies key presses to the model, calling the backend for writes. Errors from the app
/// (an invalid value, a refused write in production) become the footer message; nothing
/// here ever ends the menu except `q`, Escape from browsing, and Ctrl-C.
struct MenuController {
    let backend: any DebugMenuBackend
    let pageSize: Int

    func handle(_ key: MenuKey, in model: inout MenuModel) {
        switch model.mode {
        case .help:
            model.mode = .browsing
        case .searching(let text):
            handleSearch(key, text: text, in: &model)
        case .editing(let entryKey, let text):
            handleEdit(key, key: entryKey, text: text, in: &model)
        case .browsing:
            handleBrowse(key, in: &model)
        }
    }

    private func handleBrowse(_ key: MenuKey, in model: inout MenuModel) {
        switch key {
        case .up, .character("k"): model.moveSelection(by: -1)
        case .down, .character("j"): model.moveSelection(by: 1)
        case .pageUp: model.moveSelection(by: -pageSize)
        case .pageDown: model.moveSelection(by: pageSize)
        case .home, .character("g"): model.moveSelection(by: -model.entries.count)
        case .end, .character("G"): model.moveSelection(by: model.entries.count)
        case .character("q"), .interrupt: model.isFinished = true
        case .escape:
            if model.filter.isEmpty {
                model.isFinished = true
            } else {
                model.filter = ""
                model.message = "filter cleared"
            }
        case .character("/"): model.mode = .searching(text: model.filter)
        case .character("?"): model.mode = .help
        case .enter, .character(" "): toggleSelected(in: &model)
        case .character("e"):
            guard let entry = model.selectedEntry else { return }
            model.mode = .editing(key: entry.key, text: entry.editableText)
        case .character("r"):
            guard let entry = model.selectedEntry else { return }
            apply(actions.reset(entry.key), to: &model)
        case .character("p"):
            guard let entry = model.selectedEntry else { return }
            apply(actions.set(entry.key, to: entry.value, persist: true), to: &model)
        default:
            break
        }
    }

    private func handleSearch(_ key: MenuKey, text: String, in model: inout MenuModel) {
        switch key {
        case .enter:
            model.mode = .browsing
            model.message = model.filter.isEmpty ? "" : "\(model.visibleEntries.count) match(es) for '\(model.filter)'"
        case .escape, .interrupt:
            model.filter = ""
            model.mode = .browsing
        case .backspace:
            let shorter = String(text.dropLast())
            model.filter = shorter
            model.mode = .searching(text: shorter)
        case .character(let character):
            let longer = text + String(character)
            model.filter = longer
            model.mode = .searching(text: longer)
        default:
            break
        }
        model.selectedKey =
            model.visibleEntries.first { $0.key == model.selectedKey }?.key
            ?? model.visibleEntries.first?.key
    }

    private func handleEdit(_ key: MenuKey, key entryKey: String, text: String, in model: inout MenuModel) {
        switch key {
        case .enter:
            model.mode = .browsing
            apply(actions.set(entryKey, text: text), to: &model)
        case .escape, .interrupt:
            model.mode = .browsing
            model.message = "edit cancelled"
        case .backspace:
            model.mode = .editing(key: entryKey, text: String(text.dropLast()))
        case .character(let character):
            model.mode = .editing(key: entryKey, text: text + String(character))
        default:
            break
        }
    }

    private func toggleSelected(in model: inout MenuModel) {
        guard let entry = model.selectedEntry else { return }
        guard entry.isToggleable else {
            model.message = "\(entry.key) is \(entry.typeWithArticle): press e to edit it"
            return
        }
        apply(actions.toggle(entry), to: &model)
    }

    /// Shows a write's outcome and refreshes; the app's refusal is shown, not fatal.
    private func apply(_ outcome: DebugMenuOutcome, to model: inout MenuModel) {
        model.message = outcome.message
        guard !outcome.isRefused else { return }
        do {
            model.update(try backend.entries())
        } catch {
            model.message = "✗ \(error)"
        }
    }

    private var actions: DebugMenuActions { DebugMenuActions(backend: backend) }
}
