import EnsignHTTP

/// Decodes an HTTP/1.1 `Transfer-Encoding: chunked` body incrementally: feed it bytes as
/// they arrive, split anywhere (inside a size line, a CRLF or the data), and it appends the
/// data bytes to the output as soon as it has them.
///
/// ```swift
/// var decoder = ChunkedDecoder()
/// var body: [UInt8] = []
/// _ = try decoder.feed(Array("5\r\nhel".utf8)[...], into: &body)  // body == "hel"
/// _ = try decoder.feed(Array("lo\r\n0\r\n\r\n".utf8)[...], into: &body)  // body == "hello", isComplete
/// ```
struct ChunkedDecoder {
    private enum State {
        case sizeLine
        case data(remaining: Int)
        case dataEnd
        case trailer
        case done
    }

    private var state = State.sizeLine
    private var line: [UInt8] = []

    /// A decoder at the start of a body.
    init() {}

    /// The longest size or trailer line accepted.
    static let maximumLineLength = 4096
    /// The largest chunk accepted.
    static let maximumChunkSize = 1 << 30

    /// Whether the last chunk and the trailer have been read.
    var isComplete: Bool {
        if case .done = state { return true }
        return false
    }

    /// Decodes `input`, appending data to `output`; returns how many bytes of `input` it used
    /// (fewer than all only once the body is complete: the rest belongs to what follows).
    mutating func feed(_ input: ArraySlice<UInt8>, into output: inout [UInt8]) throws(HTTPError) -> Int {
        var index = input.startIndex
        while index < input.endIndex {
            switch state {
            case .done:
                return index - input.startIndex
            case .data(let remaining):
                let count = min(remaining, input.endIndex - index)
                output.append(contentsOf: input[index..<index + count])
                index += count
                state = remaining == count ? .dataEnd : .data(remaining: remaining - count)
            case .sizeLine, .dataEnd, .trailer:
                let byte = input[index]
                index += 1
                guard byte == UInt8(ascii: "\n") else {
                    line.append(byte)
                    guard line.count <= Self.maximumLineLength else { throw .malformed("a chunk line is too long") }
                    continue
                }
                if line.last == UInt8(ascii: "\r") { line.removeLast() }
                try endOfLine()
                line.removeAll(keepingCapacity: true)
            }
        }
        return index - input.startIndex
    }

    private mutating func endOfLine() throws(HTTPError) {
        switch state {
        case .sizeLine:
            let size = try Self.chunkSize(line)
            state = size == 0 ? .trailer : .data(remaining: size)
        case .dataEnd:
            guard line.isEmpty else { throw .malformed("chunk data is longer than its size") }
            state = .sizeLine
        case .trailer:
            if line.isEmpty { state = .done }  // trailer fields are ignored
        case .data, .done:
            break
        }
    }

    /// The size in a chunk-size line (hex digits, then optional `;extensions`).
    private static func chunkSize(_ line: [UInt8]) throws(HTTPError) -> Int {
        var size = 0
        var digits = 0
        for byte in line {
            let value: Int
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = Int(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = Int(byte - UInt8(ascii: "a")) + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): value = Int(byte - UInt8(ascii: "A")) + 10
            case UInt8(ascii: ";"), UInt8(ascii: " "), UInt8(ascii: "\t"):
                guard digits > 0 else { throw .malformed("a chunk size line has no size") }
                return size
            default:
                throw .malformed("invalid chunk size line '\(String(decoding: line.prefix(40), as: UTF8.self))'")
            }
            size = size * 16 + value
            digits += 1
            guard size <= maximumChunkSize else { throw .tooLarge("a chunk") }
        }
        guard digits > 0 else { throw .malformed("a chunk size line is empty") }
        return size
    }
}
