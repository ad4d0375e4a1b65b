import Ensign
import EnsignYAML

/// Turns a definitions directory into one definitions bundle, the JSON file `ensign export`
/// writes (see ``DefinitionsBundle`` for its format): what an app built without the `YAML`
/// trait ships.
///
/// Each file's documents go into the bundle as parsed (aliases and merge keys applied,
/// scalars written as the core schema reads them), so the bundle resolves to the same values,
/// variants and targeting as the directory. A directory a context would refuse to load is
/// refused here too: the errors are returned and no bundle is made.
///
/// ```swift
/// let export = DefinitionsBundleExporter().export(directory: "flags", environment: "production")
/// if let text = export.text { try write(text, to: "Flags.bundle.json") }
/// ```
package struct DefinitionsBundleExporter: Sendable {
    /// What an export made: the bundle's text, or `nil` when the directory has errors; and
    /// every problem found (warnings do not stop an export).
    package struct Export: Sendable {
        /// The bundle, JSON text ending with a newline.
        package var text: String?
        /// Every problem found, in reading order.
        package var diagnostics: [Diagnostic]
    }

    /// The loader that reads and checks the directory.
    package var loader: DefinitionLoader

    /// Creates an exporter.
    package init(loader: DefinitionLoader = DefinitionLoader()) {
        self.loader = loader
    }

    /// Exports the directory at `directory`, with every environment's overlay or only
    /// `environment`'s (which must be one the directory mentions).
    package func export(directory: String, environment: String? = nil) -> Export {
        guard ConfigDirectory.isDirectory(directory) else {
            return Export(text: nil, diagnostics: [Diagnostic(.error, at: .unknown(directory), "no such directory")])
        }
        let listing = DefinitionsDirectory(path: directory)
        let environments = listing.environmentFiles().filter { environment == nil || $0.name == environment }
        // What a context would refuse, for each environment the bundle will hold.
        var diagnostics = Set<Diagnostic>()
        for name in environment.map({ [$0] }) ?? ([nil] + environments.map(\.name)) {
            diagnostics.formUnion(loader.loadDirectory(directory, environment: name).runtimeDiagnostics)
        }
        let sorted = Array(diagnostics).sortedByLocation()
        guard !sorted.containsErrors else { return Export(text: nil, diagnostics: sorted) }
        var problems: [Diagnostic] = []
        let definitions = listing.definitionFiles().compactMap { path in
            loader.parseFile(path, into: &problems).map { (Self.fileName(path), YAMLNode.sequence($0.documents)) }
        }
        let overlays = environments.compactMap { file in
            loader.parseFile(file.path, into: &problems).map { parsed in
                // An empty overlay sets nothing; a bundle's lists are never empty.
                (file.name, YAMLNode.sequence(parsed.documents.isEmpty ? [.mapping([:])] : parsed.documents))
            }
        }
        var members: [(String, YAMLNode)] = [
            (DefinitionsBundle.formatMember, .int(DefinitionsBundle.formatVersion)),
            ("definitions", .mapping(definitions)),
        ]
        if !overlays.isEmpty { members.append(("environments", .mapping(overlays))) }
        do throws(YAMLError) {
            let text = try JSONNodeWriter().text(for: .mapping(members))
            return Export(text: problems.isEmpty ? text : nil, diagnostics: (sorted + problems).sortedByLocation())
        } catch {
            return Export(text: nil, diagnostics: (sorted + problems + [Diagnostic(error)]).sortedByLocation())
        }
    }

    /// The file's name within the directory, which names its member of the bundle.
    private static func fileName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}
