import Ensign
import EnsignJSON
import EnsignOFREP
import Testing

@Suite("OFREP evaluation success and failure")
struct OFREPEvaluationResultTests {
    @Test("A success with every member reads back as itself")
    func successRoundTrip() throws {
        let success = OFREPEvaluationSuccess(
            key: "color", value: .object(["hex": "#fff"]), reason: "TARGETING_MATCH", variant: "white",
            metadata: ["team": "web", "version": 3, "beta": true])
        let read = try OFREPEvaluationSuccess(jsonBytes: Array(success.jsonText.utf8))
        #expect(read == success)
    }

    @Test("A code-default success leaves the value out, and reads back without one (ADR 0006)")
    func codeDefault() throws {
        let success = OFREPEvaluationSuccess(key: "new-feature", value: nil, reason: "DEFAULT", variant: "control")
        #expect(success.jsonText == #"{"key":"new-feature","reason":"DEFAULT","variant":"control"}"#)
        // No variant either: the member is left out (the schema's variant is a string when present)…
        let bare = OFREPEvaluationSuccess(key: "f", value: nil, reason: "DISABLED")
        #expect(bare.jsonText == #"{"key":"f","reason":"DISABLED"}"#)
        #expect(try OFREPEvaluationSuccess(jsonBytes: Array(bare.jsonText.utf8)) == bare)
        // …or null, for clients that read it unconditionally; both read back as no variant.
        let nullVariant = OFREPEvaluationSuccess(key: "f", value: nil, reason: "DISABLED", writesNullVariant: true)
        #expect(nullVariant.jsonText == #"{"key":"f","reason":"DISABLED","variant":null}"#)
        #expect(try OFREPEvaluationSuccess(jsonBytes: Array(nullVariant.jsonText.utf8)) == bare)
        let read = try OFREPEvaluationSuccess(jsonBytes: Array(success.jsonText.utf8))
        #expect(read.value == nil)
        #expect(read == success)
    }

    @Test("Integers and doubles keep their kind through a round trip")
    func numbers() throws {
        for value: JSONValue in [.int(3), .double(2.5), .double(2.0)] {
            let success = OFREPEvaluationSuccess(key: "n", value: value, reason: "STATIC")
            #expect(try OFREPEvaluationSuccess(jsonBytes: Array(success.jsonText.utf8)).value == value)
        }
    }

    @Test("A failure reads back as itself")
    func failureRoundTrip() throws {
        let failure = OFREPEvaluationFailure(
            key: "broken", errorCode: .parseError, errorDetails: "flags.json:3:5: no such variant", metadata: ["a": 1])
        #expect(try OFREPEvaluationFailure(jsonBytes: Array(failure.jsonText.utf8)) == failure)
    }

    @Test(
        "Malformed successes are refused with the member's path",
        arguments: [
            (#"{"reason": "STATIC", "value": 1}"#, "key: missing"),
            (#"{"key": "a", "value": 1}"#, "reason: missing"),
            (#"{"key": "a", "reason": "STATIC", "value": null}"#, "value: null is not a flag value"),
            (#"{"key": "a", "reason": "STATIC", "variant": 2}"#, "variant: expected a string"),
            (#"{"key": "a", "reason": "STATIC", "metadata": {"x": [1]}}"#, "metadata.x: expected a Boolean"),
            (#"{"key": "a", "reason": "STATIC", "metadata": 5}"#, "metadata: expected an object"),
        ])
    func successRejects(text: String, expected: String) {
        expectRefusal(of: text, startingWith: expected) { try OFREPEvaluationSuccess(jsonBytes: Array($0.utf8)) }
    }

    @Test("A failure without an error code or key is refused")
    func failureRejects() {
        #expect(throws: OFREPWireError(path: "errorCode", message: "missing")) {
            try OFREPEvaluationFailure(jsonBytes: Array(#"{"key": "a"}"#.utf8))
        }
        #expect(throws: OFREPWireError(path: "key", message: "missing")) {
            try OFREPEvaluationFailure(jsonBytes: Array(#"{"errorCode": "GENERAL"}"#.utf8))
        }
    }
}
