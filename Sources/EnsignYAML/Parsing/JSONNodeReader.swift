/// Reads JSON text (RFC 8259) into the located ``YAMLNode`` tree that YAML files give, so a
/// `.json` flag file is read as JSON — every escape (surrogate pairs included) and every code
/// point a JSON string may hold — while every later diagnostic still names its line and column.
///
/// libyaml refuses some valid JSON (escaped surrogate pairs, raw U+007F–U+009F, U+FFFE), so
/// flagd's JSON files are not left to it. Strings become double-quoted scalars (never
/// resolved to another type), numbers and `true`/`false`/`null` plain scalars, which the core
/// schema resolves as JSON means them. Duplicate keys are an error, as in YAML; keys are
/// compared by their Unicode scalars, not by canonical equivalence. A lone surrogate escape
/// becomes U+FFFD, as Go's encoding/json (flagd's reader) makes it.
struct JSONNodeReader {
    private let bytes: [UInt8]
    private let file: String
    private let fileNumber: UInt32
    private let limits: YAMLLimits
    private var index = 0
    private var line = 1
    private var column = 1
    private var depth = 0

    init(bytes: [UInt8], file: String, limits: YAMLLimits) {
        self.bytes = bytes
        self.file = file
        self.fileNumber = SourceFileNames.number(for: file)
        self.limits = limits
    }

    /// The one value of the text; none when the text holds only white space.
    mutating func documents() throws(YAMLError) -> [YAMLNode] {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }  // a UTF-8 byte-order mark
        skipWhitespace()
        guard index < bytes.count else { return [] }
        let value = try readValue()
        skipWhitespace()
        guard index == bytes.count else { throw error("unexpected \(describeCurrent()) after the JSON value") }
        return [value]
    }

    // MARK: Values

    private mutating func readValue() throws(YAMLError) -> YAMLNode {
        let (startLine, startColumn) = (line, column)
        func node(_ content: YAMLNode.Content) -> YAMLNode {
            YAMLNode(content, tag: nil, file: fileNumber, line: startLine, column: startColumn)
        }
        guard index < bytes.count else { throw error("the text ends where a value was expected") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return node(.mapping(try readObject()))
        case UInt8(ascii: "["): return node(.sequence(try readArray()))
        case UInt8(ascii: "\""): return node(.scalar(try readString(), .doubleQuoted))
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return node(.scalar(try readNumber(), .plain))
        default:
            for literal in ["true", "false", "null"] where bytes[index...].starts(with: literal.utf8) {
                advance(by: literal.utf8.count)
                return node(.scalar(literal, .plain))
            }
            throw error("unexpected \(describeCurrent()); expected a JSON value")
        }
    }

    private mutating func readObject() throws(YAMLError) -> [YAMLMappingEntry] {
        try enterNesting()
        defer { depth -= 1 }
        advance(by: 1)
        var entries: [YAMLMappingEntry] = []
        var firstPositions: [ExactText: (line: Int, column: Int)] = [:]
        skipWhitespace()
        if consume(UInt8(ascii: "}")) { return entries }
        repeat {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw error("unexpected \(describeCurrent()); expected a key in double quotes")
            }
            let key = try readValue()
            let text = key.scalarText ?? ""
            if let first = firstPositions[ExactText(text)] {
                throw YAMLError(
                    .duplicateKey, at: key.location,
                    "duplicate key '\(text)' (first defined at line \(first.line), column \(first.column))")
            }
            firstPositions[ExactText(text)] = (key.location.line, key.location.column)
            skipWhitespace()
            guard consume(UInt8(ascii: ":")) else { throw error("unexpected \(describeCurrent()); expected ':'") }
            skipWhitespace()
            entries.append(YAMLMappingEntry(key: key, value: try readValue()))
            skipWhitespace()
        } while consume(UInt8(ascii: ","))
        guard consume(UInt8(ascii: "}")) else {
            throw error("unexpected \(describeCurrent()); expected ',' or '}'")
        }
        return entries
    }

    private mutating func readArray() throws(YAMLError) -> [YAMLNode] {
        try enterNesting()
        defer { depth -= 1 }
        advance(by: 1)
        var elements: [YAMLNode] = []
        skipWhitespace()
        if consume(UInt8(ascii: "]")) { return elements }
        repeat {
            skipWhitespace()
            elements.append(try readValue())
            skipWhitespace()
        } while consume(UInt8(ascii: ","))
        guard consume(UInt8(ascii: "]")) else {
            throw error("unexpected \(describeCurrent()); expected ',' or ']'")
        }
        return elements
    }

    private mutating func enterNesting() throws(YAMLError) {
        guard depth < limits.maximumDepth else {
            throw YAMLError(
                .limitExceeded, at: position,
                "nesting is deeper than \(limits.maximumDepth) levels (YAMLLimits.maximumDepth)")
        }
        depth += 1
    }

    // MARK: Scalars

    /// A number as JSON writes it: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    private mutating func readNumber() throws(YAMLError) -> String {
        let start = index
        _ = consume(UInt8(ascii: "-"))
        if !consume(UInt8(ascii: "0")) {
            guard consumeDigits() else { throw error("unexpected \(describeCurrent()); expected a digit") }
        }
        if consume(UInt8(ascii: ".")) {
            guard consumeDigits() else { throw error("a number needs a digit after its '.'") }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            advance(by: 1)
            if !consume(UInt8(ascii: "+")) { _ = consume(UInt8(ascii: "-")) }
            guard consumeDigits() else { throw error("a number needs a digit in its exponent") }
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private mutating func consumeDigits() -> Bool {
        let start = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { advance(by: 1) }
        return index > start
    }

    /// A string's value: escapes decoded, the bytes checked to be UTF-8.
    private mutating func readString() throws(YAMLError) -> String {
        let start = position
        advance(by: 1)
        var utf8: [UInt8] = []
        while true {
            guard index < bytes.count else { throw YAMLError(.syntax, at: start, "this string is never closed") }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                advance(by: 1)
                guard let text = String(validating: utf8, as: UTF8.self) else {
                    throw YAMLError(.syntax, at: start, "this string is not valid UTF-8")
                }
                return text
            case UInt8(ascii: "\\"):
                try readEscape(into: &utf8)
            case 0..<0x20:
                throw error(
                    "a control character (U+\(hex(UInt32(byte), digits: 4))) in a string; write it as "
                        + "\\u\(hex(UInt32(byte), digits: 4))")
            default:
                utf8.append(byte)
                advance(by: 1)
            }
        }
    }

    private mutating func readEscape(into utf8: inout [UInt8]) throws(YAMLError) {
        let escapeStart = position
        advance(by: 1)
        guard index < bytes.count else { throw YAMLError(.syntax, at: escapeStart, "this string is never closed") }
        let simple: [UInt8: UInt8] = [
            UInt8(ascii: "\""): 0x22, UInt8(ascii: "\\"): 0x5C, UInt8(ascii: "/"): 0x2F, UInt8(ascii: "b"): 0x08,
            UInt8(ascii: "f"): 0x0C, UInt8(ascii: "n"): 0x0A, UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09,
        ]
        if let replacement = simple[bytes[index]] {
            utf8.append(replacement)
            advance(by: 1)
            return
        }
        guard bytes[index] == UInt8(ascii: "u") else {
            throw YAMLError(
                .syntax, at: escapeStart, "unknown escape '\\\(describeCurrent(quoted: false))' in a string")
        }
        advance(by: 1)
        var scalar = try readHexQuad(escapeStart)
        if (0xD800...0xDBFF).contains(scalar), bytes[index...].starts(with: "\\u".utf8) {
            // A high surrogate followed by another escape: a pair when that one is a low surrogate.
            let saved = (index, line, column)
            advance(by: 2)
            let low = try readHexQuad(escapeStart)
            if (0xDC00...0xDFFF).contains(low) {
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else {
                (index, line, column) = saved
            }
        }
        utf8.append(contentsOf: String(Unicode.Scalar(scalar).map(Character.init) ?? "\u{FFFD}").utf8)
    }

    private mutating func readHexQuad(_ escapeStart: SourcePosition) throws(YAMLError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count, let digit = Self.hexValue(bytes[index]) else {
                throw YAMLError(.syntax, at: escapeStart, "a \\u escape needs four hexadecimal digits")
            }
            value = value << 4 | digit
            advance(by: 1)
        }
        return value
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    // MARK: Position

    private var position: SourcePosition { SourcePosition(file: file, line: line, column: column) }

    /// Moves over `count` bytes, counting lines and columns (a column per code point, as
    /// libyaml counts them; CR LF, LF and a lone CR each end a line).
    private mutating func advance(by count: Int) {
        for _ in 0..<count {
            let byte = bytes[index]
            index += 1
            if byte == 0x0A || (byte == 0x0D && (index == bytes.count || bytes[index] != 0x0A)) {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80, byte != 0x0D {
                column += 1
            }
        }
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { advance(by: 1) }
    }

    private mutating func consume(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        advance(by: 1)
        return true
    }

    private func error(_ message: String) -> YAMLError {
        YAMLError(.syntax, at: position, message)
    }

    /// The character at the current position for a message: `'x'`, a byte in hex, or "the end".
    private func describeCurrent(quoted: Bool = true) -> String {
        guard index < bytes.count else { return "end of text" }
        let byte = bytes[index]
        guard (0x21...0x7E).contains(byte) else { return "byte 0x\(hex(UInt32(byte), digits: 2))" }
        let character = String(UnicodeScalar(byte))
        return quoted ? "'\(character)'" : character
    }
}

/// `value` in upper-case hexadecimal, zero-padded to `digits`.
private func hex(_ value: UInt32, digits: Int) -> String {
    let text = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, digits - text.count)) + text
}
