import EnsignSupport

/// The environments a set of configuration files mentions, and the check that a context's
/// environment is one of them.
///
/// An environment is mentioned by its overlay (`environments/<name>.yaml`, or the overlay
/// given with an in-memory context) or by an inline `environments:` value. A context for an
/// environment no file mentions would silently resolve without its values (a typo such as
/// `Production` or `prod`), so loading refuses it, naming the known ones. Files that mention
/// no environment at all accept any name: nothing in them depends on it.
///
/// ```swift
/// let known = KnownEnvironments(definitions: loaded.definitions, overlayNames: ["production"])
/// known.problem(with: "prod", at: .unknown("flags"), ownFile: "environments/prod.yaml")
/// // flags: error: environment 'prod' is not mentioned by any file (…); … did you mean 'production'?
/// ```
package struct KnownEnvironments: Sendable {
    /// Every environment mentioned.
    package let names: Set<String>

    /// The environments that overlays named `overlayNames` and the definitions' inline
    /// `environments:` values mention.
    package init(definitions: DefinitionSet, overlayNames: some Sequence<String>) {
        var names = Set(overlayNames)
        for definition in definitions.orderedDefinitions { names.formUnion(definition.environmentValues.keys) }
        self.names = names
    }

    /// Why a context cannot use `environment`, or `nil` when it can.
    ///
    /// - Parameters:
    ///   - location: where to report it (the definitions directory).
    ///   - ownFile: how the environment's own overlay would be given, for the message.
    ///   - alsoAccepted: names accepted without being mentioned (`test` for in-memory contexts);
    ///     they do not count as mentions.
    package func problem(
        with environment: String, at location: SourcePosition, ownFile: String, alsoAccepted: Set<String> = []
    ) -> Diagnostic? {
        guard !names.isEmpty, !names.contains(environment), !alsoAccepted.contains(environment) else { return nil }
        let known = names.union(alsoAccepted).sorted()
        let suggestion = Self.suggestion(for: environment, among: known).map { "; did you mean '\($0)'?" } ?? ""
        return Diagnostic(
            .error, at: location,
            "environment '\(environment)' is not mentioned by any file (no \(ownFile), no inline 'environments:'"
                + " value); the known environments are \(Self.list(known))\(suggestion)")
    }

    /// A case variant first, then the one known name that `name` starts (`prod` → `production`),
    /// then a likely typo.
    static func suggestion(for name: String, among known: [String]) -> String? {
        let lowered = name.lowercased()
        if let variant = known.first(where: { $0.lowercased() == lowered }) { return variant }
        let longer = known.filter { $0.lowercased().hasPrefix(lowered) }
        if !lowered.isEmpty, longer.count == 1 { return longer[0] }
        return Suggestions.closest(to: name, among: known)
    }

    /// `a`, `a and b`, `a, b and c`.
    static func list(_ names: [String]) -> String {
        guard let last = names.last, names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " and " + last
    }
}
