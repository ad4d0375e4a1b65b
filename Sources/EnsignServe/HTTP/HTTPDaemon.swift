import CMicroHTTPD
import Ensign
import EnsignOFREP
import EnsignSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a daemon's requests are answered with: the routes of ``OFREPServer``.
protocol HTTPResponder: Sendable {
    /// Answers a request whose header section and body are in.
    func answer(_ request: OFREPHTTPRequest, on connection: SuspendableConnection) -> HTTPAnswer
    /// The answer to a request refused before it is read whole (431, 413), counted like the others.
    func refusal(_ status: Int, _ details: String) -> OFREPHTTPResponse
}

/// A whole response, or an event stream that lasts until the client goes or the server stops.
enum HTTPAnswer {
    case response(OFREPHTTPResponse)
    /// `ended` runs once, when libmicrohttpd frees the stream's response.
    case eventStream(EventStreamClient, headers: [(name: String, value: String)], ended: @Sendable () -> Void)
}

/// libmicrohttpd, started with a small fixed pool of worker threads that each multiplex their
/// share of the connections with epoll (poll where there is no epoll): the one place where
/// EnsignServe meets the C library. Requests go to an ``HTTPResponder``; every connection's
/// life goes to a ``ConnectionTable``, which also decides at accept whether it is served.
final class HTTPDaemon: Sendable {
    /// How the daemon is started.
    struct Configuration: Sendable {
        var address: ListenAddress
        var workerThreads: Int
        /// libmicrohttpd's own limit: the table's limit plus room for connections it has cut
        /// and libmicrohttpd has yet to close.
        var connectionLimit: Int
        var connectionMemoryLimit: Int
        /// Seconds without progress while a request is read or a response written.
        var inactivityTimeoutSeconds: Int
        var listenBacklog: Int
        var perAddressConnectionLimit: Int?
        var tls: ServerTLS?
        var maximumHeaderCount: Int
        var maximumBodyBytes: Int
        /// Header names, lower case, copied into requests besides the routes' own: those the
        /// service maps into evaluation context.
        var extraHeaderNames: [String] = []
    }

    let configuration: Configuration
    /// ``Configuration/extraHeaderNames`` as C strings, for the header pass.
    let extraHeaderNames: [[CChar]]
    let table: ConnectionTable
    let responder: any HTTPResponder
    /// libmicrohttpd's messages once started (a failed TLS handshake, a refused connection);
    /// the caller limits how often they are written.
    let log: @Sendable (String) -> Void
    /// libmicrohttpd's messages while it starts (`nil` once started): why GnuTLS refused a
    /// certificate, which libmicrohttpd says only there before failing as a bind would.
    private let startMessages = LockedState<[String]?>([])
    /// The daemon's and its settings' addresses as bit patterns (0 once stopped): libmicrohttpd's
    /// handle is not Sendable, and `stop` takes them exactly once.
    private let handles = LockedState<(daemon: UInt, settings: UInt)>((0, 0))
    private let boundPort = LockedState<UInt16>(0)

    /// Why a daemon could not start.
    struct StartError: Error {
        var description: String
        /// The TLS library refused the certificate and key (not the address).
        var isTLSRefusal = false
    }

    private init(
        configuration: Configuration, table: ConnectionTable, responder: any HTTPResponder,
        log: @escaping @Sendable (String) -> Void
    ) {
        self.configuration = configuration
        extraHeaderNames = configuration.extraHeaderNames.map { Array($0.lowercased().utf8CString) }
        self.table = table
        self.responder = responder
        self.log = log
    }

    deinit { stop() }

    /// The port it listens on (the one the system chose for port 0).
    var port: UInt16 { boundPort.withLock { $0 } }

    /// Starts listening and serving.
    static func start(
        _ configuration: Configuration, table: ConnectionTable, responder: any HTTPResponder,
        log: @escaping @Sendable (String) -> Void
    ) throws(StartError) -> HTTPDaemon {
        let socketAddress: (bytes: [UInt8], isIPv6: Bool)
        do {
            socketAddress = try configuration.address.socketAddress()
        } catch {
            throw StartError(description: error.description)
        }
        if configuration.tls != nil, ensign_mhd_has_tls() == 0 {
            throw StartError(
                description: "this libmicrohttpd was built without TLS; put a TLS-terminating proxy in front")
        }
        let daemon = HTTPDaemon(configuration: configuration, table: table, responder: responder, log: log)
        var flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
        flags |= ensign_mhd_has_epoll() != 0 ? MHD_USE_EPOLL.rawValue : MHD_USE_POLL.rawValue
        if socketAddress.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
        if configuration.tls != nil { flags |= MHD_USE_TLS.rawValue }
        // The settings and the PEM texts live until the daemon stops: the logger reads the settings.
        let settings = UnsafeMutablePointer<ensign_mhd_settings>.allocate(capacity: 1)
        settings.initialize(to: ensign_mhd_settings())
        settings.pointee.flags = UInt32(flags)
        settings.pointee.thread_pool_size = UInt32(clamping: configuration.workerThreads)
        settings.pointee.connection_limit = UInt32(clamping: configuration.connectionLimit)
        settings.pointee.connection_memory_limit = configuration.connectionMemoryLimit
        settings.pointee.connection_timeout_seconds = UInt32(clamping: configuration.inactivityTimeoutSeconds)
        settings.pointee.listen_backlog = UInt32(clamping: configuration.listenBacklog)
        settings.pointee.per_address_connection_limit = UInt32(clamping: configuration.perAddressConnectionLimit ?? 0)
        if let tls = configuration.tls {
            settings.pointee.tls_key_pem = UnsafePointer(strdup(tls.privateKeyPEM))
            settings.pointee.tls_certificate_pem = UnsafePointer(strdup(tls.certificateChainPEM))
        }
        // Unretained: the daemon is stopped (in `stop` or `deinit`) before this object goes away.
        settings.pointee.context = Unmanaged.passUnretained(daemon).toOpaque()
        settings.pointee.accept_policy = { context, _, _ in
            HTTPDaemon.from(context).table.admit() ? .YES : .NO
        }
        settings.pointee.connection_notification = { context, connection, socketContext, event in
            guard let connection, let socketContext else { return }
            let table = HTTPDaemon.from(context).table
            if event == .CONNECTION_NOTIFY_STARTED {
                let ticket = table.opened(socket: ensign_mhd_connection_socket(connection))
                socketContext.pointee = UnsafeMutableRawPointer(bitPattern: HTTPDaemon.word(for: ticket))
            } else if let slot = HTTPDaemon.slot(socketContext.pointee) {
                table.closed(slot)
            }
        }
        settings.pointee.request_line = { context, uri, connection in
            if let connection, let slot = HTTPDaemon.slot(ensign_mhd_socket_context(connection)) {
                HTTPDaemon.from(context).table.requestLineArrived(slot)
            }
            let state = RequestState(extraHeaderNames: HTTPDaemon.from(context).extraHeaderNames)
            // The query as sent (the access handler gets the path alone): the selector parameter.
            if let uri, let question = strchr(uri, Int32(UInt8(ascii: "?"))) {
                state.query = String(cString: question + 1)
            }
            return Unmanaged.passRetained(state).toOpaque()
        }
        settings.pointee.handler = { context, connection, url, method, _, uploadData, uploadDataSize, requestContext in
            HTTPDaemon.from(context).handle(
                connection: connection!, url: url!, method: method!, uploadData: uploadData,
                uploadDataSize: uploadDataSize!, requestContext: requestContext!)
        }
        settings.pointee.completed = { context, connection, requestContext, _ in
            if let requestContext, let state = requestContext.pointee {
                Unmanaged<RequestState>.fromOpaque(state).release()
                requestContext.pointee = nil
            }
            if let connection, let slot = HTTPDaemon.slot(ensign_mhd_socket_context(connection)) {
                HTTPDaemon.from(context).table.requestEnded(slot)
            }
        }
        settings.pointee.message = { context, message in
            guard let message else { return }
            HTTPDaemon.from(context).received(String(cString: message))
        }
        let started = socketAddress.bytes.withUnsafeBytes { bytes in
            settings.pointee.address = bytes.baseAddress!.assumingMemoryBound(to: sockaddr.self)
            defer { settings.pointee.address = nil }
            return ensign_mhd_start(settings)
        }
        let failure = errno
        let messages = daemon.startMessages.withLock { $0.take() } ?? []
        guard let started else {
            Self.release(settings)
            let refusals = messages.filter { $0.contains("TLS") || $0.contains("x509") || $0.contains("GnuTLS") }
            if configuration.tls != nil, !refusals.isEmpty {
                throw StartError(
                    description: "the TLS library refused the certificate and key (\(refusals.joined(separator: " "))):"
                        + " the key must be the key of the first certificate of the chain (the server's own,"
                        + " before any intermediates), and both whole PEM",
                    isTLSRefusal: true)
            }
            let reason = messages.last ?? String(cString: strerror(failure))
            throw StartError(
                description: "cannot listen on \(configuration.address) (\(reason)):"
                    + " is the port in use, or the address not this machine's?")
        }
        for message in messages { daemon.log(message) }
        let daemonBits = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(started)))
        let settingsBits = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(settings)))
        daemon.handles.withLock { $0 = (daemonBits, settingsBits) }
        daemon.boundPort.withLock { $0 = ensign_mhd_bound_port(started) }
        return daemon
    }

    /// Stops accepting new connections; those open are served on. Returns at once.
    func stopAccepting() {
        handles.withLock { handles in
            guard let daemon = OpaquePointer(bitPattern: handles.daemon) else { return }
            let socket = MHD_quiesce_daemon(daemon)
            if socket >= 0 { close(socket) }
        }
    }

    /// Closes every connection and joins the workers. Streams must have been ended first
    /// (libmicrohttpd refuses to stop with a connection suspended). Calling it again does nothing.
    func stop() {
        let (daemonBits, settingsBits) = handles.withLock { handles in
            defer { handles = (0, 0) }
            return handles
        }
        guard let daemon = OpaquePointer(bitPattern: daemonBits) else { return }
        MHD_stop_daemon(daemon)
        if let settings = UnsafeMutablePointer<ensign_mhd_settings>(bitPattern: settingsBits) {
            Self.release(settings)
        }
    }

    /// One of libmicrohttpd's messages: kept while it starts, logged afterwards.
    private func received(_ message: String) {
        let isStarting = startMessages.withLock { messages in
            messages?.append(message)
            return messages != nil
        }
        if !isStarting { log(message) }
    }

    private static func release(_ settings: UnsafeMutablePointer<ensign_mhd_settings>) {
        free(UnsafeMutablePointer(mutating: settings.pointee.tls_key_pem))
        free(UnsafeMutablePointer(mutating: settings.pointee.tls_certificate_pem))
        settings.deinitialize(count: 1)
        settings.deallocate()
    }

    private static func from(_ context: UnsafeMutableRawPointer?) -> HTTPDaemon {
        Unmanaged<HTTPDaemon>.fromOpaque(context!).takeUnretainedValue()
    }

    /// The pointer-sized word libmicrohttpd keeps for a connection: its ticket, the slot plus one
    /// in the low half (so that it is never 0, which is no word) and the serial in the high half.
    private static func word(for ticket: ConnectionTable.Ticket) -> UInt {
        UInt(ticket.serial) << 32 | UInt(ticket.slot + 1)
    }

    /// The ticket of a connection, from the word libmicrohttpd keeps for it.
    private static func ticket(_ word: UnsafeMutableRawPointer?) -> ConnectionTable.Ticket? {
        guard let word else { return nil }
        let bits = UInt(bitPattern: Int(bitPattern: word))
        return ConnectionTable.Ticket(slot: Int(bits & 0xFFFF_FFFF) - 1, serial: UInt32(truncatingIfNeeded: bits >> 32))
    }

    /// The table's number for a connection, from the word libmicrohttpd keeps for it.
    private static func slot(_ word: UnsafeMutableRawPointer?) -> Int? { ticket(word)?.slot }
}

extension HTTPDaemon {
    /// libmicrohttpd's access handler: called once when the header section is in, once per
    /// piece of body, and once more at the end (`uploadDataSize` 0), when the answer is queued.
    fileprivate func handle(
        connection: OpaquePointer, url: UnsafePointer<CChar>, method: UnsafePointer<CChar>,
        uploadData: UnsafePointer<CChar>?, uploadDataSize: UnsafeMutablePointer<Int>,
        requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        if requestContext.pointee == nil {
            // The request line callback always makes one; this is a defence, not a path.
            requestContext.pointee = Unmanaged.passRetained(RequestState(extraHeaderNames: extraHeaderNames))
                .toOpaque()
        }
        let state = Unmanaged<RequestState>.fromOpaque(requestContext.pointee!).takeUnretainedValue()
        if !state.isHeaderSectionComplete {
            state.isHeaderSectionComplete = true
            if let slot = Self.slot(ensign_mhd_socket_context(connection)) { table.headersArrived(slot) }
            collectHeaders(of: connection, into: state)
            if state.headerCount > configuration.maximumHeaderCount {
                state.isAnswered = true
                return queue(
                    responder.refusal(431, "more than \(configuration.maximumHeaderCount) header fields"),
                    on: connection)
            }
            if let length = state.announcedLength, length > configuration.maximumBodyBytes {
                state.isAnswered = true
                return queue(
                    responder.refusal(413, "the body is over \(configuration.maximumBodyBytes) bytes"), on: connection)
            }
            return .YES
        }
        let size = uploadDataSize.pointee
        if size > 0 {
            if !state.isAnswered, !state.isBodyTooLarge, let uploadData {
                if state.body.count + size > configuration.maximumBodyBytes {
                    state.isBodyTooLarge = true
                    state.body = []
                } else {
                    uploadData.withMemoryRebound(to: UInt8.self, capacity: size) { bytes in
                        state.body.append(contentsOf: UnsafeBufferPointer(start: bytes, count: size))
                    }
                }
            }
            uploadDataSize.pointee = 0
            return .YES
        }
        guard !state.isAnswered else { return .YES }
        state.isAnswered = true
        if state.isBodyTooLarge {
            return queue(
                responder.refusal(413, "the body is over \(configuration.maximumBodyBytes) bytes"), on: connection)
        }
        // The path from libmicrohttpd, the query from the request line (see `request_line`).
        let request = OFREPHTTPRequest(
            method: String(cString: method), path: String(cString: url), query: state.query,
            lowercasedHeaders: state.headers, body: state.body)
        let ticket = Self.ticket(ensign_mhd_socket_context(connection))
        switch responder.answer(request, on: SuspendableConnection(connection, ticket: ticket)) {
        case .response(let response):
            return queue(response, on: connection)
        case .eventStream(let client, let headers, let ended):
            if let slot = Self.slot(ensign_mhd_socket_context(connection)) { table.streamStarted(slot) }
            return openEventStream(client, headers: headers, ended: ended, on: connection)
        }
    }

    /// The header fields the OFREP service and the routes read (in lower case, as the request
    /// carries them); the others are counted, for the limit, but not copied. A single evaluation
    /// usually has none of them, and then the request's dictionary stays empty.
    ///
    /// One pass over libmicrohttpd's list, comparing names as C strings: a lookup per name would
    /// walk the list five times, and each Swift name passed to C would be copied to the heap.
    private static let readHeaderNames: [StaticString] = [
        "authorization", "x-api-key", "if-none-match", "last-event-id", "flagd-selector",
    ]

    private func collectHeaders(of connection: OpaquePointer, into state: RequestState) {
        let context = Unmanaged.passUnretained(state).toOpaque()
        _ = MHD_get_connection_values(
            connection, .HEADER_KIND,
            { context, _, name, value in
                guard let context, let name else { return .YES }
                let state = Unmanaged<RequestState>.fromOpaque(context).takeUnretainedValue()
                state.headerCount += 1
                guard let value else { return .YES }
                if HTTPDaemon.isNamed(name, "content-length") {
                    // The largest, should there be several: the body limit holds for each.
                    if let length = HTTPDaemon.decimal(value) {
                        state.announcedLength = max(state.announcedLength ?? length, length)
                    }
                } else if let read = HTTPDaemon.readHeaderNames.first(where: { HTTPDaemon.isNamed(name, $0) }) {
                    let key = read.withUTF8Buffer { String(decoding: $0, as: UTF8.self) }
                    // The first of repeated fields, as a lookup by name would find.
                    if state.headers[key] == nil { state.headers[key] = String(cString: value) }
                } else if !state.extraHeaderNames.isEmpty,
                    let extra = state.extraHeaderNames.first(where: { strcasecmp(name, $0) == 0 })
                {
                    let key = String(decoding: extra.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
                    if state.headers[key] == nil { state.headers[key] = String(cString: value) }
                }
                return .YES
            }, context)
    }

    /// Whether a header field's name is `lowercased` in any case.
    private static func isNamed(_ name: UnsafePointer<CChar>, _ lowercased: StaticString) -> Bool {
        lowercased.withUTF8Buffer { expected in
            expected.withMemoryRebound(to: CChar.self) { expected in
                strncasecmp(name, expected.baseAddress!, expected.count) == 0 && name[expected.count] == 0
            }
        }
    }

    /// A `Content-Length` value: decimal digits alone, or `nil` (libmicrohttpd has refused any
    /// other before the handler is called).
    private static func decimal(_ text: UnsafePointer<CChar>) -> Int? {
        var value = 0
        var index = 0
        while text[index] != 0 {
            let digit = Int(text[index]) - Int(UInt8(ascii: "0"))
            guard (0...9).contains(digit) else { return nil }
            let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
            guard !overflow, case (let sum, false) = shifted.addingReportingOverflow(digit) else { return nil }
            value = sum
            index += 1
        }
        return index == 0 ? nil : value
    }

    /// Sends a whole response.
    private func queue(_ response: OFREPHTTPResponse, on connection: OpaquePointer) -> MHD_Result {
        let created = response.body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(
                bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
        }
        guard let created else { return .NO }
        defer { MHD_destroy_response(created) }
        Self.add(response.headers, to: created)
        return MHD_queue_response(connection, UInt32(response.status), created)
    }

    /// Adds header fields to a response. Through `withCString`, which lends a short name's
    /// bytes from the stack: a Swift string passed to C directly is copied to the heap.
    private static func add(_ headers: [(name: String, value: String)], to response: OpaquePointer) {
        for header in headers {
            header.name.withCString { name in
                header.value.withCString { value in _ = MHD_add_response_header(response, name, value) }
            }
        }
    }

    /// A `200 text/event-stream` response whose body is the client's events, for as long as
    /// the stream lasts.
    private func openEventStream(
        _ client: EventStreamClient, headers: [(name: String, value: String)], ended: @escaping @Sendable () -> Void,
        on connection: OpaquePointer
    ) -> MHD_Result {
        let stream = Unmanaged.passRetained(StreamResponse(client: client, ended: ended))
        // The block size only sizes a buffer chunked responses never use (they are written
        // straight into the connection's own), so it is small: it is allocated per stream.
        let created = MHD_create_response_from_callback(
            ensign_mhd_size_unknown(), 256,
            { context, _, buffer, capacity in
                let stream = Unmanaged<StreamResponse>.fromOpaque(context!).takeUnretainedValue()
                guard let buffer else { return ensign_mhd_end_of_stream() }
                switch stream.client.next(maximumBytes: capacity) {
                case .send(let chunk):
                    chunk.withUnsafeBytes { bytes in
                        UnsafeMutableRawPointer(buffer).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
                    }
                    return chunk.count
                case .wait: return 0
                case .end: return ensign_mhd_end_of_stream()
                }
            }, stream.toOpaque(),
            { context in
                let stream = Unmanaged<StreamResponse>.fromOpaque(context!).takeRetainedValue()
                stream.ended()
            })
        guard let created else {
            stream.takeRetainedValue().ended()
            return .NO
        }
        defer { MHD_destroy_response(created) }
        Self.add(headers, to: created)
        return MHD_queue_response(connection, 200, created)
    }
}

/// What an event stream's content reader needs, kept alive by libmicrohttpd until the
/// response is freed.
private final class StreamResponse: Sendable {
    let client: EventStreamClient
    let ended: @Sendable () -> Void

    init(client: EventStreamClient, ended: @escaping @Sendable () -> Void) {
        self.client = client
        self.ended = ended
    }
}
