/// The version of the Ensign library, reported by `ensign --version` and the control protocol.
public enum EnsignVersion {
    /// The semantic version string.
    public static let current = "0.1.0"
}
