import EnsignTestSupport
import EnsignTooling
import Foundation
import Testing

@testable import Ensign

@Suite("ensign debt's analysis: which flags are debt, and which are not")
struct FlagDebtAnalyzerTests {
    /// `Tests/Fixtures/FlagDebt`: one flag per kind of debt, and `shop.cleanFlag`.
    static let fixture = BuiltExecutable.packageRoot.appendingPathComponent("Tests/Fixtures/FlagDebt").path
    static let day = CalendarDay("2026-06-01")!

    /// The fixture's Swift files, read as `ensign debt --sources` reads them.
    static func fixtureSources() throws -> [SwiftSourceScan.File] {
        let directory = fixture + "/Sources"
        return try FileManager.default.contentsOfDirectory(atPath: directory).sorted().map { name in
            let path = directory + "/" + name
            return SwiftSourceScan.File(path: path, text: try String(contentsOfFile: path, encoding: .utf8))
        }
    }

    /// A report on a directory written from `files` (relative path → text).
    static func report(
        _ files: [String: String], sources: [String]? = nil, evaluatedKeys: Set<String>? = nil
    ) throws -> (FlagDebtReport, TemporaryDirectory) {
        let directory = try TemporaryDirectory()
        for (path, text) in files { try directory.write(path, text) }
        let validation = ConfigValidator(loader: DefinitionLoader(today: day)).validate(paths: [directory.path])
        #expect(validation.errorCount == 0, "\(validation.diagnostics)")
        let files = sources.map {
            $0.enumerated().map { SwiftSourceScan.File(path: "S\($0.offset).swift", text: $0.element) }
        }
        return (
            FlagDebtAnalyzer(today: day).analyze(validation, sources: files, evaluatedKeys: evaluatedKeys), directory
        )
    }

    @Test("The fixture has one finding of each kind, on the flag written for it, and none on the clean flag")
    func fixtureFindings() throws {
        let validation = ConfigValidator(loader: DefinitionLoader(today: Self.day)).validate(paths: [
            Self.fixture + "/flags"
        ])
        #expect(validation.errorCount == 0)
        let evaluated = Set(validation.definitions.keys).subtracting(["shop.forgottenFlag"])
        let report = FlagDebtAnalyzer(today: Self.day)
            .analyze(validation, sources: try Self.fixtureSources(), evaluatedKeys: evaluated)
        let found = Dictionary(grouping: report.findings, by: \.kind).mapValues { $0.map(\.key) }
        #expect(
            found == [
                .expired: ["shop.oldBanner"], .noOwner: ["shop.orphanFlag"], .fullyRolledOut: ["shop.newCheckout"],
                .overlayEqualsDefault: ["shop.pageSize"], .unreferenced: ["shop.forgottenFlag"],
                .undefined: ["shop.pageSise"], .neverEvaluated: ["shop.forgottenFlag"],
            ])
        #expect(!report.findings.contains { $0.key == "shop.cleanFlag" })
        #expect(report.checkedKinds == FlagDebtReport.Kind.allCases)
        #expect(report.sourceFileCount == 1)
        // Each finding points where to act: the overlay line, the use of the name, the rule.
        let overlay = try #require(report.findings(of: .overlayEqualsDefault).first)
        #expect(
            overlay.location
                == SourcePosition(file: Self.fixture + "/flags/environments/production.yaml", line: 3, column: 18))
        let undefined = try #require(report.findings(of: .undefined).first)
        #expect(
            undefined.location == SourcePosition(file: Self.fixture + "/Sources/ShopScreen.swift", line: 18, column: 47)
        )
        let rolledOut = try #require(report.findings(of: .fullyRolledOut).first)
        #expect(rolledOut.location.line == 26)
        #expect(rolledOut.message.contains("every context gets true"))
        #expect(
            report.summary
                == "6 keys and 1 Swift file checked: 7 findings (1 expired, 1 noOwner, 1 fullyRolledOut, 1 overlayEqualsDefault, 1 unreferenced, 1 undefined, 1 neverEvaluated)"
        )
    }

    @Test("Without sources or evaluated keys, the kinds that need them are neither checked nor found")
    func optionalChecks() throws {
        let (report, _) = try Self.report(["app.yaml": "version: 1\nflags:\n  a: { default: 1 }\n"])
        #expect(report.checkedKinds == [.expired, .noOwner, .fullyRolledOut, .overlayEqualsDefault])
        #expect(report.findings.map(\.kind) == [.noOwner])
        #expect(report.sourceFileCount == nil)
        let (evaluated, _) = try Self.report(
            ["app.yaml": "version: 1\nflags:\n  a: { default: 1, owner: x }\n  b: { default: 2, owner: x }\n"],
            evaluatedKeys: ["b"])
        #expect(evaluated.findings.map(\.key) == ["a"])
        #expect(evaluated.findings.map(\.kind) == [.neverEvaluated])
    }

    @Test("A flag expires the day after its expires: day; preferences need no owner")
    func expiryAndOwners() throws {
        let (report, _) = try Self.report([
            "app.yaml": """
            version: 1
            flags:
              today: { default: 1, owner: x, expires: 2026-06-01 }
              yesterday: { default: 1, owner: x, expires: 2026-05-31 }
            preferences:
              theme: { default: dark }
            """
        ])
        #expect(report.findings.map(\.key) == ["yesterday"])
        #expect(report.findings.map(\.kind) == [.expired])
        #expect(report.findings[0].message.hasPrefix("'yesterday' expired on 2026-05-31 (owner: x);"))
    }

    /// A long-form flag with variants `on` (true), `alsoOn` (true) and `off` (false).
    static func targetedFlag(defaultVariant: String, targeting: String) -> String {
        """
        version: 1
        flags:
          f:
            owner: x
            variants: { "on": true, "alsoOn": true, "off": false }
            defaultVariant: "\(defaultVariant)"
            targeting: \(targeting)
        """
    }

    @Test(
        "Fully rolled out only when every context provably gets one value",
        arguments: [
            // Every branch, the else included, names an equal value.
            ("off", #"{ "if": [{ "in": [{ "var": "country" }, ["FR"]] }, "on", "alsoOn"] }"#, true),
            // Only the default is reachable: the one branch names it, and no match falls to it.
            ("off", #"{ "if": [{ "var": "beta" }, "off"] }"#, true),
            // No match falls to the default, which differs.
            ("off", #"{ "if": [{ "var": "beta" }, "on"] }"#, false),
            ("off", #"{ "if": [{ "var": "beta" }, "on", "off"] }"#, false),
            // A context without a targeting key falls to the default; with an equal default, all get "on".
            ("off", #"{ "fractional": [["on", 100], ["off", 0]] }"#, false),
            ("on", #"{ "fractional": [["on", 100], ["off", 0]] }"#, true),
            ("on", #"{ "fractional": [["on", 50], ["off", 50]] }"#, false),
            // A computed result may name any variant.
            ("off", #"{ "var": "variant" }"#, false),
            ("off", #"{ "if": [{ "var": "beta" }, { "cat": ["o", "n"] }, "off"] }"#, false),
        ])
    func rollouts(defaultVariant: String, targeting: String, isRolledOut: Bool) throws {
        let (report, _) = try Self.report([
            "app.yaml": Self.targetedFlag(defaultVariant: defaultVariant, targeting: targeting),
            "S.swift": "",
        ])
        #expect(report.findings(of: .fullyRolledOut).map(\.key) == (isRolledOut ? ["f"] : []))
    }

    @Test("A fall-through reads the environments' values too, so one that differs keeps the flag varying")
    func rolloutWithEnvironmentValue() throws {
        let flag = Self.targetedFlag(defaultVariant: "off", targeting: #"{ "if": [{ "var": "beta" }, "off"] }"#)
        let (varying, _) = try Self.report(["app.yaml": flag, "environments/production.yaml": "flags:\n  f: true\n"])
        #expect(varying.findings(of: .fullyRolledOut).isEmpty)
        // A flag with no targeting is static, not rolled out.
        let (plain, _) = try Self.report(["app.yaml": "version: 1\nflags:\n  g: { default: true, owner: x }\n"])
        #expect(plain.findings.isEmpty)
    }

    @Test("An environment's value equal to what it replaces is reported, inline or in its file; others are not")
    func redundantEnvironmentValues() throws {
        let (report, directory) = try Self.report([
            "app.yaml": """
            version: 1
            flags:
              size: { default: 20, owner: x, environments: { staging: 20, production: 30 } }
              ratio: { type: double, default: 1.0, owner: x }
            """,
            "environments/production.yaml": "flags:\n  size: 30\n  ratio: 1\n",
            "environments/staging.yaml": "flags:\n  size: 40\n",
        ])
        let found = report.findings(of: .overlayEqualsDefault).map { "\($0.location)" }
        #expect(
            found == [
                "\(directory.path)/app.yaml:3:59",
                "\(directory.path)/environments/production.yaml:2:9",
                "\(directory.path)/environments/production.yaml:3:10",
            ])
        #expect(report.findings.count == 3)
    }

    @Test(
        "The source scan reads names given to by-name APIs, and skips comments, interpolation and generated files",
        arguments: [
            (#"context.value(forKeyNamed: "a.b")"#, ["a.b"]),
            (#"try context.toggle(keyNamed: "a.b")"#, ["a.b"]),
            (#"static let k = FlagKey<[String: Int]>("a.b", default: [:])"#, ["a.b"]),
            (#"static let k = UserPreferenceKey("a.b", default: 1)"#, ["a.b"]),
            (#"static let k = FlagKey<Set<String>>("a.b", default: [])"#, ["a.b"]),
            (##"static let k = FlagKey(#"a.b"#, default: 1)"##, ["a.b"]),
            (#"// context.value(forKeyNamed: "a.b")"#, []),
            ("/* outer /* inner */ context.value(forKeyNamed: \"a.b\") */", []),
            (#"context.value(forKeyNamed: "a.\(suffix)")"#, []),
            (#"print("forKeyNamed: \"a.b\"")"#, []),
            (#"label(keyNamed: x, "a.b")"#, []),
            (
                "// Generated by `ensign generate --access internal` from:\n"
                    + "//   app.yaml\n// Do not edit: change the definitions, then generate again.\n"
                    + #"static let k = FlagKey<Int>("a.b", default: 1)"#, []
            ),
        ])
    func sourceScan(source: String, names: [String]) {
        let scan = SwiftSourceScan([SwiftSourceScan.File(path: "S.swift", text: source)])
        #expect(scan.keyLiterals.map(\.name) == names)
    }

    @Test("A key is used by its generated name, its full name, or its last part read through a scope")
    func references() throws {
        let definitions =
            "version: 1\nnamespace: shop\nflags:\n"
            + ["a", "b", "c", "d"].map { "  \($0): { default: 1, owner: x }\n" }.joined()
        let (report, _) = try Self.report(
            ["app.yaml": definitions],
            sources: [
                "let a = context[.shopA]",
                #"let b = context.value(forKeyNamed: "shop.b")"#,
                #"static let c = FlagKey("c", default: 1)  // read through scope("shop")"#,
                #"let x = context.value(forKeyNamed: "shop.e"); let y = "shop.d is not a name" "#,
            ])
        #expect(report.findings.map(\.kind) == [.unreferenced, .undefined])
        #expect(report.findings.map(\.key) == ["shop.d", "shop.e"])
        #expect(report.findings[1].location == SourcePosition(file: "S3.swift", line: 1, column: 36))
    }
}
