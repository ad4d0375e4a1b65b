/// How ``KeyGenerator`` writes its file.
public struct KeyGenerationOptions: Sendable, Hashable {
    /// The access level of the generated keys and enums.
    public enum AccessLevel: String, Sendable, Hashable, CaseIterable {
        /// `public`: for a library whose clients read its keys.
        case `public`
        /// No modifier, so `internal`: for an app, or keys only the module itself reads.
        case `internal`
    }

    /// The access level of every generated declaration.
    public var accessLevel: AccessLevel
    /// The directories the definitions were loaded from. Files inside them are named relative
    /// to them in the header and in doc comments, so the output does not depend on where the
    /// directory is: the same definitions give the same bytes on every machine.
    public var sourceDirectories: [String]

    /// Creates options.
    public init(accessLevel: AccessLevel = .internal, sourceDirectories: [String] = []) {
        self.accessLevel = accessLevel
        self.sourceDirectories = sourceDirectories
    }

    /// How `path` is written in the generated file: relative to the first source directory
    /// that contains it, else as it is.
    public func displayPath(_ path: String) -> String {
        for directory in sourceDirectories where !directory.isEmpty {
            let prefix = directory.hasSuffix("/") ? directory : directory + "/"
            if path.hasPrefix(prefix), path.count > prefix.count { return String(path.dropFirst(prefix.count)) }
        }
        return path
    }
}
