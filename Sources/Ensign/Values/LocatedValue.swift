/// A value together with the place in a file where it was written.
public struct LocatedValue: Sendable, Hashable {
    /// The value.
    public var value: JSONValue
    /// Where it was written.
    public var location: SourcePosition

    /// Creates a located value.
    public init(_ value: JSONValue, at location: SourcePosition) {
        self.value = value
        self.location = location
    }
}
