import EnsignSupport

#if canImport(CCurl)
    import CCurl

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// One request and its response over libcurl, driven on the calling thread.
    ///
    /// Each exchange has its own easy handle and a private multi handle, so that the wait for
    /// bytes is `curl_multi_poll` with the ``Cancellation``'s pipe among the descriptors: a stop
    /// wakes the wait at once, whatever libcurl is waiting for (name resolution, the TLS
    /// handshake, a quiet stream). libcurl does the HTTP (chunked bodies, HTTP/2 over TLS), TLS
    /// and proxies from the environment; this type sets the rules (no redirects, only the
    /// endpoint's scheme, the time limits) and turns libcurl's outcome into ``HTTPError``s.
    final class CurlExchange {
        private let easy: UnsafeMutableRawPointer
        private var headerList: UnsafeMutablePointer<curl_slist>?
        /// libcurl writes its detailed message for a failure here (CURLOPT_ERRORBUFFER).
        private let errorText: UnsafeMutablePointer<CChar>
        private let endpoint: HTTPEndpoint
        /// The TLS files, for the liveness checks of a stream, which use the same.
        private let tls: HTTPTLSFiles?
        /// Whether a client certificate was given, for the advice on a refused handshake.
        private var hasClientCertificate: Bool { tls?.certificate != nil }

        // The response, as libcurl's callbacks deliver it.
        private var statusLine = ""
        private var fields: [(name: String, value: String)] = []
        private(set) var head: HTTPResponseHead?
        private var lastArrival = ContinuousClock.now
        /// Set when a receiver asked to stop: libcurl then reports a write error, which is not one.
        private var stoppedByReceiver = false
        private var onHead: (HTTPResponseHead) -> Bool = { _ in true }
        private var onBody: ([UInt8]) -> Bool = { _ in true }

        /// Whether libcurl could be set up in this process (once, before the first exchange).
        /// FoundationNetworking initialises libcurl too, from its own thread; that is safe since
        /// libcurl 7.84 on builds with the `threadsafe` feature, as Debian 12's (`curl --version`).
        private static let isInitialized: Bool = curl_global_init(Int(CURL_GLOBAL_ALL)) == CURLE_OK

        init(_ request: HTTPRequest, to endpoint: HTTPEndpoint, dialTimeout: Duration, tls: HTTPTLSFiles?)
            throws(HTTPError)
        {
            guard Self.isInitialized, let easy = curl_easy_init() else {
                throw .connectFailed("libcurl could not be initialised")
            }
            self.easy = easy
            self.endpoint = endpoint
            self.tls = tls
            errorText = .allocate(capacity: Int(CURL_ERROR_SIZE))
            errorText.initialize(to: 0)
            do {
                try configure(request, dialTimeout: dialTimeout, tls: tls)
            } catch {
                release()
                throw error
            }
        }

        deinit { release() }

        private var isReleased = false
        private func release() {
            guard !isReleased else { return }
            isReleased = true
            curl_easy_cleanup(easy)
            curl_slist_free_all(headerList)
            errorText.deallocate()
        }

        // MARK: Setting up

        private func configure(_ request: HTTPRequest, dialTimeout: Duration, tls: HTTPTLSFiles?) throws(HTTPError) {
            let url = endpoint.origin + endpoint.basePath + request.path
            try set(CURLOPT_URL, text: url)
            // Only the endpoint's own scheme: an https endpoint is never spoken to in clear.
            try set(CURLOPT_PROTOCOLS_STR, text: endpoint.scheme.rawValue)
            // Never follow a redirect: credentials go only to the configured origin.
            try set(CURLOPT_FOLLOWLOCATION, 0)
            // Timeouts are this type's, and libcurl must not use signals in a threaded process.
            try set(CURLOPT_NOSIGNAL, 1)
            try set(CURLOPT_CONNECTTIMEOUT_MS, Int(clamping: max(1, dialTimeout.millisecondsRoundedUp)))
            // A watch stays open for hours: have the kernel notice a peer that vanished.
            try set(CURLOPT_TCP_KEEPALIVE, 1)
            try set(CURLOPT_TCP_KEEPIDLE, 30)
            try set(CURLOPT_TCP_KEEPINTVL, 10)
            try check(ensign_curl_set_pointer(easy, CURLOPT_ERRORBUFFER, errorText), CURLOPT_ERRORBUFFER)

            switch request.method {
            case "GET": try set(CURLOPT_HTTPGET, 1)
            case "POST": try set(CURLOPT_POST, 1)
            default: try set(CURLOPT_CUSTOMREQUEST, text: request.method)
            }
            if request.method == "POST" || !request.body.isEmpty {
                try check(
                    ensign_curl_set_size(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(request.body.count)),
                    CURLOPT_POSTFIELDSIZE_LARGE)
                // Copied: the request's bytes need not outlive this call.
                let code = request.body.withUnsafeBytes { bytes in
                    ensign_curl_set_pointer(
                        easy, CURLOPT_COPYPOSTFIELDS, bytes.baseAddress ?? UnsafeRawPointer(errorText))
                }
                try check(code, CURLOPT_COPYPOSTFIELDS)
            }

            // A line break in a header would start another header (or the body) of the
            // server's choosing; such a value comes from configuration, and is refused.
            for header in request.headers
            where (header.name + header.value).utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 }) {
                throw .invalidRequest("the header '\(header.name)' holds a line break or a NUL byte")
            }
            var lines = request.headers.map { "\($0.name): \($0.value)" }
            let names = Set(request.headers.map { $0.name.lowercased() })
            // libcurl would add a form content type to a POST and ask for 100-continue on a
            // large body; neither is wanted. An empty value removes a header libcurl adds.
            if !names.contains("content-type") { lines.append("Content-Type:") }
            lines.append("Expect:")
            for line in lines {
                guard let appended = curl_slist_append(headerList, line) else {
                    throw .invalidRequest("libcurl could not take the request's headers")
                }
                headerList = appended
            }
            try check(ensign_curl_set_pointer(easy, CURLOPT_HTTPHEADER, headerList), CURLOPT_HTTPHEADER)

            if let tls {
                if let authorities = tls.certificateAuthorities { try set(CURLOPT_CAINFO, text: authorities) }
                if let certificate = tls.certificate { try set(CURLOPT_SSLCERT, text: certificate) }
                if let key = tls.key { try set(CURLOPT_SSLKEY, text: key) }
            }

            let context = Unmanaged.passUnretained(self).toOpaque()
            try check(ensign_curl_set_pointer(easy, CURLOPT_HEADERDATA, context), CURLOPT_HEADERDATA)
            try check(ensign_curl_set_pointer(easy, CURLOPT_WRITEDATA, context), CURLOPT_WRITEDATA)
            try check(
                ensign_curl_set_callback(easy, CURLOPT_HEADERFUNCTION) { data, size, count, context in
                    Unmanaged<CurlExchange>.fromOpaque(context!).takeUnretainedValue().received(
                        header: UnsafeRawBufferPointer(start: data, count: size * count))
                }, CURLOPT_HEADERFUNCTION)
            try check(
                ensign_curl_set_callback(easy, CURLOPT_WRITEFUNCTION) { data, size, count, context in
                    Unmanaged<CurlExchange>.fromOpaque(context!).takeUnretainedValue().received(
                        body: UnsafeRawBufferPointer(start: data, count: size * count))
                }, CURLOPT_WRITEFUNCTION)
        }

        private func set(_ option: CURLoption, _ value: Int) throws(HTTPError) {
            try check(ensign_curl_set_long(easy, option, value), option)
        }

        private func set(_ option: CURLoption, text: String) throws(HTTPError) {
            // libcurl copies string options (since 7.17), so a temporary C string is enough.
            let code = text.withCString { ensign_curl_set_pointer(easy, option, $0) }
            try check(code, option)
        }

        private func check(_ code: CURLcode, _ option: CURLoption) throws(HTTPError) {
            guard code == CURLE_OK else {
                throw .connectFailed(
                    "libcurl refused option \(option.rawValue): \(String(cString: curl_easy_strerror(code)))")
            }
        }

        // MARK: Callbacks

        private func received(header bytes: UnsafeRawBufferPointer) -> Int {
            lastArrival = .now
            // Trimmed as bytes: as Characters, "\r\n" is one grapheme that is neither "\r" nor "\n".
            var end = bytes.count
            while end > 0, bytes[end - 1] == UInt8(ascii: "\n") || bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            let line = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[..<end]), as: UTF8.self)
            if line.hasPrefix("HTTP/") {
                // A status line starts every response, an interim 100 included.
                statusLine = line
                fields = []
            } else if line.isEmpty {
                var status = 0
                _ = ensign_curl_get_long(easy, CURLINFO_RESPONSE_CODE, &status)
                // An interim response (100 Continue) is followed by the real one.
                guard status >= 200 || status == 101 else { return bytes.count }
                let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
                let head = HTTPResponseHead(
                    status: status, reason: parts.count > 2 ? String(parts[2]) : "", headers: fields)
                self.head = head
                guard onHead(head) else {
                    stoppedByReceiver = true
                    return ensign_curl_stop
                }
            } else if line.first == " " || line.first == "\t", !fields.isEmpty {
                // A folded line continues the previous field.
                fields[fields.count - 1].value += " " + line.trimmingSpaces
            } else if let colon = line.firstIndex(of: ":") {
                fields.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingSpaces))
            }
            return bytes.count
        }

        private func received(body bytes: UnsafeRawBufferPointer) -> Int {
            lastArrival = .now
            guard onBody(Array(bytes)) else {
                stoppedByReceiver = true
                return ensign_curl_stop
            }
            return bytes.count
        }

        // MARK: Running

        /// Runs the exchange: `onHead` with the response head, `onBody` with each piece of the
        /// decoded body as it arrives, until the body ends or a receiver returns false. The head
        /// must arrive by `headDeadline`; the body by the wait's rule. With a liveness check,
        /// once the head is in, the check's request goes out every interval on a connection of
        /// its own, in the same wait; a check unanswered in time ends the exchange.
        func run(
            headDeadline: ContinuousClock.Instant, bodyWait: HTTPConnection.BodyWait,
            check: HTTPConnection.LivenessCheck?, cancellation: Cancellation?,
            onHead: @escaping (HTTPResponseHead) -> Bool, onBody: @escaping ([UInt8]) -> Bool
        ) throws(HTTPError) -> HTTPResponseHead {
            self.onHead = onHead
            self.onBody = onBody
            defer {
                self.onHead = { _ in true }
                self.onBody = { _ in true }
            }
            guard let multi = curl_multi_init() else { throw .connectFailed("libcurl could not make a multi handle") }
            defer { curl_multi_cleanup(multi) }
            curl_multi_add_handle(multi, easy)
            defer { curl_multi_remove_handle(multi, easy) }
            lastArrival = .now
            var probe: (exchange: CurlExchange, deadline: ContinuousClock.Instant)?
            defer { if let probe { curl_multi_remove_handle(multi, probe.exchange.easy) } }
            var nextCheck = check.map { ContinuousClock.now + $0.interval }

            while true {
                if cancellation?.isCancelled == true { throw .cancelled }
                var running: Int32 = 0
                curl_multi_perform(multi, &running)
                for (handle, code) in Self.finished(in: multi) {
                    if handle == easy { return try finish(code) }
                    guard let current = probe, handle == current.exchange.easy else { continue }
                    curl_multi_remove_handle(multi, handle)
                    probe = nil
                    // Any answer, whatever its status, shows the server is alive.
                    guard code == CURLE_OK || current.exchange.head != nil else {
                        throw .timedOut("checking that the server is alive (\(current.exchange.error(for: code)))")
                    }
                    nextCheck = check.map { ContinuousClock.now + $0.interval }
                }
                let now = ContinuousClock.now
                if let check, head != nil, probe == nil, let due = nextCheck, now >= due {
                    let exchange = try CurlExchange(check.request, to: endpoint, dialTimeout: check.timeout, tls: tls)
                    curl_multi_add_handle(multi, exchange.easy)
                    probe = (exchange, now + check.timeout)
                }
                if let probe, now >= probe.deadline {
                    throw .timedOut("checking that the server is alive (no answer within \(check?.timeout ?? .zero))")
                }
                var limit = try nextLimit(headDeadline: headDeadline, bodyWait: bodyWait)
                if let wake = probe?.deadline ?? (head != nil ? nextCheck : nil) {
                    limit = min(limit, Deadline.milliseconds(until: wake))
                }
                var wake = curl_waitfd(fd: cancellation?.descriptor ?? -1, events: Int16(POLLIN), revents: 0)
                curl_multi_poll(multi, &wake, cancellation == nil ? 0 : 1, limit, nil)
            }
        }

        /// Throws when a time limit has passed; otherwise the longest wait, in milliseconds,
        /// before one is checked again.
        private func nextLimit(headDeadline: ContinuousClock.Instant, bodyWait: HTTPConnection.BodyWait)
            throws(HTTPError) -> Int32
        {
            let now = ContinuousClock.now
            let deadline: ContinuousClock.Instant?
            let waiting: String
            if head == nil {
                deadline = headDeadline
                waiting = "waiting for the response"
            } else {
                waiting = "reading the body"
                switch bodyWait {
                case .until(let instant): deadline = instant
                case .idle(let timeout): deadline = timeout.map { lastArrival + $0 }
                }
            }
            guard let deadline else { return 1000 }
            if now >= deadline { throw .timedOut(waiting) }
            return min(1000, Deadline.milliseconds(until: deadline))
        }

        /// The transfers that finished since the last call, with their result codes.
        private static func finished(in multi: UnsafeMutableRawPointer) -> [(UnsafeMutableRawPointer?, CURLcode)] {
            var done: [(UnsafeMutableRawPointer?, CURLcode)] = []
            var left: Int32 = 0
            while let message = curl_multi_info_read(multi, &left) {
                if message.pointee.msg == CURLMSG_DONE {
                    done.append((message.pointee.easy_handle, message.pointee.data.result))
                }
            }
            return done
        }

        /// The head of a finished transfer, or the error its result code means.
        private func finish(_ code: CURLcode) throws(HTTPError) -> HTTPResponseHead {
            if let head, code == CURLE_OK || stoppedByReceiver { return head }
            if code == CURLE_OK { throw .malformed("the response has no status line") }
            throw error(for: code)
        }

        /// A TLS server that hung up before answering. With TLS 1.3 a server that refuses the
        /// client's certificate (or wants one and got none) closes the connection after the
        /// handshake has completed on the client's side, so OpenSSL reports only a closed
        /// connection: say so, as the likely cause, without claiming the request was not sent.
        private func closedBeforeAnswering(_ detail: String) -> HTTPError {
            let advice =
                hasClientCertificate
                ? "if it checks client certificates, it may not accept this one: give one issued by an authority it trusts"
                : "if it requires a client certificate, give one and its key"
            return .connectionClosed("the server closed the connection before answering (\(detail)); \(advice)")
        }

        /// What a failed transfer's result code means, with what to do about it.
        fileprivate func error(for code: CURLcode) -> HTTPError {
            let detail = errorText.pointee == 0 ? String(cString: curl_easy_strerror(code)) : String(cString: errorText)
            let lowered = detail.lowercased()
            switch code {
            case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
                return .unresolvable(host: endpoint.host, reason: detail)
            case CURLE_COULDNT_CONNECT:
                return .connectFailed(detail)
            case CURLE_OPERATION_TIMEDOUT:
                // Only the connect timeout is libcurl's (the TCP and TLS handshakes); the others
                // are this type's own.
                return .connectFailed(detail)
            case CURLE_PEER_FAILED_VERIFICATION:
                return .tls(
                    "the server's certificate is not trusted (\(detail)): give the certificate authority that"
                        + " signed it as the CA file, or check that the URL names the host the certificate is for")
            case CURLE_SSL_CACERT_BADFILE:
                return .tls("the CA file cannot be read (\(detail)): give a PEM file of the certificate authorities")
            case CURLE_SSL_CERTPROBLEM:
                return .tls(
                    "the client certificate or its key cannot be used (\(detail)): give a PEM certificate and its"
                        + " unencrypted PEM key")
            case CURLE_SSL_CONNECT_ERROR, CURLE_RECV_ERROR, CURLE_SEND_ERROR:
                if lowered.contains("certificate required") {
                    return .tls(
                        "the server requires a client certificate (\(detail)): give a certificate and its key")
                }
                if lowered.contains("unknown ca") || lowered.contains("bad certificate")
                    || lowered.contains("certificate unknown")
                {
                    return .tls(
                        "the server does not accept the client certificate (\(detail)): give one issued by a"
                            + " certificate authority the server trusts")
                }
                if lowered.contains("wrong version number") || lowered.contains("packet length too long") {
                    return .tls(
                        "the server does not speak TLS on this port (\(detail)): use an http:// URL, or the"
                            + " server's TLS port")
                }
                if code == CURLE_SSL_CONNECT_ERROR { return .tls("the TLS handshake failed (\(detail))") }
                if endpoint.scheme == .https, head == nil { return closedBeforeAnswering(detail) }
                return .connectionClosed(detail)
            case CURLE_GOT_NOTHING:
                if endpoint.scheme == .https { return closedBeforeAnswering(detail) }
                return .connectionClosed("the server closed the connection without answering (\(detail))")
            case CURLE_PARTIAL_FILE:
                return .connectionClosed("the body ended early (\(detail))")
            case CURLE_URL_MALFORMAT:
                return .invalidURL(endpoint.origin + endpoint.basePath, reason: detail)
            case CURLE_WEIRD_SERVER_REPLY, CURLE_UNSUPPORTED_PROTOCOL, CURLE_BAD_CONTENT_ENCODING:
                return .malformed(detail)
            default:
                return .connectionClosed("\(detail) (libcurl error \(code.rawValue))")
            }
        }
    }
#endif
