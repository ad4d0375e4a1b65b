import Testing

@testable import Ensign

extension EvaluationTests {
    /// Text inside operators is compared by Unicode scalars, as flagd compares it, never by
    /// Swift's canonical equivalence (`Sources/Ensign/Ensign.docc/FlagdSemantics.md`, “Text is
    /// compared exactly”; expected values recorded from flagd's Go evaluator).
    @Suite("Operators compare text exactly")
    struct ExactComparisonTests {
        // The same été the flag data tests use.
        static let nfc = ExactMatchingTests.composed
        static let nfd = ExactMatchingTests.decomposed

        @Test("The precomposed and decomposed été are canonically equivalent in Swift, and differ here")
        func swiftDisagrees() {
            #expect(Self.nfc == Self.nfd)
            #expect(!JavaScript.haveSameScalars(Self.nfc, Self.nfd))
        }

        @Test(
            "Equality, in, starts_with and ends_with compare scalars",
            arguments: [
                (#"{"==": [{"var": "a"}, {"var": "b"}]}"#, false), (#"{"!=": [{"var": "a"}, {"var": "b"}]}"#, true),
                (#"{"===": [{"var": "a"}, {"var": "b"}]}"#, false), (#"{"!==": [{"var": "a"}, {"var": "b"}]}"#, true),
                (#"{"==": [{"var": "a"}, {"var": "a"}]}"#, true),
                (#"{"in": [{"var": "a"}, {"cat": ["x", {"var": "b"}]}]}"#, false),
                (#"{"in": [{"var": "a"}, [{"var": "b"}]]}"#, false), (#"{"in": [{"var": "a"}, [{"var": "a"}]]}"#, true),
                (#"{"starts_with": [{"var": "b"}, "\u00e9"]}"#, false),
                (#"{"ends_with": [{"var": "b"}, "\u00e9"]}"#, false),
                (#"{"starts_with": [{"var": "a"}, "\u00e9"]}"#, true),
                (#"{"ends_with": [{"var": "b"}, "e\u0301"]}"#, true),
            ])
        func scalars(_ rule: String, _ expected: Bool) throws {
            let data: JSONValue = ["a": .string(Self.nfc), "b": .string(Self.nfd)]
            #expect(try EvaluationTests.rule(rule).result(data: data).get() == .bool(expected))
        }

        @Test("A literal array of texts is matched exactly too")
        func literalArrays() throws {
            let rule = try EvaluationTests.rule(#"{"in": [{"var": "a"}, ["\u00e9t\u00e9", "x"]]}"#)
            #expect(rule.evaluate(data: ["a": .string(Self.nfc)]) == true)
            #expect(rule.evaluate(data: ["a": .string(Self.nfd)]) == false)
        }

        @Test(
            "< and <= order text by code points, as flagd does (json-logic-js orders UTF-16 code units)",
            arguments: [
                (#"{"<": ["\uffff", "😀"]}"#, true), (#"{"<=": ["😀", "\uffff"]}"#, false),
                (#"{"<": ["e\u0301t\u0301", "f"]}"#, true), (#"{"<": ["\u00e9t\u00e9", "f"]}"#, false),
                (#"{"<": ["e", "E"]}"#, false), (#"{">": ["😀", "\uffff"]}"#, true),
            ])
        func ordering(_ rule: String, _ expected: Bool) throws {
            #expect(try EvaluationTests.rule(rule).result(data: .null).get() == .bool(expected))
        }

        @Test("var finds a member only by its exact name")
        func variableNames() throws {
            #expect(try EvaluationTests.rule(#"{"var": "\u00e9t\u00e9"}"#).evaluate(data: [Self.nfd: 1]) == .null)
            #expect(try EvaluationTests.rule(#"{"var": "\u00e9t\u00e9"}"#).evaluate(data: [Self.nfc: 1]) == 1)
            // The Kelvin sign U+212A is canonically equivalent to K.
            #expect(try EvaluationTests.rule(#"{"var": "\u212a"}"#).evaluate(data: ["K": 1]) == .null)
            let context = EvaluationContext(json: ["targeting\u{212A}ey": "u1"])
            #expect(context.targetingKey == nil)
            #expect(
                try EvaluationTests.rule(#"{"var": "targetingKey"}"#).evaluate(context: context, flagKey: "f") == .null)
            #expect(
                try EvaluationTests.rule(#"{"fractional": [["a", 1]]}"#).evaluate(context: context, flagKey: "f")
                    == .null)
        }

        @Test("An operator or evaluator name is matched exactly")
        func names() throws {
            let kelvin = TargetingRule.compile(try EvaluationTests.json(#"{"\u212aey": 1}"#))
            #expect(kelvin.problems.map(\.severity) == [.error])
            let reference = TargetingRule.compile(
                try EvaluationTests.json(#"{"$ref": "\u00e9t\u00e9"}"#), evaluators: [Self.nfd: true])
            #expect(reference.problems.map(\.severity) == [.error])
        }

        @Test(
            "sem_ver matches its comparison exactly and writes numbers as flagd does",
            arguments: [
                (#"{"sem_ver": ["1.0.0", "\uff1d", "1.0.0"]}"#, JSONValue.null),
                (#"{"sem_ver": [1.2, "=", "1.2.0"]}"#, true),
                (#"{"sem_ver": [100000, "=", "100000.0.0"]}"#, true),
                (#"{"sem_ver": [1000000, "=", "1000000.0.0"]}"#, .null),
                (#"{"sem_ver": ["1.0.0-K", "=", "1.0.0-\u212a"]}"#, .null),
            ])
        func semanticVersions(_ rule: String, _ expected: JSONValue) throws {
            #expect(try EvaluationTests.rule(rule).result(data: .null).get() == expected)
        }

        @Test(
            "Numbers become versions as Go's %v writes them",
            arguments: [
                (1e6, "1e+06"), (123456, "123456"), (1_234_567, "1.234567e+06"), (1e20, "1e+20"), (1.5, "1.5"),
                (0.0001, "0.0001"), (1e-5, "1e-05"), (2, "2"),
            ])
        func shortestText(_ value: Double, _ text: String) {
            #expect(GoNumberText.shortestText(for: value) == text)
        }
    }
}
