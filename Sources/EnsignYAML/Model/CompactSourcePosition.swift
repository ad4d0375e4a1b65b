/// A ``SourcePosition`` in 12 bytes: its file as a ``SourceFileNames`` number and 32-bit line
/// and column (YAML files are size-bounded far below 4 billion lines).
///
/// Trivially copyable: a parsed file has hundreds of thousands of nodes, and a position that
/// held its file name by reference would cost a reference count at every copy of a node.
package struct CompactSourcePosition: Sendable, Hashable {
    /// The file's number in ``SourceFileNames``.
    package let file: UInt32
    /// The 1-based line; 0 when unknown.
    package let line: UInt32
    /// The 1-based column.
    package let column: UInt32

    /// No position: line 0, as ``SourcePosition/isKnown`` reads it.
    package static let none = CompactSourcePosition(file: 0, line: 0, column: 0)

    /// A position in the file numbered `file` (see ``SourceFileNames/number(for:)``).
    package init(file: UInt32, line: Int, column: Int) {
        self.file = file
        self.line = UInt32(clamping: line)
        self.column = UInt32(clamping: column)
    }

    private init(file: UInt32, line: UInt32, column: UInt32) {
        (self.file, self.line, self.column) = (file, line, column)
    }

    /// Whether this is a position in a real text (line and column known).
    package var isKnown: Bool { line > 0 }

    /// The position, made compact.
    package init(_ position: SourcePosition) {
        file = SourceFileNames.number(for: position.file)
        line = UInt32(clamping: position.line)
        column = UInt32(clamping: position.column)
    }

    /// The position as the public API gives it.
    package var sourcePosition: SourcePosition {
        SourcePosition(file: SourceFileNames.name(file), line: Int(line), column: Int(column))
    }
}
