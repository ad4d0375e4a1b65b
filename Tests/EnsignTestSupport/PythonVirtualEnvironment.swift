import EnsignSupport
import Foundation

/// A Python virtual environment under the package's `.build/` with pinned packages, made on
/// first use (the way `scripts/setup --with-test-tools` makes it) and reused after: the
/// differential harness's reference evaluator, the `ensign serve` tests' OpenFeature client and
/// the `/metrics` test's Prometheus parser.
///
/// It is built beside its final place and renamed into it, so a second test process never
/// sees a half-made one. A test that needs it fails, never skips, when it cannot be made.
public struct PythonVirtualEnvironment: Sendable {
    /// The directory holding `venv/` (`.build/ofrep-client`).
    public let directory: URL
    /// The pip requirements (`openfeature-sdk==0.10.0`).
    public let packages: [String]
    /// A Python program that exits 0 when the environment is usable.
    public let check: String

    /// Why the environment cannot be made, and how to fix it.
    public struct Unavailable: Error, CustomStringConvertible {
        /// The problem and its fix.
        public var description: String
    }

    /// An environment in `<package root>/<relativeDirectory>/venv`.
    public init(relativeDirectory: String, packages: [String], check: String) {
        directory = BuiltExecutable.packageRoot.appendingPathComponent(relativeDirectory)
        self.packages = packages
        self.check = check
    }

    /// The environment's directory.
    public var environment: URL { directory.appendingPathComponent("venv") }

    /// Its interpreter.
    public var python: URL { environment.appendingPathComponent("bin/python") }

    /// Makes the environment unless a usable one is there.
    ///
    /// - Parameter purpose: what needs it, for the error (`The ensign serve client test`).
    public func prepare(for purpose: String) throws {
        // Suites run in parallel in one process: one at a time checks and makes an
        // environment, so none removes the one another has just made or is making.
        try Self.preparing.withLock { _ in try prepareAlone(for: purpose) }
    }

    private static let preparing = LockedState(())

    private func prepareAlone(for purpose: String) throws {
        if FileManager.default.isExecutableFile(atPath: python.path), (try? Self.run(python.path, ["-c", check])) == 0 {
            return
        }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let staging = directory.appendingPathComponent("venv.staging-\(getpid())-\(UUID().uuidString)")
        try? FileManager.default.removeItem(at: staging)
        defer { try? FileManager.default.removeItem(at: staging) }
        guard try Self.run("/usr/bin/env", ["python3", "-m", "venv", staging.path]) == 0 else {
            throw Unavailable(
                description:
                    "\(purpose) cannot run: it needs a Python virtual environment, and 'python3 -m venv' failed (Python 3 or its"
                    + " venv module is missing). To fix it: apt-get install -y python3 python3-venv, or run"
                    + " scripts/setup --with-test-tools.")
        }
        let stagedPython = staging.appendingPathComponent("bin/python").path
        guard try Self.run(stagedPython, ["-m", "pip", "install", "--quiet"] + packages) == 0,
            try Self.run(stagedPython, ["-c", check]) == 0
        else {
            throw Unavailable(
                description: "\(purpose) cannot run: it needs \(packages.joined(separator: " ")), and pip could not"
                    + " install them from the Python package index. To fix it: connect to the index and run scripts/setup"
                    + " --with-test-tools, or: python3 -m venv \(environment.path) && \(python.path) -m pip install "
                    + packages.joined(separator: " "))
        }
        try? FileManager.default.removeItem(at: environment)
        do {
            try FileManager.default.moveItem(at: staging, to: environment)
        } catch {
            // Another test process put its environment there first; use that one.
            guard (try? Self.run(python.path, ["-c", check])) == 0 else { throw error }
        }
    }

    /// Runs a command to its end, its output discarded, and returns its exit status.
    public static func run(_ executable: String, _ arguments: [String]) throws -> Int32 {
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
