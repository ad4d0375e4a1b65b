/// A scalar's value under the YAML 1.2 core schema.
///
/// Only plain (unquoted) scalars without an explicit tag are resolved: `true`/`false` in
/// any case are booleans, `null`, `~` and the empty scalar are null, decimal, `0x` and `0o`
/// integers are ints, decimals with a fraction or exponent and `.inf`/`.nan` are doubles.
/// Everything else, including `yes`, `no`, `on` and `off`, is a string.
package enum ResolvedScalar: Sendable, Hashable {
    /// `null`, `~`, or nothing.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integer that fits in `Int`.
    case int(Int)
    /// A floating-point number (also integers too large for `Int`).
    case double(Double)
    /// Any other text.
    case string(String)
}

extension YAMLNode {
    /// The scalar resolved with the core schema, honouring explicit `!!str`, `!!int`, `!!float`,
    /// `!!bool` and `!!null` tags; `.string` for sequences and mappings is never returned:
    /// they resolve to `.null` only if empty scalars, so check ``content`` first.
    package var resolvedScalar: ResolvedScalar {
        guard case .scalar(let text, let style) = content else { return .null }
        if let tag {
            return Self.resolve(text, forcedTag: tag)
        }
        guard style == .plain else { return .string(text) }
        return Self.resolvePlain(text)
    }

    static let coreSchemaPrefix = "tag:yaml.org,2002:"

    private static func resolve(_ text: String, forcedTag tag: String) -> ResolvedScalar {
        switch tag {
        case coreSchemaPrefix + "str", "!": return .string(text)
        case coreSchemaPrefix + "null": return .null
        case coreSchemaPrefix + "bool":
            if case .bool(let value) = resolvePlain(text) { return .bool(value) }
            return .string(text)
        case coreSchemaPrefix + "int":
            if case .int(let value) = resolvePlain(text) { return .int(value) }
            return .string(text)
        case coreSchemaPrefix + "float":
            switch resolvePlain(text) {
            case .int(let value): return .double(Double(value))
            case .double(let value): return .double(value)
            default: return .string(text)
            }
        default: return resolvePlain(text)
        }
    }

    /// Core-schema resolution of a plain scalar. Checks the first byte before anything
    /// else so that ordinary words cost one comparison, and returns the text itself (never a
    /// copy decoded again) for a string.
    static func resolvePlain(_ text: String) -> ResolvedScalar {
        var bytesOf = text
        return bytesOf.withUTF8 { bytes in
            guard let first = bytes.first else { return .null }
            switch first {
            case UInt8(ascii: "~"):
                return bytes.count == 1 ? .null : .string(text)
            case UInt8(ascii: "n"), UInt8(ascii: "N"):
                return bytes.count == 4 && (text == "null" || text == "Null" || text == "NULL") ? .null : .string(text)
            case UInt8(ascii: "t"), UInt8(ascii: "T"), UInt8(ascii: "f"), UInt8(ascii: "F"):
                // Only a four- or five-letter word can be a boolean, in any case. Compared a byte
                // at a time with the ASCII case bit set (it runs for every `true` a file has):
                // `b | 0x20` equals a lowercase letter only for that letter and its capital, and
                // no text with other bytes lowercases to these words.
                if Self.equalsIgnoringASCIICase(bytes, "true") { return .bool(true) }
                if Self.equalsIgnoringASCIICase(bytes, "false") { return .bool(false) }
                return .string(text)
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."):
                return resolveNumber(bytes, text: text)
            default:
                return .string(text)
            }
        }
    }

    /// Whether `bytes` spell `word` (lowercase ASCII letters) in any mix of cases.
    private static func equalsIgnoringASCIICase(_ bytes: UnsafeBufferPointer<UInt8>, _ word: StaticString) -> Bool {
        guard bytes.count == word.utf8CodeUnitCount else { return false }
        let letters = word.utf8Start
        for index in 0..<bytes.count where bytes[index] | 0x20 != letters[index] { return false }
        return true
    }

    private static func resolveNumber(_ bytes: UnsafeBufferPointer<UInt8>, text: String) -> ResolvedScalar {
        if bytes.count > 2, bytes[0] == UInt8(ascii: "0"), bytes[2] != UInt8(ascii: "-"), bytes[2] != UInt8(ascii: "+")
        {
            if bytes[1] == UInt8(ascii: "x"), let value = Int(text.dropFirst(2), radix: 16) { return .int(value) }
            if bytes[1] == UInt8(ascii: "o"), let value = Int(text.dropFirst(2), radix: 8) { return .int(value) }
        }
        // Past the hexadecimal and octal integers above, only the infinities and NaN can end in
        // `f` or `n` (a decimal number ends in a digit or a point): the rest skip the nine
        // comparisons.
        let lastLetter = bytes[bytes.count - 1] | 0x20
        if lastLetter == UInt8(ascii: "f") || lastLetter == UInt8(ascii: "n") {
            switch text {
            case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF": return .double(.infinity)
            case "-.inf", "-.Inf", "-.INF": return .double(-.infinity)
            case ".nan", ".NaN", ".NAN": return .double(.nan)
            default: return .string(text)
            }
        }
        var sawDigit = false
        var isInteger = true
        var index = 0
        let isNegative = bytes[0] == UInt8(ascii: "-")
        if isNegative || bytes[0] == UInt8(ascii: "+") { index = 1 }
        // The integer part's value, while it has at most 18 digits (it cannot overflow): an
        // integer that short needs no second parse by `Int(_:)`.
        var magnitude = 0
        let integerStart = index
        while index < bytes.count, isDigit(bytes[index]) {
            sawDigit = true
            magnitude = magnitude &* 10 &+ Int(bytes[index] &- UInt8(ascii: "0"))
            index += 1
        }
        if sawDigit, index == bytes.count, index - integerStart <= 18 {
            return .int(isNegative ? -magnitude : magnitude)
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            while index < bytes.count, isDigit(bytes[index]) {
                sawDigit = true
                index += 1
            }
        }
        guard sawDigit else { return .string(text) }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else { return .string(text) }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        guard index == bytes.count else { return .string(text) }
        if isInteger {
            if let value = Int(text) { return .int(value) }
            // Too large for Int: still a number, so keep it as a double rather than a string.
            return Double(text).map(ResolvedScalar.double) ?? .string(text)
        }
        return Double(text).map(ResolvedScalar.double) ?? .string(text)
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
