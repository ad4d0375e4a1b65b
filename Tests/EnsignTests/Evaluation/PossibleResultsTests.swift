import Ensign
import Testing

extension EvaluationTests {
    @Suite("Possible string results")
    struct PossibleResultsTests {
        @Test("if branches and fractional variants are listed with their paths; conditions are not")
        func branchesAndVariants() throws {
            let rule = try EvaluationTests.rule(
                """
                {"if": [{"in": [{"var": "country"}, ["FR", "BE"]]}, "on",
                  {"fractional": [["on", 25], ["off", 75]]}]}
                """)
            let results = rule.possibleStringResults
            #expect(results.map(\.value) == ["on", "on", "off"])
            #expect(
                results.map(\.path) == [["if", 1], ["if", 2, "fractional", 0, 0], ["if", 2, "fractional", 1, 0]])
            #expect(!rule.canReturnComputedStrings)
        }

        @Test("Every if in a chain, and every and/or operand, can be the result")
        func chainsAndLogic() throws {
            let rule = try EvaluationTests.rule(
                #"{"if": [{"var": "a"}, "one", {"var": "b"}, "two", {"or": ["three", {"and": [true, "four"]}]}]}"#)
            #expect(rule.possibleStringResults.map(\.value) == ["one", "two", "three", "four"])
        }

        @Test("Computed strings are flagged, not guessed; constant expressions are folded")
        func computedAndFolded() throws {
            let computed = try EvaluationTests.rule(#"{"if": [true, {"var": "variant"}, "off"]}"#)
            #expect(computed.possibleStringResults.map(\.value) == ["off"])
            #expect(computed.canReturnComputedStrings)

            let folded = try EvaluationTests.rule(#"{"if": [true, {"cat": ["o", "n"]}, null]}"#)
            #expect(folded.possibleStringResults.map(\.value) == ["on"])
            #expect(folded.possibleStringResults.first?.path == ["if", 1, "cat"])
            #expect(!folded.canReturnComputedStrings)

            let fallback = try EvaluationTests.rule(#"{"var": ["variant", "off"]}"#)
            #expect(fallback.possibleStringResults.map(\.value) == ["off"])
            #expect(fallback.canReturnComputedStrings)
        }

        @Test("Non-string results such as booleans, numbers and comparisons list nothing")
        func nonStrings() throws {
            let rule = try EvaluationTests.rule(#"{"if": [{"==": [{"var": "a"}, "x"]}, true, 3]}"#)
            #expect(rule.possibleStringResults.isEmpty)
            #expect(!rule.canReturnComputedStrings)
        }
    }
}
