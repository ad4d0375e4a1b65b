/// Splits a byte stream into complete top-level JSON objects or arrays as they arrive,
/// whatever separates them (etcd's gateway writes one per line) and however the transport
/// cut the bytes.
///
/// It tracks only nesting and strings; each value it returns is parsed by the strict parser.
package struct JSONStreamSplitter {
    private var pending: [UInt8] = []
    private var scanned = 0
    private var depth = 0
    private var inString = false
    private var escaped = false
    private var valueStart: Int?

    /// The largest single value accepted.
    package let maximumValueSize: Int

    /// A splitter at the start of a stream.
    package init(maximumValueSize: Int = 64 << 20) {
        self.maximumValueSize = maximumValueSize
    }

    /// Adds `bytes` and returns every value they complete, in order.
    package mutating func feed(_ bytes: some Collection<UInt8>) throws(HTTPError) -> [[UInt8]] {
        pending.append(contentsOf: bytes)
        var values: [[UInt8]] = []
        while scanned < pending.count {
            let byte = pending[scanned]
            defer { scanned += 1 }
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                if depth == 0 { valueStart = scanned }
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                guard depth > 0 else { throw .malformed("unbalanced '\(Character(Unicode.Scalar(byte)))' in a stream") }
                depth -= 1
                if depth == 0, let start = valueStart {
                    values.append(Array(pending[start...scanned]))
                    valueStart = nil
                }
            case UInt8(ascii: "\""):
                guard depth > 0 else { throw .malformed("a stream holds a bare string") }
                inString = true
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
                break
            default:
                guard depth > 0 else { throw .malformed("a stream holds something other than objects") }
            }
        }
        compact()
        if pending.count > maximumValueSize { throw .tooLarge("a streamed JSON value") }
        return values
    }

    /// Drops the bytes of values already returned.
    private mutating func compact() {
        let keepFrom = valueStart ?? scanned
        guard keepFrom > 0 else { return }
        pending.removeFirst(keepFrom)
        scanned -= keepFrom
        if valueStart != nil { valueStart = 0 }
    }
}
