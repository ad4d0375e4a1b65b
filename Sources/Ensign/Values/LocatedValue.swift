/// A value together with the place in a file where it was written.
package struct LocatedValue: Sendable, Hashable {
    /// The value.
    package var value: JSONValue
    /// Where it was written.
    package var location: SourcePosition

    /// Creates a located value.
    package init(_ value: JSONValue, at location: SourcePosition) {
        self.value = value
        self.location = location
    }
}
