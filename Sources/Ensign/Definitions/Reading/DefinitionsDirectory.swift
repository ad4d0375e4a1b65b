/// The files of a definitions directory: definitions files at the top, and environment
/// overlays in `environments/`. Listing reads no file, so the loader can pick the one
/// environment it needs and the validator can take them all.
package struct DefinitionsDirectory {
    /// One `environments/<name>.yaml` file.
    package struct EnvironmentFile {
        package var name: String
        package var path: String
    }

    package let path: String

    /// The directory at `path`.
    package init(path: String) {
        self.path = path
    }

    package var environmentsPath: String { ConfigDirectory.join(path, "environments") }

    /// The definitions files, sorted by name (none when the directory cannot be listed).
    package func definitionFiles() -> [String] {
        ConfigDirectory.listing(of: path).files
    }

    /// The entries of the directory and of `environments/` that cannot be read (dangling
    /// links, FIFOs, unlistable directories), each an error naming its path. With
    /// `environment`, only that environment's entries of `environments/` count: a context
    /// does not read the others.
    package func listingProblems(environment: String? = nil) -> [Diagnostic] {
        let environments = ConfigDirectory.listing(of: environmentsPath).problems.filter { problem in
            guard let environment else { return true }
            let file = problem.location.file
            return file == environmentsPath || ConfigDirectory.baseName(file) == environment
        }
        return ConfigDirectory.listing(of: path, missingIsProblem: true).problems + environments
    }

    /// The environment overlay files, sorted by name.
    package func environmentFiles() -> [EnvironmentFile] {
        ConfigDirectory.listing(of: environmentsPath).files.map {
            EnvironmentFile(name: ConfigDirectory.baseName($0), path: $0)
        }
    }

    /// The overlay file of `environment`, if there is one (the first by name when both a
    /// `.yaml` and a `.yml` exist).
    package func environmentFile(named environment: String) -> String? {
        environmentFiles().first { $0.name == environment }?.path
    }
}
