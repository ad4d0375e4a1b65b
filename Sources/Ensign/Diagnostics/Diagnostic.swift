import EnsignYAML

/// One problem found in a configuration file, in the `path:line:column: severity: message`
/// form that compilers use, so editors and CI annotate it.
///
/// Loading and validation collect every problem rather than stopping at the first, so a
/// file can be fixed in one pass.
///
/// ```swift
/// for diagnostic in context.loadDiagnostics {
///     print(diagnostic)  // flags/app.yaml:12:14: error: 'beneficiaries.pageSize' default "twenty" is not an int
/// }
/// ```
public struct Diagnostic: Sendable, Hashable {
    /// How serious a diagnostic is.
    public enum Severity: String, Sendable, Hashable, Comparable {
        /// The file cannot be used as it is.
        case error
        /// The file works, but probably not as intended.
        case warning
        /// Extra context attached to another diagnostic.
        case note

        private var rank: Int {
            switch self {
            case .error: return 0
            case .warning: return 1
            case .note: return 2
            }
        }

        /// Errors sort before warnings, warnings before notes.
        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
    }

    /// How serious it is.
    public var severity: Severity
    /// Where it is.
    public var location: SourcePosition
    /// The flag or preference key it concerns (full, with namespace), when there is one.
    public var key: String?
    /// What is wrong, and how to fix it where that is known.
    public var message: String
    /// Related places, such as the first definition of a key defined twice.
    public var notes: [Diagnostic]

    /// Creates a diagnostic.
    public init(
        _ severity: Severity, at location: SourcePosition, key: String? = nil, _ message: String,
        notes: [Diagnostic] = []
    ) {
        self.severity = severity
        self.location = location
        self.key = key
        self.message = message
        self.notes = notes
    }

    /// Whether this is an error.
    public var isError: Bool { severity == .error }
}

extension Diagnostic: CustomStringConvertible {
    /// The diagnostic and its notes, one per line, in compiler style.
    public var description: String {
        var lines = ["\(location): \(severity.rawValue): \(message)"]
        lines += notes.map(\.description)
        return lines.joined(separator: "\n")
    }
}

extension Diagnostic {
    /// A diagnostic for a YAML syntax or limit error.
    package init(_ error: YAMLError) {
        self.init(.error, at: error.location, error.message)
    }

    /// An error at `definition` about `other`, which it clashes with (the key's first
    /// definition, a key that becomes the same Swift name), with a note at `other`; each
    /// carries its own key.
    package static func clash(
        _ message: String, at definition: FlagDefinition, with other: FlagDefinition, note: String
    ) -> Diagnostic {
        Diagnostic(
            .error, at: definition.location, key: definition.key, message,
            notes: [Diagnostic(.note, at: other.location, key: other.key, note)])
    }
}

extension Array where Element == Diagnostic {
    /// Whether any diagnostic is an error.
    public var containsErrors: Bool { contains(where: \.isError) }

    /// The diagnostics in reading order: by file, line and column, errors first at one position.
    public func sortedByLocation() -> [Diagnostic] {
        sorted { ($0.location, $0.severity) < ($1.location, $1.severity) }
    }
}
