import EnsignYAML

/// A ``SourcePosition`` in 12 bytes: its file as a ``SourceFileNames`` number and 32-bit line
/// and column (YAML files are size-bounded far below 4 billion lines).
struct CompactSourcePosition: Sendable, Hashable {
    let file: UInt32
    let line: UInt32
    let column: UInt32

    /// No position: line 0, as ``SourcePosition/isKnown`` reads it.
    static let none = CompactSourcePosition(file: 0, line: 0, column: 0)

    private init(file: UInt32, line: UInt32, column: UInt32) {
        (self.file, self.line, self.column) = (file, line, column)
    }

    /// Whether this is a position in a real text (line and column known).
    var isKnown: Bool { line > 0 }

    /// The position, made compact.
    init(_ position: SourcePosition) {
        file = SourceFileNames.number(for: position.file)
        line = UInt32(clamping: position.line)
        column = UInt32(clamping: position.column)
    }

    /// The position as the public API gives it.
    var sourcePosition: SourcePosition {
        SourcePosition(file: SourceFileNames.name(file), line: Int(line), column: Int(column))
    }
}
