import Ensign
import EnsignJSON
import Testing

@Suite("ensign validate")
struct ValidateCommandTests {
    @Test("The sample definitions are valid")
    func sampleFlags() throws {
        let result = try CLIRunner.run(["validate", "flags/", "--strict"])
        #expect(result.status == 0)
        #expect(result.output.contains("0 errors, 0 warnings"))
    }

    @Test("Errors print as path:line:column and exit 1")
    func errorsExitOne() throws {
        let path = try CLIRunner.temporaryFile("version: 1\nflags:\n  pageSize: { type: int, default: twenty }\n")
        let result = try CLIRunner.run(["validate", path])
        #expect(result.status == 1)
        #expect(result.output.hasPrefix("\(path):3:35: error: 'pageSize' default \"twenty\" is not an int\n"))
        #expect(result.output.contains("1 error, 0 warnings"))
    }

    @Test("Warnings pass unless --strict")
    func strictWarnings() throws {
        let path = try CLIRunner.temporaryFile("version: 1\nflags:\n  a: { type: bool, default: yes }\n")
        #expect(try CLIRunner.run(["validate", path]).status == 0)
        #expect(try CLIRunner.run(["validate", path, "--strict"]).status == 1)
    }

    @Test("An overlay file is checked against the definitions given with it")
    func overlayAgainstDefinitions() throws {
        let overlay = try CLIRunner.temporaryFile("flags:\n  beneficiaries.pageSize: 500\n", name: "deploy.yaml")
        let result = try CLIRunner.run(["validate", "flags/", overlay])
        #expect(result.status == 1)
        #expect(
            result.output.contains(
                "\(overlay):2:27: error: 'beneficiaries.pageSize' value 500 is above the maximum of 100"))
    }

    @Test("--json prints one object with counts and located diagnostics")
    func jsonOutput() throws {
        let path = try CLIRunner.temporaryFile("flags:\n  a: { type: nope, default: 1 }\n")
        let result = try CLIRunner.run(["validate", path, "--json"])
        #expect(result.status == 1)
        let report = try JSONValue(jsonText: result.output.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(report["ok"] == false)
        #expect(report["errors"] == 1)
        let first = try #require(report["diagnostics"]?.arrayValue?.first)
        #expect(first["line"] == 2)
        #expect(first["column"] == 14)
        #expect(first["key"] == "a")
        #expect(first["severity"] == "error")
    }

    @Test("A path that does not exist is an error naming it")
    func missingPath() throws {
        let result = try CLIRunner.run(["validate", "/nonexistent/flags.yaml"])
        #expect(result.status == 1)
        #expect(result.output.contains("/nonexistent/flags.yaml: error: cannot open file"))
    }

    @Test("--env checks only that environment's overlay")
    func environmentFilter() throws {
        let result = try CLIRunner.run(["validate", "flags/", "--env", "staging", "--json"])
        let report = try JSONValue(jsonText: result.output.trimmingCharacters(in: .whitespacesAndNewlines))
        let files = report["files"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(files.contains("flags/environments/staging.yaml"))
        #expect(!files.contains("flags/environments/production.yaml"))
    }

    @Test("--env with an environment no file mentions is an error listing the known ones, exit 1")
    func unknownEnvironment() throws {
        let result = try CLIRunner.run(["validate", "flags/", "--env", "prod"])
        #expect(result.status == 1)
        #expect(
            result.output.contains(
                "flags/: error: environment 'prod' is not mentioned by any file (no environments/prod.yaml, no inline"
                    + " 'environments:' value); the known environments are development, production and staging;"
                    + " did you mean 'production'?"))
    }

    @Test("A targeting rule that does not compile is an error for validate, exit 1")
    func brokenRule() throws {
        let path = try CLIRunner.temporaryFile(
            "version: 1\nflags:\n  a: { default: false, targeting: { bogus: 1 } }\n  b: { default: 1 }\n")
        let result = try CLIRunner.run(["validate", path])
        #expect(result.status == 1)
        #expect(result.output.hasPrefix("\(path):3:37: error: 'a' targeting: unknown operator 'bogus'"))
        #expect(result.output.contains("1 error, 0 warnings"))
    }

    @Test("A rule flagd evaluates is a warning where it looks wrong, and an error under --strict")
    func ruleFlagdEvaluates() throws {
        let path = try CLIRunner.temporaryFile(
            """
            {"flags": {"f": {"state": "ENABLED", "variants": {"on": true, "off": false}, "defaultVariant": "off",
              "targeting": {"if": [false, {"fractional": [["on", 12.5], ["off", 87.5]]}, {"<": 5}]}}}}
            """, name: "flags.json")
        let result = try CLIRunner.run(["validate", path])
        #expect(result.status == 0)
        #expect(
            result.output.contains("\(path):2:54: warning: 'f' targeting: 'fractional' weights must be whole numbers"))
        #expect(result.output.contains("\(path):2:79: warning: 'f' targeting: '<' takes an array of arguments, not 5"))
        #expect(result.output.contains("0 errors, 3 warnings"))
        #expect(try CLIRunner.run(["validate", path, "--strict"]).status == 1)
    }

    @Test("An environment value for a flag whose targeting decides first is a warning")
    func targetingDecidesFirst() throws {
        let definitions = try CLIRunner.temporaryFile(
            "version: 1\nflags:\n  a:\n    default: false\n    targeting: { if: [{ var: staff }, true, null] }\n",
            name: "app.yaml")
        let overlay = try CLIRunner.temporaryFile("flags:\n  a: true\n", name: "deploy.yaml")
        let result = try CLIRunner.run(["validate", definitions, overlay])
        #expect(result.status == 0)
        #expect(
            result.output.contains(
                "\(overlay):2:6: warning: 'a' targeting at \(definitions):5:16 decides first; this value applies only"
                    + " where the rule returns null"))
        #expect(try CLIRunner.run(["validate", definitions, overlay, "--strict"]).status == 1)
    }
}
