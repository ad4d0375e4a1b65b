import Testing

@testable import Ensign

extension EvaluationTests {
    /// The JavaScript coercions json-logic-js inherits, beyond what its own suite covers.
    @Suite("JavaScript coercion semantics")
    struct JavaScriptSemanticsTests {
        @Test(
            "Numbers print as JavaScript prints them",
            arguments: [
                (1.0, "1"), (-0.0, "0"), (0.1, "0.1"), (1.5e-7, "1.5e-7"), (0.000001, "0.000001"), (1e21, "1e+21"),
                (1e20, "100000000000000000000"), (123456.789, "123456.789"), (-2.5, "-2.5"), (Double.nan, "NaN"),
                (Double.infinity, "Infinity"), (-Double.infinity, "-Infinity"),
                (Double.leastNonzeroMagnitude, "5e-324"),
                (1.7976931348623157e308, "1.7976931348623157e+308"),
            ])
        func numberText(_ value: Double, _ text: String) {
            #expect(JavaScriptNumberText.text(for: value) == text)
        }

        @Test(
            "Text converts to numbers as JavaScript's Number() does",
            arguments: [
                ("", 0.0), ("  42  ", 42), ("1e3", 1000), (".5", 0.5), ("5.", 5), ("0x1F", 31), ("0b101", 5),
                ("0o17", 15), ("-Infinity", -Double.infinity), ("+3", 3), ("\n\t7\u{A0}", 7),
            ])
        func stringToNumber(_ text: String, _ number: Double) {
            #expect(JavaScriptNumberText.number(from: text) == number)
        }

        @Test(
            "Text that is not a number converts to NaN",
            arguments: ["abc", "1px", "nan", "inf", "0x", "--1", "1e", "-0x5", "1_000"])
        func notANumber(_ text: String) {
            #expect(JavaScriptNumberText.number(from: text).isNaN)
        }

        @Test("parseFloat reads the leading number and ignores the rest")
        func parseFloat() {
            #expect(JavaScriptNumberText.parseFloat("3.5kg") == 3.5)
            #expect(JavaScriptNumberText.parseFloat("  -2e2x") == -200)
            #expect(JavaScriptNumberText.parseFloat("Infinityx") == .infinity)
            #expect(JavaScriptNumberText.parseFloat("0x10") == 0)
            #expect(JavaScriptNumberText.parseFloat("x1").isNaN)
            #expect(JSONValue.bool(true).javaScriptParseFloat.isNaN)
            #expect(JSONValue.array([7, 8]).javaScriptParseFloat == 7)
        }

        @Test("Loose equality follows JavaScript's == algorithm")
        func looseEquality() {
            #expect(JavaScript.looselyEqual(.null, .none))
            #expect(!JavaScript.looselyEqual(.null, 0))
            #expect(!JavaScript.looselyEqual(.null, false))
            #expect(JavaScript.looselyEqual([], false))
            #expect(JavaScript.looselyEqual([1, 2], "1,2"))
            #expect(JavaScript.looselyEqual(" 1 ", true))
            #expect(!JavaScript.looselyEqual(["a": 1], "[object Object]") == false)
            #expect(!JavaScript.looselyEqual([1], [1]))
            #expect(!JavaScript.looselyEqual(.double(.nan), .double(.nan)))
            #expect(!JavaScript.looselyEqual("e\u{301}", "\u{E9}"))
        }

        @Test("Strict equality needs the same type, except integers and doubles")
        func strictEquality() {
            #expect(JavaScript.strictlyEqual(1, 1.0))
            #expect(!JavaScript.strictlyEqual(1, "1"))
            #expect(!JavaScript.strictlyEqual(.null, .none))
            #expect(JavaScript.strictlyEqual(.none, .none))
        }

        @Test("Relational comparison uses code points for text (as flagd) and numbers otherwise")
        func relational() {
            #expect(JavaScript.isLess("10", "9", orEqual: false))
            #expect(!JavaScript.isLess("10", 9, orEqual: false))
            #expect(JavaScript.isLess(.null, 1, orEqual: false))
            #expect(!JavaScript.isLess(.none, 1, orEqual: false))
            #expect(!JavaScript.isLess("a", 1, orEqual: true))
            #expect(JavaScript.isLess([2], 3, orEqual: false))
            #expect(JavaScript.isLess("Z", "a", orEqual: false))
            #expect(JavaScript.isLess("\u{FF5E}", "\u{1F600}", orEqual: false))
        }

        @Test("Truthiness: empty arrays are false, empty objects and \"0\" are true")
        func truthiness() {
            let falsy: [JSONValue] = [.null, false, 0, 0.0, .double(.nan), "", []]
            let truthy: [JSONValue] = [true, 1, -0.5, "0", " ", [0], [:]]
            #expect(falsy.allSatisfy { !$0.isTruthy })
            #expect(truthy.allSatisfy { $0.isTruthy })
        }

        @Test("Operators outside json-logic-js's suite give what flagd's evaluator gives")
        func moreOperators() throws {
            let cases: [(String, JSONValue?)] = [
                (#"{"cat": [null, "a", 1.5, 1e21, " x"]}"#, "a1.51000000000000000000000 x"),
                (#"{"cat": [null, [1, null, [2, 3]], true]}"#, nil),
                (#"{"+": ["3.5", "1", 2]}"#, 6.5),
                (#"{"+": ["3.5kg", " 1", true]}"#, nil),
                (#"{"+": ["a", 1]}"#, 1),
                (#"{"*": ["2"]}"#, 2),
                (#"{"-": ["5"]}"#, -5),
                (#"{"%": [-7, 3]}"#, -1),
                (#"{"/": [1, 0]}"#, .double(.infinity)),
                (#"{"max": [1, "x"]}"#, 1),
                (#"{"in": ["", "a"]}"#, true),
                (#"{"in": [1, "a1"]}"#, nil),
                (#"{"in": [1, ["1"]]}"#, true),
                (#"{"in": [5, [[1, 10]]]}"#, true),
                (#"{"in": [1, [true]]}"#, nil),
                (#"{"all": [5, true]}"#, false),
                (#"{"none": [5, true]}"#, true),
                (#"{"reduce": [[1, 2], {"cat": [{"var": "accumulator"}, {"var": "current"}]}]}"#, 0),
                (#"{"reduce": [[1, 2], {"cat": [{"var": "accumulator"}, {"var": "current"}]}, ""]}"#, "12"),
                (#"{"reduce": [{"var": "x"}, {"var": "current"}, "init"]}"#, 0),
                (#"{"reduce": [[1, null, 2], {"+": [{"var": "accumulator"}, 1]}, 0]}"#, 2),
                (#"{"map": [[1, 2], null]}"#, [.null, .null]),
                (#"{"var": 1.5}"#, .null),
                (#"{"log": ["x"]}"#, "x"),
                (#"{"missing_some": [1, "a"]}"#, nil),
                (#"{"missing": ["a", "b"]}"#, ["a", "b"]),
            ]
            for (text, expected) in cases {
                let result = try EvaluationTests.rule(text).evaluate(data: .null)
                guard let expected else {
                    #expect(throws: TargetingEvaluationError.self, "\(text)") {
                        try EvaluationTests.rule(text).result(data: .null).get()
                    }
                    continue
                }
                #expect(
                    EvaluationTests.sameJSON(result, expected),
                    "\(text) → \(result.jsonText), expected \(expected.jsonText)")
            }
        }
    }
}
