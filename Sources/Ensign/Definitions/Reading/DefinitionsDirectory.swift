/// The files of a definitions directory: definitions files at the top, and environment
/// overlays in `environments/`. Listing reads no file, so the loader can pick the one
/// environment it needs and the validator can take them all.
struct DefinitionsDirectory {
    /// One `environments/<name>.yaml` file.
    struct EnvironmentFile {
        var name: String
        var path: String
    }

    let path: String

    var environmentsPath: String { ConfigDirectory.join(path, "environments") }

    /// The definitions files, sorted by name (none when the directory cannot be listed).
    func definitionFiles() -> [String] {
        (try? ConfigDirectory.files(in: path)) ?? []
    }

    /// The environment overlay files, sorted by name.
    func environmentFiles() -> [EnvironmentFile] {
        ((try? ConfigDirectory.files(in: environmentsPath)) ?? []).map {
            EnvironmentFile(name: ConfigDirectory.baseName($0), path: $0)
        }
    }

    /// The overlay file of `environment`, if there is one (the first by name when both a
    /// `.yaml` and a `.yml` exist).
    func environmentFile(named environment: String) -> String? {
        environmentFiles().first { $0.name == environment }?.path
    }
}
