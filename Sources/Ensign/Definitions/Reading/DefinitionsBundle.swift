import EnsignSupport
import EnsignYAML

/// A definitions directory in one JSON file, as `ensign export` writes it: what an app ships
/// where there is no libyaml (a build without the `YAML` trait), and loads like the directory.
///
/// The bundle is one object. `ensignBundle` is the format's version (1); `definitions` maps
/// each definitions file of the directory to its documents, in the directory's order;
/// `environments` (optional) maps each environment to the documents of its overlay:
///
/// ```json
/// {
///   "ensignBundle": 1,
///   "definitions": {
///     "beneficiaries.yaml": [{"version": 1, "namespace": "beneficiaries", "flags": {"pageSize": {"default": 20}}}]
///   },
///   "environments": {
///     "production": [{"flags": {"beneficiaries.pageSize": 50}}]
///   }
/// }
/// ```
///
/// The documents are the files' own documents, written as JSON: the same fields, read by the
/// same readers, so the bundle resolves exactly as the directory did. Every diagnostic names
/// the bundle's own line and column. The member names under `definitions` say where each
/// document came from; the loader does not otherwise use them.
package struct DefinitionsBundle {
    /// The member that marks a bundle, holding its format version.
    package static let formatMember = "ensignBundle"
    /// The format version this build reads and writes.
    package static let formatVersion = 1

    /// Every definitions document, as one file named after the bundle.
    package var definitions: DefinitionLoader.ParsedFile
    /// Each environment's overlay, in the bundle's order.
    package var environments: [(name: String, file: DefinitionLoader.ParsedFile)]

    /// The overlay of `environment`, when the bundle has one.
    package func environment(named environment: String) -> DefinitionLoader.ParsedFile? {
        environments.first { $0.name == environment }?.file
    }

    /// What is wrong with a bundle's shape, each problem at its place.
    package struct ShapeProblems: Error {
        package var diagnostics: [Diagnostic]
    }

    /// Whether a parsed file is a bundle: one object with an `ensignBundle` member.
    package static func isBundle(_ file: DefinitionLoader.ParsedFile) -> Bool {
        file.documents.count == 1 && file.documents[0].entry(forKey: formatMember) != nil
    }

    /// Reads a parsed bundle, or says everything that is wrong with its shape.
    package static func read(_ file: DefinitionLoader.ParsedFile) -> Result<DefinitionsBundle, ShapeProblems> {
        let start = SourcePosition(file: file.name, line: 1, column: 1)
        guard file.documents.count == 1, let entries = file.documents[0].mappingEntries else {
            return .failure(
                ShapeProblems(diagnostics: [
                    Diagnostic(
                        .error, at: file.documents.first?.location ?? start,
                        "a definitions bundle is one JSON object with '\(formatMember)' and 'definitions'; "
                            + "make one with `ensign export --flags DIR`")
                ]))
        }
        var reader = BundleShapeReader(name: file.name)
        reader.read(entries, at: file.documents[0].location)
        guard reader.problems.isEmpty else { return .failure(ShapeProblems(diagnostics: reader.problems)) }
        return .success(
            DefinitionsBundle(
                definitions: DefinitionLoader.ParsedFile(name: file.name, documents: reader.definitionDocuments),
                environments: reader.environments.map {
                    (name: $0.name, file: DefinitionLoader.ParsedFile(name: file.name, documents: $0.documents))
                }))
    }
}

/// Checks a bundle's members and collects its documents.
private struct BundleShapeReader {
    let name: String
    var definitionDocuments: [YAMLNode] = []
    var environments: [(name: String, documents: [YAMLNode])] = []
    var problems: [Diagnostic] = []

    mutating func read(_ entries: [YAMLMappingEntry], at location: SourcePosition) {
        let members = ["ensignBundle", "definitions", "environments"]
        var version: YAMLNode?
        var definitions: YAMLNode?
        for entry in entries {
            switch entry.key.scalarText {
            case "ensignBundle": version = entry.value
            case "definitions": definitions = entry.value
            case "environments":
                environments = documentsByName(entry.value, what: "environment").map {
                    (name: $0.name, documents: $0.documents)
                }
            default:
                let suggestion = entry.key.scalarText.flatMap { Suggestions.closest(to: $0, among: members) }
                problems.append(
                    Diagnostic(
                        .error, at: entry.key.location,
                        "unknown bundle member '\(entry.key.scalarText ?? "?")'; a bundle has 'ensignBundle', "
                            + "'definitions' and 'environments'" + (suggestion.map { "; did you mean '\($0)'?" } ?? ""))
                )
            }
        }
        checkVersion(version, at: location)
        guard let definitions else {
            problems.append(Diagnostic(.error, at: location, "the bundle has no 'definitions' member"))
            return
        }
        definitionDocuments = documentsByName(definitions, what: "definitions file").flatMap(\.documents)
    }

    private mutating func checkVersion(_ version: YAMLNode?, at location: SourcePosition) {
        guard let version else {
            problems.append(
                Diagnostic(
                    .error, at: location,
                    "not a definitions bundle: it has no '\(DefinitionsBundle.formatMember)' member; "
                        + "make one with `ensign export --flags DIR`"))
            return
        }
        guard case .int(let number) = version.resolvedScalar, number == DefinitionsBundle.formatVersion else {
            problems.append(
                Diagnostic(
                    .error, at: version.location,
                    "'\(DefinitionsBundle.formatMember)' is \(version.scalarText ?? version.kindDescription); "
                        + "this build of Ensign reads bundles of version \(DefinitionsBundle.formatVersion): "
                        + "export the bundle again with this version's `ensign export`"))
            return
        }
    }

    /// The members of an object of document lists (`"name": [ {…}, … ]`), each list checked.
    private mutating func documentsByName(_ node: YAMLNode, what: String) -> [(name: String, documents: [YAMLNode])] {
        guard let entries = node.mappingEntries else {
            problems.append(
                Diagnostic(
                    .error, at: node.location,
                    "expected an object mapping each \(what) to its documents, found \(node.kindDescription)"))
            return []
        }
        var result: [(name: String, documents: [YAMLNode])] = []
        for entry in entries {
            let memberName = entry.key.scalarText ?? ""
            guard let documents = entry.value.sequenceElements, !documents.isEmpty else {
                problems.append(
                    Diagnostic(
                        .error, at: entry.value.location,
                        "\(what) '\(memberName)' must be a non-empty list of its documents (objects), "
                            + "found \(entry.value.kindDescription)"))
                continue
            }
            if let odd = documents.first(where: { !$0.isMapping }) {
                problems.append(
                    Diagnostic(
                        .error, at: odd.location,
                        "a document of \(what) '\(memberName)' must be an object, found \(odd.kindDescription)"))
                continue
            }
            result.append((name: memberName, documents: documents))
        }
        return result
    }
}
