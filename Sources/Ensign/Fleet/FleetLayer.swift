import EnsignSupport

/// The fleet layer of a context's inputs: the values a fleet source last delivered, and the
/// overlay of those that fit their definitions.
///
/// The overlay is a pure function of the values and the definitions, so every instance of an
/// app that sees the same store revision resolves the same values, whatever it saw before: a
/// value that does not fit (wrong type, not in `enum`, out of bounds) is left out — the lower
/// layers decide the key — and reported, while every other key keeps its fleet value. A reload
/// that changes the definitions checks the values again.
///
/// Each value is checked once: the next layer built from this one over the same definitions
/// reuses the verdict of every value that did not change, so an update of one key costs one
/// check (and undefined keys do not pay for "did you mean" suggestions again).
struct FleetLayer: Sendable {
    /// The values as delivered, by full key.
    let values: [String: ProvidedValue]
    /// Problems the source found itself (values it could not parse).
    let sourceProblems: [Diagnostic]
    /// The values that fit their definitions, with their origin as location.
    let overlay: Overlay
    /// Every problem: the source's, values refused by their definitions (errors) and values
    /// for keys no definition declares (warnings).
    let problems: [Diagnostic]
    /// The layout the values were checked against, and each value's verdict.
    private let layoutIdentifier: UInt64
    private let verdicts: [String: Verdict]

    /// What checking one value against its definition found.
    private enum Verdict: Sendable {
        case applied(LocatedValue, FlagDefinition.Kind)
        case refused(Diagnostic)
        case undefined(LocatedValue, Diagnostic)
    }

    /// Checks `values` against `layout`'s definitions, reusing `previous`'s verdicts for the
    /// values that did not change when it was checked against the same layout.
    init(
        values: [String: ProvidedValue], sourceProblems: [Diagnostic], layout: KeyLayout, reusing previous: FleetLayer?
    ) {
        let reusable = previous?.layoutIdentifier == layout.identifier ? previous : nil
        var verdicts: [String: Verdict] = [:]
        verdicts.reserveCapacity(values.count)
        for (key, fleetValue) in values {
            if let reusable, reusable.values[key] == fleetValue, let verdict = reusable.verdicts[key] {
                verdicts[key] = verdict
            } else {
                verdicts[key] = Self.check(fleetValue, key: key, definitions: layout.definitions)
            }
        }
        var overlay = Overlay(source: "fleet")
        var problems = sourceProblems
        for key in verdicts.keys.sorted() {
            switch verdicts[key]! {
            case .applied(let value, .flag): overlay.flags[key] = value
            case .applied(let value, .preference): overlay.preferences[key] = value
            case .refused(let problem): problems.append(problem)
            case .undefined(let value, let problem):
                overlay.ignoredFlags[key] = value
                problems.append(problem)
            }
        }
        self.values = values
        self.sourceProblems = sourceProblems
        self.overlay = overlay
        self.problems = problems
        self.layoutIdentifier = layout.identifier
        self.verdicts = verdicts
    }

    private static func check(_ fleetValue: ProvidedValue, key: String, definitions: DefinitionSet) -> Verdict {
        let location = fleetValue.provenance.location ?? .unknown(fleetValue.origin)
        guard let definition = definitions[key] else {
            return .undefined(
                LocatedValue(fleetValue.value, at: location),
                Diagnostic(
                    .warning, at: .unknown(fleetValue.path), key: key,
                    "no flag or preference '\(key)' is defined; the fleet value is ignored"
                        + Suggestions.didYouMean(key, among: definitions.keys)))
        }
        switch definition.check(fleetValue.value) {
        case .success(let checked):
            return .applied(LocatedValue(checked, at: location), definition.kind)
        case .failure(let problem):
            return .refused(
                Diagnostic(
                    .error, at: .unknown(fleetValue.path), key: key,
                    "'\(key)' value \(problem); the fleet value (\(fleetValue.origin)) is ignored and the"
                        + " lower layers decide the key until it is fixed"))
        }
    }

    /// The same values checked against another layout's definitions (after a reload).
    func rechecked(against layout: KeyLayout) -> FleetLayer {
        FleetLayer(values: values, sourceProblems: sourceProblems, layout: layout, reusing: self)
    }
}
