import Ensign

/// The beneficiaries screen: who the user can send money to.
final class BeneficiariesModule: DemoModule {
    static let showPendingList = FlagKey("showPendingList", default: false)
    static let pageSize = FlagKey("pageSize", default: 20)
    static let sortOrder = FlagKey("sortOrder", default: SortOrder.recent)

    enum SortOrder: String, FlagValueConvertible {
        case name, recent
    }

    let name = "beneficiaries"
    let context: AppContext
    static let active = ["Chloé Martin", "Alex Dubois", "Bao Nguyen", "Sam Okafor", "Lena Fischer", "Ravi Patel"]
    static let pending = ["Inès Moreau (invited yesterday)", "Tom Becker (awaiting IBAN check)"]

    init(context: AppContext) {
        self.context = context
    }

    func render() -> [String] {
        let values = context.snapshot  // one snapshot, so the values shown belong together
        let order = values[Self.sortOrder]
        let names = order == .name ? Self.active.sorted() : Self.active
        var lines = ["Active (\(names.count), \(values[Self.pageSize]) per page, by \(order.rawValue)):"]
        lines += names.prefix(4).map { "  • \($0)" }
        if names.count > 4 { lines.append("  … \(names.count - 4) more") }
        if values[Self.showPendingList] {
            lines.append("Pending:")
            lines += Self.pending.map { "  ◦ \($0)" }
        }
        return lines
    }
}

/// The transfer screen: the new flow is rolled out by targeting.
final class TransfersModule: DemoModule {
    static let newFlow = FlagKey("newFlow", default: false)
    static let dailyLimit = FlagKey("dailyLimit", default: 1000.0)

    let name = "transfers"
    let context: AppContext

    init(context: AppContext) {
        self.context = context
    }

    func render() -> [String] {
        let details = context.details(for: Self.newFlow)
        let flow = details.value ? "new transfer flow (3 steps)" : "classic transfer flow (5 steps)"
        return [
            "Flow: \(flow)  [\(details.reason.rawValue)\(details.variant.map { ", variant \($0)" } ?? "")]",
            "Daily limit: €\(Int(context[Self.dailyLimit]))",
        ]
    }
}

/// The settings screen: the user's own preferences.
final class SettingsModule: DemoModule {
    static let darkMode = UserPreferenceKey("appearance.darkMode", default: false)
    static let language = UserPreferenceKey("locale.language", default: "en")

    let name = "settings"
    let context: AppContext

    init(context: AppContext) {
        self.context = context
    }

    func render() -> [String] {
        let greeting = ["en": "Hello", "fr": "Bonjour", "de": "Hallo", "zh": "你好"][context[Self.language]] ?? "Hello"
        return [
            "Theme: \(context[Self.darkMode] ? "dark ☾" : "light ☀")",
            "Language: \(context[Self.language]) — \(greeting), Dominique!",
        ]
    }
}
