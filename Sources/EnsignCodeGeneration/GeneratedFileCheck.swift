import Ensign

/// Checks that a committed generated file still matches the definitions: for teams that check
/// the output of `ensign generate` in instead of using the build-tool plugin.
///
/// The file is generated again in memory with the options its header records, and the bytes
/// are compared; `ensign validate --check-generated FILE` runs this check.
///
/// ```swift
/// let loaded = DefinitionLoader().loadDirectory("flags")
/// let problems = GeneratedFileCheck(path: "Sources/App/EnsignKeys.swift", contents: text)
///     .check(against: loaded.definitions, sourceDirectories: ["flags"])
/// ```
public struct GeneratedFileCheck: Sendable {
    /// The file's path, for diagnostics.
    public var path: String
    /// The file's contents.
    public var contents: String

    /// Creates a check of a file already read.
    public init(path: String, contents: String) {
        self.path = path
        self.contents = contents
    }

    /// Problems with the file: none when it is exactly what the definitions generate now.
    ///
    /// - Parameter sourceDirectories: the directories the definitions were loaded from (see
    ///   ``KeyGenerationOptions/sourceDirectories``).
    package func check(against definitions: DefinitionSet, sourceDirectories: [String]) -> [Diagnostic] {
        guard let header = GeneratedKeysHeader(parsing: contents) else {
            return [
                Diagnostic(
                    .error, at: SourcePosition(file: path, line: 1, column: 1),
                    "\(path) does not start with the header `ensign generate` writes, so it cannot be checked;"
                        + " generate it with 'ensign generate --flags DIR --output \(path)'")
            ]
        }
        let options = KeyGenerationOptions(accessLevel: header.accessLevel, sourceDirectories: sourceDirectories)
        let result = KeyGenerator(options: options).generate(from: definitions)
        guard let expected = result.source else {
            return result.diagnostics + [
                Diagnostic(
                    .error, at: .unknown(path), "\(path) cannot be checked: the definitions do not generate keys")
            ]
        }
        guard expected != contents else { return [] }
        let line = Self.firstDifferentLine(expected, contents)
        let directory = sourceDirectories.first ?? "DIR"
        return [
            Diagnostic(
                .error, at: SourcePosition(file: path, line: line, column: 1),
                "\(path) is stale: it does not match the definitions (first difference at line \(line));"
                    + " regenerate it with 'ensign generate --flags \(directory) --access \(header.accessLevel.rawValue)"
                    + " --output \(path)'")
        ]
    }

    /// The first line (1-based) where two texts differ.
    static func firstDifferentLine(_ lhs: String, _ rhs: String) -> Int {
        let left = lhs.split(separator: "\n", omittingEmptySubsequences: false)
        let right = rhs.split(separator: "\n", omittingEmptySubsequences: false)
        for index in 0..<min(left.count, right.count) where left[index] != right[index] {
            return index + 1
        }
        return min(left.count, right.count) + 1
    }
}
