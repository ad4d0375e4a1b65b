/// One node of a parsed YAML document: a scalar, a sequence or a mapping, with its tag,
/// its style and where it came from.
///
/// Aliases are already resolved (an alias node is a copy of its anchor's node, keeping the
/// anchor's location) and merge keys (`<<`) are already applied. Mapping entries keep their
/// order from the file.
///
/// ```swift
/// let root = try YAMLParser().document(from: "pageSize: 20", file: "app.yaml")
/// if let entry = root?.entry(forKey: "pageSize") {
///     print(entry.value.location)  // app.yaml:1:11
/// }
/// ```
package struct YAMLNode: Sendable {
    /// What the node holds.
    package enum Content: Sendable {
        /// A scalar: its text exactly as written (after unescaping) and the style used.
        case scalar(String, ScalarStyle)
        /// A sequence of nodes.
        case sequence([YAMLNode])
        /// A mapping, in file order.
        case mapping([YAMLMappingEntry])
    }

    /// The node's content.
    package var content: Content
    /// The explicit tag, rare, so boxed: a reference in every node costs less than a string.
    private var tagBox: TextBox?
    /// The position, compact: a parsed file has hundreds of thousands of nodes, so each one
    /// refers to its file's name by number and keeps its line and column in 32 bits each.
    package private(set) var compactPosition: CompactSourcePosition

    /// The explicit tag, expanded (`!!str` is `tag:yaml.org,2002:str`), or `nil` when none was written.
    package var tag: String? {
        get { tagBox?.text }
        set { tagBox = newValue.map(TextBox.init) }
    }

    /// Where the node starts.
    package var location: SourcePosition {
        get { compactPosition.sourcePosition }
        set { compactPosition = CompactSourcePosition(newValue) }
    }

    /// Creates a node.
    package init(_ content: Content, tag: String? = nil, location: SourcePosition) {
        self.content = content
        self.tagBox = tag.map(TextBox.init)
        self.compactPosition = CompactSourcePosition(location)
    }

    /// Creates a node without a tag at a compact position.
    package init(_ content: Content, at position: CompactSourcePosition) {
        self.content = content
        self.compactPosition = position
    }

    /// Creates a node in the file numbered `file` (see ``SourceFileNames``).
    init(_ content: Content, tag: String?, file: UInt32, line: Int, column: Int) {
        self.content = content
        self.tagBox = tag.map(TextBox.init)
        self.compactPosition = CompactSourcePosition(file: file, line: line, column: column)
    }
}

/// A string behind one reference, shared by every node that points at it.
final class TextBox: Sendable {
    let text: String

    init(_ text: String) {
        self.text = text
    }
}

/// One `key: value` pair of a mapping node.
package struct YAMLMappingEntry: Sendable {
    /// The key node (usually a plain scalar).
    package var key: YAMLNode
    /// The value node.
    package var value: YAMLNode

    /// Creates an entry.
    package init(key: YAMLNode, value: YAMLNode) {
        self.key = key
        self.value = value
    }
}

/// How a scalar was written; only plain scalars are resolved to null, bool, int or float.
package enum ScalarStyle: Sendable, Hashable {
    /// Unquoted.
    case plain
    /// In single quotes.
    case singleQuoted
    /// In double quotes.
    case doubleQuoted
    /// A `|` block.
    case literal
    /// A `>` block.
    case folded
}

extension YAMLNode {
    /// Whether this is a mapping.
    package var isMapping: Bool {
        if case .mapping = content { return true }
        return false
    }

    /// The scalar's text, when this is a scalar.
    package var scalarText: String? {
        if case .scalar(let text, _) = content { return text }
        return nil
    }

    /// The entries, when this is a mapping.
    package var mappingEntries: [YAMLMappingEntry]? {
        if case .mapping(let entries) = content { return entries }
        return nil
    }

    /// The elements, when this is a sequence.
    package var sequenceElements: [YAMLNode]? {
        if case .sequence(let elements) = content { return elements }
        return nil
    }

    /// The first entry whose key is a scalar with this text. O(n) in the mapping's size.
    package func entry(forKey key: String) -> YAMLMappingEntry? {
        mappingEntries?.first { $0.key.scalarText == key }
    }

    /// A short name for the node's kind, for messages: "a mapping", "a sequence", "a string", "an int", …
    package var kindDescription: String {
        switch content {
        case .mapping: return "a mapping"
        case .sequence: return "a sequence"
        case .scalar:
            switch resolvedScalar {
            case .null: return "null"
            case .bool: return "a bool"
            case .int: return "an int"
            case .double: return "a double"
            case .string: return "a string"
            }
        }
    }
}
