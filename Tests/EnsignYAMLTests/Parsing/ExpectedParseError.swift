import EnsignYAML
import Testing

extension YAMLParser {
    /// The error reading `text` as documents must throw; when it throws none, an issue is
    /// recorded and the result is `nil`.
    func expectedError(
        reading text: String, file: String, sourceLocation: SourceLocation = #_sourceLocation
    ) -> YAMLError? {
        #expect(throws: YAMLError.self, sourceLocation: sourceLocation) { try documents(from: text, file: file) }
    }
}
