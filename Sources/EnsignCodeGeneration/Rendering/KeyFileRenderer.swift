import Ensign
import EnsignSupport

/// Writes the Swift file for a ``KeyPlan``: the header, one extension per key kind and value
/// type, then the enums. Every choice of order and layout is fixed, so the same plan always
/// gives the same bytes.
struct KeyFileRenderer {
    let plan: KeyPlan
    let files: [String]
    let options: KeyGenerationOptions

    /// The widest line the renderer aims for (long strings may still exceed it).
    static let width = 120

    func render() -> String {
        var output = GeneratedKeysHeader(accessLevel: options.accessLevel, files: files.map(options.displayPath))
            .text
        output += "\nimport Ensign\n"
        let sections: [(String, FlagDefinition.Kind, String)] = [
            ("Flags", .flag, "FlagKey"), ("Preferences", .preference, "UserPreferenceKey"),
        ]
        for (title, kind, keyType) in sections {
            let keys = plan.keys.filter { $0.definition.kind == kind }
            guard !keys.isEmpty else { continue }
            output += "\n// MARK: - \(title)\n"
            for (valueType, group) in Self.grouped(keys) {
                // `extension FlagKey<Bool>`, not `where Value == Bool`: the key types are type
                // aliases of the generic `ContextKey`, and only an extension of the specialised
                // type may declare the static stored properties the keys are.
                output += "\nextension \(keyType)<\(valueType)> {\n"
                output += group.map { declaration(of: $0, keyType: keyType) }.joined(separator: "\n")
                output += "}\n"
            }
        }
        if !plan.enumerations.isEmpty {
            output += "\n// MARK: - Enums\n"
            for enumeration in plan.enumerations.sorted(by: { $0.typeName < $1.typeName }) {
                output += "\n" + declaration(of: enumeration)
            }
        }
        return output
    }

    /// Keys grouped by value type: the built-in types first, in a fixed order, then the others
    /// by name; keys sorted within each group.
    static func grouped(_ keys: [KeyPlan.Key]) -> [(String, [KeyPlan.Key])] {
        let builtIn = ["Bool", "Int", "Double", "String", "JSONValue"]
        let groups = Dictionary(grouping: keys, by: \.valueType)
        let order = groups.keys.sorted { lhs, rhs in
            let left = builtIn.firstIndex(of: lhs) ?? builtIn.count
            let right = builtIn.firstIndex(of: rhs) ?? builtIn.count
            return left != right ? left < right : lhs < rhs
        }
        return order.map { type in (type, groups[type]!.sorted { $0.definition.key < $1.definition.key }) }
    }

    private var access: String { options.accessLevel == .public ? "public " : "" }

    private func origin(of definition: FlagDefinition) -> String {
        let location = definition.location
        let file = options.displayPath(location.file)
        return location.isKnown ? "\(file):\(location.line)" : file
    }

    private func declaration(of key: KeyPlan.Key, keyType: String) -> String {
        let definition = key.definition
        let kind = definition.kind == .flag ? "Flag" : "Preference"
        let originLine = "\(kind) `\(definition.key)`, generated from \(origin(of: definition))."
        var callouts: [String] = []
        if let owner = definition.owner { callouts.append("- Owner: \(Self.docText(owner))") }
        if let expires = definition.expires { callouts.append("- Expires: \(expires)") }
        let summary = Self.docLines(definition.summary)
        let paragraphs = summary.isEmpty ? [[originLine], callouts] : [summary, callouts, [originLine]]
        var text = Self.docComment(paragraphs.filter { !$0.isEmpty }, indent: "    ")
        let start = "    \(access)static let \(key.member) = \(keyType)<\(key.valueType)>("
        let name = SwiftLiteral.string(definition.key)
        let oneLine = start + name + ", default: " + defaultExpression(key, indent: 4, used: .max) + ")"
        if oneLine.count <= Self.width {
            text += oneLine + "\n"
        } else {
            let argumentIndent = "        "
            let value = defaultExpression(key, indent: 8, used: argumentIndent.count + "default: ".count)
            text += start + "\n" + argumentIndent + name + ",\n" + argumentIndent + "default: " + value + ")\n"
        }
        return text
    }

    /// The default as Swift; `used` is the column it starts at, or `.max` for one line.
    private func defaultExpression(_ key: KeyPlan.Key, indent: Int, used: Int) -> String {
        let oneLine = used == .max
        switch key.defaultValue {
        case .expression(let expression):
            return expression
        case .json(let value):
            return oneLine
                ? SwiftLiteral.compactJSONValue(value) : SwiftLiteral.jsonValue(value, indent: indent, used: used)
        case .converted(let value):
            let keyArgument = "key: " + SwiftLiteral.string(key.definition.key)
            let compact = "\(key.valueType)(generatedDefault: \(SwiftLiteral.compactJSONValue(value)), \(keyArgument))"
            if oneLine || used + compact.count + 1 <= Self.width { return compact }
            let inner = String(repeating: " ", count: indent + 4)
            let label = "generatedDefault: "
            let json = SwiftLiteral.jsonValue(value, indent: indent + 4, used: inner.count + label.count + 1)
            return "\(key.valueType)(\n\(inner)\(label)\(json),\n\(inner)\(keyArgument))"
        }
    }

    private func declaration(of enumeration: KeyPlan.Enumeration) -> String {
        let definition = enumeration.definition
        let kind = definition.kind == .flag ? "flag" : "preference"
        var text = Self.docComment(
            [["The values of the \(kind) `\(definition.key)`, generated from \(origin(of: definition))."]], indent: "")
        text += "\(access)enum \(enumeration.typeName): String, CaseIterable, FlagValueConvertible {\n"
        for (name, rawValue) in enumeration.cases {
            let unescaped = name.hasPrefix("`") ? String(name.dropFirst().dropLast()) : name
            text +=
                unescaped == rawValue ? "    case \(name)\n" : "    case \(name) = \(SwiftLiteral.string(rawValue))\n"
        }
        return text + "}\n"
    }

    /// Paragraphs of documentation as `///` lines, separated by empty `///` lines.
    static func docComment(_ paragraphs: [[String]], indent: String) -> String {
        paragraphs.map { lines in lines.map { $0.isEmpty ? "\(indent)///\n" : "\(indent)/// \($0)\n" }.joined() }
            .joined(separator: "\(indent)///\n")
    }

    /// A description's lines, trimmed, with empty lines at either end dropped (empty lines
    /// inside are kept: they separate paragraphs).
    static func docLines(_ text: String?) -> [String] {
        guard let text else { return [] }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { docText(String($0)) }
        while lines.first?.isEmpty == true { lines.removeFirst() }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }

    /// Text safe inside a `///` line: controls and invisible direction marks become spaces,
    /// trailing spaces are dropped.
    static func docText(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            result.unicodeScalars.append(BackslashEscaping.swift.escapesNumerically(scalar) ? " " : scalar)
        }
        while result.last == " " { result.removeLast() }
        return result
    }
}
