import Ensign
import EnsignJSON
import EnsignTestSupport
import EnsignTestTraits
import Foundation
import Testing

/// OpenFeature's own OFREP provider for Python — a client nobody here wrote — evaluates every
/// flag of flagd's testkit through `ensign serve`, and gets what `ensign eval --json` says.
///
/// Skipped only when the testkit data is absent; the Python packages are installed when
/// missing, and the test fails when they cannot be.
@Suite("ensign serve with OpenFeature's Python OFREP client", .serialized)
struct OpenFeatureClientTests {
    static let flagsFile = BuiltExecutable.packageRoot.deletingLastPathComponent()
        .appendingPathComponent("shared/conformance/flagd-testbed/evaluator/flags/testkit-flags.json")
    static var testkitFlags: URL {
        if let directory = ProcessInfo.processInfo.environment["ENSIGN_CONFORMANCE_DIR"], !directory.isEmpty {
            return URL(fileURLWithPath: directory).appendingPathComponent(
                "flagd-testbed/evaluator/flags/testkit-flags.json")
        }
        return flagsFile
    }
    static var hasTestkit: Bool { FileManager.default.fileExists(atPath: testkitFlags.path) }
    static let skipReason =
        "flagd testkit flags not found (open-feature/flagd-testbed's evaluator/flags/testkit-flags.json);"
        + " point ENSIGN_CONFORMANCE_DIR at a directory containing flagd-testbed/"

    static let client = PythonVirtualEnvironment(
        relativeDirectory: ".build/ofrep-client",
        packages: ["openfeature-sdk==0.10.0", "openfeature-provider-ofrep==0.3.0"],
        check: """
            import importlib.metadata, sys
            from openfeature.contrib.provider.ofrep import OFREPProvider
            ok = importlib.metadata.version("openfeature-sdk") == "0.10.0" and importlib.metadata.version("openfeature-provider-ofrep") == "0.3.0"
            sys.exit(0 if ok else 3)
            """)

    /// The contexts every flag is evaluated for: none, a targeting key alone, and one with the
    /// attributes the testkit's rules read.
    static let contexts: [JSONValue] = [
        [:], ["targetingKey": "user-1"],
        [
            "targetingKey": "jon@company.com", "email": "ballmer@macrosoft.com", "version": "1.2.3", "color": "yellow",
            "age": 30, "user": ["name": "Sam", "tier": "gold"], "locale": "fr-FR",
        ],
    ]

    /// The Python side: for each flag (its type from its variants) and context, the SDK's
    /// evaluation details as one JSON line, with the type and default it asked with.
    static let program = #"""
        import json, sys
        from openfeature import api
        from openfeature.evaluation_context import EvaluationContext
        from openfeature.contrib.provider.ofrep import OFREPProvider

        base_url, flags_path, contexts_json, only = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
        api.set_provider(OFREPProvider(base_url, timeout=10))
        client = api.get_client()
        flags = json.load(open(flags_path))["flags"]
        defaults = {"boolean": True, "string": "code-default", "integer": -7, "float": -7.5, "object": {"code": "default"}}
        def flag_type(flag):
            variants = flag.get("variants", {})
            value = variants.get(flag.get("defaultVariant")) if flag.get("defaultVariant") in variants else next(iter(variants.values()), None)
            if isinstance(value, bool): return "boolean"
            if isinstance(value, str): return "string"
            if isinstance(value, int): return "integer"
            if isinstance(value, float): return "float"
            return "object"
        readers = {"boolean": client.get_boolean_details, "string": client.get_string_details,
                   "integer": client.get_integer_details, "float": client.get_float_details,
                   "object": client.get_object_details}
        for key, flag in flags.items():
            if only and key not in only: continue
            kind = flag_type(flag)
            for context in json.loads(contexts_json):
                attributes = {k: v for k, v in context.items() if k != "targetingKey"}
                details = readers[kind](key, defaults[kind], EvaluationContext(context.get("targetingKey"), attributes))
                print(json.dumps({"key": key, "context": context, "type": kind, "default": defaults[kind],
                                  "value": details.value, "variant": details.variant,
                                  "reason": str(details.reason) if details.reason else None,
                                  "errorCode": details.error_code.value if details.error_code else None,
                                  "errorMessage": details.error_message,
                                  "metadata": dict(details.flag_metadata or {})}))
        """#

    /// The Python client failed, or printed a line the test cannot read.
    struct PythonClientFailed: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs the Python program against the server; one parsed line per evaluation.
    static func evaluateWithPython(server: ServeProcess, only keys: [String] = []) throws -> [JSONValue] {
        try evaluateWithPython(
            baseURL: "http://127.0.0.1:\(server.port)", flags: testkitFlags, directory: server.directory, only: keys)
    }

    /// Runs the Python program against the server at `baseURL` for the flags of the flagd file
    /// `flags`, with `environment` added to its own (`REQUESTS_CA_BUNDLE` for a private CA);
    /// one parsed line per evaluation.
    static func evaluateWithPython(
        baseURL: String, flags: URL, directory: TemporaryDirectory, environment: [String: String] = [:],
        only keys: [String] = []
    ) throws -> [JSONValue] {
        let script = try directory.write("client.py", program)
        let result = try BuiltExecutable.run(
            executable: client.python, [script, baseURL, flags.path, JSONValue.array(contexts).jsonText] + keys,
            environment: environment, timeout: .seconds(120))
        guard result.status == 0 else {
            throw PythonClientFailed(description: "the Python client failed (\(result.status)): \(result.errors)")
        }
        return try result.output.split(separator: "\n").map { try JSONValue(jsonText: $0) }
    }

    /// What `ensign eval --json` says over the flags `flags` for one evaluation the client made,
    /// asked the same way (its type, its default).
    static func evaluateWithCLI(_ line: JSONValue, flags: URL = testkitFlags) throws -> JSONValue {
        guard let key = line["key"]?.stringValue, let type = line["type"]?.stringValue, let context = line["context"],
            let codeDefault = line["default"]
        else {
            throw PythonClientFailed(
                description: "a client line without key, type, context or default: \(line.jsonText)")
        }
        let result = try BuiltExecutable.run(
            "ensign",
            [
                "eval", key, "--flags", flags.path, "--context", context.jsonText, "--type", type, "--default",
                codeDefault.jsonText, "--json",
            ])
        return try JSONValue(jsonText: result.output)
    }

    /// Where the client's evaluations differ from what `ensign eval --json` says over `flags`,
    /// one line per differing field.
    static func mismatches(_ lines: [JSONValue], flags: URL = testkitFlags) throws -> [String] {
        var mismatches: [String] = []
        for line in lines {
            let expected = try evaluateWithCLI(line, flags: flags)
            for field in ["value", "variant", "reason", "errorCode", "metadata"] where line[field] != expected[field] {
                mismatches.append(
                    "\(line["key"]?.stringValue ?? "?") \(line["context"]?.jsonText ?? ""): \(field) is"
                        + " \(line[field]?.jsonText ?? "absent") through serve, \(expected[field]?.jsonText ?? "absent")"
                        + " by ensign eval (\(line["errorMessage"]?.jsonText ?? ""))")
            }
        }
        return mismatches
    }

    @Test(
        "With --null-variant, every testkit flag, for every context, evaluates through ensign serve as ensign eval says",
        .blocksItsThread, .enabled(if: hasTestkit, Comment(rawValue: skipReason)))
    func everyFlagAsEvalSays() throws {
        try Self.client.prepare(for: "The ensign serve client test")
        // The Python provider (0.3.0) reads `variant` unconditionally; see the next test.
        let server = try ServeProcess(flags: Self.testkitFlags.path, arguments: ["--null-variant"])
        let lines = try Self.evaluateWithPython(server: server)
        let flagCount =
            try JSONValue(jsonText: String(contentsOf: Self.testkitFlags, encoding: .utf8))["flags"]?
            .objectValue?.count ?? 0
        #expect(flagCount > 50)
        #expect(lines.count == flagCount * Self.contexts.count)
        let mismatches = try Self.mismatches(lines)
        #expect(
            mismatches.isEmpty,
            Comment(rawValue: "\(mismatches.count) mismatches:\n" + mismatches.prefix(30).joined(separator: "\n")))
        // The comparison covered each kind of outcome, not only the easy one.
        let reasons = Set(lines.compactMap { $0["reason"]?.stringValue })
        #expect(reasons.isSuperset(of: ["STATIC", "TARGETING_MATCH", "DEFAULT", "DISABLED", "ERROR"]))
    }

    @Test(
        "By default a flag without a variant leaves `variant` out, which the Python provider 0.3.0 reads as GENERAL; the rest agree",
        .blocksItsThread, .enabled(if: hasTestkit, Comment(rawValue: skipReason)))
    func withoutVariantThePythonProviderFails() throws {
        try Self.client.prepare(for: "The ensign serve client test")
        let server = try ServeProcess(flags: Self.testkitFlags.path)
        let lines = try Self.evaluateWithPython(server: server)
        var withoutVariant = 0
        var mismatches: [String] = []
        for line in lines {
            let expected = try Self.evaluateWithCLI(line)
            let key = line["key"]?.stringValue ?? "?"
            if expected["errorCode"] == .null, expected["variant"] == .null {
                // The member is left out, as the specification allows; the provider's
                // `data["variant"]` raises KeyError, which the SDK reports as GENERAL with the code default.
                withoutVariant += 1
                if line["errorCode"] != "GENERAL" || line["value"] != line["default"]
                    || line["errorMessage"]?.stringValue?.contains("variant") != true
                {
                    mismatches.append("\(key): expected the provider's KeyError on 'variant', got \(line.jsonText)")
                }
                continue
            }
            for field in ["value", "variant", "reason", "errorCode", "metadata"] where line[field] != expected[field] {
                mismatches.append(
                    "\(key): \(field) is \(line[field]?.jsonText ?? "absent"), not \(expected[field]?.jsonText ?? "absent")"
                )
            }
        }
        #expect(withoutVariant > 0)
        #expect(
            mismatches.isEmpty,
            Comment(rawValue: "\(mismatches.count) mismatches:\n" + mismatches.prefix(30).joined(separator: "\n")))
    }

    @Test(
        "A live `ensign set` on the server reaches the Python client", .blocksItsThread,
        .enabled(if: hasTestkit, Comment(rawValue: skipReason)))
    func liveOverrideReachesTheClient() throws {
        try Self.client.prepare(for: "The ensign serve client test")
        let server = try ServeProcess(flags: Self.testkitFlags.path)
        let before = try Self.evaluateWithPython(server: server, only: ["boolean-flag"])
        #expect(before.allSatisfy { $0["value"] == .bool(true) })
        let set = try BuiltExecutable.run("ensign", ["set", "boolean-flag", "false", "--socket", server.socket])
        #expect(set.status == 0, "\(set.errors)")
        let after = try Self.evaluateWithPython(server: server, only: ["boolean-flag"])
        #expect(after.count == Self.contexts.count)
        for line in after {
            #expect(line["value"] == .bool(false))
            #expect(line["reason"] == "STATIC")
            #expect(line["metadata"]?["ensignReason"] == "OVERRIDE")
        }
    }
}
