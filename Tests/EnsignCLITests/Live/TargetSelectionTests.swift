import Ensign
import EnsignControl
import EnsignJSON
import EnsignTestSupport
import Foundation
import Testing

@Suite("Live commands: ps and choosing the app")
struct TargetSelectionTests {
    @Test("ps lists running apps; the single running app is the default target")
    func psAndDefaultTarget() throws {
        let app = try LiveApp(name: "banking")
        let environment = ["ENSIGN_RUNTIME_DIR": app.runtimeDirectory]
        let ps = try CLIRunner.run(["ps"], environment: environment)
        #expect(ps.status == 0)
        #expect(ps.output.contains("banking") && ps.output.contains("development") && ps.output.contains("\(getpid())"))
        let json = try JSONValue(jsonText: try CLIRunner.run(["ps", "--json"], environment: environment).output)
        #expect(json.arrayValue?.first?["socket"] == .string(app.server.socketPath))
        let get = try CLIRunner.run(["get", "beneficiaries.pageSize"], environment: environment)
        #expect(get.status == 0)
        #expect(get.output.contains("30"))
    }

    @Test("With no running app, a live command says where it looked and how to start one")
    func noApp() throws {
        let directory = try TemporaryRuntimeDirectory()
        let result = try CLIRunner.run(["list"], environment: ["ENSIGN_RUNTIME_DIR": directory.path])
        #expect(result.status == 1)
        #expect(result.errors.contains("no running app with a control socket in \(directory.path)"))
        #expect(result.errors.contains("ensign demo"))
    }

    @Test("With several running apps, a live command is a usage error listing them; --app picks one")
    func severalApps() throws {
        let first = try LiveApp(name: "alpha")
        let second = try LiveApp(name: "beta", runtimeDirectory: first.runtimeDirectory)
        let environment = ["ENSIGN_RUNTIME_DIR": first.runtimeDirectory]
        let ambiguous = try CLIRunner.run(["list"], environment: environment)
        #expect(ambiguous.status == 2)
        #expect(ambiguous.errors.contains("alpha") && ambiguous.errors.contains("beta"))
        let chosen = try CLIRunner.run(
            ["toggle", "beneficiaries.showPendingList", "--app", "beta"], environment: environment)
        #expect(chosen.status == 0)
        #expect(second.context.value(forKeyNamed: "beneficiaries.showPendingList") == true)
        #expect(first.context.value(forKeyNamed: "beneficiaries.showPendingList") == false)
        #expect(try CLIRunner.run(["list", "--app", "a", "--socket", "b"]).status == 2)
    }
}
