import Ensign

/// What ``FlagDebtAnalyzer`` found: the flags a team can probably delete or tidy, each with
/// where it is and what to do about it.
///
/// ```swift
/// let report = FlagDebtAnalyzer(today: day).analyze(validation, sources: files)
/// report.findings.forEach { print($0.diagnostic) }  // flags/app.yaml:4:3: warning: 'old' expired on …
/// ```
package struct FlagDebtReport: Sendable {
    /// A kind of debt. The raw value is its name in `ensign debt --json`, so renaming a case
    /// breaks the scripts that read it.
    package enum Kind: String, Sendable, Hashable, CaseIterable {
        /// `expires:` is before today.
        case expired
        /// A flag (not a preference) without `owner:`.
        case noOwner
        /// Targeting that gives every context the same value.
        case fullyRolledOut
        /// An environment's value equal to the value it replaces.
        case overlayEqualsDefault
        /// A key no Swift source uses (only checked with sources).
        case unreferenced
        /// A key a Swift source uses by name that no file defines (only checked with sources).
        case undefined
        /// A flag a running app has not evaluated (only checked with the app's evaluated keys).
        case neverEvaluated
    }

    /// One finding.
    package struct Finding: Sendable, Hashable {
        /// What kind of debt it is.
        package var kind: Kind
        /// The key it is about.
        package var key: String
        /// Where to act: the definition, the overlay line, or the source that uses the key.
        package var location: SourcePosition
        /// What was found and what to do, in the words a warning uses.
        package var message: String

        /// Creates a finding.
        package init(_ kind: Kind, key: String, at location: SourcePosition, _ message: String) {
            self.kind = kind
            self.key = key
            self.location = location
            self.message = message
        }

        /// The finding as a compiler-style warning, for editors and CI logs.
        package var diagnostic: Diagnostic { Diagnostic(.warning, at: location, key: key, message) }
    }

    /// Every finding, in reading order (file, line, column).
    package var findings: [Finding]
    /// The kinds that were checked: ``Kind/unreferenced`` and ``Kind/undefined`` need the
    /// sources, and ``Kind/neverEvaluated`` the evaluated keys.
    package var checkedKinds: [Kind]
    /// How many flags and preferences were checked.
    package var keyCount: Int
    /// How many Swift files were read; `nil` when no sources were given.
    package var sourceFileCount: Int?
    /// The day `expires:` was compared with.
    package var today: CalendarDay

    /// The findings of one kind.
    package func findings(of kind: Kind) -> [Finding] { findings.filter { $0.kind == kind } }

    /// One line: what was checked and how much was found.
    package var summary: String {
        func plural(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
        let sources = sourceFileCount.map { " and \(plural($0, "Swift file"))" } ?? ""
        let counts = Kind.allCases.compactMap { kind -> String? in
            let count = findings(of: kind).count
            return count == 0 ? nil : "\(count) \(kind.rawValue)"
        }
        let found =
            counts.isEmpty ? "no flag debt" : plural(findings.count, "finding") + " (\(counts.joined(separator: ", ")))"
        return "\(plural(keyCount, "key"))\(sources) checked: \(found)"
    }
}
