import Ensign
import EnsignTooling
import EnsignYAML

/// The `bundle` target: a definitions bundle (what `ensign export` writes and an app without
/// libyaml loads), read from a file by the loader for an environment and for none, and
/// checked as `ensign validate` checks it.
///
/// Input format: the bundle's bytes, JSON; the seeds are bundles of the sample app.
///
/// Checked: every diagnostic names the bundle file; a bundle that loads without errors
/// evaluates every key; and the JSON writer round-trips what the JSON reader read: writing
/// the parsed tree and reading it again gives the same values, so an export of what loaded
/// loads the same.
enum BundleTarget {
    private static var path: String { ScratchDirectory.root + "/Flags.bundle.json" }

    static func run(_ bytes: [UInt8]) {
        guard ScratchDirectory.write(bytes, to: path) else { return }
        let loader = DefinitionLoader(today: CalendarDay("2026-01-01")!)
        for environment in [nil, "production"] {
            let loaded = loader.loadBundle(path, environment: environment)
            for diagnostic in loaded.diagnostics {
                precondition(
                    diagnostic.location.file == path, "a bundle diagnostic names another file: \(diagnostic)")
            }
            guard !loaded.diagnostics.containsErrors else { continue }
            let evaluator = FlagEvaluator(definitions: loaded.definitions, environment: environment ?? "")
            for key in loaded.definitions.keys.prefix(50) {
                _ = evaluator.details(forKeyNamed: key, context: ["targetingKey": "fuzz", "country": "FR"])
            }
        }
        _ = ConfigValidator(loader: loader).validate(paths: [path])
        guard let tree = try? YAMLParser().documents(fromJSON: bytes, file: "fuzz.json").first,
            let text = try? JSONNodeWriter().text(for: tree)
        else { return }
        let again = try? YAMLParser().documents(fromJSON: Array(text.utf8), file: "again.json").first
        precondition(again.map(meaning) == meaning(tree), "JSON written from a tree reads back as another tree")
    }

    /// A tree's values under the core schema, regardless of style and position.
    private static func meaning(_ node: YAMLNode) -> String {
        switch node.content {
        case .scalar:
            // NaN is never equal to itself, so compare its text.
            return String(describing: node.resolvedScalar)
        case .sequence(let elements): return "[" + elements.map(meaning).joined(separator: ",") + "]"
        case .mapping(let entries):
            return "{"
                + entries.map { "\(String(reflecting: $0.key.scalarText ?? ""))=\(meaning($0.value))" }.joined(
                    separator: ",") + "}"
        }
    }
}
