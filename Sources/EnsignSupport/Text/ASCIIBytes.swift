extension UInt8 {
    /// Whether the byte is an ASCII letter or digit (`A`–`Z`, `a`–`z`, `0`–`9`), the core of the
    /// identifiers that names, versions and URLs allow. Inlinable: it runs once per byte.
    @inlinable package var isASCIIAlphanumeric: Bool {
        switch self {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return false
        }
    }
}
