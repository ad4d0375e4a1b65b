import Ensign
import Testing

extension EvaluationTests {
    @Suite("sem_ver")
    struct SemanticVersionTests {
        struct Case: Sendable, CustomTestStringConvertible {
            let version: JSONValue
            let comparison: String
            let target: String
            let expected: JSONValue
            var testDescription: String { "\(version.jsonText) \(comparison) \(target) → \(expected.jsonText)" }
        }

        static let cases: [Case] = [
            // flagd-testbed semver.feature
            Case(version: "2.0.0", comparison: "=", target: "2.0.0", expected: true),
            Case(version: "2.1.0", comparison: ">", target: "2.0.0", expected: true),
            Case(version: "1.9.0", comparison: "<", target: "2.0.0", expected: true),
            Case(version: "2.0.0-alpha", comparison: "<", target: "2.0.0", expected: true),
            Case(version: "2.0.0.0", comparison: "=", target: "2.0.0", expected: .null),
            Case(version: "3.0.1", comparison: "~", target: "3.0.0", expected: true),
            Case(version: "3.1.0", comparison: "~", target: "3.0.0", expected: false),
            Case(version: "3.1.0", comparison: "^", target: "3.0.0", expected: true),
            Case(version: "4.0.0", comparison: "^", target: "3.0.0", expected: false),
            Case(version: "not-a-version", comparison: "=", target: "1.0.0", expected: .null),
            Case(version: "1.0.0", comparison: "===", target: "1.0.0", expected: .null),
            Case(version: "v1.0.0", comparison: "=", target: "v1.0.0", expected: true),
            Case(version: "V1.0.0", comparison: "=", target: "v1.0.0", expected: true),
            Case(version: "1.0.0", comparison: "=", target: "v1.0.0", expected: true),
            Case(version: "1.5.0", comparison: "^", target: "1", expected: true),
            Case(version: "1.0", comparison: "^", target: "1", expected: true),
            Case(version: 1, comparison: "^", target: "1", expected: true),
            Case(version: 1.0, comparison: "^", target: "1", expected: true),
            Case(version: 1.2, comparison: "^", target: "1", expected: true),
            Case(version: "2.0.0", comparison: "^", target: "1", expected: false),
            Case(version: 1.2, comparison: ">", target: "1.1", expected: true),
            Case(version: 1.1, comparison: ">", target: "1.1", expected: false),
            Case(version: 2, comparison: ">", target: "1.1", expected: true),
            Case(version: 1, comparison: ">", target: "1.1", expected: false),
            Case(version: "1.0.0+other", comparison: "=", target: "1.0.0+build", expected: true),
            Case(version: "2.0.0", comparison: "=", target: "1.0.0+build", expected: false),
            // SemVer 2.0 precedence and the remaining comparisons
            Case(version: "1.0.0-alpha", comparison: "<", target: "1.0.0-alpha.1", expected: true),
            Case(version: "1.0.0-alpha.1", comparison: "<", target: "1.0.0-alpha.beta", expected: true),
            Case(version: "1.0.0-beta.2", comparison: "<", target: "1.0.0-beta.11", expected: true),
            Case(version: "1.0.0-rc.1", comparison: "<", target: "1.0.0", expected: true),
            Case(version: "10.0.0", comparison: ">", target: "9.99.99", expected: true),
            Case(version: "1.2.3", comparison: "!=", target: "1.2.4", expected: true),
            Case(version: "1.2.3", comparison: ">=", target: "1.2.3", expected: true),
            Case(version: "1.2.3", comparison: "<=", target: "1.2.2", expected: false),
            Case(version: "0.1.0", comparison: "^", target: "0.2.0", expected: true),
            Case(version: "01.0.0", comparison: "=", target: "1.0.0", expected: .null),
            Case(version: "1.0-beta", comparison: "=", target: "1.0.0", expected: .null),
            Case(version: "1.0.0-", comparison: "=", target: "1.0.0", expected: .null),
            Case(version: "1.0.0-01", comparison: "=", target: "1.0.0", expected: .null),
            Case(version: true, comparison: "=", target: "1.0.0", expected: .null),
            Case(version: .null, comparison: "=", target: "1.0.0", expected: .null),
        ]

        @Test("Versions compare as flagd's sem_ver does", arguments: cases)
        func compares(_ example: Case) throws {
            let rule = try EvaluationTests.rule(
                #"{"sem_ver": [{"var": "version"}, \#(JSONValue.string(example.comparison).jsonText), \#(JSONValue.string(example.target).jsonText)]}"#
            )
            #expect(rule.evaluate(context: ["version": example.version], flagKey: "f") == example.expected)
        }

        @Test("Comparison and target may be computed at evaluation time")
        func computedOperands() throws {
            let rule = try EvaluationTests.rule(#"{"sem_ver": [{"var": "app"}, {"var": "op"}, {"var": "min"}]}"#)
            #expect(rule.evaluate(context: ["app": "2.3.0", "op": ">=", "min": "2.1"], flagKey: "f") == true)
            #expect(rule.evaluate(context: ["app": "2.3.0", "op": "=>", "min": "2.1"], flagKey: "f") == .null)
            #expect(rule.evaluate(context: ["app": "2.3.0", "op": ">=", "min": "two"], flagKey: "f") == .null)
        }

        @Test("A wrong argument count compiles with a warning and evaluates to null")
        func wrongArgumentCount() throws {
            let compilation = TargetingRule.compile(
                try EvaluationTests.json(#"{"sem_ver": [{"var": "version"}, "="]}"#))
            #expect(compilation.problems.map(\.severity) == [.warning])
            #expect(compilation.problems.first?.path == ["sem_ver"])
            #expect(compilation.rule?.evaluate(context: ["version": "1.0.0"], flagKey: "f") == .null)
        }

        @Test("Literal operands that can never match are warned about where they are written")
        func literalWarnings() throws {
            let problems = try EvaluationTests.problems(#"{"sem_ver": [{"var": "version"}, "===", "1.0"]}"#)
            #expect(problems.map(\.path) == [["sem_ver", 1]])
            #expect(problems.allSatisfy { $0.severity == .warning })
            let badTarget = try EvaluationTests.problems(#"{"sem_ver": [{"var": "version"}, "=", "one"]}"#)
            #expect(badTarget.map(\.path) == [["sem_ver", 2]])
        }
    }

    @Suite("starts_with and ends_with")
    struct StringComparisonTests {
        static let startsEnds = """
            {"if": [{"starts_with": [{"var": "id"}, "abc"]}, "prefix",
              {"if": [{"ends_with": [{"var": "id"}, "xyz"]}, "postfix", "none"]}]}
            """

        @Test(
            "Prefix wins over suffix, as in flagd-testbed's string.feature",
            arguments: [("abcdef", "prefix"), ("uvwxyz", "postfix"), ("abcxyz", "prefix"), ("lmnopq", "none")])
        func prefixAndSuffix(_ id: String, _ expected: String) throws {
            let rule = try EvaluationTests.rule(Self.startsEnds)
            #expect(rule.evaluate(context: ["id": .string(id)], flagKey: "starts-ends-flag") == .string(expected))
        }

        @Test("Non-string operands evaluate to null, not false")
        func nonStrings() throws {
            let starts = try EvaluationTests.rule(#"{"starts_with": [{"var": "num"}, "abc"]}"#)
            let ends = try EvaluationTests.rule(#"{"ends_with": [{"var": "num"}, "xyz"]}"#)
            #expect(starts.evaluate(context: ["num": 123], flagKey: "f") == .null)
            #expect(ends.evaluate(context: ["num": 123], flagKey: "f") == .null)
            #expect(starts.evaluate(context: .empty, flagKey: "f") == .null)
        }

        @Test("A wrong argument count compiles with a warning and evaluates to null")
        func wrongArgumentCount() throws {
            for text in [#"{"starts_with": ["abc"]}"#, #"{"ends_with": ["xyz"]}"#] {
                let compilation = TargetingRule.compile(try EvaluationTests.json(text))
                #expect(compilation.problems.map(\.severity) == [.warning], "\(text)")
                #expect(compilation.rule?.evaluate(context: .empty, flagKey: "f") == .null, "\(text)")
            }
        }

        @Test("Matching is by code units: case, accents and empty affixes")
        func exactMatching() throws {
            let starts = try EvaluationTests.rule(#"{"starts_with": [{"var": "s"}, {"var": "p"}]}"#)
            let ends = try EvaluationTests.rule(#"{"ends_with": [{"var": "s"}, {"var": "p"}]}"#)
            #expect(starts.evaluate(context: ["s": "Abc", "p": "abc"], flagKey: "f") == false)
            #expect(starts.evaluate(context: ["s": "été", "p": "ét"], flagKey: "f") == true)
            #expect(ends.evaluate(context: ["s": "café", "p": "é"], flagKey: "f") == true)
            #expect(ends.evaluate(context: ["s": "ab", "p": "abc"], flagKey: "f") == false)
            #expect(starts.evaluate(context: ["s": "abc", "p": ""], flagKey: "f") == true)
            #expect(
                ends.evaluate(context: ["s": "admin@bforbank.example", "p": "@bforbank.example"], flagKey: "f") == true)
        }
    }
}
