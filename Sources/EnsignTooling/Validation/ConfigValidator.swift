import Ensign

/// Checks definitions directories, definitions files and overlay files together, the way
/// `ensign validate` does: definitions from every path are combined (so a key defined in two
/// places is caught) and every overlay is checked against them, every environment's included.
///
/// Validation is a caller of ``DefinitionLoader``: it reads each file as a context would,
/// then adds what only matters before shipping (every environment's overlay, targeting rule
/// errors as errors, values that targeting decides before).
///
/// ```swift
/// let report = ConfigValidator().validate(paths: ["flags", "deploy/production.yaml"])
/// report.diagnostics.forEach { print($0) }
/// print(report.summary)  // 7 keys in 3 definitions files, 4 overlays: 1 error, 0 warnings
/// ```
package struct ConfigValidator: Sendable {
    /// The loader used for every file.
    package var loader: DefinitionLoader

    /// Creates a validator.
    package init(loader: DefinitionLoader = DefinitionLoader()) {
        self.loader = loader
    }

    /// An overlay file to check, and the environment it is the overlay of.
    private struct OverlayFile {
        var file: DefinitionLoader.ParsedFile
        var environment: String?
    }

    /// Validates the given directories and files.
    ///
    /// - Parameters:
    ///   - paths: definitions directories and files, definitions or overlays.
    ///   - environment: when given, only that environment's overlay is checked in each
    ///     directory, and it must be an environment the files mention; otherwise every
    ///     `environments/*.yaml` is checked.
    package func validate(paths: [String], environment: String? = nil) -> ValidationReport {
        var diagnostics: [Diagnostic] = []
        var definitionFiles: [DefinitionLoader.ReadFile] = []
        var overlayFiles: [OverlayFile] = []
        var directories: [String] = []
        var overlayEnvironments: Set<String> = []
        for path in paths {
            guard ConfigDirectory.isDirectory(path) else {
                // Read from its events as definitions, which it most often is; a bundle or an
                // overlay (the first document decides) is parsed whole and read as one instead.
                let source: ConfigSource
                let file: DefinitionLoader.ParsedFile
                do {
                    source = try ConfigSource.file(path, limits: loader.limits)
                    let read = try loader.readFile(source, stopsAtBundleMember: true)
                    if read.holdsDefinitions {
                        definitionFiles.append(read)
                        continue
                    }
                    file = DefinitionLoader.ParsedFile(name: path, documents: try loader.parse(source))
                } catch {
                    diagnostics.append(Diagnostic(error))
                    continue
                }
                if DefinitionsBundle.isBundle(file) {
                    // A bundle is a directory in one file: its definitions and every overlay.
                    switch DefinitionsBundle.read(file) {
                    case .failure(let problems): diagnostics += problems.diagnostics
                    case .success(let bundle):
                        directories.append(path)
                        do {
                            definitionFiles.append(try loader.readFile(bundle.definitions))
                        } catch {
                            diagnostics.append(Diagnostic(error))
                        }
                        for (name, overlay) in bundle.environments {
                            overlayEnvironments.insert(name)
                            guard environment == nil || environment == name else { continue }
                            overlayFiles.append(OverlayFile(file: overlay, environment: name))
                        }
                    }
                    continue
                }
                let isOverlay = file.documents.first.map { ConfigFileKind(detecting: $0) == .overlay } ?? false
                if isOverlay {
                    overlayFiles.append(OverlayFile(file: file))
                } else {
                    do {
                        definitionFiles.append(try loader.readFile(file))
                    } catch {
                        diagnostics.append(Diagnostic(error))
                    }
                }
                continue
            }
            directories.append(path)
            let directory = DefinitionsDirectory(path: path)
            diagnostics += directory.listingProblems(environment: environment)
            let files = directory.definitionFiles()
            if files.isEmpty { diagnostics.append(DefinitionLoader.noDefinitionFiles(in: path)) }
            definitionFiles += files.compactMap { loader.readFile(atPath: $0, into: &diagnostics) }
            for overlay in directory.environmentFiles() {
                overlayEnvironments.insert(overlay.name)
                guard environment == nil || environment == overlay.name,
                    let parsed = loader.parseFile(overlay.path, into: &diagnostics)
                else { continue }
                overlayFiles.append(OverlayFile(file: parsed, environment: overlay.name))
            }
        }
        let definitionFileNames = definitionFiles.map(\.name)
        let loaded = loader.loadDefinitions(definitionFiles)
        diagnostics += loaded.diagnostics
        let known = KnownEnvironments(definitions: loaded.definitions, overlayNames: overlayEnvironments)
        if let environment,
            let problem = known.problem(
                with: environment, at: .unknown(directories.first ?? paths.first ?? "--env"),
                ownFile: "environments/\(environment).yaml")
        {
            diagnostics.append(problem)
        }
        var overlays: [Overlay] = []
        var environments: [String: Overlay] = [:]
        for overlayFile in overlayFiles {
            let (overlay, found) = loader.readOverlay(overlayFile.file, definitions: loaded.definitions)
            overlays.append(overlay)
            if let name = overlayFile.environment, environments[name] == nil { environments[name] = overlay }
            diagnostics += found
            diagnostics += TargetingPrecedenceCheck.check(overlay, definitions: loaded.definitions)
        }
        diagnostics += TargetingPrecedenceCheck.checkInlineValues(loaded.definitions)
        diagnostics += EnvironmentNameCheck.check(loaded.definitions, knownEnvironments: overlayEnvironments)
        return ValidationReport(
            diagnostics: diagnostics.sortedByLocation(), definitions: loaded.definitions,
            definitionFiles: definitionFileNames, overlays: overlays, environments: environments)
    }
}
