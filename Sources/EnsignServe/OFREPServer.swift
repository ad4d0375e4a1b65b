import CMicroHTTPD
import Ensign
import EnsignOFREP
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The OFREP service over HTTP/1.1, served by libmicrohttpd: the evaluation and configuration
/// endpoints, and the server-sent-events stream (ADR 0008) for bulk clients.
///
/// Bounded whatever clients do: a connection limit, a per-connection memory limit (request
/// line and headers), a header count, a body limit (the service's), a time-out for silent
/// connections, and a bounded queue per event-stream client. A request libmicrohttpd can read
/// but the service cannot use gets 400 with an OFREP error body, and the server goes on.
///
/// Plain HTTP: listen on loopback (the default) and put a TLS-terminating proxy in front to
/// serve other machines.
///
/// ```swift
/// let server = try OFREPServer.start(service: OFREPService(context: context), options: OFREPServerOptions())
/// print("listening on \(server.address)")
/// // …
/// server.stop()
/// ```
public final class OFREPServer: Sendable {
    /// The service answering requests.
    public let service: OFREPService
    /// The limits and the address asked for.
    public let options: OFREPServerOptions
    let hub: EventStreamHub
    /// The daemon's address as a bit pattern (0 once stopped): libmicrohttpd's handle is not
    /// Sendable, and `stop` takes it exactly once.
    private let daemon = Mutex<UInt>(0)
    private let boundPort = Atomic<UInt16>(0)

    /// Why a server could not start.
    public struct StartError: Error, Sendable, CustomStringConvertible {
        /// What went wrong.
        public var description: String
    }

    private init(service: OFREPService, options: OFREPServerOptions) {
        self.service = service
        self.options = options
        hub = EventStreamHub(service: service, options: options)
    }

    deinit { stop() }

    /// Where it listens, with the port the system chose when port 0 was asked for.
    public var address: ListenAddress {
        ListenAddress(host: options.listenAddress.host, port: boundPort.load(ordering: .acquiring))
    }

    /// Starts serving `service` on `options.listenAddress`.
    ///
    /// The service's ``OFREPServiceOptions/eventStreamPath`` is where the event stream is
    /// served (bulk responses advertise it); without one there is no stream.
    ///
    /// - Throws: ``StartError`` when the address cannot be bound (in use, not this machine's).
    public static func start(service: OFREPService, options: OFREPServerOptions) throws(StartError) -> OFREPServer {
        let socketAddress: (bytes: [UInt8], isIPv6: Bool)
        do {
            socketAddress = try options.listenAddress.socketAddress()
        } catch {
            throw StartError(description: error.description)
        }
        let server = OFREPServer(service: service, options: options)
        var flags =
            MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_THREAD_PER_CONNECTION.rawValue | MHD_USE_POLL.rawValue
        if socketAddress.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
        // Unretained: the server stops the daemon (in `stop` or `deinit`) before it goes away.
        let context = Unmanaged.passUnretained(server).toOpaque()
        let started = socketAddress.bytes.withUnsafeBytes { bytes in
            ensign_mhd_start(
                UInt32(flags), bytes.baseAddress!.assumingMemoryBound(to: sockaddr.self),
                { context, connection, url, method, _, uploadData, uploadDataSize, requestContext in
                    let server = Unmanaged<OFREPServer>.fromOpaque(context!).takeUnretainedValue()
                    return server.handle(
                        connection: connection!, url: url!, method: method!, uploadData: uploadData,
                        uploadDataSize: uploadDataSize!, requestContext: requestContext!)
                }, context,
                { _, _, requestContext, _ in
                    guard let requestContext, let state = requestContext.pointee else { return }
                    Unmanaged<RequestState>.fromOpaque(state).release()
                    requestContext.pointee = nil
                }, nil, UInt32(clamping: options.connectionLimit), options.connectionMemoryLimit,
                UInt32(clamping: options.connectionTimeoutSeconds), 256 * 1024)
        }
        guard let started else {
            throw StartError(
                description: "cannot listen on \(options.listenAddress) (\(String(cString: strerror(errno)))):"
                    + " is the port in use, or the address not this machine's?")
        }
        server.daemon.withLock { $0 = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(started))) }
        server.boundPort.store(ensign_mhd_bound_port(started), ordering: .releasing)
        server.hub.start()
        return server
    }

    /// Stops listening, ends every event stream and waits for the connections' threads to
    /// finish. Calling it again does nothing.
    public func stop() {
        let bits = daemon.withLock { bits in
            defer { bits = 0 }
            return bits
        }
        guard bits != 0, let pointer = OpaquePointer(bitPattern: bits) else { return }
        // Streams first: their threads wait for events, and stopping the daemon joins them.
        hub.stop()
        MHD_stop_daemon(pointer)
    }

    /// How many connections are open (event streams included); 0 once stopped.
    public var openConnectionCount: Int {
        daemon.withLock { bits in
            guard let pointer = OpaquePointer(bitPattern: bits) else { return 0 }
            return Int(ensign_mhd_connection_count(pointer))
        }
    }

    /// How many event-stream clients are connected.
    public var eventStreamClientCount: Int { hub.clientCount }
}

extension OFREPServer {
    /// libmicrohttpd's access handler: called once when the headers are in, once per piece of
    /// body, and once more at the end (`uploadDataSize` 0), when the answer is queued.
    fileprivate func handle(
        connection: OpaquePointer, url: UnsafePointer<CChar>, method: UnsafePointer<CChar>,
        uploadData: UnsafePointer<CChar>?, uploadDataSize: UnsafeMutablePointer<Int>,
        requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        guard let existing = requestContext.pointee else {
            let state = RequestState()
            collectHeaders(of: connection, into: state)
            requestContext.pointee = Unmanaged.passRetained(state).toOpaque()
            if state.headerCount > options.maximumHeaderCount {
                state.isAnswered = true
                return queue(
                    OFREPService.generalErrorResponse(431, "more than \(options.maximumHeaderCount) header fields"),
                    on: connection)
            }
            if let length = state.headers["content-length"].flatMap(Int.init), length > service.options.maximumBodyBytes
            {
                state.isAnswered = true
                return queue(
                    OFREPService.generalErrorResponse(
                        413, "the body is over \(service.options.maximumBodyBytes) bytes"),
                    on: connection)
            }
            return .YES
        }
        let state = Unmanaged<RequestState>.fromOpaque(existing).takeUnretainedValue()
        let size = uploadDataSize.pointee
        if size > 0 {
            if !state.isAnswered, !state.isBodyTooLarge, let uploadData {
                if state.body.count + size > service.options.maximumBodyBytes {
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
                OFREPService.generalErrorResponse(413, "the body is over \(service.options.maximumBodyBytes) bytes"),
                on: connection)
        }
        let request = OFREPHTTPRequest(
            method: String(cString: method), target: String(cString: url), headers: state.headers, body: state.body)
        if let streamPath = service.options.eventStreamPath, request.path == streamPath {
            return openEventStream(for: request, on: connection)
        }
        return queue(service.respond(to: request), on: connection)
    }

    private func collectHeaders(of connection: OpaquePointer, into state: RequestState) {
        let context = Unmanaged.passUnretained(state).toOpaque()
        _ = MHD_get_connection_values(
            connection, .HEADER_KIND,
            { context, _, name, value in
                let state = Unmanaged<RequestState>.fromOpaque(context!).takeUnretainedValue()
                state.headerCount += 1
                if let name {
                    state.headers[String(cString: name).lowercased()] = value.map { String(cString: $0) } ?? ""
                }
                return .YES
            }, context)
    }

    /// Sends a whole response.
    private func queue(_ response: OFREPHTTPResponse, on connection: OpaquePointer) -> MHD_Result {
        let created = response.body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(
                bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
        }
        guard let created else { return .NO }
        defer { MHD_destroy_response(created) }
        for header in response.headers { _ = MHD_add_response_header(created, header.name, header.value) }
        return MHD_queue_response(connection, UInt32(response.status), created)
    }

    /// `GET <event stream path>`: a `text/event-stream` response that lasts until the client
    /// goes or the server stops.
    private func openEventStream(for request: OFREPHTTPRequest, on connection: OpaquePointer) -> MHD_Result {
        guard request.method == "GET" else {
            return queue(
                OFREPService.generalErrorResponse(405, "GET only, not \(request.method)", headers: [("Allow", "GET")]),
                on: connection)
        }
        if let refusal = service.authorizationFailure(for: request) { return queue(refusal, on: connection) }
        guard let client = hub.addClient(lastEventID: request.header("last-event-id")) else {
            return queue(
                OFREPService.generalErrorResponse(
                    503, "the server has as many event-stream clients as it serves; poll the bulk endpoint instead",
                    headers: [("Retry-After", "30")]), on: connection)
        }
        let stream = Unmanaged.passRetained(EventStreamConnection(hub: hub, client: client, options: options))
        let created = MHD_create_response_from_callback(
            ensign_mhd_size_unknown(), 4096,
            { context, _, buffer, capacity in
                let stream = Unmanaged<EventStreamConnection>.fromOpaque(context!).takeUnretainedValue()
                guard let buffer, let chunk = stream.client.next(maximumBytes: capacity, keepAlive: stream.keepAlive)
                else { return ensign_mhd_end_of_stream() }
                chunk.withUnsafeBytes { bytes in
                    UnsafeMutableRawPointer(buffer).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
                }
                return chunk.count
            }, stream.toOpaque(),
            { context in
                let stream = Unmanaged<EventStreamConnection>.fromOpaque(context!).takeRetainedValue()
                stream.hub.removeClient(stream.client)
            })
        guard let created else {
            stream.takeRetainedValue().hub.removeClient(client)
            return .NO
        }
        defer { MHD_destroy_response(created) }
        _ = MHD_add_response_header(created, "Content-Type", "text/event-stream")
        _ = MHD_add_response_header(created, "Cache-Control", "no-cache")
        // Proxies such as nginx would otherwise hold events back in their buffers.
        _ = MHD_add_response_header(created, "X-Accel-Buffering", "no")
        return MHD_queue_response(connection, 200, created)
    }
}

/// What an event stream's content reader needs, kept alive by libmicrohttpd until the
/// response is freed.
final class EventStreamConnection: Sendable {
    let hub: EventStreamHub
    let client: EventStreamClient
    let keepAlive: Duration

    init(hub: EventStreamHub, client: EventStreamClient, options: OFREPServerOptions) {
        self.hub = hub
        self.client = client
        keepAlive = options.eventKeepAliveInterval
    }
}
