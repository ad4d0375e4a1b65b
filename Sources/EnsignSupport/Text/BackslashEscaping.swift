/// The quoted-string syntaxes Ensign writes whose escape character is the backslash; each
/// escapes `\`, `"` and line feeds, and differs in what else it escapes and how.
package enum BackslashEscaping: Sendable {
    /// Only `\\`, `\"` and `\n`: DOT labels and Prometheus label values, which define no other
    /// escapes.
    case minimal
    /// JSON (RFC 8259): `\r`, `\t`, `\b`, `\f`, and `\uXXXX` for other controls and for the
    /// invisible characters a reader should see (C1 controls, byte-order marks, noncharacters).
    case json
    /// Swift string literals: `\r`, `\t`, `\0`, and `\u{X}` for other controls and for the
    /// characters that could make source read differently from what it compiles to (line and
    /// paragraph separators, bidirectional formatting).
    case swift

    /// Whether `scalar` is written as a numeric escape rather than as itself.
    package func escapesNumerically(_ scalar: Unicode.Scalar) -> Bool {
        switch (self, scalar.value) {
        case (.minimal, _): false
        case (_, 0..<0x20), (_, 0x7F...0x9F), (_, 0xFEFF): true
        case (.json, 0xFFFE), (.json, 0xFFFF): true
        case (.swift, 0x2028), (.swift, 0x2029), (.swift, 0x200E), (.swift, 0x200F), (.swift, 0x202A...0x202E),
            (.swift, 0x2066...0x2069):
            true
        default: false
        }
    }

    /// The named escape for `scalar` (`\n`, `\t`, …), if this syntax has one.
    private func namedEscape(_ scalar: Unicode.Scalar) -> String? {
        switch (self, scalar) {
        case (_, "\\"): "\\\\"
        case (_, "\""): "\\\""
        case (_, "\n"): "\\n"
        case (.minimal, _): nil
        case (_, "\r"): "\\r"
        case (_, "\t"): "\\t"
        case (.json, "\u{08}"): "\\b"
        case (.json, "\u{0C}"): "\\f"
        case (.swift, "\0"): "\\0"
        default: nil
        }
    }

    fileprivate func append(_ scalar: Unicode.Scalar, to result: inout String) {
        if let named = namedEscape(scalar) {
            result += named
        } else if escapesNumerically(scalar) {
            let digits = String(scalar.value, radix: 16, uppercase: true)
            switch self {
            case .swift: result += "\\u{" + digits + "}"
            case .json, .minimal: result += "\\u" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
            }
        } else {
            result.unicodeScalars.append(scalar)
        }
    }
}

extension String {
    /// The text with what `syntax` escapes escaped, without the surrounding quotes.
    package func backslashEscaped(_ syntax: BackslashEscaping) -> String {
        var escaped = ""
        for scalar in unicodeScalars { syntax.append(scalar, to: &escaped) }
        return escaped
    }

    /// The text in double quotes, escaped as `syntax` escapes.
    package func backslashQuoted(_ syntax: BackslashEscaping) -> String {
        "\"" + backslashEscaped(syntax) + "\""
    }
}
