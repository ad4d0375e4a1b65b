/// Where a root context's files come from, so a reload reads them again the same way:
/// a definitions directory with deployment files on disk, or sources held in memory.
struct ConfigurationSource: Sendable {
    /// Everything loaded, with every problem found.
    struct Loaded: Sendable {
        var definitions: DefinitionSet
        var environmentOverlay: Overlay?
        var deploymentOverlays: [Overlay]
        var diagnostics: [Diagnostic]
    }

    let environment: String
    /// The files and directories to watch for this source (empty for in-memory sources).
    var watchedFiles: @Sendable () -> [String] = { [] }
    var watchedDirectories: [String] = []
    let load: @Sendable () -> Loaded

    static func directory(_ configuration: AppContextConfiguration) -> ConfigurationSource {
        let directory = configuration.definitionsDirectory
        let environments = ConfigDirectory.join(directory, "environments")
        var source = ConfigurationSource(environment: configuration.environment) {
            let loader = DefinitionLoader(limits: configuration.limits)
            let directory = loader.loadDirectory(configuration.definitionsDirectory)
            var diagnostics = directory.diagnostics
            var deployments: [Overlay] = []
            for path in configuration.deploymentFiles {
                do throws(YAMLError) {
                    let source = try ConfigSource.file(path, limits: configuration.limits)
                    let (overlay, found) = loader.readOverlay(source, definitions: directory.definitions)
                    deployments.append(overlay)
                    diagnostics += found
                } catch {
                    diagnostics.append(Diagnostic(error))
                }
            }
            return Loaded(
                definitions: directory.definitions,
                environmentOverlay: directory.environments[configuration.environment],
                deploymentOverlays: deployments, diagnostics: diagnostics)
        }
        let deploymentFiles = configuration.deploymentFiles
        source.watchedFiles = {
            ((try? ConfigDirectory.files(in: directory)) ?? []) + ((try? ConfigDirectory.files(in: environments)) ?? [])
                + deploymentFiles
        }
        source.watchedDirectories = [directory, environments] + deploymentFiles.map(FileSystem.parentDirectory(of:))
        return source
    }

    static func memory(
        definitions: [ConfigSource], environment: String, environmentOverlay: ConfigSource?,
        deploymentOverlays: [ConfigSource]
    ) -> ConfigurationSource {
        ConfigurationSource(environment: environment) {
            let loader = DefinitionLoader()
            let loaded = loader.loadDefinitions(from: definitions)
            var diagnostics = loaded.diagnostics
            func overlay(_ source: ConfigSource) -> Overlay {
                let (overlay, found) = loader.readOverlay(source, definitions: loaded.definitions)
                diagnostics += found
                return overlay
            }
            let environmentOverlay = environmentOverlay.map(overlay)
            let deployments = deploymentOverlays.map(overlay)
            return Loaded(
                definitions: loaded.definitions, environmentOverlay: environmentOverlay,
                deploymentOverlays: deployments, diagnostics: diagnostics)
        }
    }
}
