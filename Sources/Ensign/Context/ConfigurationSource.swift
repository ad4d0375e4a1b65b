import EnsignYAML

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

    /// Why the files are read: the rules differ in two places. At start-up the environment
    /// must be one the files mention, and a missing deployment file is an error; while the app
    /// runs, a deleted file is a removal of its values (logged), and an empty overlay or
    /// definitions file is an error (an editor's truncate-then-write must not show observers
    /// a transient value), so the reload fails and the last good values stay.
    enum LoadPurpose: Sendable {
        case start
        case reload
    }

    let environment: String
    /// The files and directories to watch for this source (empty for in-memory sources).
    var watchedFiles: @Sendable () -> [String] = { [] }
    var watchedDirectories: [String] = []
    let load: @Sendable (LoadPurpose) -> Loaded
    /// Reads only the overlays (the environment's file and the deployment files) against
    /// definitions already loaded: what a reload needs when only overlays changed.
    var loadOverlays: (@Sendable (DefinitionSet) -> Loaded)?
    /// Whether a path is one of the overlays `loadOverlays` reads.
    var isOverlay: @Sendable (String) -> Bool = { _ in false }

    /// A definitions directory and deployment files on disk. A load reads the definitions,
    /// the environment's own overlay and the deployment files: no other environment's file,
    /// so a broken `staging.yaml` cannot stop a production context. Targeting rules that do
    /// not compile are warnings here (their flags resolve with `PARSE_ERROR`), never errors
    /// that would refuse the load.
    static func directory(_ configuration: AppContextConfiguration) -> ConfigurationSource {
        let directory = DefinitionsDirectory(path: configuration.definitionsDirectory)
        let environment = configuration.environment
        let deploymentFiles = configuration.deploymentFiles
        let startLoader = DefinitionLoader(limits: configuration.limits)
        let reloadLoader = {
            var loader = startLoader
            loader.emptyOverlaySeverity = .error
            return loader
        }()
        /// The deployment files, read against `definitions`, in order.
        @Sendable func readDeployments(
            _ definitions: DefinitionSet, _ purpose: LoadPurpose, into diagnostics: inout [Diagnostic]
        ) -> [Overlay] {
            let loader = purpose == .start ? startLoader : reloadLoader
            return deploymentFiles.compactMap { path in
                if purpose == .reload, !FileSystem.exists(path) {
                    diagnostics.append(
                        Diagnostic(
                            .note, at: .unknown(path), "the deployment file was deleted; its values no longer apply"))
                    return nil
                }
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
        var source = ConfigurationSource(environment: environment) { purpose in
            let loader = purpose == .start ? startLoader : reloadLoader
            let loaded = loader.loadDirectory(
                directory.path, environment: environment, checksEnvironment: purpose == .start)
            var diagnostics = loaded.runtimeDiagnostics
            let deployments = readDeployments(loaded.definitions, purpose, into: &diagnostics)
            return Loaded(
                definitions: loaded.definitions, environmentOverlay: loaded.environmentOverlay,
                deploymentOverlays: deployments, diagnostics: diagnostics.sortedByLocation())
        }
        source.loadOverlays = { definitions in
            // While the app runs, its environment was checked at start-up: an environment file
            // deleted since is a removal of its values, not an unknown environment.
            var (environmentOverlay, diagnostics) = reloadLoader.loadEnvironmentOverlay(
                environment, from: directory.environmentFiles(), of: directory.path, definitions: definitions,
                checksEnvironment: false)
            let deployments = readDeployments(definitions, .reload, into: &diagnostics)
            return Loaded(
                definitions: definitions, environmentOverlay: environmentOverlay, deploymentOverlays: deployments,
                diagnostics: diagnostics.sortedByLocation())
        }
        source.isOverlay = { path in
            deploymentFiles.contains(path)
                || (FileSystem.parentDirectory(of: path) == directory.environmentsPath
                    && ConfigDirectory.baseName(path) == environment)
        }
        // Only the files a load reads: an edit to another environment's overlay reloads nothing.
        // A bundle (a file in place of the directory) is one file, in its parent directory.
        let isBundle = FileSystem.exists(directory.path) && !ConfigDirectory.isDirectory(directory.path)
        source.watchedFiles = {
            guard !isBundle else { return [directory.path] + deploymentFiles }
            return directory.definitionFiles() + [directory.environmentFile(named: environment)].compactMap { $0 }
                + deploymentFiles
        }
        source.watchedDirectories =
            (isBundle
                ? [FileSystem.parentDirectory(of: directory.path)] : [directory.path, directory.environmentsPath])
            + deploymentFiles.map(FileSystem.parentDirectory(of:))
        return source
    }

    /// Sources held in memory, for tests and previews. The environment must be one the sources
    /// mention (the overlay given for it, or an inline `environments:` value), except `test`,
    /// the in-memory initializers' default, which is always accepted; sources that mention no
    /// environment accept any.
    static func memory(
        definitions: [ConfigSource], environment: String, environmentOverlay: ConfigSource?,
        deploymentOverlays: [ConfigSource]
    ) -> ConfigurationSource {
        ConfigurationSource(environment: environment) { _ in
            let loader = DefinitionLoader()
            let loaded = loader.loadDefinitions(from: definitions)
            var diagnostics = loaded.runtimeDiagnostics
            let known = KnownEnvironments(
                definitions: loaded.definitions, overlayNames: environmentOverlay == nil ? [] : [environment])
            if let problem = known.problem(
                with: environment, at: .unknown("<memory>"), ownFile: "environmentOverlay",
                alsoAccepted: [inMemoryTestEnvironment])
            {
                diagnostics.append(problem)
            }
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

    /// The environment of contexts built from strings or values unless they name another.
    static let inMemoryTestEnvironment = "test"
}
