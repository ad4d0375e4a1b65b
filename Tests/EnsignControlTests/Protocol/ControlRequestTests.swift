import Ensign
import EnsignControl
import EnsignTestSupport
import Testing

@Suite("Control requests: parsing and encoding")
struct ControlRequestTests {
    static let validLines: [(String, ControlRequest)] = [
        (
            #"{"id":1,"op":"hello","protocol":1,"client":"t"}"#,
            .init(id: .number(1), operation: .hello(protocolVersion: 1, client: "t"))
        ),
        (#"{"id":"a","op":"list"}"#, .init(id: .string("a"), operation: .list(prefix: nil))),
        (#"{"id":2,"op":"list","prefix":"b."}"#, .init(id: .number(2), operation: .list(prefix: "b."))),
        (#"{"id":3,"op":"get","key":"k.a"}"#, .init(id: .number(3), operation: .get(key: "k.a"))),
        (#"{"id":4,"op":"explain","key":"k.a"}"#, .init(id: .number(4), operation: .explain(key: "k.a"))),
        (
            #"{"id":5,"op":"set","key":"k.a","value":{"x":[1]},"persist":true}"#,
            .init(id: .number(5), operation: .set(key: "k.a", value: ["x": [1]], persist: true))
        ),
        (
            #"{"id":6,"op":"set","key":"k.a","value":null}"#,
            .init(id: .number(6), operation: .set(key: "k.a", value: .null, persist: false))
        ),
        (#"{"id":7,"op":"toggle","key":"k.a"}"#, .init(id: .number(7), operation: .toggle(key: "k.a"))),
        (#"{"id":8,"op":"reset","key":"k.a"}"#, .init(id: .number(8), operation: .reset(key: "k.a"))),
        (#"{"id":9,"op":"reset","all":true}"#, .init(id: .number(9), operation: .resetAll)),
        (
            #"{"id":10,"op":"watch","keys":["k.a","k.b"]}"#,
            .init(id: .number(10), operation: .watch(keys: ["k.a", "k.b"]))
        ),
        (#"{"id":11,"op":"watch"}"#, .init(id: .number(11), operation: .watch(keys: nil))),
        (#"{"id":12,"op":"stop"}"#, .init(id: .number(12), operation: .stop)),
        (#"{"id":13,"op":"log","limit":5}"#, .init(id: .number(13), operation: .log(limit: 5))),
        (#"{"op":"status"}"#, .init(id: .none, operation: .status)),
        (#"{"id":14,"op":"stats"}"#, .init(id: .number(14), operation: .stats(keys: nil))),
        (#"{"id":15,"op":"stats","keys":["k.a"]}"#, .init(id: .number(15), operation: .stats(keys: ["k.a"]))),
    ]

    @Test("Every operation parses from its wire form", arguments: validLines.indices)
    func parses(index: Int) throws {
        let (line, expected) = Self.validLines[index]
        #expect(try ControlRequest.parse(line: line) == expected)
    }

    @Test("A request's own line parses back to the same request", arguments: validLines.indices)
    func roundTrips(index: Int) throws {
        let request = Self.validLines[index].1
        #expect(try ControlRequest.parse(line: request.line) == request)
    }

    static let badLines: [(line: String, code: ControlErrorCode, mentions: String)] = [
        ("{\"id\":1,\"op\":", .badRequest, "malformed JSON"),
        ("not json at all", .badRequest, "malformed JSON"),
        ("[1,2,3]", .badRequest, "JSON object"),
        ("{\"id\":[1],\"op\":\"list\"}", .badRequest, "\"id\""),
        ("{\"id\":1}", .badRequest, "no \"op\""),
        ("{\"id\":1,\"op\":7}", .badRequest, "\"op\" must be a string"),
        ("{\"id\":1,\"op\":\"togle\",\"key\":\"a.b\"}", .unknownOperation, "did you mean 'toggle'?"),
        ("{\"id\":1,\"op\":\"get\"}", .badRequest, "\"key\" is missing"),
        ("{\"id\":1,\"op\":\"get\",\"key\":5}", .badRequest, "\"key\" must be a string"),
        ("{\"id\":1,\"op\":\"get\",\"key\":\"\"}", .badRequest, "empty"),
        ("{\"id\":1,\"op\":\"set\",\"key\":\"a.b\"}", .badRequest, "needs a \"value\""),
        ("{\"id\":1,\"op\":\"set\",\"key\":\"a.b\",\"value\":1,\"persist\":\"yes\"}", .badRequest, "true or false"),
        (
            "{\"id\":1,\"op\":\"set\",\"key\":\"a.b\",\"value\":1,\"presist\":true}", .badRequest,
            "did you mean 'persist'?"
        ),
        ("{\"id\":1,\"op\":\"reset\"}", .badRequest, "either \"key\" or \"all\""),
        ("{\"id\":1,\"op\":\"reset\",\"key\":\"a.b\",\"all\":true}", .badRequest, "either \"key\" or \"all\""),
        ("{\"id\":1,\"op\":\"watch\",\"keys\":\"a.b\"}", .badRequest, "array"),
        ("{\"id\":1,\"op\":\"watch\",\"keys\":[1]}", .badRequest, "strings"),
        ("{\"id\":1,\"op\":\"log\",\"limit\":0}", .badRequest, "at least 1"),
        ("{\"id\":1,\"op\":\"log\",\"limit\":2.5}", .badRequest, "integer"),
        ("{\"id\":1,\"op\":\"hello\",\"protocol\":\"1\"}", .badRequest, "integer"),
        (String(repeating: "[", count: 40) + String(repeating: "]", count: 40), .badRequest, "malformed JSON"),
    ]

    @Test("Bad lines are refused with a code and a message that names the problem", arguments: badLines.indices)
    func refusesBadLines(index: Int) {
        let bad = Self.badLines[index]
        #expect {
            try ControlRequest.parse(line: bad.line)
        } throws: { error in
            guard let error = error as? ControlRequestError else { return false }
            return error.error.code == bad.code && error.error.message.contains(bad.mentions)
        }
    }

    @Test("An error about a readable request carries its id, so the reply still matches")
    func errorsKeepTheID() {
        #expect {
            try ControlRequest.parse(line: #"{"id":"req-9","op":"get","key":3}"#)
        } throws: { error in
            (error as? ControlRequestError)?.id == .string("req-9")
        }
    }

    @Test("A line over 64 KiB is TOO_LARGE before any parsing")
    func tooLarge() {
        let line = [UInt8](repeating: 0x20, count: ControlProtocol.maximumLineLength + 1)
        #expect {
            try ControlRequest.parse(line: line)
        } throws: { error in
            (error as? ControlRequestError)?.error.code == .tooLarge
        }
    }

    @Test("Invalid UTF-8 and binary garbage are malformed requests, not crashes")
    func binaryGarbage() {
        var generator = SplitMix64(seed: 42)
        for length in [1, 2, 7, 64, 1000] {
            let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            #expect(throws: ControlRequestError.self) { try ControlRequest.parse(line: bytes) }
        }
        #expect(throws: ControlRequestError.self) {
            try ControlRequest.parse(line: [0x7B, 0x22, 0xFF, 0xFE, 0x22, 0x3A, 0x31, 0x7D])
        }
    }
}
