/// The bulk response's `ETag`: the context's generation (which moves on every live change)
/// and a digest of the evaluation context, under a tag for this process, so a tag from
/// before a restart never matches.
///
/// A tag is `"<process>-<generation>-<context digest>"`. Two requests with the same context
/// at the same generation get the same evaluations, so a matching `If-None-Match` needs no
/// evaluation at all.
struct OFREPEntityTag: Hashable {
    /// The quoted tag, as sent in `ETag`.
    let text: String

    /// The tag for `generation` and a context's canonical JSON text.
    init(process: String, generation: UInt64, contextText: String) {
        text = "\"\(process)-\(generation)-\(String(Self.digest(contextText.utf8), radix: 16))\""
    }

    /// The tag the event stream sends for a generation (the configuration's, not a context's).
    static func configurationTag(process: String, generation: UInt64) -> String {
        "\"\(process)-\(generation)\""
    }

    /// Whether an `If-None-Match` value names this tag: `*`, or a comma-separated list of
    /// tags, weak (`W/`) or strong (RFC 9110's weak comparison).
    func isMatched(byIfNoneMatch field: String) -> Bool {
        for candidate in field.split(separator: ",") {
            var tag = candidate.trimmingSpaces
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
            if tag == text[...] { return true }
        }
        return false
    }

    /// 64-bit FNV-1a: a digest, not a secret (the context is the client's own).
    static func digest(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0100_0000_01b3
        }
        return hash
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs.
    var trimmingSpaces: Substring {
        var result = self
        while let first = result.first, first == " " || first == "\t" { result = result.dropFirst() }
        while let last = result.last, last == " " || last == "\t" { result = result.dropLast() }
        return result
    }
}
