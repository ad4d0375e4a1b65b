import EnsignTestSupport
import EnsignTooling
import Foundation
import Testing

@testable import Ensign

@Suite("A targeting rule that does not compile breaks only its flag")
struct BrokenRuleTests {
    static let definitions = """
        version: 1
        flags:
          checkout.newFlow:
            default: false
            targeting: { bogus: [{ var: country }, FR] }
          checkout.pageSize: { type: int, default: 20 }
        """

    @Test("The context loads; the flag reads its code default with PARSE_ERROR naming the rule's position")
    func contextLoads() throws {
        let context = try AppContext(definitions: Self.definitions)
        #expect(context.value(forKeyNamed: "checkout.pageSize") == 20)
        let details = context.details(for: FlagKey("checkout.newFlow", default: true))
        #expect(details.value == true)
        #expect(details.reason == .error)
        #expect(details.errorCode == .parseError)
        #expect(details.errorMessage?.contains("<definitions 1>:5:18: unknown operator 'bogus'") == true)
        #expect(!context.status.isDegraded)
        let diagnostic = try #require(context.loadDiagnostics.first)
        #expect(diagnostic.severity == .warning)
        #expect(diagnostic.key == "checkout.newFlow")
        #expect(
            diagnostic.description.hasPrefix(
                "<definitions 1>:5:18: warning: 'checkout.newFlow' targeting: unknown operator 'bogus'"))
        #expect(diagnostic.description.contains("reads its code default with PARSE_ERROR"))
    }

    @Test("From a directory, loadDiagnostics names the file, line and column")
    func directoryContext() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("app.yaml", Self.definitions)
        let context = try unwatchedContext(directory.path, environment: "test")
        #expect(context.value(forKeyNamed: "checkout.pageSize") == 20)
        #expect(context.loadDiagnostics.map(\.location.description) == ["\(file):5:18"])
        #expect(
            context.details(forKeyNamed: "checkout.newFlow").errorMessage?.contains("\(file):5:18: unknown operator")
                == true)
    }

    @Test("A reload that breaks a rule applies everything else and keeps the context healthy")
    func reloadBreaksRule() throws {
        let directory = try TemporaryDirectory()
        try directory.write("app.yaml", "flags:\n  a: { default: false }\n  b: { default: 1 }\n")
        let context = try unwatchedContext(directory.path, environment: "test")
        try directory.write(
            "app.yaml", "flags:\n  a: { default: false, targeting: { nope: 1 } }\n  b: { default: 2 }\n")
        let found = context.reload()
        #expect(!found.containsErrors)
        #expect(found.map(\.key) == ["a"])
        #expect(!context.status.isDegraded)
        #expect(context.value(forKeyNamed: "b") == 2)
        #expect(context.details(forKeyNamed: "a").errorCode == .parseError)
    }

    @Test("The status names the broken flag and the rule's file:line:column until a reload fixes it")
    func statusNamesBrokenRule() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("app.yaml", Self.definitions)
        let context = try unwatchedContext(directory.path, environment: "test")
        let status = context.status
        #expect(!status.isDegraded)
        #expect(status.flagProblems.map(\.key) == ["checkout.newFlow"])
        #expect(status.flagProblems.first?.severity == .warning)
        #expect(status.flagProblems.first?.description.contains("\(file):5:18: unknown operator 'bogus'") == true)
        #expect(context.makeChild(label: "request").status.flagProblems == status.flagProblems)
        try directory.write(
            "app.yaml",
            "flags:\n  checkout.newFlow: { default: false }\n  checkout.pageSize: { type: int, default: 20 }\n")
        #expect(!context.reload().containsErrors)
        #expect(context.status.flagProblems.isEmpty)
    }

    @Test("validate reports the rule as an error")
    func validateReportsError() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("app.yaml", Self.definitions)
        let report = ConfigValidator().validate(paths: [directory.path])
        #expect(report.errorCount == 1)
        #expect(
            report.diagnostics.first?.description.hasPrefix(
                "\(file):5:18: error: 'checkout.newFlow' targeting: unknown operator 'bogus'") == true)
    }

    @Test("A shared evaluator that does not compile breaks the flags that use it, not the others")
    func brokenEvaluator() throws {
        let context = try AppContext(
            definitions: """
                flags:
                  a: { default: false, targeting: { if: [{ $ref: isStaff }, true, null] } }
                  b: { default: false, targeting: { if: [{ in: [{ var: country }, [FR]] }, true, null] } }
                $evaluators:
                  isStaff: { ends_wiht: [{ var: email }, "@example.com"] }
                """)
        #expect(context.details(forKeyNamed: "a").errorCode == .parseError)
        #expect(context.details(forKeyNamed: "b").errorCode == nil)
        #expect(context.loadDiagnostics.map(\.severity) == [.warning])
    }
}
