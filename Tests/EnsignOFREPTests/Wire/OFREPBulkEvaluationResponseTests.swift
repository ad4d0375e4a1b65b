import Ensign
import EnsignJSON
import EnsignOFREP
import Testing

@Suite("OFREP bulk evaluation response")
struct OFREPBulkEvaluationResponseTests {
    static let sample = OFREPBulkEvaluationResponse(
        flags: [
            .success(OFREPEvaluationSuccess(key: "banner", value: true, reason: "TARGETING_MATCH", variant: "on")),
            .success(OFREPEvaluationSuccess(key: "deferred", value: nil, reason: "DEFAULT")),
            .failure(OFREPEvaluationFailure(key: "broken", errorCode: .parseError, errorDetails: "bad rule")),
        ],
        metadata: ["version": "v12"],
        eventStreams: [
            OFREPEventStream(type: "sse", endpoint: .init(requestUri: "/ofrep/v1/events"), inactivityDelaySec: 120),
            OFREPEventStream(type: "sse", url: "https://sse.example.com/stream?channel=a"),
        ])

    @Test("A response with successes, a code default, a failure and event streams reads back as itself")
    func roundTrip() throws {
        let read = try OFREPBulkEvaluationResponse(jsonBytes: Array(Self.sample.jsonText.utf8))
        #expect(read == Self.sample)
        #expect(read.flags.map(\.key) == ["banner", "deferred", "broken"])
    }

    @Test("The specification's own example reads, its unknown stream type kept for the client to ignore")
    func specificationExample() throws {
        let text = """
            {"flags": [{"key": "discount-banner", "value": true, "reason": "TARGETING_MATCH", "variant": "enabled"},
                       {"key": "theme-color", "value": "blue", "reason": "STATIC", "variant": "default"},
                       {"key": "non-existent-flag", "errorCode": "FLAG_NOT_FOUND", "errorDetails": "Flag 'non-existent-flag' was not found"}],
             "eventStreams": [{"type": "sse", "url": "https://sse.example.com/event-stream?channels=env_abc123_v1", "inactivityDelaySec": 120},
                              {"type": "websocket", "somewhere": 1}],
             "metadata": {"version": "v12"}, "somethingNew": {}}
            """
        let read = try OFREPBulkEvaluationResponse(jsonBytes: Array(text.utf8))
        #expect(read.flags.count == 3)
        guard case .failure(let failure) = read.flags[2] else {
            Issue.record("the third flag should be a failure")
            return
        }
        #expect(failure.errorCode == .flagNotFound)
        #expect(read.eventStreams.map(\.type) == ["sse", "websocket"])
        #expect(read.eventStreams[0].inactivityDelaySec == 120)
    }

    @Test(
        "Malformed responses are refused with the path of the bad item",
        arguments: [
            ("{}", "flags: missing"),
            (#"{"flags": {}}"#, "flags: expected an array"),
            (#"{"flags": [3]}"#, "flags[0]: expected an object"),
            (#"{"flags": [{"key": "a", "reason": "STATIC"}, {"key": "b"}]}"#, "flags[1].reason: missing"),
            (
                #"{"flags": [{"key": "a", "reason": "STATIC"}, {"key": "a", "reason": "STATIC"}]}"#,
                "flags[1].key: 'a' appears twice"
            ),
            (#"{"flags": [], "eventStreams": [{"type": "sse"}]}"#, "eventStreams[0]: an sse entry needs exactly one"),
            (
                #"{"flags": [], "eventStreams": [{"type": "sse", "endpoint": {"requestUri": "x"}}]}"#,
                "eventStreams[0].endpoint.requestUri: must start with '/'"
            ),
            (
                #"{"flags": [], "eventStreams": [{"type": "sse", "url": "u", "inactivityDelaySec": 0}]}"#,
                "eventStreams[0].inactivityDelaySec: must be at least 1"
            ),
            (#"{"flags": [], "metadata": {"a": null}}"#, "metadata.a: expected a Boolean"),
        ])
    func rejects(text: String, expected: String) {
        expectRefusal(of: text, startingWith: expected) { try OFREPBulkEvaluationResponse(jsonBytes: Array($0.utf8)) }
    }

    @Test("A bulk failure and a general error read back as themselves")
    func errorBodies() throws {
        let failure = OFREPBulkEvaluationFailure(errorCode: .invalidContext, errorDetails: "context: missing")
        #expect(try OFREPBulkEvaluationFailure(jsonBytes: Array(failure.jsonText.utf8)) == failure)
        let general = OFREPGeneralError(errorDetails: "missing bearer token")
        #expect(try OFREPGeneralError(jsonBytes: Array(general.jsonText.utf8)) == general)
        #expect(throws: OFREPWireError(path: "errorCode", message: "missing")) {
            try OFREPBulkEvaluationFailure(jsonBytes: Array("{}".utf8))
        }
    }
}
