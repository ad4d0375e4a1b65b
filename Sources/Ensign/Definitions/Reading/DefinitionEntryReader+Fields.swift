import EnsignSupport
import EnsignYAML

extension DefinitionEntryReader {
    /// The default value and variant: `default:` for compact flags, `defaultVariant:` with
    /// variants. A `defaultVariant` that names no variant is an error confined to its flag
    /// (recorded in ``flagErrors``): the name is kept without a value, and the flag evaluates
    /// as flagd's evaluators do, failing with `GENERAL` and `problem` only where it falls to
    /// that default. One that is not a string reads `PARSE_ERROR` with `problem` (no name).
    mutating func readDefault(
        rules: ValueRules, variants: FlagVariants
    ) -> (value: LocatedValue?, variant: String?, problem: String?) {
        let defaultNode = fields[.default]
        let variantNode = fields[.defaultVariant]
        guard fields[.variants] != nil else {
            if let variantNode {
                error(at: variantNode.location, "'\(key)' has defaultVariant but no variants; use 'default:' instead")
            }
            guard let defaultNode else {
                error(at: keyLocation, "'\(key)' needs a default (and optionally a type); add 'default: <value>'")
                return (nil, nil, nil)
            }
            let value = LocatedValueReader.read(
                defaultNode, rules: rules, key: key, role: "default", diagnostics: &diagnostics)
            return (value.map { LocatedValue($0, at: defaultNode.compactPosition) }, nil, nil)
        }
        if let defaultNode {
            error(
                at: defaultNode.location,
                "'\(key)' has variants, so its default is named with 'defaultVariant: <variant>', not 'default:'")
        }
        // flagd: no default variant (absent, null or "") means the code default applies.
        guard let variantNode, variantNode.scalarText == nil || variantNode.resolvedScalar != ResolvedScalar.null,
            variantNode.scalarText != ""
        else {
            return (nil, nil, nil)
        }
        // flagd's schema makes defaultVariant a string and its daemon refuses the whole file
        // otherwise; here only the flag breaks, and the message says how to name "true".
        guard case .string(let name) = variantNode.resolvedScalar else {
            let found = variantNode.scalarText.map { "\(variantNode.kindDescription) (\($0))" }
            let quoted = variantNode.scalarText.map { " (write \"\($0)\" in quotes to name a variant so called)" }
            return flagError(
                at: variantNode.location,
                "defaultVariant must be the name of a variant, a string; found \(found ?? variantNode.kindDescription)",
                hint: quoted ?? "")
        }
        guard let value = variants[name] else {
            let names = variants.names.sorted()
            let (_, _, problem) = flagError(
                at: variantNode.location,
                "defaultVariant '\(name)' is not among its variants (\(names.joined(separator: ", ")))",
                hint: Suggestions.didYouMean(name, among: names))
            return (nil, name, problem)
        }
        return (LocatedValue(value, at: variantNode.compactPosition), name, nil)
    }

    /// Records an error confined to this flag (it reads `PARSE_ERROR` with `problem`).
    private mutating func flagError(
        at location: SourcePosition, _ problem: String, hint: String
    ) -> (value: LocatedValue?, variant: String?, problem: String?) {
        let diagnostic = Diagnostic(.error, at: location, "'\(key)' \(problem)" + hint)
        diagnostics.append(diagnostic)
        flagErrors.append(diagnostic)
        return (nil, nil, "\(problem) at \(location)")
    }

    mutating func readBounds(type: FlagType) -> (Double?, Double?) {
        let minimum = readBound(.minimum, type: type)
        let maximum = readBound(.maximum, type: type)
        if let minimum, let maximum, minimum > maximum, let node = fields[.maximum] {
            error(at: node.location, "'\(key)' maximum is below its minimum")
        }
        return (minimum, maximum)
    }

    /// `minimum:` or `maximum:`, checked to be a number of a numeric flag.
    private mutating func readBound(_ field: DefinitionField, type: FlagType) -> Double? {
        guard let node = fields[field] else { return nil }
        guard type == .int || type == .double else {
            error(at: node.location, "'\(key)' is \(type.withArticle) flag; '\(field.name)' applies to int and double")
            return nil
        }
        guard let number = JSONValue(node).numericValue else {
            error(at: node.location, "'\(key)' \(field.name) must be a number; found \(node.kindDescription)")
            return nil
        }
        return number
    }

    mutating func readAllowedValues(type: FlagType) -> [JSONValue]? {
        guard let node = fields[.enum] else { return nil }
        guard let elements = node.sequenceElements, !elements.isEmpty else {
            error(at: node.location, "'\(key)' enum must be a non-empty list of values")
            return nil
        }
        var allowed: [JSONValue] = []
        for element in elements {
            let value = JSONValue(element)
            guard let converted = type.coerce(value), type != .object else {
                error(at: element.location, "'\(key)' enum value \(value.jsonText) is not \(type.withArticle)")
                continue
            }
            allowed.append(converted)
        }
        return allowed
    }

    mutating func readEnvironments(rules: ValueRules) -> [String: LocatedValue] {
        guard let node = fields[.environments] else { return [:] }
        guard let entries = node.mappingEntries else {
            error(at: node.location, "'\(key)' environments must be a mapping of environment names to values")
            return [:]
        }
        var values: [String: LocatedValue] = [:]
        for entry in entries {
            guard let name = entry.key.scalarText, KeySyntax.isValid(name) else {
                error(at: entry.key.location, "'\(key)' has an invalid environment name: \(KeySyntax.rule)")
                continue
            }
            if let value = LocatedValueReader.read(
                entry.value, rules: rules, key: key, role: "value for environment '\(name)'",
                diagnostics: &diagnostics)
            {
                values[name] = LocatedValue(value, at: entry.value.compactPosition)
            }
        }
        return values
    }

    mutating func readState() -> Bool {
        guard let node = fields[.state] else { return true }
        switch node.scalarText {
        case "ENABLED": return true
        case "DISABLED": return false
        default:
            let text = node.scalarText ?? node.kindDescription
            error(
                at: node.location,
                "'\(key)' state must be ENABLED or DISABLED; found '\(text)'"
                    + Suggestions.didYouMean(text, among: ["ENABLED", "DISABLED"]))
            return true
        }
    }

    /// `secret:`, `true` or `false` (YAML's core schema: any case); absent means `false`.
    mutating func readSecret() -> Bool {
        guard let node = fields[.secret] else { return false }
        guard let text = node.scalarText, let secret = Bool(text.lowercased()) else {
            let found = node.scalarText.map { "'\($0)'" } ?? node.kindDescription
            error(at: node.location, "'\(key)' secret must be true or false; found \(found)")
            return false
        }
        return secret
    }

    mutating func readText(_ field: DefinitionField) -> String? {
        guard let node = fields[field] else { return nil }
        guard let text = node.scalarText else {
            error(at: node.location, "'\(key)' \(field.name) must be text; found \(node.kindDescription)")
            return nil
        }
        return text
    }

    /// `swiftType:`, checked to be a Swift type name (dot-separated identifiers); `ensign
    /// generate` declares the key with it.
    mutating func readSwiftType() -> String? {
        guard let node = fields[.swiftType] else { return nil }
        guard let text = node.scalarText, SwiftTypeName.isValid(text) else {
            let found = node.scalarText.map { "'\($0)'" } ?? node.kindDescription
            error(
                at: node.location,
                "'\(key)' swiftType must be a Swift type name such as Banner or Wallet.Banner; found \(found)")
            return nil
        }
        return text
    }

    mutating func readExpiry() -> CalendarDay? {
        guard let node = fields[.expires] else { return nil }
        guard let text = node.scalarText, let day = CalendarDay(text) else {
            error(at: node.location, "'\(key)' expires must be a day written YYYY-MM-DD, such as 2027-06-30")
            return nil
        }
        if day < today {
            let owner = readText(.owner).map { " (owner: \($0))" } ?? ""
            warning(
                at: node.location,
                "'\(key)' expired on \(day)\(owner); remove the flag from code and files, or move 'expires' later")
        }
        return day
    }

    mutating func error(at location: SourcePosition, _ message: String) {
        diagnostics.append(Diagnostic(.error, at: location, key: key.isEmpty ? nil : key, message))
    }

    mutating func warning(at location: SourcePosition, _ message: String) {
        diagnostics.append(Diagnostic(.warning, at: location, key: key.isEmpty ? nil : key, message))
    }
}
