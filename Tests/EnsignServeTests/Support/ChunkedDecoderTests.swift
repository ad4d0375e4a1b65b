import EnsignHTTP
import Testing

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
