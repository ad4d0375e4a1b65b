import Ensign

/// The bulk response's `ETag`: the configuration digest (``OFREPService/configurationDigest``)
/// and a digest of the request's evaluation context, both made from content alone.
///
/// A tag is `"<configuration digest>-<context digest>"`. The same configuration and the same
/// context give the same evaluations, so a matching `If-None-Match` needs no evaluation at all,
/// and since no part of the tag belongs to a process, a client keeps getting 304s from any
/// replica serving the same configuration behind a load balancer.
struct OFREPEntityTag: Hashable {
    /// The quoted tag, as sent in `ETag`.
    let text: String

    /// The tag for a configuration digest and a request's context, digested in its canonical
    /// form (compact JSON, members sorted), so that the same context gives the same tag however
    /// it was written.
    init(configurationDigest: String, context: [String: JSONValue], selector: OFREPFlagSetSelector? = nil) {
        var canonical: [UInt8] = []
        JSONValue.object(context).appendJSON(to: &canonical, sortingMembers: true)
        // A selected set is another answer for the same context: its own tag.
        if let selector { canonical += Array("\n\(selector)".utf8) }
        text = "\"\(configurationDigest)-\(ContentDigest(of: canonical).hexadecimal)\""
    }

    /// The tag the event stream sends for a configuration (no context's).
    static func configurationTag(digest: String) -> String {
        "\"\(digest)\""
    }

    /// Whether an `If-None-Match` value names this tag: `*`, or a comma-separated list of
    /// tags, weak (`W/`) or strong (RFC 9110's weak comparison). Read as UTF-8 bytes: every
    /// revalidation asks, and splitting the text by characters cost more than the rest of it.
    func isMatched(byIfNoneMatch field: String) -> Bool {
        let tag = Array(text.utf8)
        var field = field
        return field.withUTF8 { bytes in
            var start = 0
            while start <= bytes.count {
                var end = start
                while end < bytes.count, bytes[end] != UInt8(ascii: ",") { end += 1 }
                var first = start
                var last = end
                while first < last, bytes[first] == UInt8(ascii: " ") || bytes[first] == UInt8(ascii: "\t") {
                    first += 1
                }
                while last > first, bytes[last - 1] == UInt8(ascii: " ") || bytes[last - 1] == UInt8(ascii: "\t") {
                    last -= 1
                }
                if last - first == 1, bytes[first] == UInt8(ascii: "*") { return true }
                if last - first >= 2, bytes[first] == UInt8(ascii: "W"), bytes[first + 1] == UInt8(ascii: "/") {
                    first += 2
                }
                if last - first == tag.count, bytes[first..<last].elementsEqual(tag) { return true }
                start = end + 1
            }
            return false
        }
    }
}
