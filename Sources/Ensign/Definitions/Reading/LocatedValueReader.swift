import EnsignYAML

/// Reads a YAML node as a value for a key, the one way every file kind does it: core-schema
/// scalars, YAML 1.1 boolean words accepted with a warning where a bool is expected, and the
/// key's rules checked, each problem reported at the node's position.
enum LocatedValueReader {
    /// The checked value, or `nil` after adding an error to `diagnostics`.
    ///
    /// - Parameter role: what the value is, for messages: "default", "value", "variant 'on'"
    ///   (made only for a message: it runs for every value of every definition).
    static func read(
        _ node: YAMLNode, rules: ValueRules, key: String, role: @autoclosure () -> String,
        diagnostics: inout [Diagnostic]
    ) -> JSONValue? {
        var value = JSONValue(node)
        if rules.type == .bool, case .string = value, case .scalar(let text, .plain) = node.content, node.tag == nil,
            let meant = BoolLookalike.meaning(of: text)
        {
            diagnostics.append(
                Diagnostic(
                    .warning, at: node.location, key: key,
                    "'\(key)' \(role()) \(text) is a string in YAML 1.2; Ensign reads it as \(meant) here,"
                        + " but write \(meant) to be unambiguous"))
            value = .bool(meant == "true")
        }
        switch rules.check(value) {
        case .success(let converted):
            return converted
        case .failure(let problem):
            diagnostics.append(Diagnostic(.error, at: node.location, key: key, "'\(key)' \(role()) \(problem)"))
            return nil
        }
    }
}
