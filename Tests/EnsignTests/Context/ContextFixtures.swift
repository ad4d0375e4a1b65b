import Ensign
import EnsignTestSupport

/// The keys the context tests use beside the banking sample's (`BeneficiariesFixture`).
extension FlagKey<Bool> {
    static let newFlow = FlagKey("transfers.newFlow", default: false)
    static let undefinedFlag = FlagKey("nowhere.defined", default: true)
}

extension FlagKey<Int> {
    /// The same key read with the wrong type.
    static let newFlowAsInt = FlagKey("transfers.newFlow", default: -1)
}

enum ContextFixtures {
    /// The banking sample (`BeneficiariesFixture`), with `showPendingList` on in development.
    static let definitions = BeneficiariesFixture.definitionsOnInDevelopment

    static let transfers = """
        version: 1
        namespace: transfers
        flags:
          newFlow:
            variants: { "on": true, "off": false }
            defaultVariant: "off"
            targeting:
              if:
                - in: [{ var: country }, [FR, BE]]
                - "on"
                - null
        """

    /// The banking sample's preferences.
    static let preferences = BeneficiariesFixture.preferences

    /// A context over the fixtures, for `environment`, with optional overlays.
    static func context(
        environment: String = "test", environmentOverlay: String? = nil, deploymentOverlays: [String] = []
    ) throws -> AppContext {
        try AppContext(
            definitions: definitions, transfers, preferences, environment: environment,
            environmentOverlay: environmentOverlay, deploymentOverlays: deploymentOverlays)
    }
}
