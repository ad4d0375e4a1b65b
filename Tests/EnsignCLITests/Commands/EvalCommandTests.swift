import Ensign
import EnsignJSON
import Foundation
import Testing

@Suite("ensign eval")
struct EvalCommandTests {
    func json(_ output: String) throws -> JSONValue {
        try JSONValue(jsonText: output.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test("--json prints the OpenFeature details of a targeted flag")
    func targetingMatch() throws {
        let result = try CLIRunner.run([
            "eval", "transfers.newFlow", "--flags", "flags/", "--json",
            "--context", #"{"targetingKey": "u1", "email": "dominique@bforbank.example"}"#,
        ])
        #expect(result.status == 0)
        let details = try json(result.output)
        #expect(details["key"] == "transfers.newFlow")
        #expect(details["value"] == true)
        #expect(details["variant"] == "on")
        #expect(details["reason"] == "TARGETING_MATCH")
        #expect(details["errorCode"] == .null)
        #expect(details["metadata"] == ["team": "transfers"])
    }

    @Test("A null targeting result falls back to the default variant with DEFAULT")
    func fallback() throws {
        let result = try CLIRunner.run([
            "eval", "transfers.newFlow", "--flags", "flags/", "--json", "--context", #"{"country": "DE"}"#,
        ])
        let details = try json(result.output)
        #expect(details["value"] == false)
        #expect(details["reason"] == "DEFAULT")
    }

    @Test("--env applies the environment's values")
    func environment() throws {
        let result = try CLIRunner.run(["eval", "beneficiaries.pageSize", "--flags", "flags/", "--env", "development"])
        #expect(result.status == 0)
        #expect(result.output.contains("value     50"))
        #expect(result.output.contains("flags/environments/development.yaml:3:27"))
    }

    @Test("--type with another type gives the default and TYPE_MISMATCH, exit 1")
    func typeMismatch() throws {
        let result = try CLIRunner.run([
            "eval", "beneficiaries.pageSize", "--flags", "flags/", "--type", "boolean", "--default", "true", "--json",
        ])
        #expect(result.status == 1)
        let details = try json(result.output)
        #expect(details["value"] == true)
        #expect(details["errorCode"] == "TYPE_MISMATCH")
    }

    @Test("--type integer reads a whole variant value such as 2.0 as 2, and 2.5 as TYPE_MISMATCH")
    func wholeDoubleIntegers() throws {
        let path = try CLIRunner.temporaryFile(
            #"{"flags": {"f": {"variants": {"a": 2.0, "b": 2.5}, "defaultVariant": "a", "targeting": {"var": "v"}}}}"#,
            name: "flags.json")
        let whole = try CLIRunner.run(["eval", "f", "--flags", path, "--type", "integer", "--json"])
        #expect(whole.status == 0)
        #expect(try json(whole.output)["value"] == 2)
        let fraction = try CLIRunner.run([
            "eval", "f", "--flags", path, "--type", "integer", "--context", #"{"v": "b"}"#, "--default", "0", "--json",
        ])
        #expect(fraction.status == 1)
        #expect(try json(fraction.output)["errorCode"] == "TYPE_MISMATCH")
    }

    @Test("An unknown key is ERROR with FLAG_NOT_FOUND and the default, exit 1")
    func notFound() throws {
        let result = try CLIRunner.run(["eval", "no.such", "--flags", "flags/", "--default", "fallback", "--json"])
        #expect(result.status == 1)
        let details = try json(result.output)
        #expect(details["value"] == "fallback")
        #expect(details["errorCode"] == "FLAG_NOT_FOUND")
        #expect(details["reason"] == "ERROR")
    }

    @Test("Bad --context or --type is a usage error")
    func usageErrors() throws {
        #expect(try CLIRunner.run(["eval", "a", "--flags", "flags/", "--context", "{oops"]).status == 2)
        #expect(try CLIRunner.run(["eval", "a", "--flags", "flags/", "--context", "[1]"]).status == 2)
        #expect(try CLIRunner.run(["eval", "a", "--flags", "flags/", "--type", "number"]).status == 2)
        #expect(try CLIRunner.run(["eval", "--flags", "flags/"]).status == 2)
    }

    @Test("--env with an environment no file mentions is an error listing the known ones, exit 1")
    func unknownEnvironment() throws {
        let result = try CLIRunner.run([
            "eval", "beneficiaries.pageSize", "--flags", "flags/", "--env", "Production", "--json",
        ])
        #expect(result.status == 1)
        #expect(result.output.isEmpty)
        #expect(
            result.errors.contains(
                "flags/: error: environment 'Production' is not mentioned by any file (no"
                    + " environments/Production.yaml, no inline 'environments:' value); the known environments are"
                    + " development, production and staging; did you mean 'production'?"))
    }
}
