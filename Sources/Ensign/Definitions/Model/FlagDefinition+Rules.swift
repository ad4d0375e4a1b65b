import EnsignYAML

extension FlagDefinition {
    /// A flag's variants and targeting (flagd's long form, or a compact flag with `targeting`).
    final class Rules: Sendable {
        let variants: FlagVariants
        let defaultVariant: String?
        /// The targeting rule as written, and where.
        let writtenTargeting: WrittenRule?
        let targetingPosition: CompactSourcePosition
        let targetingNode: YAMLNode?
        let compiledTargeting: TargetingRule?
        let targetingProblem: String?
        /// Why `defaultVariant` cannot be served (it names no variant), with its position.
        let defaultVariantProblem: String?

        init(
            variants: FlagVariants, defaultVariant: String?, targeting: LocatedValue?, targetingNode: YAMLNode?,
            compiledTargeting: TargetingRule?, targetingProblem: String?, defaultVariantProblem: String?
        ) {
            self.variants = variants
            self.defaultVariant = defaultVariant
            // Until the rule is compiled the loader reads it as a value; afterwards only tools
            // do, rarely, and its JSON text is a tenth of the size of the tree of values.
            self.writtenTargeting = targeting.map {
                targetingNode == nil ? WrittenRule(compacting: $0.value) : .value($0.value)
            }
            self.targetingPosition = targeting.map { CompactSourcePosition($0.location) } ?? .none
            self.targetingNode = targetingNode
            self.compiledTargeting = compiledTargeting
            self.targetingProblem = targetingProblem
            self.defaultVariantProblem = defaultVariantProblem
        }

        /// The targeting rule as written, when there is one.
        var targeting: LocatedValue? {
            writtenTargeting.map { LocatedValue($0.value, at: targetingPosition.sourcePosition) }
        }

        /// Where the targeting rule is written, without reading the rule back.
        var targetingLocation: SourcePosition? {
            writtenTargeting == nil ? nil : targetingPosition.sourcePosition
        }

        /// Rules with these parts, or `nil` when there are none.
        static func unlessEmpty(
            variants: FlagVariants, defaultVariant: String?, targeting: LocatedValue?, targetingNode: YAMLNode?,
            compiledTargeting: TargetingRule?, targetingProblem: String?, defaultVariantProblem: String?
        ) -> Rules? {
            guard
                !variants.isEmpty || defaultVariant != nil || targeting != nil || targetingNode != nil
                    || compiledTargeting != nil || targetingProblem != nil || defaultVariantProblem != nil
            else { return nil }
            return Rules(
                variants: variants, defaultVariant: defaultVariant, targeting: targeting, targetingNode: targetingNode,
                compiledTargeting: compiledTargeting, targetingProblem: targetingProblem,
                defaultVariantProblem: defaultVariantProblem)
        }
    }

    /// A targeting rule as written: the value itself, or its compact JSON text, read back on
    /// demand, for a rule whose text reads back exactly.
    enum WrittenRule: Sendable {
        case value(JSONValue)
        case text(String)

        /// The compact form of `value` when its JSON text reads back as the same value: not when
        /// it holds a double JSON cannot write as it is (an infinity, NaN or `-0.0`).
        init(compacting value: JSONValue) {
            guard value.hasExactJSONText else {
                self = .value(value)
                return
            }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(256)
            value.appendCompactJSON(to: &bytes)
            self = .text(String(decoding: bytes, as: UTF8.self))
        }

        /// The rule.
        var value: JSONValue {
            switch self {
            case .value(let value):
                return value
            case .text(let text):
                // The text was written from a value by `jsonText`, so it parses; `.null` is unreachable.
                let node = try? YAMLParser().documents(fromJSON: Array(text.utf8), file: "").first
                return node.map(JSONValue.init) ?? .null
            }
        }
    }
}

extension JSONValue {
    /// Appends the value as JSON that reads back as this very value: like ``jsonText`` but
    /// written as UTF-8 bytes in one pass, members in storage order (the order does not
    /// matter to the reader), as loading compacts a thousand rules with it.
    fileprivate func appendCompactJSON(to output: inout [UInt8]) {
        switch self {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let value): output.append(contentsOf: (value ? "true" : "false").utf8)
        case .int(let value): output.append(contentsOf: value.description.utf8)
        // Swift writes the shortest text that reads back exactly, with `.0` on whole numbers.
        case .double(let value): output.append(contentsOf: value.description.utf8)
        case .string(let value): Self.appendCompactQuoted(value, to: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                element.appendCompactJSON(to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                Self.appendCompactQuoted(member.key, to: &output)
                output.append(UInt8(ascii: ":"))
                member.value.appendCompactJSON(to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// Appends `string` quoted, with the escapes JSON requires (other UTF-8 bytes as they are).
    private static func appendCompactQuoted(_ string: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                output.append(UInt8(ascii: "\\"))
                output.append(byte)
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                output.append(contentsOf: "\\u00".utf8)
                output.append(hex[Int(byte >> 4)])
                output.append(hex[Int(byte & 0xF)])
            default:
                output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }

    /// Whether ``appendCompactJSON(to:)`` reads back as this very value (every double finite and not `-0.0`).
    fileprivate var hasExactJSONText: Bool {
        switch self {
        case .null, .bool, .int, .string: return true
        case .double(let value): return value.isFinite && !(value == 0 && value.sign == .minus)
        case .array(let elements): return elements.allSatisfy(\.hasExactJSONText)
        case .object(let members): return members.values.allSatisfy(\.hasExactJSONText)
        }
    }
}
