import EnsignYAML
import Testing

@testable import Ensign

/// `jsonText` is public output (the control protocol, `ensign` commands): its exact text.
@Suite("JSON text of a value")
struct JSONTextTests {
    @Test("Members sorted, strings escaped as RFC 8259 requires, whole doubles with .0, non-finite as null")
    func exactText() {
        let value: JSONValue = .object([
            "b": .array([.int(-3), .double(2), .double(0.5), .double(.infinity), .null, .bool(true)]),
            "a": .string("q\"\\\n\r\t\u{1}é😀"),
        ])
        #expect(value.jsonText == #"{"a":"q\"\\\n\r\t\u0001é😀","b":[-3,2.0,0.5,null,null,true]}"#)
    }

    @Test("Unsorted, the same text reads back as the same value")
    func unsortedReadsBack() throws {
        let value: JSONValue = .object(["z": .string("x\u{7}"), "a": .array([.double(1e300), .int(.max)])])
        var bytes: [UInt8] = []
        value.appendJSON(to: &bytes, sortingMembers: false)
        let node = try #require(try YAMLParser().documents(fromJSON: bytes, file: "t.json").first)
        #expect(JSONValue(node) == value)
    }
}
