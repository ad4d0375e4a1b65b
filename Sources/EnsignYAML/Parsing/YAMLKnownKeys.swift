/// Key names a reader knows in advance (a definition's fields), matched from a plain key's
/// bytes by ``YAMLEventReader/nextKey(in:known:)``: no text, node or hash is made for them.
///
/// ```swift
/// let fields = YAMLKnownKeys(["type", "default"])
/// var mapping = try reader.enterMapping()
/// while let key = try reader.nextKey(in: &mapping, known: fields) {
///     switch key {
///     case .known(let index, _): print(fields.names[index])
///     case .other(let node): print("unknown:", node.scalarText ?? "?")
///     }
///     _ = try reader.composeNode()
/// }
/// ```
package struct YAMLKnownKeys: Sendable {
    /// Most names a set can hold (one bit and one lane of a 16-lane vector each in a
    /// mapping's cursor).
    package static let capacity = 16

    /// The names, by index.
    package let names: [String]
    private let bytes: [[UInt8]]

    /// A set of distinct names, at most ``capacity``.
    package init(_ names: [String]) {
        precondition(names.count <= Self.capacity, "at most \(Self.capacity) known keys")
        precondition(Set(names).count == names.count, "known keys must be distinct")
        self.names = names
        bytes = names.map { Array($0.utf8) }
    }

    /// The index of the name `key`, compared by its UTF-8 bytes, if any.
    package func index(of key: String) -> Int? {
        var text = key
        return text.withUTF8 { index(of: UnsafeRawBufferPointer($0)) }
    }

    /// The index of the name whose UTF-8 bytes are `key`, if any.
    func index(of key: UnsafeRawBufferPointer) -> Int? {
        for (index, name) in bytes.enumerated() where name.count == key.count {
            if name.withUnsafeBytes({ $0.elementsEqual(key) }) { return index }
        }
        return nil
    }
}

/// A key read by ``YAMLEventReader/nextKey(in:known:)``.
package enum YAMLKey {
    /// One of the known names (its index in ``YAMLKnownKeys/names``), where it stands.
    case known(Int, CompactSourcePosition)
    /// Any other key, as a node.
    case other(YAMLNode)
}
