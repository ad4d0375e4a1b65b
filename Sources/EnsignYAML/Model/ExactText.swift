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
        lhs.text.utf8.elementsEqual(rhs.text.utf8)
    }

    package func hash(into hasher: inout Hasher) {
        var text = text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}

extension StringProtocol {
    /// Whether both strings have the same Unicode scalars (see ``ExactText``).
    package func isExactly(_ other: some StringProtocol) -> Bool {
        utf8.elementsEqual(other.utf8)
    }
}
