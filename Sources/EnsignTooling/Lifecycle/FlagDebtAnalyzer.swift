import Ensign
import EnsignCodeGeneration

/// Finds flag debt, what `ensign debt` reports: flags past `expires:`, flags without an
/// owner, targeting that no longer varies, environment values that repeat the default, keys
/// the sources never use and names the sources use that are not defined, and (from a running
/// app) flags never evaluated.
///
/// The analyzer reads what ``ConfigValidator`` loaded (so there is one reader of the files),
/// Swift sources the caller has read, and the keys a running app has evaluated, when known.
///
/// ```swift
/// let validation = ConfigValidator().validate(paths: ["flags"])
/// let report = FlagDebtAnalyzer(today: CalendarDay("2027-01-01")!)
///     .analyze(validation, sources: [SwiftSourceScan.File(path: "App.swift", text: text)])
/// print(report.summary)  // 7 keys and 1 Swift file checked: 2 findings (1 expired, 1 noOwner)
/// ```
package struct FlagDebtAnalyzer: Sendable {
    /// The day `expires:` is compared with: a flag expires the day after its `expires:` day.
    package var today: CalendarDay

    /// Creates an analyzer that compares `expires:` with `today`.
    package init(today: CalendarDay = .today()) {
        self.today = today
    }

    /// Analyzes loaded definitions.
    ///
    /// - Parameters:
    ///   - validation: the definitions and overlays, as ``ConfigValidator`` loaded them.
    ///   - sources: the app's Swift files; `nil` skips ``FlagDebtReport/Kind/unreferenced``
    ///     and ``FlagDebtReport/Kind/undefined``.
    ///   - evaluatedKeys: the keys a running app has evaluated since it started; `nil` skips
    ///     ``FlagDebtReport/Kind/neverEvaluated``.
    package func analyze(
        _ validation: ValidationReport, sources: [SwiftSourceScan.File]? = nil, evaluatedKeys: Set<String>? = nil
    ) -> FlagDebtReport {
        let definitions = validation.definitions.orderedDefinitions
        var findings: [FlagDebtReport.Finding] = []
        var checked: [FlagDebtReport.Kind] = [.expired, .noOwner, .fullyRolledOut, .overlayEqualsDefault]
        let overlays = validation.environments.sorted { $0.key < $1.key }
        for definition in definitions {
            findings += lifecycleFindings(definition)
            findings += redundantInlineValues(definition)
            if let value = RolloutAnalysis.constantValue(
                of: definition, evaluators: validation.definitions.evaluators,
                environmentOverlays: overlays.map(\.value))
            {
                findings.append(
                    .init(
                        .fullyRolledOut, key: definition.key, at: definition.targetingLocation ?? definition.location,
                        "'\(definition.key)' is fully rolled out: every context gets \(value.jsonText); make that its"
                            + " default and remove the targeting, or remove the flag and its uses"))
            }
        }
        for (environment, overlay) in overlays {
            findings += redundantOverlayValues(overlay, environment: environment, definitions: validation.definitions)
        }
        var sourceFileCount: Int?
        if let sources {
            let scan = SwiftSourceScan(sources)
            sourceFileCount = scan.fileCount
            checked += [.unreferenced, .undefined]
            findings += Self.references(in: scan, definitions: validation.definitions)
        }
        if let evaluatedKeys {
            checked.append(.neverEvaluated)
            for definition in definitions where definition.kind == .flag && !evaluatedKeys.contains(definition.key) {
                findings.append(
                    .init(
                        .neverEvaluated, key: definition.key, at: definition.location,
                        "'\(definition.key)' has not been evaluated since the app started; if no code path reads it"
                            + " any more, remove it"))
            }
        }
        return FlagDebtReport(
            findings: findings.sorted { ($0.location, $0.kind.rawValue) < ($1.location, $1.kind.rawValue) },
            checkedKinds: checked, keyCount: definitions.count, sourceFileCount: sourceFileCount, today: today)
    }

    /// `expired` and `noOwner`.
    private func lifecycleFindings(_ definition: FlagDefinition) -> [FlagDebtReport.Finding] {
        var findings: [FlagDebtReport.Finding] = []
        let key = definition.key
        if let expires = definition.expires, expires < today {
            let owner = definition.owner.map { " (owner: \($0))" } ?? ""
            findings.append(
                .init(
                    .expired, key: key, at: definition.location,
                    "'\(key)' expired on \(expires)\(owner); remove it and its uses, or move 'expires' later"))
        }
        if definition.kind == .flag, definition.owner == nil {
            findings.append(
                .init(
                    .noOwner, key: key, at: definition.location,
                    "'\(key)' has no owner; add 'owner:' so that someone decides when it goes"))
        }
        return findings
    }

    /// Inline `environments:` values equal to the default.
    private func redundantInlineValues(_ definition: FlagDefinition) -> [FlagDebtReport.Finding] {
        guard let defaultValue = definition.defaultValue?.value else { return [] }
        var findings: [FlagDebtReport.Finding] = []
        for (environment, located) in definition.environmentValues
        where Self.same(located.value, defaultValue, in: definition) {
            findings.append(
                .init(
                    .overlayEqualsDefault, key: definition.key, at: located.location,
                    "'\(definition.key)' is set to \(located.value.jsonText) for \(environment), the same as its"
                        + " default; remove it from 'environments:'"))
        }
        return findings
    }

    /// Values in an environment's overlay file equal to what the environment reads without
    /// them: the definition's inline value for that environment, else its default.
    private func redundantOverlayValues(_ overlay: Overlay, environment: String, definitions: DefinitionSet)
        -> [FlagDebtReport.Finding]
    {
        var findings: [FlagDebtReport.Finding] = []
        let entries =
            overlay.flags.map { ($0.key, $0.value, FlagDefinition.Kind.flag) }
            + overlay.preferences.map { ($0.key, $0.value, FlagDefinition.Kind.preference) }
        for (key, located, kind) in entries {
            guard let definition = definitions[key], definition.kind == kind else { continue }
            let inline = definition.environmentValues[environment]
            guard let replaced = inline?.value ?? definition.defaultValue?.value,
                Self.same(located.value, replaced, in: definition)
            else { continue }
            let what = inline == nil ? "its default" : "its definition's value for \(environment)"
            findings.append(
                .init(
                    .overlayEqualsDefault, key: key, at: located.location,
                    "'\(key)' is set to \(located.value.jsonText) for \(environment), the same as \(what); remove"
                        + " the line"))
        }
        return findings
    }

    /// Whether two values are the same once checked against the definition (so `1` and
    /// `1.0` for a double are).
    private static func same(_ lhs: JSONValue, _ rhs: JSONValue, in definition: FlagDefinition) -> Bool {
        guard case .success(let left) = definition.check(lhs), case .success(let right) = definition.check(rhs) else {
            return lhs == rhs
        }
        return left == right
    }

    /// `unreferenced` and `undefined`.
    ///
    /// A key is used when its generated name (`.walletShowBalance`) appears as an identifier,
    /// its full name as a string literal, or the end of its name (after a dot) is given to a
    /// by-name API: `FlagKey("showBalance", …)` read through `scope("wallet")`. A name given to
    /// a by-name API is defined when it is a key, or the end of one, for the same reason.
    static func references(in scan: SwiftSourceScan, definitions: DefinitionSet) -> [FlagDebtReport.Finding] {
        var findings: [FlagDebtReport.Finding] = []
        let byName = Set(scan.keyLiterals.map(\.name))
        var keyEndings: Set<Substring> = []
        for definition in definitions.orderedDefinitions {
            let key = definition.key
            let endings = key.indices.filter { key[$0] == "." }.map { key[key.index(after: $0)...] }
            keyEndings.formUnion(endings)
            let member = SwiftName.memberIdentifier(for: key)
            let isUsed =
                member.map(scan.identifiers.contains) == true || scan.stringLiterals.contains(key)
                || endings.contains { byName.contains(String($0)) }
            guard !isUsed else { continue }
            let name = member.map { "neither .\($0) nor \"\(key)\"" } ?? "no \"\(key)\""
            findings.append(
                .init(
                    .unreferenced, key: key, at: definition.location,
                    "'\(key)' is defined but the Swift sources use it nowhere (\(name)); remove it and its"
                        + " overlay values"))
        }
        for literal in scan.keyLiterals
        where definitions[literal.name] == nil && !keyEndings.contains(Substring(literal.name)) {
            findings.append(
                .init(
                    .undefined, key: literal.name, at: literal.location,
                    "'\(literal.name)' is read by name here, but no definitions file defines it; define it, or"
                        + " correct the name"))
        }
        return findings
    }
}
