/// The version of the Ensign library, reported by `ensign --version` and the control protocol.
package enum EnsignVersion {
    /// The semantic version string.
    package static let current = "0.1.0"
}
