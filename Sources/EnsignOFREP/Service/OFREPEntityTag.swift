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

    /// The tag for a configuration digest and a context's canonical JSON text.
    init(configurationDigest: String, contextText: String) {
        var context = ContentDigest()
        context.add(bytes: contextText.utf8)
        text = "\"\(configurationDigest)-\(context.hexadecimal)\""
    }

    /// The tag the event stream sends for a configuration (no context's).
    static func configurationTag(digest: String) -> String {
        "\"\(digest)\""
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
