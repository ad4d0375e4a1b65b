// flagd's daemon evaluates JsonLogic with github.com/diegoholiveira/jsonlogic v3.9.1, whose
// operators coerce their arguments in Go's way rather than JavaScript's: arithmetic reads text
// with Go's `strconv.ParseFloat` (text that does not parse counts 0) and fails on null and
// booleans, `cat` writes numbers in fixed notation and fails on booleans, and so on. Where
// Ensign follows flagd (the project's decision where the references disagree), operators use
// these helpers; the FlagdSemantics article (`Sources/Ensign/Ensign.docc/FlagdSemantics.md`,
// “Truthiness and Go's coercions”) lists where, and where Ensign keeps JavaScript's rules.

/// The coercions of flagd's Go JsonLogic library.
enum GoJsonLogic {
    /// `typing.ToNumber`, used by arithmetic, `max`/`min`, `substr`'s positions, `in`'s numeric
    /// needles and ranges, and `reduce`'s number accumulator: numbers as they are, text through
    /// Go's `strconv.ParseFloat` with text that does not parse counting 0; `null`, booleans,
    /// arrays and objects make the evaluation fail (flagd: `PARSE_ERROR`).
    static func number(_ value: JSONValue, for operation: String) throws(EvaluationFailure) -> Double {
        switch value {
        case .int(let integer): return Double(integer)
        case .double(let double): return double
        case .string(let text): return GoNumberText.parseFloat(text) ?? 0
        case .null, .bool, .array, .object:
            throw EvaluationFailure("'\(operation)' needs numbers, not \(describe(value))")
        }
    }

    /// `typing.ToString`, used by `cat`, `substr`'s text and `reduce`'s text accumulator: text as
    /// it is, numbers in Go's shortest fixed notation (`1e21` is written out, `-0` is "-0"),
    /// `null` as ""; booleans, arrays and objects make the evaluation fail.
    static func text(_ value: JSONValue, for operation: String) throws(EvaluationFailure) -> String {
        switch value {
        case .string(let text): return text
        case .int(let integer):
            // Go holds every JSON number as a double.
            return abs(Double(integer)) < JSONValue.exactIntegerLimit
                ? String(integer) : GoNumberText.fixedText(for: Double(integer))
        case .double(let double): return GoNumberText.fixedText(for: double)
        case .null: return ""
        case .bool, .array, .object:
            throw EvaluationFailure("'\(operation)' needs text or numbers, not \(describe(value))")
        }
    }

    /// Go's `int(x)` for a double, as amd64 converts it: truncated toward zero, with `NaN` and
    /// values outside the 64-bit range giving `Int.min`.
    static func integer(_ value: Double) -> Int {
        guard !value.isNaN, value >= -0x1p63, value < 0x1p63 else { return .min }
        return Int(value.rounded(.towardZero))
    }

    /// `typing.IsTrue`: like JsonLogic's truthiness, except that an empty object is false (and
    /// `NaN` true). Used where flagd decides whether a collection is empty.
    static func isTruthy(_ value: JSONValue) -> Bool {
        switch value {
        case .null: return false
        case .bool(let bool): return bool
        case .int(let integer): return integer != 0
        case .double(let double): return double != 0
        case .string(let text): return !text.isEmpty
        case .array(let elements): return !elements.isEmpty
        case .object(let members): return !members.isEmpty
        }
    }

    /// A short description of a value for an error message: `null`, `true`, `"text"`, `3`,
    /// "an array", "an object".
    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .array: return "an array"
        case .object: return "an object"
        case .string(let text) where text.utf8.count > 40: return "a string"
        default: return value.jsonText
        }
    }
}

/// Go's conversions between numbers and text, as flagd's evaluator uses them.
enum GoNumberText {
    /// Go's `strconv.ParseFloat(text, 64)`: decimal and hexadecimal (`0x1p4`) floating-point
    /// literals with `_` between digits, `inf`, `infinity` and `nan` in any case; no surrounding
    /// white space. Out-of-range values are ±infinity (or zero), as Go returns them; text that
    /// is not a number is `nil`.
    static func parseFloat(_ text: String) -> Double? {
        // Only a sign, a digit, a point, or the `i` of inf and `n` of nan begin a number Go reads:
        // ordinary words (attribute names in `var` paths, a tenth of compiling a small rule)
        // are refused without copying their bytes.
        guard let first = text.utf8.first, mayBeginNumber(first) else { return nil }
        return parseFloatFully(text)
    }

    /// ``parseFloat(_:)`` without its first-byte shortcut (tests check the two agree).
    static func parseFloatFully(_ text: String) -> Double? {
        let bytes = Array(text.utf8)
        if let special = special(bytes) { return special }
        guard isFloatLiteral(bytes) else { return nil }
        let digits = bytes.filter { $0 != UInt8(ascii: "_") }
        return Double(String(decoding: digits, as: UTF8.self))
    }

    private static func mayBeginNumber(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "i"), UInt8(ascii: "I"), UInt8(ascii: "n"), UInt8(ascii: "N"):
            return true
        default:
            return false
        }
    }

    /// `inf`, `infinity` (signed or not) and `nan`, in any case, as the whole text.
    private static func special(_ bytes: [UInt8]) -> Double? {
        var word = bytes[...]
        var sign = 1.0
        if let first = word.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") {
            sign = first == UInt8(ascii: "-") ? -1 : 1
            word = word.dropFirst()
        }
        let lowered = String(decoding: word.map { $0 | 0x20 }, as: UTF8.self)
        if lowered == "inf" || lowered == "infinity" { return sign * .infinity }
        if word.count == bytes.count, lowered == "nan" { return .nan }
        return nil
    }

    /// Whether `bytes` is wholly a Go floating-point literal (`strconv.readFloat` consuming all
    /// of it, with `_` only between digits or after a base prefix).
    private static func isFloatLiteral(_ bytes: [UInt8]) -> Bool {
        var index = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
        var isHex = false
        if index + 2 < bytes.count, bytes[index] == UInt8(ascii: "0"), bytes[index + 1] | 0x20 == UInt8(ascii: "x") {
            isHex = true
            index += 2
        }
        func isDigit(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || (isHex && (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20))
        }
        var sawDot = false
        var sawDigits = false
        var hasUnderscores = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "_") {
                hasUnderscores = true
            } else if byte == UInt8(ascii: ".") {
                if sawDot { break }
                sawDot = true
            } else if isDigit(byte) {
                sawDigits = true
            } else {
                break
            }
            index += 1
        }
        guard sawDigits else { return false }
        let exponentMark = isHex ? UInt8(ascii: "p") : UInt8(ascii: "e")
        if index < bytes.count, bytes[index] | 0x20 == exponentMark {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) else {
                return false
            }
            while index < bytes.count,
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) || bytes[index] == UInt8(ascii: "_")
            {
                if bytes[index] == UInt8(ascii: "_") { hasUnderscores = true }
                index += 1
            }
        } else if isHex {
            return false  // a hexadecimal literal needs its exponent
        }
        guard index == bytes.count else { return false }
        return !hasUnderscores || underscoresSeparateDigits(bytes)
    }

    /// Go's `underscoreOK`: each `_` follows a digit (or the base prefix) and precedes one.
    private static func underscoresSeparateDigits(_ bytes: [UInt8]) -> Bool {
        var text = bytes[...]
        if let first = text.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") { text = text.dropFirst() }
        var previous: Character = "^"  // ^ start, 0 digit or prefix, _ underscore, ! other
        var isHex = false
        if text.count >= 2, text.first == UInt8(ascii: "0"),
            [UInt8(ascii: "b"), UInt8(ascii: "o"), UInt8(ascii: "x")].contains(text[text.startIndex + 1] | 0x20)
        {
            isHex = text[text.startIndex + 1] | 0x20 == UInt8(ascii: "x")
            previous = "0"
            text = text.dropFirst(2)
        }
        for byte in text {
            if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || (isHex && (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20))
            {
                previous = "0"
            } else if byte == UInt8(ascii: "_") {
                guard previous == "0" else { return false }
                previous = "_"
            } else {
                guard previous != "_" else { return false }
                previous = "!"
            }
        }
        return previous != "_"
    }

    /// Go's `strconv.FormatFloat(value, 'f', -1, 64)`: the shortest digits that read back as
    /// `value`, never with an exponent; `NaN`, `+Inf` and `-Inf`; negative zero is "-0".
    static func fixedText(for value: Double) -> String {
        formatFloat(value) { magnitude in
            let (digits, point) = JavaScriptNumberText.shortestDigits(of: magnitude)
            var output: [UInt8]
            if point <= 0 {
                output = Array("0.".utf8) + [UInt8](repeating: UInt8(ascii: "0"), count: -point) + digits
            } else if point >= digits.count {
                output = digits + [UInt8](repeating: UInt8(ascii: "0"), count: point - digits.count)
            } else {
                output = Array(digits[..<point]) + [UInt8(ascii: ".")] + Array(digits[point...])
            }
            return String(decoding: output, as: UTF8.self)
        }
    }

    /// Go's `fmt.Sprintf("%v", value)` (`strconv.FormatFloat(value, 'g', -1, 64)`), as flagd's
    /// `sem_ver` turns a number into a version: fixed notation unless the decimal exponent is
    /// below -4 or at least 6 (`1e+06`, `1.5e-05`).
    static func shortestText(for value: Double) -> String {
        formatFloat(value) { magnitude in
            let (digits, point) = JavaScriptNumberText.shortestDigits(of: magnitude)
            let exponent = point - 1
            guard exponent < -4 || exponent >= 6 else { return fixedText(for: magnitude) }
            var output = [digits[0]]
            if digits.count > 1 { output += [UInt8(ascii: ".")] + Array(digits[1...]) }
            let exponentDigits = String(abs(exponent))
            output += Array("e\(exponent < 0 ? "-" : "+")\(exponentDigits.count < 2 ? "0" : "")\(exponentDigits)".utf8)
            return String(decoding: output, as: UTF8.self)
        }
    }

    /// What `strconv.FormatFloat` writes alike in every format: `NaN`, `+Inf` and `-Inf`, `0` and
    /// "-0", and the sign of a negative number; `digits` writes the rest, a finite magnitude
    /// above zero.
    private static func formatFloat(_ value: Double, digits: (_ magnitude: Double) -> String) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? "-Inf" : "+Inf" }
        if value == 0 { return value.sign == .minus ? "-0" : "0" }
        return value < 0 ? "-" + digits(-value) : digits(value)
    }

    /// How Go's `encoding/json` writes a number: JavaScript's notation (`1e+21`, `1e-7`,
    /// `0.000001`), except that negative zero is "-0"; `nil` for `NaN` and the infinities, which
    /// JSON cannot represent.
    static func jsonText(for value: Double) -> String? {
        guard value.isFinite else { return nil }
        if value == 0 { return value.sign == .minus ? "-0" : "0" }
        return JavaScriptNumberText.text(for: value)
    }
}
