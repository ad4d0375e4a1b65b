import Ensign
import EnsignJSON
import EnsignServe
import EnsignTestSupport
import Foundation
import Testing

/// `ensign serve --context-value` and `--context-from-header` (flagd's `-X` and `-H`) as
/// OpenFeature's Python OFREP provider meets them: a header it sends becomes context, a
/// static value reaches every evaluation, and both win over the context the client gives.
@Suite("ensign serve enriches the evaluation context", .serialized)
struct ContextEnrichmentTests {
    static let flags = """
        {
          "flags": {
            "staff-banner": {
              "state": "ENABLED", "variants": { "on": true, "off": false }, "defaultVariant": "off",
              "targeting": { "if": [{ "ends_with": [{ "var": "email" }, "@example.com"] }, "on", "off"] }
            },
            "regional-color": {
              "state": "ENABLED", "variants": { "eu": "blue", "us": "red" }, "defaultVariant": "us",
              "targeting": { "if": [{ "==": [{ "var": "region" }, "eu"] }, "eu", "us"] }
            }
          }
        }
        """

    static let program = #"""
        import json, sys
        from openfeature import api
        from openfeature.evaluation_context import EvaluationContext
        from openfeature.contrib.provider.ofrep import OFREPProvider

        base_url, email = sys.argv[1], sys.argv[2]
        headers = (lambda: {"X-User-Email": email}) if email else None
        api.set_provider(OFREPProvider(base_url, headers_factory=headers, timeout=10))
        client = api.get_client()
        # The client's own context says otherwise; the server's enrichment wins.
        context = EvaluationContext("user-1", {"email": "someone@elsewhere.org", "region": "us"})
        print(json.dumps({
            "staff-banner": client.get_boolean_value("staff-banner", False, context),
            "regional-color": client.get_string_value("regional-color", "none", context),
        }))
        """#

    /// The Python client's answers from a server started with `arguments`, sending
    /// `X-User-Email: email` (no header when `email` is empty).
    static func evaluate(arguments: [String], email: String, in directory: TemporaryDirectory) throws -> JSONValue {
        try OpenFeatureClientTests.client.prepare(for: "the context enrichment test")
        let flagsFile = try directory.write("flags.json", Self.flags)
        let script = try directory.write("client.py", Self.program)
        let server = try ServeProcess(flags: flagsFile, arguments: arguments)
        let result = try BuiltExecutable.run(
            executable: OpenFeatureClientTests.client.python, [script, "http://127.0.0.1:\(server.port)", email],
            timeout: .seconds(120))
        #expect(result.status == 0, "\(result.errors)")
        return try JSONValue(jsonText: result.output)
    }

    @Test("The Python OFREP provider's header becomes context, the static region reaches it, and both win over its own")
    func pythonClient() throws {
        let directory = try TemporaryDirectory()
        let options = ["--context-value", "region=eu", "--context-from-header", "X-User-Email:email"]
        #expect(
            try Self.evaluate(arguments: options, email: "ada@example.com", in: directory)
                == ["staff-banner": true, "regional-color": "blue"])
        #expect(
            try Self.evaluate(arguments: options, email: "", in: directory)
                == ["staff-banner": false, "regional-color": "blue"], "no header: the client's")
    }

    @Test("The same enrichment from a --config file, and the command line winning over the file")
    func configurationFile() throws {
        let directory = try TemporaryDirectory()
        let configuration = try directory.write(
            "serve.yaml", "context-value:\n  region: eu\ncontext-from-header:\n  X-User-Email: email\n")
        for (extra, color) in [([String](), "blue"), (["--context-value", "region=us"], "red")] {
            let answers = try Self.evaluate(
                arguments: ["--config", configuration] + extra, email: "ada@example.com", in: directory)
            #expect(answers == ["staff-banner": true, "regional-color": .string(color)], "\(extra)")
        }
    }

    @Test("A --config file with a misspelt setting or a bad entry is refused with its position (exit 1)")
    func configurationFileErrors() throws {
        let directory = try TemporaryDirectory()
        let flagsFile = try directory.write("flags.json", Self.flags)
        for (text, expected) in [
            ("context-values:\n  region: eu\n", "1:1: unknown setting 'context-values'; did you mean 'context-value'?"),
            (
                "context-value: [region]\n",
                "1:16: context-value is a mapping of a context key to a value, not a sequence"
            ),
            ("context-value:\n  region: { a: 1 }\n", "2:11: 'region' under context-value needs a value (a string)"),
            (
                "context-from-header:\n  X Email: email\n",
                "2:3: 'X Email' under context-from-header is not a header name"
            ),
            ("- context-value\n", "1:1: the serve configuration is a mapping, not a sequence"),
        ] {
            let file = try directory.write("serve.yaml", text)
            let result = try BuiltExecutable.run(
                "ensign", ["serve", "--flags", flagsFile, "--listen", "127.0.0.1:0", "--config", file])
            #expect(result.status == 1, "\(text): \(result.errors)")
            #expect(result.errors.contains("\(file):\(expected)"), "\(result.errors)")
        }
        let empty = try directory.write("empty.yaml", "# nothing yet\n")
        #expect(try ServeConfigurationFile(contentsOf: empty) == ServeConfigurationFile())
    }

    @Test("A malformed --context-value or --context-from-header is a usage error (exit 2)")
    func usageErrors() throws {
        let directory = try TemporaryDirectory()
        let flagsFile = try directory.write("flags.json", Self.flags)
        for arguments in [
            ["--context-value", "novalue"], ["--context-value", "=x"], ["--context-from-header", "X-Email"],
            ["--context-from-header", "X Email=email"], ["--context-from-header", "X-Email="],
        ] {
            let result = try BuiltExecutable.run(
                "ensign", ["serve", "--flags", flagsFile, "--listen", "127.0.0.1:0"] + arguments)
            #expect(result.status == 2, "\(arguments): \(result.errors)")
            #expect(result.errors.contains(arguments[0]), "\(result.errors)")
        }
    }
}
