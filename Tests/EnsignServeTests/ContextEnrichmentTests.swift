import Ensign
import EnsignJSON
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

    @Test("The Python OFREP provider's header becomes context, the static region reaches it, and both win over its own")
    func pythonClient() throws {
        try OpenFeatureClientTests.client.prepare(for: "the context enrichment test")
        let directory = try TemporaryDirectory()
        let flagsFile = try directory.write("flags.json", Self.flags)
        let server = try OpenFeatureClientTests.Server(
            flags: URL(fileURLWithPath: flagsFile),
            arguments: ["--context-value", "region=eu", "--context-from-header", "X-User-Email:email"])
        let script = try directory.write("client.py", Self.program)
        func evaluate(email: String) throws -> JSONValue {
            let result = try BuiltExecutable.run(
                executable: OpenFeatureClientTests.client.python, [script, "http://127.0.0.1:\(server.port)", email],
                timeout: .seconds(120))
            #expect(result.status == 0, "\(result.errors)")
            return try JSONValue(jsonText: result.output)
        }
        #expect(try evaluate(email: "ada@example.com") == ["staff-banner": true, "regional-color": "blue"])
        #expect(
            try evaluate(email: "") == ["staff-banner": false, "regional-color": "blue"], "no header: the client's")
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
