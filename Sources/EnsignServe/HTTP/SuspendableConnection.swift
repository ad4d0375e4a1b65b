import CMicroHTTPD

/// A libmicrohttpd connection that an event stream suspends while it has nothing to send, so
/// that an idle stream holds no worker, and resumes when an event comes.
///
/// Only ``EventStreamClient`` calls these, under the rules libmicrohttpd sets: `suspend` on the
/// connection's worker, from the stream's content reader; `resume` from any thread, and only
/// while the connection is open (the client resumes under its lock, and stops once the stream's
/// response is freed, which libmicrohttpd does before it frees the connection).
struct SuspendableConnection: Sendable {
    /// The connection's address as a bit pattern: libmicrohttpd's handle is not Sendable.
    private let address: UInt
    /// The connection's ticket in the server's connection table, to cut it when its client stalls.
    let ticket: ConnectionTable.Ticket?

    init(_ connection: OpaquePointer, ticket: ConnectionTable.Ticket?) {
        address = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection)))
        self.ticket = ticket
    }

    private var pointer: OpaquePointer { OpaquePointer(bitPattern: address)! }

    /// Takes the connection out of its worker's event loop until ``resume()``.
    func suspend() { MHD_suspend_connection(pointer) }

    /// Puts the connection back into its worker's event loop.
    func resume() { MHD_resume_connection(pointer) }
}
