import Testing

/// Expects `parse` to refuse `text` with an error whose description starts with `expected`
/// (the wire types' errors start with the path of the member at fault).
func expectRefusal<Parsed>(
    of text: String, startingWith expected: String, sourceLocation: SourceLocation = #_sourceLocation,
    by parse: (String) throws -> Parsed
) {
    #expect(sourceLocation: sourceLocation) {
        _ = try parse(text)
    } throws: { error in
        "\(error)".hasPrefix(expected)
    }
}
