/// Everything a snapshot is resolved from: definitions, the environment and deployment
/// overlays, the evaluation context, preferences and overrides. An immutable value; every
/// write produces the next inputs and the snapshot resolved from them.
struct ContextInputs: Sendable {
    var layout: KeyLayout
    var environment: String
    var environmentOverlay: Overlay?
    var deploymentOverlays: [Overlay]
    /// The fleet layer (4½), when a fleet source has delivered one.
    var fleet: FleetLayer?
    var evaluationContext: EvaluationContext
    var preferences: [String: AttributedValue]
    var overrides: [String: AttributedValue]

    init(
        layout: KeyLayout, environment: String, environmentOverlay: Overlay? = nil, deploymentOverlays: [Overlay] = [],
        evaluationContext: EvaluationContext = .empty
    ) {
        self.layout = layout
        self.environment = environment
        self.environmentOverlay = environmentOverlay
        self.deploymentOverlays = deploymentOverlays
        self.fleet = nil
        self.evaluationContext = evaluationContext
        self.preferences = [:]
        self.overrides = [:]
    }
}

extension ContextInputs {
    /// The fleet values that fit their definitions.
    var fleetOverlay: Overlay? { fleet?.overlay }
}

/// A value set at run time (an override or a preference) with who set it and when.
package struct AttributedValue: Sendable, Hashable {
    /// The value.
    public var value: JSONValue
    /// Who set it: `code`, `cli`, `menu`, `preferences file`, …
    public var actor: String
    /// When it was set.
    public var time: WallClockTime
    /// The file it was read from, for values loaded from the preferences or overrides file.
    public var location: SourcePosition?
    /// Whether it is saved in the preferences or overrides file (and so survives a restart).
    public var isPersisted: Bool

    /// Creates an attributed value.
    public init(
        _ value: JSONValue, actor: String, time: WallClockTime = .now(), location: SourcePosition? = nil,
        isPersisted: Bool = false
    ) {
        self.value = value
        self.actor = actor
        self.time = time
        self.location = location
        self.isPersisted = isPersisted
    }
}
