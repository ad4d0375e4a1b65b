/// A position in a source file: the file's path and a 1-based line and column.
///
/// Every ``YAMLNode`` carries one, so any later error can point at the exact text that
/// caused it, in the `path:line:column` form compilers and editors understand.
///
/// ```swift
/// let location = SourcePosition(file: "flags/app.yaml", line: 12, column: 14)
/// print(location)  // flags/app.yaml:12:14
/// ```
public struct SourcePosition: Sendable, Hashable {
    /// The file's path as it was given to the parser (or a label such as `<memory>`).
    public var file: String
    /// The 1-based line.
    public var line: Int
    /// The 1-based column, counted in characters.
    public var column: Int

    /// Creates a location.
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// A location for values that do not come from a file (code, API calls).
    public static func unknown(_ label: String) -> SourcePosition {
        SourcePosition(file: label, line: 0, column: 0)
    }

    /// Whether the location points into a real text (line and column are known).
    public var isKnown: Bool { line > 0 }
}

extension SourcePosition: CustomStringConvertible {
    /// `path:line:column`, or just the label when the position is unknown.
    public var description: String {
        isKnown ? "\(file):\(line):\(column)" : file
    }
}

extension SourcePosition: Comparable {
    /// Orders by file, then line, then column, so diagnostics print in reading order.
    public static func < (lhs: SourcePosition, rhs: SourcePosition) -> Bool {
        (lhs.file, lhs.line, lhs.column) < (rhs.file, rhs.line, rhs.column)
    }
}
