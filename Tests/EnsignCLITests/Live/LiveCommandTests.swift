import Ensign
import EnsignControl
import EnsignJSON
import EnsignTestSupport
import Foundation
import Testing

@Suite("Live commands against a running app")
struct LiveCommandTests {
    @Test("list shows every key's live value and source; --json gives objects to script with")
    func list() throws {
        let app = try LiveApp()
        try app.context.setOverride(.showPendingList, to: true)
        let table = try app.run(["list"])
        #expect(table.status == 0)
        let lines = table.output.split(separator: "\n")
        #expect(lines.first?.hasPrefix("KEY") == true)
        #expect(
            lines.contains { $0.hasPrefix("beneficiaries.pageSize") && $0.contains("30") && $0.contains("environment") }
        )
        let json = try app.run(["list", "--json"])
        let rows = try #require(try JSONValue(jsonText: json.output).arrayValue)
        #expect(
            rows.map { $0["key"] } == [
                "beneficiaries.pageSize", "beneficiaries.showPendingList", "beneficiaries.sortOrder",
            ])
        #expect(rows[1]["overridden"] == true)
        #expect(rows[1]["value"] == true)
    }

    @Test("list --flags still reads a directory offline")
    func listOffline() throws {
        let result = try CLIRunner.run(["list", "--flags", "flags/"])
        #expect(result.status == 0)
        #expect(result.output.contains("beneficiaries.pageSize"))
    }

    @Test("get --json prints key, value, variant, reason, errorCode, errorMessage, metadata and source")
    func getJSON() throws {
        let app = try LiveApp()
        let result = try app.run(["get", "beneficiaries.pageSize", "--json"])
        #expect(result.status == 0)
        let object = try JSONValue(jsonText: result.output)
        #expect(
            object.objectValue.map { Set($0.keys) }
                == ["key", "value", "variant", "reason", "errorCode", "errorMessage", "metadata", "source"])
        #expect(object["value"] == 30)
        #expect(object["reason"] == "STATIC")
        #expect(object["variant"] == .null)
        #expect(object["source"]?["layer"] == "environment")
        #expect(object["source"]?["file"] == "<environment development>")
        #expect(object["source"]?["line"] == 2)
    }

    @Test("get of an undefined key fails with a suggestion")
    func getUndefined() throws {
        let app = try LiveApp()
        let result = try app.run(["get", "beneficiaries.pagesize"])
        #expect(result.status == 1)
        #expect(result.errors.contains("did you mean 'beneficiaries.pageSize'?"))
    }

    @Test("set changes the app's value and its observer runs; VALUE is JSON or else text")
    func set() throws {
        let app = try LiveApp()
        let seen = Recorder<Int>()
        let token = app.context.observe(.pageSize, label: "page size") { seen.record($0) }
        defer { token.cancel() }
        let result = try app.run(["set", "beneficiaries.pageSize", "50"])
        #expect(result.status == 0)
        #expect(result.output == "beneficiaries.pageSize = 50  (override by cli)\n")
        #expect(waitUntil("the app's observer to see 50") { seen.values.contains(50) })
        #expect(app.context[.pageSize] == 50)
        #expect(try app.run(["set", "beneficiaries.sortOrder", "name"]).status == 0)
        #expect(app.context.value(forKeyNamed: "beneficiaries.sortOrder") == "name")
    }

    @Test("set refuses a value the definition refuses, and persist without an overrides file")
    func setRefused() throws {
        let app = try LiveApp()
        let invalid = try app.run(["set", "beneficiaries.pageSize", "500"])
        #expect(invalid.status == 1)
        #expect(invalid.errors.contains("beneficiaries.pageSize"))
        let persist = try app.run(["set", "beneficiaries.pageSize", "50", "--persist"])
        #expect(persist.status == 1)
        #expect(persist.errors.contains("overridesFile"))
        #expect(app.context[.pageSize] == 30)
    }

    @Test("toggle flips a bool flag; toggling an int flag fails")
    func toggle() throws {
        let app = try LiveApp()
        let result = try app.run(["toggle", "beneficiaries.showPendingList", "--json"])
        #expect(result.status == 0)
        #expect(try JSONValue(jsonText: result.output)["value"] == true)
        #expect(app.context[.showPendingList] == true)
        #expect(try app.run(["toggle", "beneficiaries.pageSize"]).status == 1)
    }

    @Test("reset removes one override or all of them; KEY with --all is a usage error")
    func reset() throws {
        let app = try LiveApp()
        try app.context.setOverride(.pageSize, to: 60)
        try app.context.setOverride(.showPendingList, to: true)
        let one = try app.run(["reset", "beneficiaries.pageSize"])
        #expect(one.status == 0)
        #expect(one.output.contains("removed the override of beneficiaries.pageSize"))
        #expect(app.context[.pageSize] == 30)
        let all = try app.run(["reset", "--all", "--json"])
        #expect(try JSONValue(jsonText: all.output) == ["beneficiaries.showPendingList"])
        #expect(app.context.overrides.isEmpty)
        #expect(try app.run(["reset", "beneficiaries.pageSize", "--all"]).status == 2)
    }

    @Test("explain shows each layer with file:line, marks the winner, and lists the last changes")
    func explain() throws {
        let app = try LiveApp()
        #expect(try app.run(["set", "beneficiaries.pageSize", "45"]).status == 0)
        let result = try app.run(["explain", "beneficiaries.pageSize"])
        #expect(result.status == 0)
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.first == "beneficiaries.pageSize = 45  (OVERRIDE)")
        #expect(lines.contains { $0.contains("definition") && $0.contains("20") && $0.contains("<definitions 1>:") })
        #expect(
            lines.contains {
                $0.contains("environment") && $0.contains("30") && $0.contains("<environment development>:2")
            })
        #expect(
            lines.contains {
                $0.contains("→") && $0.contains("override") && $0.contains("45") && $0.contains("set by cli")
            })
        #expect(lines.contains { $0.contains("30 → 45") && $0.contains("override by cli") })
    }

    @Test("log lists transactions with cause, changes and observers; --dot draws them for Graphviz")
    func log() throws {
        let app = try LiveApp()
        let fast = app.context.observe(.showPendingList, label: "pending list") { _ in }
        let slow = app.context.observe(.showPendingList, label: "slow banner") { _ in usleep(30_000) }
        defer {
            fast.cancel()
            slow.cancel()
        }
        #expect(try app.run(["toggle", "beneficiaries.showPendingList"]).status == 0)
        let text = try app.run(["log"])
        #expect(text.status == 0)
        #expect(text.output.contains("override by cli"))
        #expect(text.output.contains("beneficiaries.showPendingList: false → true"))
        #expect(text.output.contains("ran pending list"))
        #expect(text.output.contains("ran slow banner") && text.output.contains("SLOW"))
        let dot = try app.run(["log", "--dot"])
        #expect(dot.status == 0)
        #expect(dot.output.hasPrefix("digraph ensign {"))
        #expect(dot.output.hasSuffix("}\n"))
        let transaction = try #require(app.context.changeLog.last?.id)
        #expect(dot.output.contains("\"t\(transaction)\" -> \"t\(transaction)/beneficiaries.showPendingList\";"))
        #expect(
            dot.output.contains("\"t\(transaction)/beneficiaries.showPendingList\" -> \"t\(transaction)/observer 0\";"))
        #expect(dot.output.contains("color=red") && dot.output.contains("(slow)"))
        #expect(try app.run(["log", "--dot", "--json"]).status == 2)
    }

    @Test("status shows the app's environment and health")
    func status() throws {
        let app = try LiveApp()
        let result = try app.run(["status"])
        #expect(result.status == 0)
        #expect(result.output.contains("environment  development"))
        #expect(result.output.contains("health       ok"))
        let json = try JSONValue(jsonText: try app.run(["status", "--json"]).output)
        #expect(json["server"]?["app"] == "testapp")
    }

    @Test("In production, writes fail with FORBIDDEN and the message says how to allow them")
    func productionRefusesWrites() throws {
        let app = try LiveApp(environment: "production")
        let result = try app.run(["toggle", "beneficiaries.showPendingList"])
        #expect(result.status == 1)
        #expect(result.errors.contains("allowsWritesInProduction: true"))
        #expect(app.context[.showPendingList] == false)
    }
}
