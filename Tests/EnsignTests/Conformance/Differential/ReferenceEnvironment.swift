import EnsignTestSupport
import Foundation

/// The Python virtual environment the reference evaluator runs in: `.build/flagd-reference/venv`
/// with `openfeature-flagd-core==1.0.0`, made on first use like every test's Python environment
/// (``PythonVirtualEnvironment``); `scripts/setup --with-test-tools` makes the same one.
enum ReferenceEnvironment {
    /// The import that proves the environment is usable, and the version it must report.
    static let check = """
        import importlib.metadata, sys
        from openfeature.contrib.tools.flagd.core import FlagdCore
        sys.exit(0 if importlib.metadata.version("openfeature-flagd-core") == "1.0.0" else 3)
        """

    static let environment = PythonVirtualEnvironment(
        relativeDirectory: ".build/flagd-reference", packages: [ReferenceEvaluator.package], check: check)

    static func prepare() throws {
        do {
            try environment.prepare(for: "The differential harness (flagd's Python core is its reference)")
        } catch let error as PythonVirtualEnvironment.Unavailable {
            throw ReferenceEvaluator.Unavailable(
                description: error.description
                    + " (The harness is not skipped without it: a conformance figure nobody measured must not pass"
                    + " for one that was.)")
        }
    }
}
