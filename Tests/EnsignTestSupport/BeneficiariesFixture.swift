import Ensign

/// The small banking app the control, CLI, debug menu and context tests run: three flags, one
/// preference and a development overlay, and the keys an app declares for them. The one home of
/// this sample, so that the targets test the same app.
///
/// ```swift
/// let context = try BeneficiariesFixture.context(overlaid: true)
/// try context.setOverride(.showPendingList, to: true)
/// #expect(context[.pageSize] == 30)
/// ```
public enum BeneficiariesFixture {
    /// The flag definitions: `beneficiaries.showPendingList`, `.pageSize` and `.sortOrder`.
    public static let definitions = """
        version: 1
        namespace: beneficiaries
        flags:
          showPendingList: { type: bool, default: false, description: Show pending beneficiaries. }
          pageSize: { type: int, default: 20, minimum: 5, maximum: 100 }
          sortOrder: { type: string, enum: [name, recent], default: recent }
        """

    /// The same flags with `showPendingList` on in the development environment (an `environments:`
    /// default) and no descriptions, for the context tests, which check layers against it: in
    /// development it is `true` before any overlay.
    public static let definitionsOnInDevelopment = """
        version: 1
        namespace: beneficiaries
        flags:
          showPendingList:
            type: bool
            default: false
            environments: { development: true }
          pageSize: { type: int, default: 20, minimum: 5, maximum: 100 }
          sortOrder: { type: string, enum: [name, recent], default: recent }
        """

    /// The preference definitions: `appearance.darkMode`.
    public static let preferences = """
        version: 1
        preferences:
          appearance.darkMode: { type: bool, default: false }
        """

    /// The development overlay: `beneficiaries.pageSize` is 30.
    public static let developmentOverlay = """
        flags:
          beneficiaries.pageSize: 30
        """

    /// A context over ``definitions`` (without preferences) in `environment`, with
    /// ``developmentOverlay`` as its environment overlay when `overlaid`.
    public static func context(environment: String = "development", overlaid: Bool = false) throws -> AppContext {
        try AppContext(
            definitions: definitions, environment: environment,
            environmentOverlay: overlaid ? developmentOverlay : nil)
    }

    /// The values of `beneficiaries.sortOrder`.
    public enum SortOrder: String, FlagValueConvertible, Sendable {
        case name, recent
    }
}

// The sample's keys, declared the way an app declares them. `pageSize`'s code default, 10,
// differs from the definitions' 20 on purpose: a test then tells a read of the definitions
// from a read that fell back to the code (the unconfigured context, a key no definition has).

extension FlagKey<Bool> {
    /// `beneficiaries.showPendingList`, off in code.
    public static let showPendingList = FlagKey("beneficiaries.showPendingList", default: false)
}

extension FlagKey<Int> {
    /// `beneficiaries.pageSize`, 10 in code (20 in the definitions).
    public static let pageSize = FlagKey("beneficiaries.pageSize", default: 10)
}

extension FlagKey<BeneficiariesFixture.SortOrder> {
    /// `beneficiaries.sortOrder`, `name` in code (`recent` in the definitions).
    public static let sortOrder = FlagKey("beneficiaries.sortOrder", default: .name)
}

extension UserPreferenceKey<Bool> {
    /// The preference `appearance.darkMode`, off in code.
    public static let darkMode = UserPreferenceKey("appearance.darkMode", default: false)
}
