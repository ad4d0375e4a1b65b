import EnsignSupport

/// The syntax of `swiftType:`: dot-separated Swift identifiers (ASCII letters, digits and `_`,
/// not starting with a digit), such as `Banner` or `Wallet.Banner`.
package enum SwiftTypeName {
    /// The regular expression a `swiftType:` value matches.
    package static let pattern = #"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$"#

    /// Whether `text` is a valid `swiftType:` value.
    package static func isValid(_ text: some StringProtocol) -> Bool {
        guard !text.isEmpty else { return false }
        return text.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { segment in
            guard let first = segment.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else {
                return false
            }
            return segment.utf8.allSatisfy { $0.isASCIIAlphanumeric || $0 == UInt8(ascii: "_") }
        }
    }
}
