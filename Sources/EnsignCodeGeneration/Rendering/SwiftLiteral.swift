import Ensign
import EnsignSupport

/// Swift source text for values: literals that compile to exactly the value they were made from.
enum SwiftLiteral {
    /// A string literal: quotes, backslashes and control characters escaped; other characters
    /// (accents, CJK, emoji) written as they are, except the invisible ones that could make the
    /// source read differently from what it compiles to (bidirectional controls).
    static func string(_ text: String) -> String { text.backslashQuoted(.swift) }

    /// A `Double` literal (or `.infinity` / `.nan`) for a context whose type is `Double`.
    static func double(_ value: Double) -> String {
        if value.isNaN { return ".nan" }
        if value.isInfinite { return value < 0 ? "-.infinity" : ".infinity" }
        let text = value.description
        return text.contains(where: { $0 == "." || $0 == "e" }) ? text : text + ".0"
    }

    /// A ``JSONValue`` expression built from its cases (`.object(["a": .int(1)])`), so that the
    /// compiler checks it in linear time however large it is. Keys of objects are sorted.
    ///
    /// - Parameters:
    ///   - indent: the indentation of the line the expression starts on.
    ///   - width: the column the expression should stay within; larger arrays and objects are
    ///     written one element per line.
    ///   - used: how many columns of the first line are already taken.
    static func jsonValue(_ value: JSONValue, indent: Int, width: Int = 120, used: Int = 0) -> String {
        let compact = compactJSONValue(value)
        guard used + compact.count > width else { return compact }
        let inner = String(repeating: " ", count: indent + 4)
        let closing = String(repeating: " ", count: indent)
        switch value {
        case .array(let elements) where !elements.isEmpty:
            let lines = elements.map { inner + jsonValue($0, indent: indent + 4, width: width, used: inner.count + 1) }
            return ".array([\n" + lines.joined(separator: ",\n") + ",\n" + closing + "])"
        case .object(let members) where !members.isEmpty:
            let lines = members.keys.sorted().map { key in
                let prefix = inner + string(key) + ": "
                return prefix + jsonValue(members[key]!, indent: indent + 4, width: width, used: prefix.count + 1)
            }
            return ".object([\n" + lines.joined(separator: ",\n") + ",\n" + closing + "])"
        default:
            return compact
        }
    }

    /// The expression on one line.
    static func compactJSONValue(_ value: JSONValue) -> String {
        switch value {
        case .null: return ".null"
        case .bool(let bool): return ".bool(\(bool))"
        case .int(let int): return ".int(\(int))"
        case .double(let double): return ".double(\(Self.double(double)))"
        case .string(let text): return ".string(\(string(text)))"
        case .array(let elements): return ".array([" + elements.map(compactJSONValue).joined(separator: ", ") + "])"
        case .object(let members):
            guard !members.isEmpty else { return ".object([:])" }
            let pairs = members.keys.sorted().map { "\(string($0)): \(compactJSONValue(members[$0]!))" }
            return ".object([" + pairs.joined(separator: ", ") + "])"
        }
    }
}
