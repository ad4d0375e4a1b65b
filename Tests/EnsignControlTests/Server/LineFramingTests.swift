import Ensign
import EnsignJSON
import EnsignTestTraits
import Foundation
import Testing

@testable import EnsignControl

/// How the server cuts a client's bytes into request lines while its replies back up: found
/// by the `session` fuzz target, whose oracle counts one reply per request line.
@Suite("Control server line framing under back-pressure")
struct LineFramingTests {
    /// `count` list requests, one per line, with ids from `first`.
    private static func listRequests(_ count: Int, from first: Int = 0) -> [UInt8] {
        Array((first..<first + count).map { #"{"id":\#($0),"op":"list"}"# + "\n" }.joined().utf8)
    }

    /// A session over the fixtures' context.
    private static func session() throws -> DetachedServerSession {
        var options = ControlServerOptions(appName: "testapp")
        options.log = { _ in }
        return try DetachedServerSession(context: ControlFixtures.context(), options: options)
    }

    /// The replies and events in `output`, in order.
    private static func messages(_ output: [UInt8]) throws -> [JSONValue] {
        try output.split(separator: 0x0A).map { try JSONValue(jsonBytes: Array($0)) }
    }

    /// Collects everything the session sends until it has nothing more to say.
    private static func drain(_ session: DetachedServerSession) -> [UInt8] {
        var output: [UInt8] = []
        while true {
            let more = session.takeOutput()
            if more.isEmpty { return output }
            output += more
        }
    }

    @Test("Requests sent before the client closes its side each get their own reply, however far replies back up")
    func pipelinedRequestsBeforeHalfClose() throws {
        let harness = try ServerHarness()
        let raw = try harness.raw()
        // Each list reply is far longer than its request: 400 of them back up well past the
        // server's 64 KiB of pending output before the client reads anything.
        try raw.send(Self.listRequests(400))
        shutdown(raw.channel.descriptor, Int32(SHUT_WR))
        var ids: [JSONValue] = []
        // The server closes the connection once every reply is sent, which ends the loop.
        while let reply = try? raw.receive(timeout: .seconds(10)) { ids.append(reply["id"] ?? .null) }
        #expect(ids == (0..<400).map { JSONValue.int($0) })
    }

    @Test("Requests pipelined by a client that then only waits are all answered, not just those before a backlog")
    func pipelinedRequestsThenWait() throws {
        let harness = try ServerHarness()
        let raw = try harness.raw()
        try raw.send(Self.listRequests(400))
        var ids: [JSONValue] = []
        for _ in 0..<400 {
            guard let reply = try raw.receive(timeout: .seconds(10)) else { break }
            ids.append(reply["id"] ?? .null)
        }
        #expect(ids == (0..<400).map { JSONValue.int($0) })
    }

    @Test("Short requests held back while replies back up are never taken for an over-long line", .blocksItsThread)
    func heldBackLinesAreNotOverLong() throws {
        let session = try Self.session()
        let requests = Self.listRequests(6000)
        var output: [UInt8] = []
        var offset = 0
        // A client that keeps sending full reads and collects only when the server stops reading.
        while offset < requests.count {
            if !session.acceptsInput { output += session.takeOutput() }
            let end = min(requests.count, offset + DetachedServerSession.maximumReadSize)
            #expect(session.receive(requests[offset..<end]))
            offset = end
            output += session.takeOutput()
        }
        #expect(session.receiveEnd())
        output += Self.drain(session)
        let replies = try Self.messages(output)
        #expect(!replies.contains { $0["error"]?["code"] == "TOO_LARGE" })
        #expect(replies.map { $0["id"] ?? .null } == (0..<6000).map { JSONValue.int($0) })
    }

    @Test("A request of exactly 64 KiB is answered when its CR and LF arrive in later reads")
    func fullLengthLineWithCRLFInLaterReads() throws {
        let session = try Self.session()
        let request = Array(#"{"id":1,"op":"status"}"#.utf8)
        let line = request + [UInt8](repeating: 0x20, count: ControlProtocol.maximumLineLength - request.count)
        #expect(session.receive(line[...]))
        #expect(session.receive([0x0D][...]))
        #expect(session.receive([0x0A][...]))
        #expect(session.receiveEnd())
        let replies = try Self.messages(Self.drain(session))
        #expect(replies.count == 1)
        #expect(replies.first?["id"] == 1)
        #expect(replies.first?["ok"] == true)
    }

    @Test("A line still arriving past 64 KiB gets TOO_LARGE and ends the reading")
    func overLongPartialLine() throws {
        let session = try Self.session()
        #expect(session.receive(Self.listRequests(1)[...]))
        let long = [UInt8](repeating: 0x61, count: DetachedServerSession.maximumReadSize)
        #expect(session.receive(long[...]))
        #expect(session.receive(long[..<2]))
        #expect(session.isReadClosed)
        let replies = try Self.messages(Self.drain(session))
        #expect(replies.count == 2)
        #expect(replies.last?["error"]?["code"] == "TOO_LARGE")
        #expect(replies.last?["id"] == .null)
    }
}
