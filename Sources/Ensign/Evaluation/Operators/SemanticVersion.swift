import EnsignSupport

/// A semantic version as flagd's `sem_ver` reads it (Go's `golang.org/x/mod/semver` rules, with
/// the leading `v` optional and `V` accepted).
///
/// `1`, `1.2` and `1.2.3` are valid (missing parts are zero); a pre-release (`-alpha.1`) and
/// build metadata (`+build.5`) may follow a full `major.minor.patch` only. Numbers have no
/// leading zeros. Build metadata never affects comparison.
struct SemanticVersion: Sendable, Hashable {
    /// Decimal digits without leading zeros, so numbers of any size compare by length then text.
    let major: String
    let minor: String
    let patch: String
    let prerelease: [String]

    /// Parses `text`, or returns `nil` when it is not a semantic version.
    init?(_ text: String) {
        var bytes = Array(text.utf8)[...]
        if let first = bytes.first, first == UInt8(ascii: "v") || first == UInt8(ascii: "V") { bytes.removeFirst() }
        guard let major = Self.number(&bytes) else { return nil }
        var minor = "0"
        var patch = "0"
        var prerelease: [String] = []
        if !bytes.isEmpty {
            guard bytes.popFirst() == UInt8(ascii: "."), let parsedMinor = Self.number(&bytes) else { return nil }
            minor = parsedMinor
            if !bytes.isEmpty {
                guard bytes.popFirst() == UInt8(ascii: "."), let parsedPatch = Self.number(&bytes) else { return nil }
                patch = parsedPatch
                if bytes.first == UInt8(ascii: "-") {
                    bytes.removeFirst()
                    guard let identifiers = Self.identifiers(&bytes, isPrerelease: true) else { return nil }
                    prerelease = identifiers
                }
                if bytes.first == UInt8(ascii: "+") {
                    bytes.removeFirst()
                    guard Self.identifiers(&bytes, isPrerelease: false) != nil else { return nil }
                }
                guard bytes.isEmpty else { return nil }
            }
        }
        self.major = major
        self.minor = minor
        self.patch = patch
        self.prerelease = prerelease
    }

    /// A version from a context value: a string, or a number written as flagd's `fmt.Sprintf("%v")`
    /// writes it (`2` → "2", `1.2` → "1.2", but `1000000` → "1e+06", which is no version).
    init?(value: JSONValue) {
        switch value {
        case .string(let text): self.init(text)
        case .int(let number): self.init(GoNumberText.shortestText(for: Double(number)))
        case .double(let number): self.init(GoNumberText.shortestText(for: number))
        default: return nil
        }
    }

    /// Reads digits without a leading zero (except "0" itself).
    private static func number(_ bytes: inout ArraySlice<UInt8>) -> String? {
        let digits = bytes.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        guard !digits.isEmpty, digits.count == 1 || digits.first != UInt8(ascii: "0") else { return nil }
        bytes.removeFirst(digits.count)
        return String(decoding: digits, as: UTF8.self)
    }

    /// Reads dot-separated identifiers up to `+` or the end: non-empty `[0-9A-Za-z-]+`, and for
    /// a pre-release, numeric identifiers without leading zeros.
    private static func identifiers(_ bytes: inout ArraySlice<UInt8>, isPrerelease: Bool) -> [String]? {
        let end = isPrerelease ? (bytes.firstIndex(of: UInt8(ascii: "+")) ?? bytes.endIndex) : bytes.endIndex
        let text = bytes[..<end]
        bytes = bytes[end...]
        var result: [String] = []
        for part in text.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false) {
            let isValid = part.allSatisfy { $0.isASCIIAlphanumeric || $0 == UInt8(ascii: "-") }
            guard !part.isEmpty, isValid else { return nil }
            if isPrerelease, isNumeric(part), part.count > 1, part.first == UInt8(ascii: "0") { return nil }
            result.append(String(decoding: part, as: UTF8.self))
        }
        return result
    }

    private static func isNumeric(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    /// -1, 0 or 1 as `lhs` is lower than, equal to or higher than `rhs` (SemVer 2.0 precedence).
    static func compare(_ lhs: SemanticVersion, _ rhs: SemanticVersion) -> Int {
        for (left, right) in [(lhs.major, rhs.major), (lhs.minor, rhs.minor), (lhs.patch, rhs.patch)] {
            let order = compareNumbers(left, right)
            if order != 0 { return order }
        }
        switch (lhs.prerelease.isEmpty, rhs.prerelease.isEmpty) {
        case (true, true): return 0
        case (true, false): return 1
        case (false, true): return -1
        case (false, false): break
        }
        for (left, right) in zip(lhs.prerelease, rhs.prerelease) {
            let order: Int
            switch (isNumeric(left.utf8), isNumeric(right.utf8)) {
            case (true, true): order = compareNumbers(left, right)
            case (true, false): order = -1
            case (false, true): order = 1
            case (false, false):
                order =
                    left.utf8.elementsEqual(right.utf8) ? 0 : (left.utf8.lexicographicallyPrecedes(right.utf8) ? -1 : 1)
            }
            if order != 0 { return order }
        }
        return lhs.prerelease.count == rhs.prerelease.count ? 0 : (lhs.prerelease.count < rhs.prerelease.count ? -1 : 1)
    }

    static func compareNumbers(_ lhs: String, _ rhs: String) -> Int {
        if lhs.utf8.count != rhs.utf8.count { return lhs.utf8.count < rhs.utf8.count ? -1 : 1 }
        if lhs.utf8.elementsEqual(rhs.utf8) { return 0 }
        return lhs.utf8.lexicographicallyPrecedes(rhs.utf8) ? -1 : 1
    }
}

/// The comparisons `sem_ver` supports.
enum SemanticVersionComparison: String, Sendable, CaseIterable {
    case equal = "="
    case notEqual = "!="
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
    /// `^`: same major version (flagd compares majors only).
    case sameMajor = "^"
    /// `~`: same major and minor version.
    case sameMinor = "~"

    /// The comparison spelled exactly `text` (byte for byte, as flagd matches it), if any.
    init?(exactly text: String) {
        guard let comparison = Self.allCases.first(where: { $0.rawValue.utf8.elementsEqual(text.utf8) }) else {
            return nil
        }
        self = comparison
    }

    /// Whether `lhs <comparison> rhs` holds.
    func holds(_ lhs: SemanticVersion, _ rhs: SemanticVersion) -> Bool {
        switch self {
        case .equal: return SemanticVersion.compare(lhs, rhs) == 0
        case .notEqual: return SemanticVersion.compare(lhs, rhs) != 0
        case .less: return SemanticVersion.compare(lhs, rhs) < 0
        case .lessOrEqual: return SemanticVersion.compare(lhs, rhs) <= 0
        case .greater: return SemanticVersion.compare(lhs, rhs) > 0
        case .greaterOrEqual: return SemanticVersion.compare(lhs, rhs) >= 0
        case .sameMajor: return SemanticVersion.compareNumbers(lhs.major, rhs.major) == 0
        case .sameMinor:
            return SemanticVersion.compareNumbers(lhs.major, rhs.major) == 0
                && SemanticVersion.compareNumbers(lhs.minor, rhs.minor) == 0
        }
    }
}

/// A compiled `sem_ver`: `[version, comparison, version]`, with literal operands parsed once.
///
/// Evaluates to `null` (as flagd does) when the arguments are not exactly three, a version is
/// not a semantic version, or the comparison is not one of `= != < <= > >= ^ ~`.
final class SemanticVersionExpression: Expression, @unchecked Sendable {  // immutable: see Expression
    let operands: [Expression]
    /// The operation whose value is the argument list, when the operand is one.
    let computedOperands: Expression?
    let constantComparison: SemanticVersionComparison?
    let constantTarget: SemanticVersion?

    init(operands: [Expression]) {
        self.operands = operands
        computedOperands = nil
        constantComparison =
            operands.count == 3 ? operands[1].literalValue?.stringValue.flatMap { .init(exactly: $0) } : nil
        constantTarget = operands.count == 3 ? operands[2].literalValue.flatMap { SemanticVersion(value: $0) } : nil
    }

    /// A `sem_ver` whose operand is an operation: flagd reads its value as the argument list.
    init(computedOperands: Expression) {
        operands = []
        self.computedOperands = computedOperands
        constantComparison = nil
        constantTarget = nil
    }

    override func evaluate(in scope: Scope, _ environment: EvaluationEnvironment) throws(EvaluationFailure)
        -> JSONValue
    {
        if let computedOperands {
            guard case .array(let values) = try computedOperands.evaluate(in: scope, environment) else { return .null }
            return try SemanticVersionExpression(operands: values.map(Expression.literal)).evaluate(
                in: scope, environment)
        }
        // flagd evaluates every argument before reading them.
        guard operands.count == 3 else {
            try operands.evaluateIgnored(from: 0, in: scope, environment)
            return .null
        }
        let actual = SemanticVersion(value: try operands[0].evaluate(in: scope, environment))
        var comparison = constantComparison
        if comparison == nil, case .string(let text) = try operands[1].evaluate(in: scope, environment) {
            comparison = SemanticVersionComparison(exactly: text)
        }
        var target = constantTarget
        if target == nil { target = SemanticVersion(value: try operands[2].evaluate(in: scope, environment)) }
        guard let actual, let comparison, let target else { return .null }
        return .bool(comparison.holds(actual, target))
    }
}
