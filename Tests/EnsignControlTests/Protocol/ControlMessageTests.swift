import Ensign
import EnsignControl
import Testing

@Suite("Control replies and events: encoding and parsing")
struct ControlMessageTests {
    @Test("A success reply carries ok, the id and the result, and parses back")
    func successReply() throws {
        let reply = ControlReply(id: .number(4), outcome: .success(["removed": ["a.b"]]))
        #expect(reply.json.jsonText == #"{"id":4,"ok":true,"result":{"removed":["a.b"]}}"#)
        #expect(try ControlMessage.parse(line: Array(reply.json.jsonText.utf8)) == .reply(reply))
    }

    @Test("An error reply carries the code and the message, and parses back")
    func errorReply() throws {
        let reply = ControlReply(id: .string("x"), outcome: .failure(ControlError(.forbidden, "no writes")))
        #expect(
            reply.json.jsonText == #"{"error":{"code":"FORBIDDEN","message":"no writes"},"id":"x","ok":false}"#)
        #expect(try ControlMessage.parse(line: Array(reply.json.jsonText.utf8)) == .reply(reply))
    }

    @Test("A dropped notice says which watch and how many events")
    func droppedEvent() throws {
        let event = ControlEvent.dropped(watch: .number(3), count: 17)
        #expect(event.json.jsonText == #"{"count":17,"event":"dropped","id":3}"#)
        #expect(try ControlMessage.parse(line: Array(event.json.jsonText.utf8)) == .event(event))
    }

    @Test("A reply with an error code this client does not know is a protocol error")
    func unknownErrorCode() {
        #expect(throws: ControlError.self) {
            try ControlMessage.parse(line: Array(#"{"id":1,"ok":false,"error":{"code":"NEW","message":""}}"#.utf8))
        }
    }
}
