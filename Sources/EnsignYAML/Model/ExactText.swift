/// A string compared by its Unicode scalars (in UTF-8, its bytes), as flagd compares flag
/// data, for dictionary keys and sets.
///
/// Swift's `String ==` is canonical equivalence: `"été" == "e\u{301}te\u{301}"` is `true`.
/// flagd (Go and Python) compares bytes, so a variant "été" written in NFC does not match a
/// context value in NFD, and "é" and "e\u{301}" are two variant names. Wherever flag data is
/// matched — variant names, keys, duplicate detection (the YAML and JSON readers), `==`,
/// `in` — Ensign compares scalars.
package struct ExactText: Hashable, Sendable {
    /// The string.
    package let text: String

    /// Wraps `text`.
    package init(_ text: String) {
        self.text = text
    }

    package static func == (lhs: ExactText, rhs: ExactText) -> Bool {
        lhs.text.isExactly(rhs.text)
    }

    package func hash(into hasher: inout Hasher) {
        var text = text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}

extension String {
    /// Whether both strings have the same Unicode scalars (see ``ExactText``).
    ///
    /// Compares the contiguous UTF-8 buffers: the generic `utf8.elementsEqual` walks both
    /// views through an iterator, byte by byte, and cost a targeted evaluation most of its time
    /// (each `var` lookup checks the member it found by exact name).
    @inlinable
    package func isExactly(_ other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        var (lhs, rhs) = (self, other)
        return lhs.withUTF8 { lhsBytes in rhs.withUTF8 { rhsBytes in lhsBytes.elementsEqual(rhsBytes) } }
    }
}

extension StringProtocol {
    /// Whether both strings have the same Unicode scalars (see ``ExactText``).
    package func isExactly(_ other: some StringProtocol) -> Bool {
        utf8.elementsEqual(other.utf8)
    }
}
