import Ensign
import EnsignJSON
import EnsignOFREP
import Testing

@Suite("OFREP configuration and server-sent events")
struct OFREPEventTests {
    @Test("A configuration reads back as itself; an empty one means polling with unknown types")
    func configuration() throws {
        let configuration = OFREPConfigurationResponse(
            name: "Ensign", isPollingEnabled: true, minimumPollingIntervalMilliseconds: 1000,
            supportedTypes: ["boolean", "string"])
        #expect(try OFREPConfigurationResponse(jsonBytes: Array(configuration.jsonText.utf8)) == configuration)
        let empty = try OFREPConfigurationResponse(jsonBytes: Array("{}".utf8))
        #expect(empty.isPollingEnabled && empty.supportedTypes.isEmpty && empty.name == nil)
        #expect {
            try OFREPConfigurationResponse(
                jsonBytes: Array(#"{"capabilities": {"flagEvaluation": {"supportedTypes": [1]}}}"#.utf8))
        } throws: { error in
            "\(error)".hasPrefix("capabilities.flagEvaluation.supportedTypes[0]: expected a string")
        }
    }

    @Test("An event's wire text reads back as the same event")
    func streamTextRoundTrip() throws {
        let event = OFREPServerSentEvent(
            id: "7",
            data: OFREPEventData(
                type: OFREPEventData.refetchEvaluationType, etag: #""g7""#, lastModified: .seconds(1_771_622_898)),
            retryMilliseconds: 1000)
        #expect(event.streamText.hasSuffix("\n\n"))
        #expect(try OFREPServerSentEvent(streamText: event.streamText) == event)
        #expect(try OFREPServerSentEvent(json: event.json) == event)
    }

    @Test("The ADR's example event reads, with comments ignored and data lines joined")
    func specificationExample() throws {
        let text = """
            : a comment
            id: evt-1234
            event: message
            data: {"type": "refetchEvaluation",
            data:  "etag": "\\"abc123\\"", "lastModified": "2026-02-20T21:28:18Z"}
            """
        let event = try OFREPServerSentEvent(streamText: text)
        #expect(event.id == "evt-1234")
        #expect(event.data.type == "refetchEvaluation")
        #expect(event.data.etag == #""abc123""#)
        #expect(event.data.lastModified == .dateTime("2026-02-20T21:28:18Z"))
    }

    @Test(
        "Events without usable data are refused",
        arguments: [
            ("id: 1\nevent: message\n", "data: the event has no data field"),
            ("data: {}\n", "data.type: missing"),
            ("data: not json\n", "data: the body is not JSON"),
            (#"data: {"type": "refetchEvaluation", "lastModified": -1}"#, "data.lastModified: expected Unix seconds"),
        ])
    func rejects(text: String, expected: String) {
        expectRefusal(of: text, startingWith: expected) { try OFREPServerSentEvent(streamText: $0) }
    }
}
