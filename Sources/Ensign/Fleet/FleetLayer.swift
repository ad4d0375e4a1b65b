/// One key's value in the fleet layer (layer 4½), as a fleet source read it from its store.
///
/// Fleet sources (EnsignFleet's etcd source) hand these to
/// ``AppContext/replaceFleetLayer(_:source:revision:problems:)``; the context checks each
/// value against the key's definition, so a source only parses.
@_spi(Sources) public struct FleetValue: Sendable, Hashable {
    /// The value as parsed from the store (JSON or YAML text).
    public var value: JSONValue
    /// Where the value comes from, shown as its provenance: `etcd http://127.0.0.1:2379 rev 42`.
    public var origin: String
    /// The value's address in the store, the path of its diagnostics: `etcd:/myapp/flags/list.pageSize`.
    public var path: String

    /// Creates a fleet value.
    public init(_ value: JSONValue, origin: String, path: String) {
        self.value = value
        self.origin = origin
        self.path = path
    }
}

/// The fleet layer of a context's inputs: the values a fleet source last delivered, and the
/// overlay of those that fit their definitions.
///
/// The overlay is a pure function of the values and the definitions, so every instance of an
/// app that sees the same store revision resolves the same values, whatever it saw before: a
/// value that does not fit (wrong type, not in `enum`, out of bounds) is left out — the lower
/// layers decide the key — and reported, while every other key keeps its fleet value. A reload
/// that changes the definitions checks the values again.
struct FleetLayer: Sendable {
    /// The values as delivered, by full key.
    let values: [String: FleetValue]
    /// Problems the source found itself (values it could not parse).
    let sourceProblems: [Diagnostic]
    /// The values that fit their definitions, with their origin as location.
    let overlay: Overlay
    /// Every problem: the source's, values refused by their definitions (errors) and values
    /// for keys no definition declares (warnings).
    let problems: [Diagnostic]

    init(values: [String: FleetValue], sourceProblems: [Diagnostic], definitions: DefinitionSet) {
        self.values = values
        self.sourceProblems = sourceProblems
        var overlay = Overlay(source: "fleet")
        var problems = sourceProblems
        for key in values.keys.sorted() {
            let fleetValue = values[key]!
            let location = SourcePosition.unknown(fleetValue.origin)
            guard let definition = definitions[key] else {
                overlay.ignoredFlags[key] = LocatedValue(fleetValue.value, at: location)
                problems.append(
                    Diagnostic(
                        .warning, at: .unknown(fleetValue.path), key: key,
                        "no flag or preference '\(key)' is defined; the fleet value is ignored"
                            + Suggestions.didYouMean(key, among: definitions.keys)))
                continue
            }
            switch definition.check(fleetValue.value) {
            case .success(let checked):
                let located = LocatedValue(checked, at: location)
                if definition.kind == .flag { overlay.flags[key] = located } else { overlay.preferences[key] = located }
            case .failure(let problem):
                problems.append(
                    Diagnostic(
                        .error, at: .unknown(fleetValue.path), key: key,
                        "'\(key)' value \(problem); the fleet value (\(fleetValue.origin)) is ignored and the"
                            + " lower layers decide the key until it is fixed"))
            }
        }
        self.overlay = overlay
        self.problems = problems
    }

    /// The same values checked against other definitions (after a reload).
    func rechecked(against definitions: DefinitionSet) -> FleetLayer {
        FleetLayer(values: values, sourceProblems: sourceProblems, definitions: definitions)
    }
}
