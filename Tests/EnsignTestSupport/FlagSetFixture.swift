/// Flags in two of flagd's flag sets: `web` from the file's metadata (`banner`, `layout`),
/// `payments` from the flag's own (`checkout`), which wins over the file's.
public enum FlagSetFixture {
    /// The definitions; `flags:` is the last mapping, so a test may append flags to it.
    public static let definitions = """
        metadata: { flagSetId: web }
        flags:
          banner: { default: true }
          layout: { default: grid }
          checkout:
            variants: { on: true, off: false }
            defaultVariant: on
            metadata: { flagSetId: payments }

        """
}
