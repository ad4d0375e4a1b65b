import Ensign

/// Draws the model as exactly `rows` lines of at most `columns` characters: a header, the
/// grouped list scrolled to keep the selection visible, and a footer with the message or
/// the prompt. Pure, so tests check the screen without a terminal.
struct MenuRenderer {
    var columns: Int
    var rows: Int
    var usesColor: Bool

    /// Rows the list gets after the header (2 lines) and the footer (2 lines).
    var listRows: Int { max(1, rows - 4) }

    func lines(for model: MenuModel) -> [String] {
        var lines = [header(model), rule()]
        if case .help = model.mode {
            lines += Self.helpText
        } else {
            lines += list(model)
        }
        while lines.count < rows - 2 { lines.append("") }
        lines = Array(lines.prefix(max(0, rows - 2)))
        lines += [rule(), footer(model)]
        return lines.map { clip($0) }
    }

    static let helpText = [
        " ↑/↓ or k/j   move            PgUp/PgDn   page",
        " space/enter  toggle a bool   e           edit a value (JSON or text)",
        " r            reset override  p           persist the current value",
        " /            search          Esc         clear search / quit",
        " q, Ctrl-C    quit            ?           this help",
        "",
        " ● marks an overridden key. Values changed elsewhere (another CLI, a file",
        " reload) update here live. Press any key to return.",
    ]

    private func header(_ model: MenuModel) -> String {
        let left = " ensign menu — \(model.title)"
        let right = "? help · q quit "
        let padding = max(1, columns - left.count - right.count)
        return style(left + String(repeating: " ", count: padding) + right, "1")
    }

    private func rule() -> String {
        String(repeating: "─", count: columns)
    }

    private func footer(_ model: MenuModel) -> String {
        switch model.mode {
        case .searching(let text): return " /" + text + "▏"
        case .editing(let key, let text): return " \(key) = " + text + "▏  (enter to set, esc to cancel)"
        case .help: return " press any key"
        case .browsing:
            let hints = "/ search · e edit · r reset · p persist"
            let message = model.message
            let padding = max(1, columns - message.count - hints.count - 2)
            return " " + message + String(repeating: " ", count: padding) + style(hints, "2")
        }
    }

    /// The grouped rows, scrolled so the selected one is visible.
    private func list(_ model: MenuModel) -> [String] {
        let entries = model.visibleEntries
        guard !entries.isEmpty else {
            return [model.filter.isEmpty ? " (no keys)" : " no key matches '\(model.filter)'"]
        }
        var rowsOut: [(text: String, isSelected: Bool)] = []
        var group = ""
        let keyWidth = min(34, (entries.map { $0.key.count - $0.group.count }.max() ?? 10) + 2)
        for entry in entries {
            if entry.group != group {
                group = entry.group
                rowsOut.append((style(" " + group, "1;36"), false))
            }
            let isSelected = entry.key == model.selectedEntry?.key
            let name = String(entry.key.dropFirst(entry.group.count + (entry.key.count > entry.group.count ? 1 : 0)))
            let marker = entry.isOverridden ? "● override" : ""
            let value = entry.value.isNull ? "(code default)" : entry.value.jsonText
            let text =
                " " + (isSelected ? "▶ " : "  ") + pad(name.isEmpty ? entry.key : name, keyWidth) + pad(entry.type, 8)
                + pad(value, 18) + marker
            rowsOut.append((text, isSelected))
        }
        let selectedRow = rowsOut.firstIndex { $0.isSelected } ?? 0
        let first = max(0, min(selectedRow - listRows / 2, rowsOut.count - listRows))
        return rowsOut[first..<min(rowsOut.count, first + listRows)].map { row in
            row.isSelected ? style(pad(row.text, columns), "7") : row.text
        }
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width
            ? String(text.prefix(width - 1)) + " " : text + String(repeating: " ", count: width - text.count)
    }

    /// Cuts a line to the screen width, counting only visible characters.
    private func clip(_ line: String) -> String {
        var visible = 0
        var result = ""
        var inEscape = false
        for character in line {
            if character == "\u{1B}" { inEscape = true }
            if inEscape {
                result.append(character)
                if character == "m" { inEscape = false }
                continue
            }
            guard visible < columns else { continue }
            result.append(character)
            visible += 1
        }
        return result
    }

    private func style(_ text: String, _ code: String) -> String {
        usesColor ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
