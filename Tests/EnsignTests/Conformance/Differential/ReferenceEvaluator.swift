import Ensign
import EnsignJSON
import Foundation

/// flagd's Python core (`openfeature-flagd-core` 1.0.0) behind `Tests/Fixtures/Differential/reference.py`,
/// in a virtual environment under the package's `.build/flagd-reference/`, kept running
/// for a whole test: one case per request, one JSON line each way.
///
/// The environment is made on first use (or by `scripts/setup --with-test-tools`) and reused
/// after. When it cannot be made — no network to the Python package index, no `venv` module —
/// ``start()`` throws an error that says how to fix it: the differential test fails, it is
/// never skipped.
final class ReferenceEvaluator {
    /// The release the harness compares with: v2 `fractional` hashing, as the flagd testbed's current cases.
    static let package = "openfeature-flagd-core==1.0.0"

    /// The package root (this file is `<root>/Tests/EnsignTests/Conformance/Differential/ReferenceEvaluator.swift`).
    static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<5 { url.deleteLastPathComponent() }
        return url
    }()
    static let directory = packageRoot.appendingPathComponent(".build/flagd-reference")
    static let environment = directory.appendingPathComponent("venv")
    static let python = environment.appendingPathComponent("bin/python")
    static let runner = packageRoot.appendingPathComponent("Tests/Fixtures/Differential/reference.py")
    static let errorLog = directory.appendingPathComponent("reference-stderr.log")

    /// Why the reference is not there, with what to run.
    struct Unavailable: Error, CustomStringConvertible {
        var description: String
    }

    /// One case's results from the reference.
    struct CaseResult: Sendable {
        var loadError: String?
        var loadEvents: [String]
        var results: [Result]
    }

    /// One evaluation's result, and the situations the runner saw it reach (reference.py).
    struct Result: Sendable {
        var outcome: EvaluationOutcome
        var events: [String]
    }

    private let process: Process
    private let input: FileHandle
    private let output: FileHandle
    private var buffer: [UInt8] = []
    private var nextID = 0

    private init(process: Process, input: FileHandle, output: FileHandle) {
        self.process = process
        self.input = input
        self.output = output
    }

    deinit {
        try? input.close()
        process.waitUntilExit()
    }

    /// Starts the runner, making the virtual environment first when it is missing.
    static func start() throws -> ReferenceEvaluator {
        try ReferenceEnvironment.prepare()
        // A runner that dies mid-run must fail the test with its error, not kill it with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        let process = Process()
        process.executableURL = python
        process.arguments = [runner.path]
        let stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        _ = FileManager.default.createFile(atPath: errorLog.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: errorLog)
        try process.run()
        return ReferenceEvaluator(
            process: process, input: stdin.fileHandleForWriting, output: stdout.fileHandleForReading)
    }

    /// Hands a case to the runner without waiting, so the caller can work while Python does.
    func send(_ testCase: DifferentialCase) throws {
        nextID += 1
        let evaluations = testCase.evaluations.map { evaluation in
            GeneratedJSON.members([
                ("flag", .string(evaluation.flagKey)), ("type", .string(evaluation.type.rawValue)),
                ("context", evaluation.context),
            ])
        }
        let request = GeneratedJSON.members([
            ("id", .int(nextID)), ("config", .string(testCase.flagSetText)), ("evaluations", .array(evaluations)),
        ])
        try input.write(contentsOf: Array((request.text() + "\n").utf8))
    }

    /// The results of the case sent last.
    func receive(for testCase: DifferentialCase) throws -> CaseResult {
        try Self.parse(try readLine(), expecting: testCase.evaluations)
    }

    private func readLine() throws -> [UInt8] {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                return line
            }
            let chunk = output.availableData
            guard !chunk.isEmpty else {
                let log = (try? String(contentsOf: Self.errorLog, encoding: .utf8)) ?? ""
                throw Unavailable(
                    description: "the reference runner stopped; its standard error:\n\(log.suffix(2_000))")
            }
            buffer += chunk
        }
    }

    static func parse(_ line: [UInt8], expecting evaluations: [DifferentialCase.Evaluation]) throws -> CaseResult {
        let json = try JSONValue(jsonBytes: line, maximumDepth: 512)
        let results = (json["results"]?.arrayValue ?? []).enumerated().map { index, item in
            let type = evaluations[index].type
            let outcome = EvaluationOutcome(
                value: item["value"] ?? type.callerDefault, variant: item["variant"]?.stringValue,
                reason: item["reason"]?.stringValue ?? "?", errorCode: item["errorCode"]?.stringValue)
            return Result(outcome: outcome, events: (item["events"]?.arrayValue ?? []).compactMap(\.stringValue))
        }
        return CaseResult(
            loadError: json["loadError"]?.stringValue,
            loadEvents: (json["loadEvents"]?.arrayValue ?? []).compactMap(\.stringValue), results: results)
    }
}
