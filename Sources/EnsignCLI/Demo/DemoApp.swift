import Ensign

/// The sample banking app behind `ensign demo`: a root context injected into three modules,
/// each scoped to its keys, each re-rendering only when one of its keys changes.
final class DemoApp: Sendable {
    let context: AppContext
    let screen: DemoScreen
    let modules: [any DemoModule]
    private let tokens: [ObservationToken]

    /// The keys each module observes, relative to its scope.
    static let observedKeys: [String: [String]] = [
        "beneficiaries": ["showPendingList", "pageSize", "sortOrder"],
        "transfers": ["newFlow", "dailyLimit"],
        "settings": ["appearance.darkMode", "locale.language"],
    ]

    init(context: AppContext, screen: DemoScreen) {
        self.context = context
        self.screen = screen
        let modules: [any DemoModule] = [
            BeneficiariesModule(context: context.scope("beneficiaries")),
            TransfersModule(context: context.scope("transfers")),
            SettingsModule(context: context),
        ]
        self.modules = modules
        var tokens: [ObservationToken] = []
        for module in modules {
            let scoped = module.name == "settings" ? context : context.scope(module.name)
            let keys = Self.observedKeys[module.name] ?? []
            // One batch per transaction for the module's keys: one re-render, however many changed.
            tokens.append(
                scoped.observe(keysNamed: keys, label: "\(module.name) module") { [weak module] batch in
                    guard let module else { return }
                    screen.draw(module, because: Self.reason(batch))
                })
        }
        self.tokens = tokens
    }

    /// Draws every module once.
    func renderAll() {
        for module in modules { screen.draw(module, because: "first render") }
    }

    /// "re-rendered: beneficiaries.showPendingList false → true (override by cli)".
    static func reason(_ batch: ChangeBatch) -> String {
        let changes = batch.changes.map { change in
            "\(change.key) \(change.oldValue?.jsonText ?? "default") → \(change.newValue?.jsonText ?? "default")"
        }
        return "re-rendered: \(changes.joined(separator: ", ")) (\(batch.cause))"
    }
}
