import EnsignYAML

/// A value together with the place in a file where it was written.
package struct LocatedValue: Sendable, Hashable {
    /// The value.
    package var value: JSONValue
    /// Where it was written, compact (its file by number).
    package var position: CompactSourcePosition

    /// Where it was written.
    package var location: SourcePosition {
        get { position.sourcePosition }
        set { position = CompactSourcePosition(newValue) }
    }

    /// Creates a located value.
    package init(_ value: JSONValue, at location: SourcePosition) {
        self.value = value
        self.position = CompactSourcePosition(location)
    }

    /// Creates a located value at a position already compact (a node's), without looking its
    /// file's name up.
    package init(_ value: JSONValue, at position: CompactSourcePosition) {
        self.value = value
        self.position = position
    }
}
