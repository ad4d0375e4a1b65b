import EnsignSupport

/// Writes ``YAMLNode`` trees as JSON text (RFC 8259), which every YAML reader reads too.
///
/// `ensign export` writes its bundles with it, and a build without the `YAML` trait writes
/// the preferences and overrides files with it. Scalars are written as the core schema reads
/// them: a plain `20` is the number 20, a plain `true` the boolean, `~` null, a quoted `"20"`
/// the string. Mapping keys are written as their text. The output is indented by two spaces;
/// a collection of scalars that fits on a line is written on one, so a targeting rule stays
/// readable. Characters libyaml refuses unescaped (U+007F–U+009F, U+FEFF, U+FFFE, U+FFFF) are
/// escaped, so what is written reads back the same through libyaml and the JSON reader.
///
/// ```swift
/// let node = YAMLNode.mapping(["flags": .mapping(["beneficiaries.pageSize": .int(50)])])
/// let text = try JSONNodeWriter().text(for: node)
/// // {
/// //   "flags": {"beneficiaries.pageSize": 50}
/// // }
/// ```
package struct JSONNodeWriter: Sendable {
    /// The longest line a collection of scalars is written on before it is spread over lines.
    package var lineWidth = 100

    /// Creates a writer.
    package init() {}

    /// The JSON text of `node`, ending with a newline.
    ///
    /// - Throws: ``YAMLError`` of kind `unsupported` at the node that JSON cannot hold: an
    ///   infinite or NaN number, or a mapping key that is not a scalar.
    package func text(for node: YAMLNode) throws(YAMLError) -> String {
        var output = ""
        try write(node, indentation: "", into: &output)
        output += "\n"
        return output
    }

    private func write(_ node: YAMLNode, indentation: String, into output: inout String) throws(YAMLError) {
        switch node.content {
        case .scalar:
            output += try scalar(node)
        case .sequence(let elements):
            try writeCollection(
                elements, open: "[", close: "]", indentation: indentation, into: &output,
                inline: { (element) throws(YAMLError) in elements.allSatisfy(\.isScalar) ? try scalar(element) : nil },
                member: { (element, inner, output) throws(YAMLError) in
                    try write(element, indentation: inner, into: &output)
                })
        case .mapping(let entries):
            try writeCollection(
                entries, open: "{", close: "}", indentation: indentation, into: &output,
                inline: { (entry) throws(YAMLError) in
                    entries.allSatisfy(\.value.isScalar) ? try key(entry) + ": " + scalar(entry.value) : nil
                },
                member: { (entry, inner, output) throws(YAMLError) in
                    output += try key(entry) + ": "
                    try write(entry.value, indentation: inner, into: &output)
                })
        }
    }

    /// Writes a collection on one line when every member has an `inline` form and the line
    /// is short enough, else one member a line.
    private func writeCollection<Member>(
        _ members: [Member], open: String, close: String, indentation: String, into output: inout String,
        inline: (Member) throws(YAMLError) -> String?,
        member: (Member, String, inout String) throws(YAMLError) -> Void
    ) throws(YAMLError) {
        guard !members.isEmpty else {
            output += open + close
            return
        }
        var parts: [String] = []
        for item in members {
            guard let part = try inline(item) else { break }
            parts.append(part)
        }
        if parts.count == members.count {
            let line = open + parts.joined(separator: ", ") + close
            if indentation.count + line.count <= lineWidth {
                output += line
                return
            }
        }
        let inner = indentation + "  "
        output += open + "\n"
        for (index, item) in members.enumerated() {
            output += inner
            try member(item, inner, &output)
            output += index == members.count - 1 ? "\n" : ",\n"
        }
        output += indentation + close
    }

    private func key(_ entry: YAMLMappingEntry) throws(YAMLError) -> String {
        guard let text = entry.key.scalarText else {
            throw YAMLError(
                .unsupported, at: entry.key.location,
                "a mapping key that is \(entry.key.kindDescription) has no JSON form; use a string key")
        }
        return text.backslashQuoted(.json)
    }

    /// A scalar as the core schema reads it, in JSON.
    private func scalar(_ node: YAMLNode) throws(YAMLError) -> String {
        switch node.resolvedScalar {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .int(let value): return String(value)
        case .double(let value):
            // The number as written when JSON allows it (a 25-digit integer stays exact, 1e400
            // reads back as the same infinity), else Swift's shortest form, with a fraction so
            // that it reads back as a double.
            if case .scalar(let text, .plain) = node.content, node.tag == nil, Self.isJSONNumber(text) {
                return text
            }
            guard value.isFinite else {
                throw YAMLError(
                    .unsupported, at: node.location,
                    "\(value) has no JSON form; JSON numbers are finite (write a large number or a string)")
            }
            if value.rounded() == value, abs(value) < 1e15 { return String(Int(value)) + ".0" }
            return String(value)
        case .string(let text): return text.backslashQuoted(.json)
        }
    }

    /// Whether `text` is a number in JSON's grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    static func isJSONNumber(_ text: String) -> Bool {
        var bytes = Substring(text).utf8[...]
        func digits() -> Int {
            let count = bytes.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }.count
            bytes = bytes.dropFirst(count)
            return count
        }
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        if bytes.first == UInt8(ascii: "0") {
            bytes = bytes.dropFirst()
        } else if digits() == 0 {
            return false
        }
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            guard digits() > 0 else { return false }
        }
        if let first = bytes.first, first | 0x20 == UInt8(ascii: "e") {
            bytes = bytes.dropFirst()
            if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            guard digits() > 0 else { return false }
        }
        return bytes.isEmpty
    }
}

extension YAMLNode {
    /// Whether this is a scalar.
    fileprivate var isScalar: Bool {
        if case .scalar = content { return true }
        return false
    }
}
