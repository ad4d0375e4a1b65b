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
    /// Reads only the overlays (the environment's file and the deployment files) against
    /// definitions already loaded: what a reload needs when only overlays changed.
    var loadOverlays: (@Sendable (DefinitionSet) -> Loaded)?
    /// Whether a path is one of the overlays `loadOverlays` reads.
    var isOverlay: @Sendable (String) -> Bool = { _ in false }

    static func directory(_ configuration: AppContextConfiguration) -> ConfigurationSource {
        let directory = configuration.definitionsDirectory
        let environments = ConfigDirectory.join(directory, "environments")
        let deploymentFiles = configuration.deploymentFiles
        let loader = DefinitionLoader(limits: configuration.limits)
        /// The deployment files, read against `definitions`, in order.
        @Sendable func readDeployments(_ definitions: DefinitionSet, into diagnostics: inout [Diagnostic]) -> [Overlay]
        {
            deploymentFiles.compactMap { path in
                do throws(YAMLError) {
                    let (overlay, found) = loader.readOverlay(
                        try ConfigSource.file(path, limits: configuration.limits), definitions: definitions)
                    diagnostics += found
                    return overlay
                } catch {
                    diagnostics.append(Diagnostic(error))
                    return nil
                }
            }
        }
        /// The environment's overlay file, if there is one.
        @Sendable func environmentFile() -> String? {
            ((try? ConfigDirectory.files(in: environments)) ?? []).first {
                ConfigDirectory.baseName($0) == configuration.environment
            }
        }
        var source = ConfigurationSource(environment: configuration.environment) {
            let loaded = loader.loadDirectory(directory)
            var diagnostics = loaded.diagnostics
            let deployments = readDeployments(loaded.definitions, into: &diagnostics)
            return Loaded(
                definitions: loaded.definitions, environmentOverlay: loaded.environments[configuration.environment],
                deploymentOverlays: deployments, diagnostics: diagnostics)
        }
        source.loadOverlays = { definitions in
            var diagnostics: [Diagnostic] = []
            var environmentOverlay: Overlay?
            if let path = environmentFile() {
                do throws(YAMLError) {
                    let (overlay, found) = loader.readOverlay(
                        try ConfigSource.file(path, limits: configuration.limits), definitions: definitions)
                    environmentOverlay = overlay
                    diagnostics += found
                } catch {
                    diagnostics.append(Diagnostic(error))
                }
            }
            let deployments = readDeployments(definitions, into: &diagnostics)
            return Loaded(
                definitions: definitions, environmentOverlay: environmentOverlay, deploymentOverlays: deployments,
                diagnostics: diagnostics.sortedByLocation())
        }
        source.isOverlay = { path in
            deploymentFiles.contains(path)
                || (FileSystem.parentDirectory(of: path) == environments
                    && ConfigDirectory.baseName(path) == configuration.environment)
        }
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
