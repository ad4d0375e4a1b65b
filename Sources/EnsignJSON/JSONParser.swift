import Ensign

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A strict RFC 8259 JSON reader producing ``JSONValue``.
///
/// Used for the control protocol and `--context` arguments, where the input comes from
/// another process or a person and must be bounded: nesting depth is limited and every
/// error names the byte offset.
///
/// ```swift
/// let context = try JSONValue(jsonText: #"{"targetingKey": "user-1", "country": "FR"}"#)
/// ```
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The zero-based byte offset where the problem was found.
    public let offset: Int
    /// What was wrong.
    public let message: String

    /// The error as `offset N: message`.
    public var description: String { "offset \(offset): \(message)" }
}

extension JSONValue {
    /// Parses JSON text; numbers without a fraction or exponent become ``JSONValue/int(_:)``.
    ///
    /// - Parameters:
    ///   - jsonText: the text to parse; surrounding white space is allowed.
    ///   - maximumDepth: how deeply arrays and objects may nest before it is an error.
    /// - Throws: ``JSONParseError`` naming the offset of the first problem.
    public init(jsonText: some StringProtocol, maximumDepth: Int = 128) throws {
        var bytes = Array(jsonText.utf8)
        self = try Self(jsonBytes: &bytes, maximumDepth: maximumDepth)
    }

    /// Parses JSON from UTF-8 bytes; see ``init(jsonText:maximumDepth:)``.
    public init(jsonBytes: [UInt8], maximumDepth: Int = 128) throws {
        var bytes = jsonBytes
        self = try Self(jsonBytes: &bytes, maximumDepth: maximumDepth)
    }

    private init(jsonBytes bytes: inout [UInt8], maximumDepth: Int) throws {
        self = try bytes.withUnsafeBufferPointer { buffer in
            var reader = JSONReader(bytes: buffer, maximumDepth: maximumDepth)
            return try reader.readDocument()
        }
    }
}

/// The recursive-descent reader behind ``JSONValue/init(jsonText:maximumDepth:)``.
private struct JSONReader {
    let bytes: UnsafeBufferPointer<UInt8>
    let maximumDepth: Int
    var position = 0
    var depth = 0

    init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    mutating func readDocument() throws -> JSONValue {
        skipWhitespace()
        let value = try readValue()
        skipWhitespace()
        guard position == bytes.count else { throw fail("unexpected text after the JSON value") }
        return value
    }

    func fail(_ message: String) -> JSONParseError {
        JSONParseError(offset: position, message: message)
    }

    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    mutating func readValue() throws -> JSONValue {
        guard position < bytes.count else { throw fail("unexpected end of input") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try readObject()
        case UInt8(ascii: "["): return try readArray()
        case UInt8(ascii: "\""): return .string(try readString())
        case UInt8(ascii: "t"):
            try expectWord("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectWord("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectWord("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try readNumber()
        default: throw fail("unexpected \(Self.describe(byte: bytes[position]))")
        }
    }

    mutating func expectWord(_ word: StaticString) throws {
        let count = word.utf8CodeUnitCount
        guard position + count <= bytes.count,
            memcmp(bytes.baseAddress! + position, word.utf8Start, count) == 0
        else { throw fail("invalid literal") }
        position += count
    }

    mutating func enterContainer() throws {
        depth += 1
        guard depth <= maximumDepth else { throw fail("nesting deeper than \(maximumDepth) levels") }
        position += 1
        skipWhitespace()
    }

    mutating func readArray() throws -> JSONValue {
        try enterContainer()
        defer { depth -= 1 }
        var elements: [JSONValue] = []
        if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
            position += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try readValue())
            if try readElementEnd(closing: "]", in: "array") { return .array(elements) }
        }
    }

    mutating func readObject() throws -> JSONValue {
        try enterContainer()
        defer { depth -= 1 }
        var members: [String: JSONValue] = [:]
        if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
            position += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
                throw fail("expected a string key in object")
            }
            let keyStart = position
            let key = try readString()
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
                throw fail("expected ':' after object key")
            }
            position += 1
            skipWhitespace()
            let value = try readValue()
            // Small objects (a request's context) fit without growing the table twice. Made with
            // the initializer, which is specialized here: `reserveCapacity` is the standard
            // library's generic entry point, which looks up the dictionary's metadata each time.
            if members.isEmpty { members = Dictionary(minimumCapacity: 4) }
            // RFC 8259 leaves duplicates to the reader; taking the last one silently would let
            // a request say two things at once, so it is an error. One hash per member: the
            // value goes in and an old one coming out is the duplicate.
            guard members.updateValue(value, forKey: key) == nil else {
                throw JSONParseError(offset: keyStart, message: "duplicate member \(JSONValue.string(key).jsonText)")
            }
            if try readElementEnd(closing: "}", in: "object") { return .object(members) }
        }
    }

    /// Reads what follows an array element or an object member: a `,` before the next one
    /// (false), or the container's `closing` bracket (true).
    mutating func readElementEnd(closing: Unicode.Scalar, in container: String) throws -> Bool {
        skipWhitespace()
        guard position < bytes.count else { throw fail("unterminated \(container)") }
        switch bytes[position] {
        case UInt8(ascii: ","):
            position += 1
            return false
        case UInt8(ascii: closing):
            position += 1
            return true
        default: throw fail("expected ',' or '\(closing)' in \(container)")
        }
    }

    mutating func readString() throws -> String {
        position += 1  // opening quote
        let start = position
        // Fast path: no escapes. ASCII (most keys and values) needs no UTF-8 validation.
        var isASCII = true
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[start..<position])
                position += 1
                return isASCII ? String(decoding: slice, as: UTF8.self) : try validatedUTF8(slice, at: start)
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw fail("control character in string") }
            isASCII = isASCII && byte < 0x80
            position += 1
        }
        var scratch = Array(bytes[start..<position])
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                return try scratch.withUnsafeBufferPointer { try validatedUTF8($0, at: start) }
            case UInt8(ascii: "\\"):
                position += 1
                try readEscape(into: &scratch)
            case 0..<0x20:
                throw fail("control character in string")
            default:
                scratch.append(byte)
                position += 1
            }
        }
        throw fail("unterminated string")
    }

    func validatedUTF8(_ buffer: UnsafeBufferPointer<UInt8>, at start: Int) throws -> String {
        guard let string = String(validating: buffer, as: UTF8.self) else {
            throw JSONParseError(offset: start, message: "invalid UTF-8 in string")
        }
        return string
    }

    mutating func readEscape(into scratch: inout [UInt8]) throws {
        guard position < bytes.count else { throw fail("unterminated escape") }
        let byte = bytes[position]
        position += 1
        switch byte {
        case UInt8(ascii: "\""): scratch.append(0x22)
        case UInt8(ascii: "\\"): scratch.append(0x5C)
        case UInt8(ascii: "/"): scratch.append(0x2F)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            var code = try readHex4()
            if (0xD800..<0xDC00).contains(code) {
                guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
                    bytes[position + 1] == UInt8(ascii: "u")
                else { throw fail("unpaired surrogate in \\u escape") }
                position += 2
                let low = try readHex4()
                guard (0xDC00..<0xE000).contains(low) else { throw fail("invalid low surrogate") }
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00..<0xE000).contains(code) {
                throw fail("unpaired surrogate in \\u escape")
            }
            scratch.append(contentsOf: String(Character(Unicode.Scalar(code)!)).utf8)
        default:
            throw fail("invalid escape '\\\(Character(Unicode.Scalar(byte)))'")
        }
    }

    mutating func readHex4() throws -> UInt32 {
        guard position + 4 <= bytes.count else { throw fail("truncated \\u escape") }
        var code: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw fail("invalid hex digit in \\u escape")
            }
            code = code << 4 | digit
            position += 1
        }
        return code
    }

    mutating func readNumber() throws -> JSONValue {
        let start = position
        var isInteger = true
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        guard position < bytes.count, isDigit(bytes[position]) else { throw fail("invalid number") }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
        } else {
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard position < bytes.count, isDigit(bytes[position]) else { throw fail("invalid number") }
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                position += 1
            }
            guard position < bytes.count, isDigit(bytes[position]) else { throw fail("invalid number") }
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        if isInteger, let integer = Int(text) { return .int(integer) }
        guard let double = Double(text) else { throw JSONParseError(offset: start, message: "invalid number") }
        guard double.isFinite else {
            throw JSONParseError(offset: start, message: "the number \(text) is out of range (beyond ±1.8e308)")
        }
        return .double(double)
    }

    /// A byte as an error shows it: a printable ASCII character quoted, anything else in hex
    /// (a lone byte of a multi-byte character is not a character).
    static func describe(byte: UInt8) -> String {
        let hex = "0x" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true)
        guard byte >= 0x21, byte < 0x7F else { return "byte \(hex)" }
        return "character '\(Character(Unicode.Scalar(byte)))' (\(hex))"
    }

    func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}
