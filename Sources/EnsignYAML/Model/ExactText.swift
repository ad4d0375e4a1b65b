#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

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
    /// Compares the contiguous UTF-8 buffers with `memcmp`: the generic `utf8.elementsEqual`
    /// walks both views through an iterator, byte by byte, and cost a targeted evaluation most
    /// of its time (each `var` lookup checks the member it found by exact name), and even
    /// `elementsEqual` on the buffers compares a byte at a time (a twentieth of a large load
    /// went to dictionary probes comparing keys that way).
    @inlinable
    package func isExactly(_ other: String) -> Bool {
        let count = utf8.count
        guard count == other.utf8.count else { return false }
        var (lhs, rhs) = (self, other)
        return lhs.withUTF8 { lhsBytes in
            rhs.withUTF8 { rhsBytes in
                count == 0 || memcmp(lhsBytes.baseAddress!, rhsBytes.baseAddress!, count) == 0
            }
        }
    }
}

extension String {
    /// Whether this string's UTF-8 bytes come before `other`'s (`memcmp`, then the shorter
    /// first): `String`'s own order for ASCII text, at a tenth of the cost of its `<`.
    package func precedesByBytes(_ other: String) -> Bool {
        var (lhs, rhs) = (self, other)
        return lhs.withUTF8 { lhsBytes in
            rhs.withUTF8 { rhsBytes in
                let common = min(lhsBytes.count, rhsBytes.count)
                let compared = common == 0 ? 0 : memcmp(lhsBytes.baseAddress!, rhsBytes.baseAddress!, common)
                return compared != 0 ? compared < 0 : lhsBytes.count < rhsBytes.count
            }
        }
    }
}

extension StringProtocol {
    /// Whether both strings have the same Unicode scalars (see ``ExactText``).
    package func isExactly(_ other: some StringProtocol) -> Bool {
        utf8.elementsEqual(other.utf8)
    }
}
