/// The small banking app the control, CLI and context tests run: three flags, one preference
/// and a development overlay. The one home of this sample's YAML, so that the targets test the
/// same app.
///
/// ```swift
/// let context = try AppContext(
///     definitions: BeneficiariesFixture.definitions, environment: "development",
///     environmentOverlay: BeneficiariesFixture.developmentOverlay)
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
}
