import Ensign
import Testing

@Suite("ensign's command dispatch, help and exit codes")
struct CommandLineToolTests {
    @Test("--version prints the library version")
    func version() throws {
        let result = try CLIRunner.run(["--version"])
        #expect(result.status == 0)
        #expect(result.output == "ensign \(EnsignVersion.current)\n")
    }

    @Test("No command is a usage error that lists the commands")
    func noCommand() throws {
        let result = try CLIRunner.run([])
        #expect(result.status == 2)
        #expect(result.errors.contains("validate"))
    }

    @Test("An unknown command suggests the closest one and exits 2")
    func unknownCommand() throws {
        let result = try CLIRunner.run(["validat"])
        #expect(result.status == 2)
        #expect(result.errors.contains("did you mean 'validate'?"))
    }

    @Test("An unknown option suggests the closest one and exits 2")
    func unknownOption() throws {
        let result = try CLIRunner.run(["validate", "flags/", "--jsn"])
        #expect(result.status == 2)
        #expect(result.errors.contains("unknown option '--jsn'; did you mean '--json'?"))
    }

    @Test("An option without its value is a usage error")
    func missingValue() throws {
        let result = try CLIRunner.run(["validate", "flags/", "--env"])
        #expect(result.status == 2)
        #expect(result.errors.contains("'--env' needs a value"))
    }

    @Test(
        "Every command answers --help and help <command>",
        arguments: [
            "validate", "list", "schema", "get", "explain", "set", "toggle", "reset", "watch", "log", "status", "ps",
        ])
    func help(command: String) throws {
        let viaFlag = try CLIRunner.run([command, "--help"])
        let viaHelp = try CLIRunner.run(["help", command])
        #expect(viaFlag.status == 0)
        #expect(viaFlag.output.hasPrefix("usage: ensign \(command)"))
        #expect(viaHelp.output == viaFlag.output)
    }

    @Test("list --flags shows every sample key with its type and default")
    func listOffline() throws {
        let result = try CLIRunner.run(["list", "--flags", "flags/", "--json"])
        #expect(result.status == 0)
        let rows = try JSONValue(jsonText: result.output.trimmingCharacters(in: .whitespacesAndNewlines))
        let pageSize = rows.arrayValue?.first { $0["key"] == "beneficiaries.pageSize" }
        #expect(pageSize?["type"] == "int")
        #expect(pageSize?["default"] == 20)
    }

    @Test("schema prints a JSON Schema document")
    func schema() throws {
        let result = try CLIRunner.run(["schema"])
        #expect(result.status == 0)
        let schema = try JSONValue(jsonText: result.output)
        #expect(schema == DefinitionsSchema.document)
    }
}
