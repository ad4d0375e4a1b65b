import Foundation

/// Makes (once) and checks the Python virtual environment the reference evaluator runs in:
/// `python3 -m venv .build/flagd-reference/venv`, then pip installs `openfeature-flagd-core==1.0.0`.
///
/// The environment is built beside its final place and renamed into it, so a second test
/// process never sees a half-made one; `scripts/setup --with-test-tools` makes the same one.
enum ReferenceEnvironment {
    /// The import that proves the environment is usable, and the version it must report.
    static let check = """
        import importlib.metadata, sys
        from openfeature.contrib.tools.flagd.core import FlagdCore
        sys.exit(0 if importlib.metadata.version("openfeature-flagd-core") == "1.0.0" else 3)
        """

    static func prepare() throws {
        let python = ReferenceEvaluator.python
        if FileManager.default.isExecutableFile(atPath: python.path), (try? run(python.path, ["-c", check])) == 0 {
            return
        }
        try FileManager.default.createDirectory(at: ReferenceEvaluator.directory, withIntermediateDirectories: true)
        let staging = ReferenceEvaluator.directory.appendingPathComponent("venv.staging-\(getpid())")
        try? FileManager.default.removeItem(at: staging)
        defer { try? FileManager.default.removeItem(at: staging) }
        guard try run("/usr/bin/env", ["python3", "-m", "venv", staging.path]) == 0 else {
            throw unavailable(
                "'python3 -m venv' failed: Python 3 or its venv module is missing",
                fix: "apt-get install -y python3 python3-venv (or run scripts/setup --with-test-tools)")
        }
        let stagedPython = staging.appendingPathComponent("bin/python").path
        guard try run(stagedPython, ["-m", "pip", "install", "--quiet", ReferenceEvaluator.package]) == 0,
            try run(stagedPython, ["-c", check]) == 0
        else {
            throw unavailable(
                "pip could not install \(ReferenceEvaluator.package) from the Python package index",
                fix: "connect to the package index and run scripts/setup --with-test-tools, or install it by hand:"
                    + " python3 -m venv \(ReferenceEvaluator.environment.path) &&"
                    + " \(ReferenceEvaluator.python.path) -m pip install \(ReferenceEvaluator.package)")
        }
        try? FileManager.default.removeItem(at: ReferenceEvaluator.environment)
        do {
            try FileManager.default.moveItem(at: staging, to: ReferenceEvaluator.environment)
        } catch {
            // Another test process put its environment there first; use that one.
            guard (try? run(python.path, ["-c", check])) == 0 else { throw error }
        }
    }

    static func unavailable(_ problem: String, fix: String) -> ReferenceEvaluator.Unavailable {
        ReferenceEvaluator.Unavailable(
            description: """
                The differential harness needs flagd's Python core as its reference, and it is not available: \
                \(problem). To fix it: \(fix). (The harness is not skipped without it: a conformance figure \
                nobody measured must not pass for one that was.)
                """)
    }

    /// Runs a command to its end, its output discarded, and returns its exit status.
    static func run(_ executable: String, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}
