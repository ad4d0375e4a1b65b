import EnsignTestSupport
import Testing

@testable import Ensign

extension EvaluationTests {
    /// The Go conversions flagd's evaluator applies, checked against Go 1.19's `strconv`.
    @Suite("Go number semantics")
    struct GoSemanticsTests {
        @Test(
            "Text reads as a number as Go's strconv.ParseFloat reads it",
            arguments: [
                ("1_000", 1000.0), ("1_0.5", 10.5), ("0x1p4", 16), ("0x_1p0", 1), ("0x1.8p1", 3), ("Inf", .infinity),
                ("+inf", .infinity), ("-Infinity", -.infinity), ("1e400", .infinity), ("1e-400", 0), ("1.", 1),
                (".5", 0.5), ("+.5e1", 5), ("1e1_0", 1e10),
            ] as [(String, Double)])
        func parseFloat(_ text: String, _ number: Double) {
            #expect(GoNumberText.parseFloat(text) == number)
        }

        @Test(
            "Text Go does not read as a number",
            arguments: [
                "0x10", " 5", "5 ", "-nan", ".", "1__0", "_1", "1_", "1e_10", "", "+", "1e", "1e+", "0x1p", "abc",
                "infin",
            ])
        func notANumber(_ text: String) {
            #expect(GoNumberText.parseFloat(text) == nil)
        }

        @Test("Text is refused by its first byte only when Go cannot read it as a number")
        func firstByteShortcut() {
            var generator = SplitMix64(seed: 16)
            let alphabet = Array("019+-._xXpPeEiInNfFaAtyc é")
            var components = [
                "country", "1", "-2", "+3", ".5", "inf", "-Inf", "nan", "NaN", "Infinity", "0x1p2", "1_0",
            ]
            for _ in 0..<3_000 {
                let length = Int.random(in: 0...6, using: &generator)
                components.append(String((0..<length).map { _ in alphabet.randomElement(using: &generator)! }))
            }
            for component in components {
                let (quick, full) = (GoNumberText.parseFloat(component), GoNumberText.parseFloatFully(component))
                #expect(quick == full || (quick?.isNaN == true && full?.isNaN == true), "\(component)")
            }
        }

        @Test("nan reads as NaN")
        func nan() {
            #expect(GoNumberText.parseFloat("nan")?.isNaN == true)
            #expect(GoNumberText.parseFloat("NaN")?.isNaN == true)
        }

        @Test(
            "Numbers print in fixed notation as Go's FormatFloat(x, 'f', -1, 64)",
            arguments: [
                (1e21, "1000000000000000000000"), (1e-7, "0.0000001"), (-0.0, "-0"), (0.0, "0"), (1.5, "1.5"),
                (-2.25, "-2.25"), (123456789.0, "123456789"), (.infinity, "+Inf"), (-.infinity, "-Inf"),
                (0.30000000000000004, "0.30000000000000004"),
            ])
        func fixedText(_ value: Double, _ text: String) {
            #expect(GoNumberText.fixedText(for: value) == text)
        }

        @Test("Go converts out-of-range doubles to Int.min, as amd64 does")
        func integerConversion() {
            #expect(GoJsonLogic.integer(-2.7) == -2)
            #expect(GoJsonLogic.integer(.nan) == .min)
            #expect(GoJsonLogic.integer(1e30) == .min)
            #expect(GoJsonLogic.integer(-1e30) == .min)
        }

        @Test("Arithmetic fails on null, booleans, arrays and objects, and reads text that is no number as 0")
        func arithmeticOperands() throws {
            #expect(try GoJsonLogic.number("abc", for: "+") == 0)
            #expect(try GoJsonLogic.number("2.5", for: "+") == 2.5)
            for value: JSONValue in [.null, true, [1], ["a": 1]] {
                #expect(throws: EvaluationFailure.self) { try GoJsonLogic.number(value, for: "+") }
            }
        }
    }
}
