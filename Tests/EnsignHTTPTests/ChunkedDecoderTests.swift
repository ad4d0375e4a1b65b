import Testing

@testable import EnsignHTTP

@Suite("Chunked transfer decoding")
struct ChunkedDecoderTests {
    static let encoded = "4\r\nWiki\r\n6;name=value\r\npedia \r\nE\r\nin \r\n\r\nchunks.\r\n0\r\nTrailer: x\r\n\r\n"
    static let decoded = "Wikipedia in \r\n\r\nchunks."

    @Test("A body fed in one piece decodes, and the bytes after it are left alone")
    func wholeBody() throws {
        var decoder = ChunkedDecoder()
        var output: [UInt8] = []
        let input = Array((Self.encoded + "HTTP/1.1 200 OK").utf8)
        let used = try decoder.feed(input[...], into: &output)
        #expect(String(decoding: output, as: UTF8.self) == Self.decoded)
        #expect(decoder.isComplete)
        #expect(used == Self.encoded.utf8.count)
    }

    @Test("A body split at every possible point decodes the same", arguments: 1..<12)
    func splitEverywhere(pieceSize: Int) throws {
        let input = Array(Self.encoded.utf8)
        for firstCut in 0...input.count {
            var decoder = ChunkedDecoder()
            var output: [UInt8] = []
            _ = try decoder.feed(input[0..<firstCut], into: &output)
            var index = firstCut
            while index < input.count {
                let end = min(input.count, index + pieceSize)
                let used = try decoder.feed(input[index..<end], into: &output)
                #expect(used == end - index)
                index = end
            }
            #expect(String(decoding: output, as: UTF8.self) == Self.decoded, "cut at \(firstCut)")
            #expect(decoder.isComplete)
        }
    }

    @Test("Data is handed out as soon as it arrives, before its chunk ends")
    func partialChunk() throws {
        var decoder = ChunkedDecoder()
        var output: [UInt8] = []
        _ = try decoder.feed(Array("10\r\n{\"a\":".utf8)[...], into: &output)
        #expect(String(decoding: output, as: UTF8.self) == "{\"a\":")
        #expect(!decoder.isComplete)
    }

    @Test("Malformed chunk framing is an error", arguments: ["zz\r\n", "\r\n", "3\r\nabcd\r\n", "FFFFFFFFFFFF\r\n"])
    func malformed(input: String) {
        var decoder = ChunkedDecoder()
        var output: [UInt8] = []
        #expect(throws: HTTPError.self) { _ = try decoder.feed(Array(input.utf8)[...], into: &output) }
    }
}

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
