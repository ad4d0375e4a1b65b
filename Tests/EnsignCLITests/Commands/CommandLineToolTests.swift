import Ensign
import EnsignJSON
import EnsignTestSupport
import EnsignTestTraits
import EnsignTooling
import Foundation
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

    @Test(
        "A command that takes one KEY says so when given none or two, before connecting",
        arguments: [
            ["get"], ["get", "a", "b"], ["toggle"], ["explain", "a", "b"],
        ])
    func exactlyOneKey(arguments: [String]) throws {
        let result = try CLIRunner.run(arguments + ["--socket", "/nonexistent/ensign.sock"])
        #expect(result.status == 2)
        #expect(result.errors.contains("give exactly one KEY"))
    }

    @Test("An option without its value is a usage error")
    func missingValue() throws {
        let result = try CLIRunner.run(["validate", "flags/", "--env"])
        #expect(result.status == 2)
        #expect(result.errors.contains("'--env' needs a value"))
    }

    @Test(
        "Every command answers --help, and help <command> prints a manual page", .blocksItsThread,
        arguments: [
            "validate", "eval", "list", "schema", "generate", "completions", "get", "explain", "set", "toggle", "reset",
            "watch", "log", "stats", "status", "ps", "debt",
        ])
    func help(command: String) throws {
        let viaFlag = try CLIRunner.run([command, "--help"])
        let viaHelp = try CLIRunner.run(["help", command])
        #expect(viaFlag.status == 0)
        #expect(viaFlag.output.hasPrefix("usage: ensign \(command)"))
        #expect(viaHelp.status == 0)
        #expect(viaHelp.output.hasPrefix("NAME\n    ensign \(command) — "))
        #expect(viaHelp.output.contains("SYNOPSIS\n    ensign \(command)"))
    }

    @Test("Completion scripts know every command and its options, and bash accepts the script")
    func completions() throws {
        let bash = try CLIRunner.run(["completions", "bash"])
        #expect(bash.status == 0)
        #expect(bash.output.contains("validate) options=\"--check-generated --env --help --json --strict\""))
        #expect(bash.output.contains("stats) options=\"--app --help --json --socket\""))
        let zsh = try CLIRunner.run(["completions", "zsh"])
        #expect(zsh.output.hasPrefix("#compdef ensign"))
        #expect(zsh.output.contains("'eval:"))
        let path = try CLIRunner.temporaryFile(bash.output, name: "ensign.bash")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-n", path]  // syntax check
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
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

    @Test("list --flags --prefix lists only the keys under the prefix")
    func listOfflinePrefix() throws {
        let all = try CLIRunner.run(["list", "--flags", "flags/", "--json"])
        let result = try CLIRunner.run(["list", "--flags", "flags/", "--prefix", "beneficiaries.", "--json"])
        #expect(result.status == 0)
        let keys = try JSONValue(jsonText: result.output).arrayValue?.compactMap { $0["key"]?.stringValue } ?? []
        let allKeys = try JSONValue(jsonText: all.output).arrayValue?.compactMap { $0["key"]?.stringValue } ?? []
        #expect(!keys.isEmpty && keys.allSatisfy { $0.hasPrefix("beneficiaries.") })
        #expect(keys == allKeys.filter { $0.hasPrefix("beneficiaries.") })
        #expect(keys.count < allKeys.count)
    }

    @Test("list --flags --set lists only the flags of that flag set, by their own or their file's metadata")
    func listOfflineFlagSet() throws {
        let directory = try TemporaryDirectory()
        try directory.write(
            "flags/web.yaml",
            """
            metadata: { flagSetId: web }
            flags:
              banner: { default: true }
              checkout: { default: false, metadata: { flagSetId: payments } }
            """)
        try directory.write("flags/other.yaml", "flags:\n  loose: { default: 1 }\n")
        func keys(_ set: String) throws -> [String] {
            let result = try CLIRunner.run(["list", "--flags", directory.path + "/flags", "--set", set, "--json"])
            #expect(result.status == 0, "\(result.errors)")
            return try JSONValue(jsonText: result.output).arrayValue?.compactMap { $0["key"]?.stringValue } ?? []
        }
        #expect(try keys("web") == ["banner"])
        #expect(try keys("payments") == ["checkout"])
        #expect(try keys("nobody").isEmpty)
    }

    @Test("demo --env with an environment no file mentions stops with the known ones, exit 1")
    func demoUnknownEnvironment() throws {
        let runtime = URL(fileURLWithPath: try CLIRunner.temporaryFile("", name: "README")).deletingLastPathComponent()
        let result = try CLIRunner.run(
            ["demo", "--flags", "flags/", "--env", "Development", "--state", runtime.path + "/state"],
            environment: ["ENSIGN_RUNTIME_DIR": runtime.path])
        #expect(result.status == 1)
        #expect(
            result.errors.contains(
                "flags/: error: environment 'Development' is not mentioned by any file (no"
                    + " environments/Development.yaml, no inline 'environments:' value); the known environments are"
                    + " development, production and staging; did you mean 'development'?"))
        #expect(!FileManager.default.fileExists(atPath: runtime.path + "/state"))
    }

    @Test("schema prints a JSON Schema document")
    func schema() throws {
        let result = try CLIRunner.run(["schema"])
        #expect(result.status == 0)
        let schema = try JSONValue(jsonText: result.output)
        #expect(schema == DefinitionsSchema.document)
    }
}
