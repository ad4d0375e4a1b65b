import Ensign
import EnsignSupport

/// One control connection without a socket: the server's own framing and request handling
/// (``ServerLoop`` and ``ServerConnection``) fed bytes directly, with what the server would
/// have sent handed back instead.
///
/// The fuzzer's `session` target drives whole sessions through it, and tests use it for
/// framing cases that a real socket makes hard to produce on purpose (a read that ends at a
/// chosen byte, a client that stops collecting its replies). It keeps the server's flow
/// control: like the poll loop, it reads nothing more while ``ServerLoop/outputHighWater``
/// bytes of output wait to be collected. The connection is not among the loop's own, so
/// `status` counts no connections.
///
/// Not thread-safe: one thread drives a session, as the server thread drives a connection.
package final class DetachedServerSession {
    /// The most bytes one read hands over, as the server's `recv` takes at most this many.
    package static let maximumReadSize = ServerLoop.readChunk
    /// How many bytes of output stop the server from reading more.
    package static let outputHighWater = ServerLoop.outputHighWater

    private let core: ServerCore
    private let loop: ServerLoop
    private let connection: ServerConnection
    private var isClosed = false

    /// A session with a client of the server's own user on `context`.
    ///
    /// - Throws: ``ControlServerError/systemCall(_:)`` when the wake-up pipe cannot be made.
    package init(context: AppContext, options: ControlServerOptions) throws(ControlServerError) {
        let wake: WakeSignal
        do {
            wake = try WakeSignal()
        } catch {
            throw .systemCall(error.description)
        }
        core = ServerCore(context: context, options: options, wake: wake)
        loop = ServerLoop(core: core, listener: -1, socketPath: "", socketIdentity: nil)
        connection = ServerConnection(descriptor: -1, peer: nil, now: ContinuousClock.now)
    }

    deinit { close() }

    /// Whether the server reads from this client now: it has not stopped reading (an over-long
    /// line, the end of input) and its output is below the high-water mark.
    package var acceptsInput: Bool {
        !isClosed && connection.isReadable && connection.pendingOutput < ServerLoop.outputHighWater
    }

    /// Whether the server stopped answering this connection for good (an over-long line, or
    /// every line answered after the end of input).
    package var isReadClosed: Bool { isClosed || connection.isReadClosed }

    /// Hands the server one read's bytes (at most ``maximumReadSize``); returns false, reading
    /// nothing, when the server would not read now (see ``acceptsInput``).
    package func receive(_ bytes: ArraySlice<UInt8>) -> Bool {
        precondition(bytes.count <= Self.maximumReadSize, "one read returns at most \(Self.maximumReadSize) bytes")
        guard acceptsInput, !bytes.isEmpty else { return false }
        bytes.withUnsafeBytes { loop.received($0, on: connection) }
        return true
    }

    /// The client closes its sending side; returns false, doing nothing, when the server would
    /// not read now (it sees the end of input only once it reads again).
    package func receiveEnd() -> Bool {
        guard acceptsInput else { return false }
        loop.endOfInput(connection)
        return true
    }

    /// One turn of the server's service for this connection, with the client collecting
    /// everything: queued watch events move to the output, the output is handed back (as if
    /// the socket took it all), and lines held back while the output was full are answered.
    package func takeOutput() -> [UInt8] {
        guard !isClosed else { return [] }
        var bytes: [UInt8] = []
        loop.service(connection) { bytes += $0.takeOutput() }
        return bytes
    }

    /// Ends the session as when the client leaves: its watch stops and the wake-up pipe closes.
    /// Later calls do nothing.
    package func close() {
        guard !isClosed else { return }
        isClosed = true
        loop.stopWatching(connection)
        core.wake.close()
    }
}
