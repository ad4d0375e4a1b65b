import EnsignOFREP

/// What one request has sent so far, kept by libmicrohttpd between calls of the access
/// handler (its `con_cls`, made when the request line is in), and released when the request completes.
final class RequestState {
    /// Whether the header section is complete (the access handler has been called).
    var isHeaderSectionComplete = false
    /// The header fields the server reads, names lower-cased.
    var headers: [String: String] = [:]
    /// How many header fields there were, all of them (repeats included).
    var headerCount = 0
    /// The body's length as `Content-Length` announces it.
    var announcedLength: Int?
    /// The body so far, at most the body limit.
    var body: [UInt8] = []
    /// Whether the body (or its announced length) is over the limit.
    var isBodyTooLarge = false
    /// Whether a response is queued (after which the rest of the body is discarded).
    var isAnswered = false
    /// The request target's query, after `?`, as sent.
    var query: String?

    /// Header names to copy besides the server's own (lower case, NUL-terminated): those the
    /// service maps into context. Shared by every request of a daemon.
    let extraHeaderNames: [[CChar]]

    init(extraHeaderNames: [[CChar]] = []) {
        self.extraHeaderNames = extraHeaderNames
    }
}
