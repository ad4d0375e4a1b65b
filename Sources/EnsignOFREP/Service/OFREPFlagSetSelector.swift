import Ensign

/// flagd's selector: which flag set a request is about, by the `flagSetId` in the flags'
/// metadata (a flag's own, or its file's). A client sends it as the `Flagd-Selector` header or
/// the `selector` query parameter: `Flagd-Selector: flagSetId=payments`.
///
/// ```swift
/// let selector = try OFREPFlagSetSelector(parsing: "flagSetId=payments")
/// selector.flagSetID  // "payments"
/// ```
public struct OFREPFlagSetSelector: Sendable, Hashable, CustomStringConvertible {
    /// The flag set selected.
    public var flagSetID: String

    /// The metadata key that names a flag's set, as flagd names it.
    public static let metadataKey = FlagDefinition.flagSetMetadataKey

    /// The request header that carries a selector.
    public static let headerName = "flagd-selector"

    /// A selector that could not be read; what is wrong.
    public struct Invalid: Error, Sendable, CustomStringConvertible {
        /// What is wrong with the selector, and the form it should have.
        public var description: String
    }

    /// A selector for `flagSetID`.
    public init(flagSetID: String) {
        self.flagSetID = flagSetID
    }

    /// Reads flagd's selector text, `flagSetId=ID` (spaces around either side allowed).
    ///
    /// - Throws: ``Invalid`` for anything else: flagd's older `source=…` selectors name a flag
    ///   source, which Ensign's sets do not depend on, and an empty set name selects nothing.
    public init(parsing text: String) throws(Invalid) {
        guard let equals = text.firstIndex(of: "=") else {
            throw Invalid(description: "the selector '\(text)' is not flagSetId=ID")
        }
        let name = text[..<equals].trimmingCharacters(" \t")
        let value = text[text.index(after: equals)...].trimmingCharacters(" \t")
        guard name == Self.metadataKey else {
            throw Invalid(
                description: "the selector '\(text)' selects by '\(name)'; Ensign selects flag sets: flagSetId=ID")
        }
        guard !value.isEmpty else { throw Invalid(description: "the selector '\(text)' names no flag set") }
        flagSetID = value
    }

    /// `flagSetId=ID`.
    public var description: String { "\(Self.metadataKey)=\(flagSetID)" }

    /// Whether the flag `definition` belongs to the selected set.
    package func selects(_ definition: FlagDefinition) -> Bool {
        definition.flagSetID == flagSetID
    }

    /// The selector a request carries: its `Flagd-Selector` header, else its `selector` query
    /// parameter; `nil` when it has neither.
    package static func of(_ request: OFREPHTTPRequest) throws(Invalid) -> OFREPFlagSetSelector? {
        // The name is lower case already: no lower-casing on every request.
        if let header = request.headers[headerName] { return try OFREPFlagSetSelector(parsing: header) }
        guard let query = request.query else { return nil }
        for pair in query.split(separator: "&") where pair.hasPrefix("selector=") {
            guard let value = PercentDecoding.decode(pair.dropFirst("selector=".count), plusIsSpace: true) else {
                throw Invalid(description: "the selector parameter is not valid percent-encoded UTF-8")
            }
            return try OFREPFlagSetSelector(parsing: value)
        }
        return nil
    }
}

extension StringProtocol {
    /// The text without the `characters` at either end.
    fileprivate func trimmingCharacters(_ characters: String) -> String {
        guard let start = firstIndex(where: { !characters.contains($0) }),
            let end = lastIndex(where: { !characters.contains($0) })
        else { return "" }
        return String(self[start...end])
    }
}
