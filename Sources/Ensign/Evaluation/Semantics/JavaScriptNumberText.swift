/// ECMAScript's conversions between numbers and text, as json-logic-js relies on them.
///
/// JsonLogic's reference implementation runs on JavaScript, so `"1" + 1`, `{"cat": [1.5]}` and
/// `{"<": ["10", 9]}` follow the language's coercion rules. These helpers reproduce them on
/// top of Swift's own number parsing and shortest round-trip formatting.
enum JavaScriptNumberText {
    /// ECMAScript `Number::toString` for a double (`1e21`, `0.000001`, `1e-7`, `NaN`, …).
    static func text(for value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
        if value == 0 { return "0" }
        if value < 0 { return "-" + text(for: -value) }
        let (digits, pointPosition) = shortestDigits(of: value)
        return layout(digits: digits, pointPosition: pointPosition)
    }

    /// The shortest round-trip decimal digits of a positive finite `value` and the position
    /// `n` of the decimal point, so that `value == 0.d1d2…dk × 10^n`.
    static func shortestDigits(of value: Double) -> (digits: [UInt8], pointPosition: Int) {
        // Swift's `description` prints the shortest digits that round-trip, either as
        // "123.45" or as "1.2345e+20"; only the layout differs from ECMAScript's.
        let text = Array(value.description.utf8)
        var mantissa = text[...]
        var exponent = 0
        if let marker = text.firstIndex(where: { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) {
            mantissa = text[..<marker]
            exponent = Int(String(decoding: text[(marker + 1)...], as: UTF8.self)) ?? 0
        }
        var digits: [UInt8] = []
        var pointPosition: Int?
        for byte in mantissa {
            if byte == UInt8(ascii: ".") {
                pointPosition = digits.count
            } else {
                digits.append(byte)
            }
        }
        var position = (pointPosition ?? digits.count) + exponent
        var leadingZeros = 0
        while leadingZeros < digits.count - 1, digits[leadingZeros] == UInt8(ascii: "0") { leadingZeros += 1 }
        digits.removeFirst(leadingZeros)
        position -= leadingZeros
        while digits.count > 1, digits.last == UInt8(ascii: "0") { digits.removeLast() }
        return (digits, position)
    }

    /// Lays out digits the way ECMAScript `Number::toString` does (steps 6–10 of the spec).
    private static func layout(digits: [UInt8], pointPosition n: Int) -> String {
        let k = digits.count
        var output: [UInt8] = []
        if k <= n && n <= 21 {
            output = digits + [UInt8](repeating: UInt8(ascii: "0"), count: n - k)
        } else if 0 < n && n <= 21 {
            output = Array(digits[..<n]) + [UInt8(ascii: ".")] + Array(digits[n...])
        } else if -6 < n && n <= 0 {
            output = [UInt8(ascii: "0"), UInt8(ascii: ".")]
            output += [UInt8](repeating: UInt8(ascii: "0"), count: -n) + digits
        } else {
            let exponent = n - 1
            output = [digits[0]]
            if k > 1 { output += [UInt8(ascii: ".")] + Array(digits[1...]) }
            output += Array("e\(exponent < 0 ? "-" : "+")\(abs(exponent))".utf8)
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// ECMAScript `StringToNumber`: white space trimmed, empty text is `0`, decimal, `0x`/`0o`/`0b`
    /// integers and `Infinity` are accepted, anything else is `NaN`.
    static func number(from text: String) -> Double {
        let bytes = trimmedUTF8(text, leading: true, trailing: true)
        if bytes.isEmpty { return 0 }
        if bytes.count > 2, bytes[0] == UInt8(ascii: "0") {
            switch bytes[1] | 0x20 {
            case UInt8(ascii: "x"): return radixInteger(bytes[2...], radix: 16)
            case UInt8(ascii: "o"): return radixInteger(bytes[2...], radix: 8)
            case UInt8(ascii: "b"): return radixInteger(bytes[2...], radix: 2)
            default: break
            }
        }
        if let infinity = signedInfinity(bytes[...]), infinity.length == bytes.count { return infinity.value }
        guard decimalPrefixLength(bytes[...]) == bytes.count else { return .nan }
        return Double(String(decoding: bytes, as: UTF8.self)) ?? .nan
    }

    /// ECMAScript `parseFloat` on text: the longest decimal prefix after leading white space.
    static func parseFloat(_ text: String) -> Double {
        let bytes = trimmedUTF8(text, leading: true, trailing: false)[...]
        if let infinity = signedInfinity(bytes) { return infinity.value }
        let length = decimalPrefixLength(bytes)
        guard length > 0 else { return .nan }
        return Double(String(decoding: bytes.prefix(length), as: UTF8.self)) ?? .nan
    }

    /// `±Infinity` at the start of `bytes`, with its length.
    private static func signedInfinity(_ bytes: ArraySlice<UInt8>) -> (value: Double, length: Int)? {
        var index = bytes.startIndex
        var sign = 1.0
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            index += 1
        }
        let word = "Infinity".utf8
        guard bytes[index...].starts(with: word) else { return nil }
        return (sign * .infinity, index - bytes.startIndex + word.count)
    }

    /// The length of the longest prefix of `bytes` matching
    /// `[+-]? (digits ("." digits?)? | "." digits) ([eE] [+-]? digits)?`, or 0.
    private static func decimalPrefixLength(_ bytes: ArraySlice<UInt8>) -> Int {
        var index = bytes.startIndex
        func isDigit(_ i: Int) -> Bool {
            i < bytes.endIndex && bytes[i] >= UInt8(ascii: "0") && bytes[i] <= UInt8(ascii: "9")
        }
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            index += 1
        }
        var sawDigits = false
        while isDigit(index) {
            index += 1
            sawDigits = true
        }
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: ".") {
            var afterPoint = index + 1
            var sawFraction = false
            while isDigit(afterPoint) {
                afterPoint += 1
                sawFraction = true
            }
            if sawDigits || sawFraction {
                index = afterPoint
                sawDigits = true
            }
        }
        guard sawDigits else { return 0 }
        if index < bytes.endIndex, bytes[index] | 0x20 == UInt8(ascii: "e") {
            var exponentEnd = index + 1
            if exponentEnd < bytes.endIndex,
                bytes[exponentEnd] == UInt8(ascii: "+") || bytes[exponentEnd] == UInt8(ascii: "-")
            {
                exponentEnd += 1
            }
            if isDigit(exponentEnd) {
                while isDigit(exponentEnd) { exponentEnd += 1 }
                index = exponentEnd
            }
        }
        return index - bytes.startIndex
    }

    private static func radixInteger(_ digits: ArraySlice<UInt8>, radix: Int) -> Double {
        var value = 0.0
        for byte in digits {
            let digit: Int
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = Int(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): digit = Int(byte - UInt8(ascii: "a")) + 10
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): digit = Int(byte - UInt8(ascii: "A")) + 10
            default: return .nan
            }
            guard digit < radix else { return .nan }
            value = value * Double(radix) + Double(digit)
        }
        return value
    }

    /// The UTF-8 of `text` without ECMAScript white space and line terminators at its ends.
    private static func trimmedUTF8(_ text: String, leading: Bool, trailing: Bool) -> [UInt8] {
        let scalars = text.unicodeScalars
        var start = scalars.startIndex
        var end = scalars.endIndex
        if leading {
            while start < end, isJavaScriptWhitespace(scalars[start]) { start = scalars.index(after: start) }
        }
        if trailing {
            while start < end, isJavaScriptWhitespace(scalars[scalars.index(before: end)]) {
                end = scalars.index(before: end)
            }
        }
        return Array(String(scalars[start..<end]).utf8)
    }

    private static func isJavaScriptWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F,
            0x3000, 0xFEFF:
            return true
        default:
            return false
        }
    }
}
