/// `banner`, the targeted flag the OFREP service, server and replica tests evaluate: `on` for
/// the country FR, `off` for any other. The one home of its YAML.
///
/// ```swift
/// static let definitions = """
///     flags:
///     \(BannerFlag.yaml)
///       color: { default: blue }
///     """
/// ```
public enum BannerFlag {
    /// The flag as lines of a `flags:` section: indented by two spaces, its members by four,
    /// without a line break at the end, so that more members can follow on the next lines.
    public static let yaml = """
          banner:
            variants: { on: true, off: false }
            defaultVariant: off
            targeting: { if: [{ "==": [{ var: country }, "FR"] }, on, off] }
        """
}
