import Testing

@testable import EnsignHTTP

@Suite("Server-sent event parsing")
struct ServerSentEventParserTests {
    /// A stream with every kind of line: fields, comments, CR, LF and CRLF ends, multi-line
    /// data, an empty data line, an event with no data, a leading byte-order mark.
    static let stream = Array(
        ("\u{FEFF}id: evt-1\r\nevent: message\r\ndata: {\"type\": \"refetchEvaluation\"}\r\n\r\n"
            + ": keep-alive\n\nretry: 2500\ndata: first\ndata:\ndata:  third\n\n"
            + "event: ping\n\nid\rdata:x\r\rdata: cut off").utf8)
    static let expected = [
        ServerSentEvent(type: "message", data: "{\"type\": \"refetchEvaluation\"}", lastEventID: "evt-1"),
        ServerSentEvent(type: "message", data: "first\n\n third", lastEventID: "evt-1"),
        ServerSentEvent(type: "message", data: "x", lastEventID: ""),
    ]

    private func parse(_ bytes: [UInt8], pieces size: Int) throws -> ([ServerSentEvent], ServerSentEventParser) {
        var parser = ServerSentEventParser()
        var events: [ServerSentEvent] = []
        var start = 0
        while start < bytes.count {
            let end = min(start + size, bytes.count)
            events += try parser.feed(bytes[start..<end])
            start = end
        }
        return (events, parser)
    }

    @Test("Fields, comments, line ends and multi-line data give the events the format defines")
    func wholeStream() throws {
        let (events, parser) = try parse(Self.stream, pieces: Self.stream.count)
        #expect(events == Self.expected)
        #expect(parser.retry == 2500)
        #expect(parser.lastEventID == "", "a bare 'id' line clears the last event ID")
    }

    @Test("The events are the same however the bytes are cut, a CR LF split between pieces included")
    func cutInvariant() throws {
        for size in 1...17 {
            let (events, parser) = try parse(Self.stream, pieces: size)
            #expect(events == Self.expected, "cut in pieces of \(size)")
            #expect(parser.retry == 2500)
        }
        var parser = ServerSentEventParser()
        #expect(try parser.feed(Array("data: a\r".utf8)).isEmpty)
        #expect(try parser.feed(Array("\n".utf8)).isEmpty, "the LF after a CR ends no second line")
        #expect(try parser.feed(Array("\n".utf8)) == [ServerSentEvent(data: "a")])
    }

    @Test("A byte-order mark is skipped only at the very start, and a partial one is kept as text")
    func byteOrderMark() throws {
        var parser = ServerSentEventParser()
        #expect(try parser.feed([0xEF]).isEmpty)
        #expect(try parser.feed([0xBB, 0xBF] + Array("data: a\n\n".utf8)) == [ServerSentEvent(data: "a")])
        var second = ServerSentEventParser()
        let late = try second.feed(Array("data: a\n\n\u{FEFF}data: b\n\n".utf8))
        #expect(late == [ServerSentEvent(data: "a")], "a mark later on makes the field name unknown")
    }

    @Test("A line or event data past the limits ends the stream with an error")
    func bounded() throws {
        var lines = ServerSentEventParser(maximumLineLength: 16, maximumDataLength: 64)
        #expect(throws: ServerSentEventError.tooLarge("line", limit: 16)) {
            _ = try lines.feed(Array(repeating: UInt8(ascii: "a"), count: 17))
        }
        var data = ServerSentEventParser(maximumLineLength: 16, maximumDataLength: 20)
        #expect(throws: ServerSentEventError.tooLarge("event data", limit: 20)) {
            _ = try data.feed(Array("data: 0123456789\ndata: 0123456789\n".utf8))
        }
    }

    @Test("A retry that is not all digits and an id with a NUL are ignored")
    func ignoredValues() throws {
        var parser = ServerSentEventParser()
        _ = try parser.feed(Array("retry: 100\nretry: 1x\nid: a\0b\nid: ok\ndata: d\n\n".utf8))
        #expect(parser.retry == 100)
        #expect(parser.lastEventID == "ok")
    }
}
