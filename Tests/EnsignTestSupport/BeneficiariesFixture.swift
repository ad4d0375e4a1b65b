/// The small banking app the control and CLI tests run: three flags, one preference and a
/// development overlay.
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
