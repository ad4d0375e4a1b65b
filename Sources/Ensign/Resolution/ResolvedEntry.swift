/// One key's resolution in a snapshot: the winning value (or `nil` for "the code default"),
/// with its variant, reason, error and source.
struct ResolvedEntry: Sendable, Equatable {
    var value: JSONValue?
    var variant: String?
    var reason: ResolutionReason
    var errorCode: ResolutionErrorCode?
    var errorMessage: String?
    var source: ValueSource

    static let notFound = ResolvedEntry(
        value: nil, variant: nil, reason: .error, errorCode: .flagNotFound,
        errorMessage: "no definitions file defines this key", source: .codeDefault)

    /// Whether two entries would read the same to an observer (value and variant).
    func hasSameValue(as other: ResolvedEntry) -> Bool {
        value == other.value && variant == other.variant
    }
}
