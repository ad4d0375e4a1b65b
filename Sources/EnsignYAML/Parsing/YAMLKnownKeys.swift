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
    /// Each name as its length and its bytes in two zero-padded words, so that matching a key
    /// compares three integers per name instead of bytes (a key longer than 16 bytes is
    /// compared with the names' UTF-8 instead). Comparing bytes was 2.6% of the reading
    /// thread's instructions in a 10,000-flag load; the packed names take 1.2%.
    private let packedNames: [PackedName]

    /// A set of distinct names, at most ``capacity``.
    package init(_ names: [String]) {
        precondition(names.count <= Self.capacity, "at most \(Self.capacity) known keys")
        precondition(Set(names).count == names.count, "known keys must be distinct")
        self.names = names
        packedNames = names.map { name in
            let bytes = Array(name.utf8)
            return bytes.count <= PackedName.byteCapacity ? bytes.withUnsafeBytes(PackedName.init) : .unmatchable
        }
    }

    /// The index of the name `key`, compared by its UTF-8 bytes, if any.
    package func index(of key: String) -> Int? {
        var text = key
        return text.withUTF8 { index(of: UnsafeRawBufferPointer($0)) }
    }

    /// The index of the name whose UTF-8 bytes are `key`, if any.
    func index(of key: UnsafeRawBufferPointer) -> Int? {
        guard key.count <= PackedName.byteCapacity else {
            return names.firstIndex { $0.utf8.elementsEqual(key) }
        }
        return packedNames.firstIndex(of: PackedName(key))
    }
}

/// Up to 16 bytes and their count, compared as integers.
private struct PackedName: Equatable {
    static let byteCapacity = 16

    var count: Int
    var words: (UInt64, UInt64) = (0, 0)

    /// `bytes`, which must be at most ``byteCapacity`` long.
    init(_ bytes: UnsafeRawBufferPointer) {
        count = bytes.count
        withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: bytes) }
    }

    /// A count no key has: for a name too long to pack.
    static let unmatchable = PackedName(count: -1)

    private init(count: Int) {
        self.count = count
    }

    static func == (left: PackedName, right: PackedName) -> Bool {
        left.count == right.count && left.words.0 == right.words.0 && left.words.1 == right.words.1
    }
}

/// A key read by ``YAMLEventReader/nextKey(in:known:)``.
package enum YAMLKey {
    /// One of the known names (its index in ``YAMLKnownKeys/names``), where it stands.
    case known(Int, CompactSourcePosition)
    /// Any other key, as a node.
    case other(YAMLNode)
}
