import Testing

@testable import EnsignHTTP

@Suite("Splitting a stream into JSON objects")
struct JSONStreamSplitterTests {
    @Test("Objects cut anywhere, with braces and escaped quotes in strings, come out whole and in order")
    func cutAnywhere() throws {
        let stream = #"{"result":{"a":"x}{\"y"}}"# + "\n" + #"{"result":{"b":[1,{"c":"]"}]}}"# + #"{"e":1}"#
        let bytes = Array(stream.utf8)
        for size in 1...9 {
            var splitter = JSONStreamSplitter()
            var values: [String] = []
            var index = 0
            while index < bytes.count {
                let end = min(bytes.count, index + size)
                values += try splitter.feed(bytes[index..<end]).map { String(decoding: $0, as: UTF8.self) }
                index = end
            }
            #expect(
                values == [#"{"result":{"a":"x}{\"y"}}"#, #"{"result":{"b":[1,{"c":"]"}]}}"#, #"{"e":1}"#],
                "pieces of \(size)")
        }
    }

    @Test("Text that is not a JSON object is an error")
    func garbage() {
        var splitter = JSONStreamSplitter()
        #expect(throws: HTTPError.self) { _ = try splitter.feed(Array("hello".utf8)) }
    }

    @Test("A value larger than the limit is an error")
    func tooLarge() {
        var splitter = JSONStreamSplitter(maximumValueSize: 16)
        #expect(throws: HTTPError.tooLarge("a streamed JSON value")) {
            _ = try splitter.feed(Array(#"{"a":"0123456789abcdef"#.utf8))
        }
    }
}
