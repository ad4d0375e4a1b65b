import Ensign

/// Prints diagnostics the way compilers do, coloured on a terminal, or as JSON.
enum DiagnosticPrinter {
    static func format(_ diagnostic: Diagnostic, console: Console) -> String {
        let style: TextStyle =
            switch diagnostic.severity {
            case .error: .red
            case .warning: .yellow
            case .note: .cyan
            }
        var line = console.styled("\(diagnostic.location):", .bold) + " "
        line += console.styled("\(diagnostic.severity.rawValue):", style) + " " + diagnostic.message
        for note in diagnostic.notes {
            line += "\n" + format(note, console: console)
        }
        return line
    }

    static func json(_ diagnostic: Diagnostic) -> JSONValue {
        var object: [String: JSONValue] = [
            "severity": .string(diagnostic.severity.rawValue),
            "file": .string(diagnostic.location.file),
            "line": .int(diagnostic.location.line),
            "column": .int(diagnostic.location.column),
            "message": .string(diagnostic.message),
        ]
        if let key = diagnostic.key { object["key"] = .string(key) }
        if !diagnostic.notes.isEmpty { object["notes"] = .array(diagnostic.notes.map(json)) }
        return .object(object)
    }
}
