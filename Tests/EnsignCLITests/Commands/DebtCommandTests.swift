import Ensign
import EnsignJSON
import Foundation
import Testing

@Suite("ensign debt")
struct DebtCommandTests {
    /// `Tests/Fixtures/FlagDebt`, relative to the package root the runner starts in.
    static let fixture = "Tests/Fixtures/FlagDebt"
    static let arguments = [
        "debt", "--flags", fixture + "/flags", "--sources", fixture + "/Sources", "--today", "2026-06-01",
    ]

    @Test("Findings print as compiler-style warnings, one per kind on the fixture, then a summary; exit 1")
    func text() throws {
        let result = try CLIRunner.run(Self.arguments)
        #expect(result.status == 1)
        #expect(result.errors == "")
        let lines = result.output.split(separator: "\n").map(String.init)
        let flags = Self.fixture + "/flags"
        #expect(
            lines.map { $0.split(separator: " ", maxSplits: 3).prefix(3).joined(separator: " ") } == [
                "\(Self.fixture)/Sources/ShopScreen.swift:18:47: warning: 'shop.pageSise'",
                "\(flags)/environments/production.yaml:3:18: warning: 'shop.pageSize'",
                "\(flags)/shop.yaml:11:3: warning: 'shop.oldBanner'",
                "\(flags)/shop.yaml:16:3: warning: 'shop.orphanFlag'",
                "\(flags)/shop.yaml:26:7: warning: 'shop.newCheckout'",
                "\(flags)/shop.yaml:34:3: warning: 'shop.forgottenFlag'",
                "6 keys and",
            ])
        #expect(!result.output.contains("cleanFlag"))
        #expect(
            lines.last
                == "6 keys and 1 Swift file checked: 6 findings (1 expired, 1 noOwner, 1 fullyRolledOut,"
                + " 1 overlayEqualsDefault, 1 unreferenced, 1 undefined)")
        #expect(
            lines[2].hasSuffix("expired on 2025-01-01 (owner: web); remove it and its uses, or move 'expires' later"))
    }

    @Test("--json prints one object: each finding with its kind and location, and counts of every kind checked")
    func json() throws {
        let result = try CLIRunner.run(Self.arguments + ["--json"])
        #expect(result.status == 1)
        let report = try JSONValue(jsonText: result.output.trimmingCharacters(in: .whitespacesAndNewlines))
        guard case .object(let object) = report, case .array(let findings)? = object["findings"] else {
            Issue.record("not an object with findings: \(result.output)")
            return
        }
        #expect(object["ok"] == .bool(false))
        #expect(object["today"] == .string("2026-06-01"))
        #expect(object["keys"] == .int(6))
        #expect(object["sourceFiles"] == .int(1))
        let kinds = ["expired", "noOwner", "fullyRolledOut", "overlayEqualsDefault", "unreferenced", "undefined"]
        #expect(object["checked"] == .array(kinds.map(JSONValue.string)))
        #expect(object["counts"] == .object(Dictionary(uniqueKeysWithValues: kinds.map { ($0, JSONValue.int(1)) })))
        let byKind = Dictionary(
            uniqueKeysWithValues: findings.compactMap { finding -> (String, String)? in
                guard case .object(let members) = finding, let kind = members["kind"]?.stringValue,
                    let key = members["key"]?.stringValue
                else { return nil }
                return (kind, key)
            })
        #expect(
            byKind == [
                "expired": "shop.oldBanner", "noOwner": "shop.orphanFlag", "fullyRolledOut": "shop.newCheckout",
                "overlayEqualsDefault": "shop.pageSize", "unreferenced": "shop.forgottenFlag",
                "undefined": "shop.pageSise",
            ])
        guard case .object(let first)? = findings.first else {
            Issue.record("no findings")
            return
        }
        #expect(
            first == [
                "kind": "undefined", "key": "shop.pageSise", "severity": "warning",
                "file": .string(Self.fixture + "/Sources/ShopScreen.swift"), "line": 18, "column": 47,
                "message": .string(
                    "'shop.pageSise' is read by name here, but no definitions file defines it; define it, or"
                        + " correct the name"),
            ])
    }

    @Test("A directory without debt exits 0, and says so")
    func clean() throws {
        let result = try CLIRunner.run([
            "debt", "--flags", Self.fixture + "/Clean/flags", "--sources", Self.fixture + "/Clean/Sources",
            "--today", "2026-06-01",
        ])
        #expect(result.status == 0)
        #expect(result.output == "1 key and 1 Swift file checked: no flag debt\n")
        let json = try CLIRunner.run(["debt", "--flags", Self.fixture + "/Clean/flags", "--json"])
        #expect(json.status == 0)
        #expect(json.output.contains(#""ok":true"#))
        #expect(json.output.contains(#""sourceFiles":null"#))
    }

    @Test("Without --today, ENSIGN_TODAY sets the day expires: is compared with")
    func todayFromEnvironment() throws {
        let flags = Self.fixture + "/Clean/flags"
        let later = try CLIRunner.run(["debt", "--flags", flags], environment: ["ENSIGN_TODAY": "2030-01-02"])
        #expect(later.status == 1)
        #expect(later.output.contains("'shop.cleanFlag' expired on 2030-01-01"))
        let option = try CLIRunner.run(
            ["debt", "--flags", flags, "--today", "2030-01-01"], environment: ["ENSIGN_TODAY": "2030-01-02"])
        #expect(option.status == 0)
    }

    @Test(
        "Usage mistakes and definitions that do not load exit 2",
        arguments: [
            (["debt"], "give the definitions with --flags DIR"),
            (["debt", "--flags", "flags/", "--today", "tomorrow"], "--today must be a day written YYYY-MM-DD"),
            (["debt", "--flags", "no/such/dir"], "no/such/dir: error: no such directory"),
            (["debt", "--flags", "flags/", "--sources", "no/such/dir"], "no/such/dir: error: no such directory"),
        ])
    func usage(arguments: [String], message: String) throws {
        let result = try CLIRunner.run(arguments)
        #expect(result.status == 2)
        #expect(result.errors.contains(message))
    }

    @Test("Definitions with errors print them and exit 2: debt is counted on definitions that load")
    func loadErrors() throws {
        let file = try CLIRunner.temporaryFile("version: 1\nflags:\n  a: { type: int, default: x }\n")
        let directory = URL(fileURLWithPath: file).deletingLastPathComponent().path
        let result = try CLIRunner.run(["debt", "--flags", directory])
        #expect(result.status == 2)
        #expect(result.output == "")
        #expect(result.errors.contains("\(file):3:28: error: 'a' default \"x\" is not an int"))
    }

    @Test("Completions offer the command and its options")
    func completions() throws {
        let bash = try CLIRunner.run(["completions", "bash"])
        #expect(bash.output.contains("debt) options=\"--app --flags --help --json --socket --sources --today\""))
    }
}
