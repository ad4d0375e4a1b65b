/// A value together with the place in a file where it was written.
public struct LocatedValue: Sendable, Hashable {
    /// The value.
    public var value: JSONValue
    /// Where it was written.
    public var location: SourceLocation

    /// Creates a located value.
    public init(_ value: JSONValue, at location: SourceLocation) {
        self.value = value
        self.location = location
    }
}
