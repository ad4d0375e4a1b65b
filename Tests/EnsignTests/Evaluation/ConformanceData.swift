import Foundation

/// Where the shared conformance data lives: `$ENSIGN_CONFORMANCE_DIR`, else
/// `<package root>/../shared/conformance`. The data is read in place, never copied into the project.
enum ConformanceData {
    /// The conformance directory, whether or not it exists.
    static let directory: URL = {
        if let path = ProcessInfo.processInfo.environment["ENSIGN_CONFORMANCE_DIR"], !path.isEmpty {
            return URL(fileURLWithPath: path, isDirectory: true)
        }
        // This file is <package root>/Tests/EnsignTests/Evaluation/ConformanceData.swift.
        var packageRoot = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { packageRoot.deleteLastPathComponent() }
        return packageRoot.deletingLastPathComponent().appendingPathComponent("shared/conformance", isDirectory: true)
    }()

    /// The JsonLogic operator suite, `[rule, data, expected]` triples.
    static let jsonLogicTests = directory.appendingPathComponent("jsonlogic/tests.json")

    /// Whether the JsonLogic suite is present.
    static var hasJSONLogicTests: Bool { FileManager.default.fileExists(atPath: jsonLogicTests.path) }

    /// Why the JsonLogic conformance test is skipped when the data is absent.
    static var jsonLogicSkipReason: String {
        "JsonLogic conformance data not found at \(jsonLogicTests.path). It is tests.json from "
            + "jwadhams/json-logic-js (MIT); point ENSIGN_CONFORMANCE_DIR at a directory containing jsonlogic/tests.json."
    }

    /// The flag set of flagd-testbed's evaluator suite.
    static let flagdTestkitFlags = directory.appendingPathComponent("flagd-testbed/evaluator/flags/testkit-flags.json")

    /// Whether the flagd testkit flags are present.
    static var hasFlagdTestkitFlags: Bool { FileManager.default.fileExists(atPath: flagdTestkitFlags.path) }

    /// Why the flagd testkit test is skipped when the data is absent.
    static var flagdTestkitSkipReason: String {
        "flagd testkit flags not found at \(flagdTestkitFlags.path). They come from open-feature/flagd-testbed "
            + "(evaluator/flags/testkit-flags.json); point ENSIGN_CONFORMANCE_DIR at a directory containing flagd-testbed/."
    }
}
