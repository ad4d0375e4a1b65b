import Ensign
import EnsignJSON
import EnsignOFREP
import Testing

@Suite("OFREP evaluation request")
struct OFREPEvaluationRequestTests {
    @Test("A request reads back as the same context, targeting key apart from the attributes")
    func roundTrip() throws {
        let request = OFREPEvaluationRequest(
            evaluationContext: EvaluationContext(targetingKey: "user-1", attributes: ["plan": "pro", "age": 42]))
        #expect(request.jsonText == #"{"context":{"age":42,"plan":"pro","targetingKey":"user-1"}}"#)
        let read = try OFREPEvaluationRequest(jsonText: request.jsonText)
        #expect(read == request)
        #expect(read.evaluationContext.targetingKey == "user-1")
        #expect(read.evaluationContext.attributes == ["plan": "pro", "age": 42])
    }

    @Test("A context without a targeting key, and a body without a context, are the empty context")
    func anonymous() throws {
        #expect(try OFREPEvaluationRequest(jsonText: #"{"context": {}}"#).evaluationContext == .empty)
        // What OpenFeature's Python provider sends when there is no evaluation context.
        #expect(try OFREPEvaluationRequest(jsonText: "{}").evaluationContext == .empty)
    }

    @Test(
        "Bodies that are not evaluation requests are refused with the path of the problem",
        arguments: [
            ("", "the body is not JSON"),
            ("[]", "expected an object, found an array"),
            (#"{"context": 3}"#, "context: expected an object, found the number 3"),
            (#"{"context": {"targetingKey": 7}}"#, "context.targetingKey: expected a string, found the number 7"),
            (#"{"context": {}} x"#, "the body is not JSON"),
        ])
    func rejects(text: String, expected: String) {
        expectRefusal(of: text, startingWith: expected) { try OFREPEvaluationRequest(jsonText: $0) }
    }
}
