import Foundation
import Testing

@Suite("ensign export")
struct ExportCommandTests {
    @Test("The sample app exports to standard output, and eval reads the bundle as it reads the directory")
    func exportThenEvaluate() throws {
        let exported = try CLIRunner.run(["export", "--flags", "flags/"])
        #expect(exported.status == 0)
        #expect(exported.output.hasPrefix("{\n  \"ensignBundle\": 1,\n  \"definitions\": {\n"))
        let bundle = try CLIRunner.temporaryFile(exported.output, name: "Flags.bundle.json")
        for environment in ["development", "production"] {
            let arguments = ["eval", "transfers.newFlow", "--env", environment, "--json"]
            let context = ["--context", #"{"targetingKey": "u1", "country": "FR"}"#]
            let fromBundle = try CLIRunner.run(arguments + ["--flags", bundle] + context)
            let fromDirectory = try CLIRunner.run(arguments + ["--flags", "flags/"] + context)
            #expect(fromBundle.status == 0)
            #expect(fromBundle.output == fromDirectory.output)
        }
    }

    @Test("--output writes the file; --env keeps one environment; an unknown one is an error naming the known ones")
    func outputAndEnvironment() throws {
        let output = try CLIRunner.temporaryFile("old", name: "out.json")
        let written = try CLIRunner.run(["export", "--flags", "flags/", "--env", "production", "--output", output])
        #expect(written.status == 0)
        #expect(written.output == "wrote \(output)\n")
        let text = try String(contentsOfFile: output, encoding: .utf8)
        #expect(text.contains("\"production\": ["))
        #expect(!text.contains("\"development\": ["))
        let unknown = try CLIRunner.run(["export", "--flags", "flags/", "--env", "prod", "--output", output])
        #expect(unknown.status == 1)
        #expect(unknown.errors.contains("did you mean 'production'?"))
        #expect(try String(contentsOfFile: output, encoding: .utf8) == text)
    }

    @Test("A broken directory prints path:line:column, exits 1 and writes nothing; --flags is required")
    func brokenDirectory() throws {
        let file = try CLIRunner.temporaryFile("version: 1\nflags:\n  a: { type: int, default: x }\n", name: "app.yaml")
        let directory = (file as NSString).deletingLastPathComponent
        let output = directory + "/bundle.json"
        let result = try CLIRunner.run(["export", "--flags", directory, "--output", output])
        #expect(result.status == 1)
        #expect(result.errors.contains("\(file):3:28: error:"))
        #expect(!FileManager.default.fileExists(atPath: output))
        #expect(try CLIRunner.run(["export"]).status == 2)
    }
}
